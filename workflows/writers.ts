/**
 * The professional-network and social-network writers.
 *
 * writerGenerateWorkflow — one generation, a task (`profnet_post`, ...;
 * workflow id = task id): research, one metered AI call, the finishing rules.
 * Its TaskCompleted emits `content.generated`. The API waits a bounded time
 * for the result and otherwise answers with the task to poll.
 *
 * writerBatchWorkflow — one batch, a task (`profnet_batch`): each item is a
 * child writerGenerateWorkflow (`<batch_id>-item-<n>`), one at a time or up
 * to BATCH_CONCURRENCY at once; a failed item is recorded with its failure
 * code and the others go on. When the batch is done and the request gave a
 * `notification_webhook`, one signed message is delivered to it on the
 * webhook retry schedule (durable timers), until a 2xx answer.
 */
import { executeChild, proxyActivities, sleep } from '@temporalio/workflow';
import type { WriterActivities } from '../activities/writers';
import { NON_RETRYABLE_CODES } from '../domain/failures';
import { delayBeforeAttempt, nextDelay } from '../domain/webhooks/schedule';
import type { BatchItemSummary, BatchResult, WriterResult } from '../domain/writers/result';
import { batchItemId, writerBatchTaskType, writerTaskType } from '../domain/writers/task-types';
import type { WriterJob, WriterPlatform } from '../domain/writers/types';
import { PAID_CALL_RETRY, READ_RETRY, RECORD_RETRY } from './retry';
import { failureCodeOf, runTask, TaskInput } from './task-runner';

// Research and finishing are free and safe to repeat.
const reads = proxyActivities<WriterActivities>({ startToCloseTimeout: '1m', retry: READ_RETRY });
// The paid call: metered under the activity's idempotency key, few retries, none for plan limits.
const paid = proxyActivities<WriterActivities>({
  startToCloseTimeout: '3m',
  heartbeatTimeout: '30s',
  retry: PAID_CALL_RETRY,
});
// Idempotent appends of the notification's attempts.
const records = proxyActivities<WriterActivities>({ startToCloseTimeout: '30s', retry: RECORD_RETRY });
// One notification attempt: HTTP failures come back as results (the schedule retries them); only infrastructure
// failures retry the activity, so a receiver may see the same webhook-id twice and must deduplicate by it.
const send = proxyActivities<WriterActivities>({
  startToCloseTimeout: '60s',
  retry: {
    initialInterval: '2s',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: NON_RETRYABLE_CODES,
  },
});

export async function writerGenerateWorkflow(input: TaskInput<WriterJob>): Promise<WriterResult> {
  const b = input.request.brief;
  const what = b.kind.replace(/_/g, ' ');
  return runTask(writerTaskType(b.platform, b.kind), input, async (progress) => {
    await progress(b.research ? `Researching "${b.topic}"` : `Preparing the ${what} brief`);
    const sources = await reads.writerSources({ brief: b });
    await progress(`Writing the ${what}${sources.length ? ` from ${sources.length} sources` : ''}`);
    const outcome = await paid.writeWriterDraft({ userId: input.userId, brief: b, sources });
    await progress('Applying platform limits and scoring engagement');
    return reads.finishWriterPiece({ taskId: input.taskId, job: input.request, outcome, sources });
  });
}

/** Items generated at once when the request asks for parallel processing. */
export const BATCH_CONCURRENCY = 4;

/** Temporal priority keys (1 runs first) of the request's `priority`. */
export const PRIORITY_KEYS = { high: 1, normal: 3, low: 5 } as const;

export interface WriterBatchRequest {
  platform: WriterPlatform;
  items: WriterJob[];
  parallel: boolean;
  priority: keyof typeof PRIORITY_KEYS;
  /** Where to send the signed notification when the batch is done (checked against SSRF rules by the API). */
  notification?: { url: string; statusUrl: string };
}

export async function writerBatchWorkflow(input: TaskInput<WriterBatchRequest>): Promise<BatchResult> {
  const r = input.request;
  const n = r.items.length;
  const result = await runTask(writerBatchTaskType(r.platform), input, async (progress) => {
    await records.acceptBatch({
      batchId: input.taskId,
      userId: input.userId,
      platform: r.platform,
      types: r.items.map((x) => x.brief.kind),
      notificationUrl: r.notification?.url ?? null,
    });
    await progress(
      `Generating ${n} item${n === 1 ? '' : 's'} ${r.parallel ? `up to ${BATCH_CONCURRENCY} at a time` : 'one after another'}`,
    );
    const items: BatchItemSummary[] = new Array(n);
    const runItem = async (i: number) => {
      const job = r.items[i];
      const taskId = batchItemId(input.taskId, i + 1);
      try {
        await executeChild(writerGenerateWorkflow, {
          workflowId: taskId,
          args: [{ taskId, userId: input.userId, request: job }],
          priority: { priorityKey: PRIORITY_KEYS[r.priority] },
        });
        items[i] = { index: i + 1, type: job.brief.kind, task_id: taskId, status: 'completed' };
      } catch (err) {
        const { code, message } = failureCodeOf(err);
        items[i] = { index: i + 1, type: job.brief.kind, task_id: taskId, status: 'failed', error: { code, message } };
      }
      await progress(`Item ${i + 1} of ${n}: ${items[i].status}${items[i].error ? ` (${items[i].error!.code})` : ''}`);
    };
    let next = 0;
    const lane = async () => {
      while (next < n) await runItem(next++);
    };
    await Promise.all(Array.from({ length: r.parallel ? Math.min(BATCH_CONCURRENCY, n) : 1 }, lane));
    const failed = items.filter((x) => x.status === 'failed').length;
    return { batch_id: input.taskId, platform: r.platform, total: n, succeeded: n - failed, failed, items };
  });
  if (r.notification) await notify(input, result, r.notification);
  return result;
}

/** Delivers the batch's notification once: attempts on the webhook schedule until a 2xx (or 410, or a refusal). */
async function notify(
  input: TaskInput<WriterBatchRequest>,
  result: BatchResult,
  target: { url: string; statusUrl: string },
): Promise<void> {
  const batchId = input.taskId;
  const { schedule, messageId } = await records.openBatchNotification({ batchId });
  const payload = {
    event_type: 'writer.batch.completed',
    id: messageId,
    timestamp: new Date().toISOString(),
    data: { ...result, status: 'completed', status_url: target.statusUrl },
  };
  let wait = delayBeforeAttempt(schedule, messageId, 1) ?? 0;
  let attempt = 0;
  let delivered = false;
  while (attempt < schedule.length) {
    attempt++;
    if (wait > 0) await sleep(wait);
    const a = await send.attemptBatchNotification({ batchId, url: target.url, messageId, payload });
    const outcome = a.outcome === 'gone' ? 'failed' : a.outcome;
    await records.recordBatchNotification({
      batchId,
      userId: input.userId,
      messageId,
      attempt,
      statusCode: a.statusCode,
      outcome,
      error: a.error,
    });
    if (a.outcome === 'succeeded') {
      delivered = true;
      break;
    }
    // 410 Gone: the receiver does not want it; a refused address will not become safe by waiting.
    if (a.outcome === 'gone' || a.outcome === 'blocked') break;
    const later = nextDelay(schedule, messageId, attempt + 1, a.retryAfterSeconds);
    if (later === undefined) break;
    wait = later;
  }
  await records.finishBatchNotification({
    batchId,
    userId: input.userId,
    messageId,
    status: delivered ? 'delivered' : 'failed',
    attempts: attempt,
  });
}
