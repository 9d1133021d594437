/**
 * The asynchronous blog writer (Document 2, /api/blog): `start` routes start a
 * Temporal workflow whose id is the task id and answer at once with
 * `{task_id, status: "started"}`; `status` routes read the task projection, so
 * they keep answering across API and worker restarts. Bodies are bare (the
 * spec lists their fields); errors use the general envelope.
 */
import { randomUUID } from 'node:crypto';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { ConflictError, NotFoundError, ServiceUnavailableError, UsageLimitExceededError, ValidationError } from '../../domain/errors';
import { taskStream } from '../../domain/events/tasks';
import { MEDIUM_MAX_WORDS, mediumRequestedWords, MediumRequest } from '../../domain/blog/types';
import { PLANS, isPlanName } from '../../domain/plans';
import { billingPeriod } from '../../infra/quota/meter';
import { ConcurrencyError } from '../../infra/eventstore/errors';
import { waitForProjection } from '../../projections/consistency';
import { getTask, TaskRecord } from '../../projections/task-status';
import { getUser } from '../../projections/identity';
import type { AppDeps } from '../deps';
import { defineRoute, HandlerCtx, RouteDef } from '../registry';
import { mediumStartBody, outlineStartBody, researchStartBody, startedSchema, taskIdParams, taskRecordSchema } from './blog-schemas';

export const USER_ID = defineSearchAttributeKey('UserId', SearchAttributeType.KEYWORD);
export const TASK_TYPE = defineSearchAttributeKey('TaskType', SearchAttributeType.KEYWORD);

interface TaskKind {
  /** URL segment: /api/blog/<segment>/start */
  segment: string;
  workflow: string;
  taskType: string;
  /** Prefix of task ids (= workflow ids): blog-research-<uuid>. */
  idPrefix: string;
}

const KINDS: TaskKind[] = [
  { segment: 'research', workflow: 'blogResearchWorkflow', taskType: 'blog_research', idPrefix: 'blog-research' },
  { segment: 'outline', workflow: 'blogOutlineWorkflow', taskType: 'blog_outline', idPrefix: 'blog-outline' },
  { segment: 'generate/medium', workflow: 'blogMediumWorkflow', taskType: 'blog_medium', idPrefix: 'blog-medium' },
];

async function temporal(deps: AppDeps) {
  if (!deps.temporal || !deps.taskQueue) throw new ServiceUnavailableError('Background tasks are not available: this API has no Temporal connection');
  try {
    return await deps.temporal();
  } catch (e) {
    throw new ServiceUnavailableError(`Background tasks are temporarily unavailable (Temporal: ${(e as Error).message})`);
  }
}

/**
 * Refuses at once (429) when the user's plan limit for the default provider is
 * already used up, instead of starting a task that can only fail; the metered
 * calls inside the task enforce limits atomically either way.
 */
async function precheckQuota(deps: AppDeps, userId: string): Promise<void> {
  const plan = (await getUser(deps.db, userId))?.plan;
  const limits = PLANS[plan && isPlanName(plan) ? plan : 'free'].limits as Record<string, number | undefined>;
  const provider = deps.aiProvider ?? 'local';
  const keys = [`${provider}_calls`, 'tokens', 'monthly_cost'].filter((k) => limits[k] !== undefined);
  if (!keys.length) return;
  const rows = await deps.db('quota_usage').where({ user_id: userId, billing_period: billingPeriod() }).whereIn('limit_key', keys);
  for (const r of rows) {
    const used = Number(r.used) + Number(r.reserved);
    if (used >= limits[r.limit_key]!) throw new UsageLimitExceededError({ provider, limit_type: r.limit_key, current_usage: used, limit_value: limits[r.limit_key]! });
  }
}

async function startTask(kind: TaskKind, ctx: HandlerCtx, request: unknown) {
  const { deps, caller } = ctx;
  const userId = caller!.userId;
  await precheckQuota(deps, userId);
  const client = await temporal(deps);
  const taskId = `${kind.idPrefix}-${randomUUID()}`;
  try {
    await client.workflow.start(kind.workflow, {
      taskQueue: deps.taskQueue!,
      workflowId: taskId,
      args: [{ taskId, userId, request }],
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [
        { key: USER_ID, value: userId },
        { key: TASK_TYPE, value: kind.taskType },
      ],
    });
  } catch (e) {
    if (e instanceof WorkflowExecutionAlreadyStartedError) throw new ConflictError('task id already in use; retry');
    throw new ServiceUnavailableError(`Could not start the task: ${(e as Error).message}`);
  }
  // The command's event: the workflow appends it too if we crash right here (no_stream makes it once).
  let last;
  try {
    const r = await deps.store.append(taskStream(taskId), [{ type: 'TaskStarted', data: { task_id: taskId, task_type: kind.taskType, user_id: userId, workflow_id: taskId } }], 'no_stream', { user_id: userId, request_id: ctx.requestId, workflow_id: taskId });
    last = r.events[0];
  } catch (e) {
    if (!(e instanceof ConcurrencyError)) throw e;
    last = (await deps.store.readStream(taskStream(taskId)))[0];
  }
  await waitForProjection(deps.db, 'task-status', last, { timeoutMs: deps.settings.consistencyTimeoutMs });
  return { status: 200, data: { task_id: taskId, status: 'started' } };
}

