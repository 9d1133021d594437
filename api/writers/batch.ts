/**
 * Batch routes of both writers: POST .../batch-generate (profnet) and
 * .../batch/generate (socialnet-writer) start one batch workflow and answer
 * 202 with `batch_id`; GET .../batch/{batch_id} reads the batch, its items
 * (each its own task, `<batch_id>-item-<n>`) and its notification. Every item
 * is validated and given the user's preferences before anything starts, so a
 * malformed item is a 400 naming `requests.<i>.<field>`; failures while
 * generating are per item (the batch completes with the others).
 *
 * `options.notification_webhook` gets one message when the batch is done,
 * signed like every webhook (Standard Webhooks) with a secret made for the
 * batch (or `options.notification_secret`) and returned once in the 202; the
 * URL is checked against the SSRF rules here and again before each attempt.
 */
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../domain/errors';
import { buildJob } from '../../domain/writers/briefs';
import type { WriterRequestBody } from '../../domain/writers/requests';
import { renderServices } from './render';
import { batchItemId, batchSecretKey, writerBatchTaskType, writerTaskIdPrefix } from '../../domain/writers/task-types';
import type { WriterKind, WriterPlatform } from '../../domain/writers/types';
import { generateSecret, secretProblem } from '../../infra/webhooks/sign';
import { resolveWebhookTarget, UnsafeWebhookUrlError } from '../../infra/webhooks/ssrf';
import { listTasksByPrefix } from '../../projections/task-status';
import { getWriterBatch } from '../../projections/writer-batches';
import { writerBatchWorkflow } from '../../workflows';
import type { WriterBatchRequest } from '../../workflows/writers';
import { callerOf, settleWrittenBy, userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired } from '../kernel/schema';
import { startWorkflow } from '../kernel/workflows';
import { boundErrors } from '../kernel/fair-use';
import { PREFIX, preferencesOf, TAG } from './common';
import { batchAcceptedSchema, batchStatusSchema } from './batch-responses';
import { batchBody, writerRequest } from './schemas';
import { ownTask, pollHeaders, refuseWhenUsedUp } from '../kernel/tasks';

interface BatchBody {
  requests: Array<WriterRequestBody & { type: WriterKind }>;
  options?: {
    parallel_processing?: boolean;
    priority?: WriterBatchRequest['priority'];
    notification_webhook?: string;
    notification_secret?: string;
  };
}

const invalid = (path: string, message: string, provided?: unknown) =>
  new ValidationError([{ location: 'body', path, kind: 'constraint', message, provided_value: provided }]);

const BATCH_PATH: Record<WriterPlatform, string> = { profnet: '/batch-generate', socialnet: '/batch/generate' };

function batchRoute(platform: WriterPlatform): RouteDef {
  const prefix = PREFIX[platform];
  return defineRoute<BatchBody>({
    method: 'post',
    path: `${prefix}${BATCH_PATH[platform]}`,
    auth: 'user',
    successBody: 'bare',
    tags: [TAG[platform]],
    summary: 'Generate up to 50 pieces in one batch (a workflow; poll status_url or get notified)',
    description:
      "Each item has a `type` and the fields of that type's route. Answers 202 with batch_id. `options.notification_webhook` receives one `writer.batch.completed` message signed with Standard Webhooks headers; the secret is returned here once (or give your own in `options.notification_secret`).",
    request: { body: batchBody(platform) },
    responses: { 202: { description: 'Batch started', data: batchAcceptedSchema } },
    errors: {
      409: 'The batch id was already used (retry)',
      503: 'Background work is unavailable',
      ...boundErrors(writerBatchTaskType(platform)),
    },
    async handler(ctx) {
      const userId = userIdOf(ctx);
      const prefs = await preferencesOf(ctx.deps, userId);
      const render = renderServices(ctx.deps);
      const items = ctx.body.requests.map(({ type, ...fields }, i) => ({
        ...buildJob(writerRequest(platform, type, fields), prefs, `requests.${i}`),
        render,
      }));
      const options = ctx.body.options ?? {};
      await refuseWhenUsedUp(ctx);
      const batchId = `${writerTaskIdPrefix(platform, 'batch')}-${randomUUID()}`;
      const statusPath = `${prefix}/batch/${batchId}`;
      let secret: string | undefined;
      const url = options.notification_webhook;
      if (url) {
        try {
          await resolveWebhookTarget(url, ctx.deps.webhooks.ssrf);
        } catch (e) {
          if (e instanceof UnsafeWebhookUrlError) throw invalid('options.notification_webhook', e.reason, url);
          throw e;
        }
        if (options.notification_secret !== undefined) {
          const problem = secretProblem(options.notification_secret);
          if (problem) throw invalid('options.notification_secret', problem);
        }
        secret = options.notification_secret ?? generateSecret();
        await ctx.deps.webhooks.secrets.put(batchSecretKey(batchId), userId, secret);
      }
      const request: WriterBatchRequest = {
        platform,
        items,
        parallel: options.parallel_processing ?? false,
        priority: options.priority ?? 'normal',
        ...(url ? { notification: { url, statusUrl: `${ctx.deps.publicBaseUrl ?? ''}${statusPath}` } } : {}),
      };
      try {
        await startWorkflow(ctx.deps, writerBatchWorkflow, {
          workflowId: batchId,
          args: [{ taskId: batchId, userId, request }],
          task: { userId, plan: callerOf(ctx).plan, taskType: writerBatchTaskType(platform) },
        });
      } catch (e) {
        if (secret) await ctx.deps.webhooks.secrets.delete(batchSecretKey(batchId));
        throw e;
      }
      // Answered at once: the status route reads a batch not yet in the task projection from its workflow (ownTask).
      return {
        status: 202,
        headers: { Location: statusPath },
        data: {
          success: true,
          batch_id: batchId,
          status: 'started',
          total: items.length,
          status_url: statusPath,
          ...(url && secret ? { notification: { url, secret, event_type: 'writer.batch.completed' } } : {}),
        },
      };
    },
  });
}

