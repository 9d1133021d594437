/**
 * Generation routes of both writers (profnet: generate-post, -article,
 * -video-post, -carousel; socialnet-writer: post, story, reel, carousel,
 * event, group-post, page-about, ad-copy) and their task status routes.
 * Each generation is a task workflow (workflows/writers.ts): answered with
 * the piece when it finishes within the wait, else 202 with the task to poll
 * (api/writers/tasks.ts). The user's stored preferences fill what the request
 * leaves out.
 */
import { randomUUID } from 'node:crypto';
import { buildJob } from '../../domain/writers/briefs';
import type { WriterRequestBody } from '../../domain/writers/requests';
import { writerBatchTaskType, writerTaskIdPrefix, writerTaskType } from '../../domain/writers/task-types';
import { WRITER_KINDS, WriterKind, WriterPlatform } from '../../domain/writers/types';
import { writerGenerateWorkflow } from '../../workflows';
import { settleWrittenBy, userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, named } from '../kernel/schema';
import { GENERATE_PATH, PREFIX, preferencesOf, TAG, WORKFLOW_ERRORS } from './common';
import { acceptedSchema, writerResultSchema } from './responses';
import { batchResultSchema } from './batch-responses';
import { defineTaskType } from '../kernel/task-catalogue';
import { BODIES, writerRequest } from './schemas';
import { renderServices } from './render';
import { runOrAccept } from './tasks';
import { boundErrors } from '../kernel/fair-use';
import { ownTask, pollHeaders, presentTask, taskRecordResponse } from '../kernel/tasks';

const SUMMARY: Record<WriterKind, string> = {
  post: 'Write a post',
  article: 'Write an article (Markdown, [n] citations, references)',
  video_post: 'Plan a video post: script, timed scenes, voice and branding notes',
  carousel: 'Plan a carousel: cover, content and call-to-action slides',
  story: 'Plan a story: timed frames with interactive elements',
  reel: 'Plan a reel: hook, timed scenes, caption',
  event: 'Write an event: description, announcement, reminder, follow-ups',
  group_post: 'Write a group post with a discussion question',
  page_about: 'Write a page "About" section within character_limit',
  ad_copy: "Write ad copy variants within the ad format's limits",
};

const DESCRIPTION =
  "Runs as a task. Answers 200 with the piece when it is done within the wait (25 s, or `Prefer: wait=<s>` up to 60), else 202 with task_id and status_url to poll; `Prefer: respond-async` answers 202 at once. Fields left out take the user's stored preferences (listed in defaults_applied).";

function generateRoute(platform: WriterPlatform, kind: WriterKind): RouteDef {
  defineTaskType({ type: writerTaskType(platform, kind), result: named('WriterResult', writerResultSchema) });
  const prefix = PREFIX[platform];
  return defineRoute<WriterRequestBody>({
    method: 'post',
    path: `${prefix}${GENERATE_PATH[platform][kind]}`,
    auth: 'user',
    successBody: 'bare',
    tags: [TAG[platform]],
    summary: SUMMARY[kind],
    description: DESCRIPTION,
    request: { body: BODIES[platform][kind] },
    responses: {
      200: { description: 'The piece', data: writerResultSchema },
      202: { description: 'Still working: poll status_url', data: acceptedSchema },
    },
    errors: { ...WORKFLOW_ERRORS, ...boundErrors(writerTaskType(platform, kind)) },
    async handler(ctx) {
      const userId = userIdOf(ctx);
      const job = {
        ...buildJob(writerRequest(platform, kind, ctx.body), await preferencesOf(ctx.deps, userId)),
        render: renderServices(ctx.deps),
      };
      const taskId = `${writerTaskIdPrefix(platform, kind)}-${randomUUID()}`;
      return runOrAccept(ctx, {
        workflow: writerGenerateWorkflow,
        taskId,
        taskType: writerTaskType(platform, kind),
        args: [{ taskId, userId, request: job }],
        statusPath: `${prefix}/tasks/${taskId}`,
      });
    },
  });
}

function taskStatusRoute(platform: WriterPlatform): RouteDef {
  return defineRoute<unknown, unknown, { task_id: string }>({
    method: 'get',
    path: `${PREFIX[platform]}/tasks/{task_id}`,
    auth: 'user',
    successBody: 'bare',
    rateScheme: 'status',
    tags: [TAG[platform]],
    summary: 'Status of a generation task (result when completed, error when failed)',
    etag: true,
    description:
      "The caller's generation task of this writer: one a generate route answered 202 for (its status_url), or a batch item (`<batch_id>-item-<n>`). status is started, in_progress, completed, failed or cancelled; `result` is the piece as the generate route's 200 carries it, `error` comes with failed or cancelled. Another user's task, a batch (GET .../batch/{batch_id}) and a task of another writer are 404. Once completed, the rendered files the result names are served by the studios' routes by the time this answers.",
    request: { params: allRequired({ task_id: { type: 'string', minLength: 1, maxLength: 200 } }) },
    responses: {
      200: taskRecordResponse(
        'The task record (a branch per content type: `task_type` tells which)',
        (type) => type.startsWith(`${platform}_`) && type !== writerBatchTaskType(platform),
      ),
    },
    async handler(ctx) {
      const t = await ownTask(
        ctx,
        ctx.params.task_id,
        (type) => type.startsWith(`${platform}_`) && type !== `${platform}_batch`,
      );
      if (t.status === 'completed') await settleWrittenBy(ctx, t.task_id);
      return { data: presentTask(t), headers: pollHeaders(t.status) };
    },
  });
}

for (const p of ['profnet', 'socialnet'] as WriterPlatform[])
  defineTaskType({ type: writerBatchTaskType(p), result: named('WriterBatchResult', batchResultSchema) });

export const writerGenerateRoutes: RouteDef[] = (['profnet', 'socialnet'] as WriterPlatform[]).flatMap((p) => [
  ...WRITER_KINDS[p].map((k) => generateRoute(p, k)),
  taskStatusRoute(p),
]);