/** The task record of the spec (`error` only when failed or cancelled). */
function present(t: TaskRecord) {
  return { task_id: t.task_id, status: t.status, created_at: t.created_at, progress_messages: t.progress_messages, ...(t.result ? { result: t.result } : {}), ...(t.error ? { error: t.error } : {}) };
}

async function ownTask(ctx: HandlerCtx<unknown, unknown, { task_id: string }>, taskType?: string): Promise<TaskRecord> {
  const t = await getTask(ctx.deps.db, ctx.caller!.userId, ctx.params.task_id);
  if (!t || (taskType && t.task_type !== taskType)) throw new NotFoundError('Task not found');
  return t;
}

const BODIES: Record<string, Record<string, unknown>> = { research: researchStartBody, outline: outlineStartBody, 'generate/medium': mediumStartBody };

function checkStart(kind: TaskKind, body: Record<string, unknown>): void {
  if (kind.segment === 'research' && !(body.topic as string)?.trim() && !((body.keywords as string[]) ?? []).length) {
    throw new ValidationError([{ location: 'body', path: 'topic', kind: 'missing', message: 'give a topic or at least one keyword' }]);
  }
  if (kind.segment === 'generate/medium') {
    const words = mediumRequestedWords(body as unknown as MediumRequest);
    if (words > MEDIUM_MAX_WORDS) {
      const field = body.globalTargetWords !== undefined ? 'globalTargetWords' : 'sections';
      throw new ValidationError([{ location: 'body', path: field, kind: 'constraint', message: `medium blogs are at most ${MEDIUM_MAX_WORDS} words; this request asks for ${words}`, provided_value: words }]);
    }
  }
}

export const blogTaskRoutes: RouteDef[] = KINDS.flatMap((kind) => [
  defineRoute<Record<string, unknown>>({
    method: 'post',
    path: `/api/blog/${kind.segment}/start`,
    auth: 'user',
    successBody: 'bare',
    tags: ['blog writer'],
    summary: `Start ${kind.taskType.replace('_', ' ')} in the background`,
    description: 'Returns a task id at once; poll the matching status route until status is completed, failed or cancelled.',
    request: { body: BODIES[kind.segment] },
    responses: { 200: { description: 'Task started', data: startedSchema } },
    async handler(ctx) {
      checkStart(kind, ctx.body);
      return startTask(kind, ctx, ctx.body);
    },
  }),
  defineRoute<unknown, unknown, { task_id: string }>({
    method: 'get',
    path: `/api/blog/${kind.segment}/status/{task_id}`,
    auth: 'user',
    successBody: 'bare',
    tags: ['blog writer'],
    summary: `Status of a ${kind.taskType.replace('_', ' ')} task`,
    rateScheme: 'status',
    request: { params: taskIdParams },
    responses: { 200: { description: 'The task record', data: taskRecordSchema } },
    async handler(ctx) {
      return { data: present(await ownTask(ctx, kind.taskType)) };
    },
  }),
]);

export const blogCancelRoute = defineRoute<unknown, unknown, { task_id: string }>({
  method: 'post',
  path: '/api/blog/tasks/{task_id}/cancel',
  auth: 'user',
  successBody: 'bare',
  tags: ['blog writer'],
  summary: 'Cancel a running blog task',
  description: 'Asks the task to stop. Answers with the task record once it is cancelled (or still cancelling after the consistency bound). A task that already finished answers 409.',
  request: { params: taskIdParams },
  responses: { 200: { description: 'The task record after cancellation', data: taskRecordSchema } },
  async handler(ctx) {
    const t = await ownTask(ctx);
    if (!['started', 'in_progress'].includes(t.status)) throw new ConflictError(`the task is already ${t.status}`, { status: t.status });
    const client = await temporal(ctx.deps);
    try {
      await client.workflow.getHandle(t.task_id).cancel();
    } catch (e) {
      if (!(e instanceof WorkflowNotFoundError)) throw e;
    }
    const deadline = Date.now() + ctx.deps.settings.consistencyTimeoutMs;
    let now = t;
    while (Date.now() < deadline && ['started', 'in_progress'].includes(now.status)) {
      await new Promise((r) => setTimeout(r, 50));
      now = (await getTask(ctx.deps.db, ctx.caller!.userId, t.task_id)) ?? now;
    }
    return { data: present(now) };
  },
});

export const blogRoutes: RouteDef[] = [...blogTaskRoutes, blogCancelRoute];