function batchStatusRoute(platform: WriterPlatform): RouteDef {
  return defineRoute<unknown, unknown, { batch_id: string }>({
    method: 'get',
    path: `${PREFIX[platform]}/batch/{batch_id}`,
    auth: 'user',
    successBody: 'bare',
    rateScheme: 'status',
    tags: [TAG[platform]],
    summary: 'Status of a batch: each item with its result or error, and the notification delivery',
    description:
      "The batch started by POST .../batch-generate (professional network) or .../batch/generate (social network): its status, the counts succeeded, failed (cancelled items included) and pending, and one entry per item in request order (index from 1, type, task_id `<batch_id>-item-<n>`, status pending until the item's task starts, `result` once completed, `error` when failed). `notification` reports the delivery of the completion webhook when one was asked for. Another user's batch, and a batch of the other writer, are 404.",
    request: { params: allRequired({ batch_id: { type: 'string', minLength: 1, maxLength: 200 } }) },
    etag: true,
    responses: { 200: { description: 'The batch', data: batchStatusSchema } },
    async handler(ctx) {
      const userId = userIdOf(ctx);
      const batchId = ctx.params.batch_id;
      const t = await ownTask(ctx, batchId, (type) => type === writerBatchTaskType(platform));
      const row = await getWriterBatch(ctx.deps.db, userId, batchId);
      const prefix = `${batchId}-item-`;
      const tasks = new Map(
        (await listTasksByPrefix(ctx.deps.db, userId, prefix, 1000)).map((x) => [
          Number(x.task_id.slice(prefix.length)),
          x,
        ]),
      );
      // The batch's own summary (once completed) says how each item ended, even before an item's record caught up.
      const summary = new Map(
        ((t.result?.items as Array<{ index: number; status: string; type: string; error?: unknown }>) ?? []).map(
          (x) => [x.index, x],
        ),
      );
      const total = row?.total ?? (t.result?.total as number | undefined) ?? tasks.size;
      const items = Array.from({ length: total }, (_, i) => {
        const x = tasks.get(i + 1);
        const s = summary.get(i + 1);
        const status =
          x && ['completed', 'failed', 'cancelled'].includes(x.status)
            ? x.status
            : (s?.status ?? x?.status ?? 'pending');
        const error = x?.error ?? s?.error;
        return {
          index: i + 1,
          type: row?.types[i] ?? s?.type ?? x?.task_type.replace(`${platform}_`, '') ?? 'unknown',
          task_id: batchItemId(batchId, i + 1),
          status,
          ...(x?.result ? { result: x.result } : {}),
          ...(status === 'failed' && error ? { error } : {}),
        };
      });
      // Rendered files are served by the studios' routes as soon as this answer names them (as the generate and task
      // routes do): one wait for what the batch and its items wrote.
      await settleWrittenBy(ctx, batchId);
      const count = (st: string) => items.filter((x) => x.status === st).length;
      return {
        data: {
          success: true,
          batch_id: batchId,
          platform,
          status: t.status,
          created_at: t.created_at,
          total,
          succeeded: count('completed'),
          failed: count('failed') + count('cancelled'),
          pending: total - count('completed') - count('failed') - count('cancelled'),
          items,
          progress_messages: t.progress_messages,
          ...(row?.notification ? { notification: row.notification } : {}),
          ...(t.error ? { error: t.error } : {}),
        },
        headers: pollHeaders(t.status),
      };
    },
  });
}

export const writerBatchRoutes: RouteDef[] = (['profnet', 'socialnet'] as WriterPlatform[]).flatMap((p) => [
  batchRoute(p),
  batchStatusRoute(p),
]);
