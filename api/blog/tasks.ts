/**
 * The asynchronous blog writer (Document 2, /api/blog): `start` routes start a
 * Temporal workflow whose id is the task id and answer at once with
 * `{task_id, status: "started"}`; `status` routes read the task projection, so
 * they keep answering across API and worker restarts. Bodies are bare (the
 * spec lists their fields); errors use the general envelope.
 */
import type { TaskType } from '../../domain/task-types';
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../domain/errors';
import { taskStream } from '../../domain/events/tasks';
import {
  MEDIUM_MAX_WORDS,
  mediumRequestedWords,
  MediumRequest,
  MediumRequestWire,
  normalizeMediumRequest,
  OutlineRequest,
  ResearchRequest,
} from '../../domain/blog/types';
import type { TaskRecord } from '../../projections/task-status';
import { blogMediumWorkflow, blogOutlineWorkflow, blogResearchWorkflow } from '../../workflows';
import { callerOf, settle } from '../kernel/handler';
import { defineRoute, HandlerCtx, RouteDef } from '../kernel/registry';
import { startWorkflow } from '../kernel/workflows';
import { boundErrors } from '../kernel/fair-use';
import { cancelTask, ownTask, pollHeaders, presentResultsOf, presentTask, refuseWhenUsedUp } from '../kernel/tasks';
import type { JsonSchema } from '../kernel/envelopes/common';
import type { TaskInput } from '../../workflows/task-runner';
import {
  blogTaskRecord,
  mediumResultSchema,
  mediumStartBody,
  outlineResultSchema,
  outlineStartBody,
  researchResultSchema,
  researchStartBody,
  startedSchema,
  taskIdParams,
} from './schemas';
import { defineTaskType, pascalOf, taskResultSchema } from '../kernel/task-catalogue';

interface TaskKind<R, B = R> {
  /** URL segment: /api/blog/<segment>/start */
  segment: string;
  workflow: (input: TaskInput<R>) => Promise<Record<string, unknown>>;
  taskType: TaskType;
  /** The spec's result of the task (`success: true` and the workflow's result). */
  result: JsonSchema;
  /** Prefix of task ids (= workflow ids): blog-research-<uuid>. */
  idPrefix: string;
  body: JsonSchema;
  /** More about the start route's body, for the OpenAPI document. */
  about?: string;
  /** The body as the workflow reads it (`asIs` when the wire shape is the request's; throws ValidationError). */
  prepare(body: B): R;
  /** Rules the schema cannot say. */
  check?(request: R): void;
}

/** `prepare` of a task whose body is the workflow's request as it is. */
const asIs = <R>(body: R): R => body;

/**
 * Starts the task's workflow (workflow id = task id). The workflow writes every
 * event of the task, TaskStarted first; the route waits (bounded) until the
 * task projection has it, so the client's first status poll finds the task.
 */
async function startTask<R, B>(kind: TaskKind<R, B>, ctx: HandlerCtx<B>) {
  const caller = callerOf(ctx);
  const request = kind.prepare(ctx.body);
  kind.check?.(request);
  await refuseWhenUsedUp(ctx);
  const taskId = `${kind.idPrefix}-${randomUUID()}`;
  await startWorkflow(ctx.deps, kind.workflow, {
    workflowId: taskId,
    args: [{ taskId, userId: caller.userId, request }],
    task: { userId: caller.userId, plan: caller.plan, taskType: kind.taskType },
  });
  await settle(ctx, 'task-status', [{ streamId: taskStream(taskId), streamPosition: 0 }]);
  return { status: 200, data: { task_id: taskId, status: 'started' } };
}

/**
 * A blog task record as its routes answer it (the route names the kind: no `task_type`; `error` only when failed or
 * cancelled). The workflows return domain results (domain/blog/types.ts); the spec's Research, Outline and medium
 * results are those with `success: true`, added here.
 */
const present = (ctx: HandlerCtx<unknown, unknown, { task_id: string }>, t: TaskRecord) =>
  presentTask(t, ['task_type'], ctx);
/** The spec's result of a blog task: the workflow's, with `success: true` (in every route that shows the result). */
const withSuccess = (_ctx: unknown, result: Record<string, unknown>) => ({ success: true, ...result });

/** The status records of the blog tasks (each kind adds its own). */
const BLOG_RECORDS: JsonSchema[] = [];

function taskRoutes<R, B = R>(kind: TaskKind<R, B>): RouteDef[] {
  defineTaskType({ type: kind.taskType, result: kind.result });
  presentResultsOf(kind.taskType, withSuccess);
  const record = blogTaskRecord(pascalOf(kind.taskType), taskResultSchema(kind.taskType));
  BLOG_RECORDS.push(record);
  return [
    defineRoute<B>({
      method: 'post',
      path: `/api/blog/${kind.segment}/start`,
      auth: 'user',
      successBody: 'bare',
      tags: ['blog writer'],
      summary: `Start ${kind.taskType.replace('_', ' ')} in the background`,
      description: [
        'Returns a task id at once; poll the matching status route until status is completed, failed or cancelled.',
        kind.about,
      ]
        .filter(Boolean)
        .join(' '),
      request: { body: kind.body },
      responses: { 200: { description: 'Task started', data: startedSchema } },
      errors: { 503: 'The workflow service (Temporal) cannot be reached', ...boundErrors(kind.taskType) },
      handler: (ctx) => startTask(kind, ctx),
    }),
    defineRoute<unknown, unknown, { task_id: string }>({
      method: 'get',
      path: `/api/blog/${kind.segment}/status/{task_id}`,
      auth: 'user',
      successBody: 'bare',
      tags: ['blog writer'],
      summary: `Status of a ${kind.taskType.replace('_', ' ')} task`,
      description: `The caller's task started by POST /api/blog/${kind.segment}/start: status (started, in_progress, completed, failed, cancelled), progress_messages, \`result\` (with success: true) once completed and \`error\` once failed or cancelled. Another user's task, or a task of another kind, is 404. While the task runs the answer carries Retry-After: 2; its weak ETag sent back in If-None-Match answers 304 while the task is unchanged. Polls count against the status rate window, not the general one.`,
      rateScheme: 'status',
      etag: true,
      request: { params: taskIdParams },
      responses: { 200: { description: 'The task record', data: record } },
      errors: { 503: 'The task is not projected yet and Temporal cannot be reached to describe it' },
      handler: async (ctx) => {
        const data = present(ctx, await ownTask(ctx, ctx.params.task_id, kind.taskType));
        return { data, headers: pollHeaders(data.status) };
      },
    }),
  ];
}

export const blogTaskRoutes: RouteDef[] = [
  ...taskRoutes<ResearchRequest>({
    segment: 'research',
    workflow: blogResearchWorkflow,
    taskType: 'blog_research',
    result: researchResultSchema,
    idPrefix: 'blog-research',
    body: researchStartBody,
    prepare: asIs,
    check(body) {
      if (!body.topic?.trim() && !(body.keywords ?? []).length)
        throw new ValidationError([
          { location: 'body', path: 'topic', kind: 'missing', message: 'give a topic or at least one keyword' },
        ]);
    },
  }),
  ...taskRoutes<OutlineRequest>({
    segment: 'outline',
    workflow: blogOutlineWorkflow,
    taskType: 'blog_outline',
    result: outlineResultSchema,
    idPrefix: 'blog-outline',
    body: outlineStartBody,
    prepare: asIs,
  }),
  ...taskRoutes<MediumRequest, MediumRequestWire>({
    segment: 'generate/medium',
    workflow: blogMediumWorkflow,
    taskType: 'blog_medium',
    result: mediumResultSchema,
    idPrefix: 'blog-medium',
    body: mediumStartBody,
    // Sections in the spec's camelCase or exactly as the outline result returns them (snake_case).
    prepare: normalizeMediumRequest,
    about:
      "Sections in the spec's camelCase (keyPoints, targetWords) or exactly as the outline result returns them (key_points, target_words, references): send `result.outline` as `sections`. One spelling per request: a body mixing them is 400 naming the field, and so is any unknown field (nothing is silently ignored).",
    check(body) {
      const words = mediumRequestedWords(body);
      if (words > MEDIUM_MAX_WORDS) {
        const field = body.globalTargetWords !== undefined ? 'globalTargetWords' : 'sections';
        throw new ValidationError([
          {
            location: 'body',
            path: field,
            kind: 'constraint',
            message: `medium blogs are at most ${MEDIUM_MAX_WORDS} words; this request asks for ${words}`,
            provided_value: words,
          },
        ]);
      }
    },
  }),
];

export const blogCancelRoute = defineRoute<unknown, unknown, { task_id: string }>({
  method: 'post',
  path: '/api/blog/tasks/{task_id}/cancel',
  auth: 'user',
  successBody: 'bare',
  tags: ['blog writer'],
  summary: 'Cancel a running blog task',
  description:
    'Asks the task to stop. Answers with the task record once it is cancelled (or still cancelling after API_CANCEL_WAIT_MS). A task that already finished answers 409.',
  request: { params: taskIdParams },
  responses: {
    200: {
      description: 'The task record after cancellation (of a research, outline or medium task)',
      data: { anyOf: BLOG_RECORDS },
    },
  },
  errors: { 503: 'The workflow service (Temporal) cannot be reached' },
  async handler(ctx) {
    return { data: present(ctx, await cancelTask(ctx, ctx.params.task_id)) };
  },
});

export const blogRoutes: RouteDef[] = [...blogTaskRoutes, blogCancelRoute];
