/**
 * The professional-network and social-network writers.
 *
 * writerGenerateWorkflow — one generation, a task (`profnet_post`, ...;
 * workflow id = task id): research, one metered AI call, the finishing rules.
 * Its TaskCompleted emits `content.generated`. The API waits a bounded time
 * for the result and otherwise answers with the task to poll.
 *
 * When the brief asks for rendering and the API found the studio available
 * (job.render), the finished piece is rendered through the studios as child
 * workflows: imageGenerateWorkflow per carousel slide (or for a post's or
 * article's image), videoRenderWorkflow for a video post's scene plan
 * (`<task_id>-video`, itself a `video_render` task). Each asset is reported
 * `rendered` (with the studio's file URL, owned by the same user) or `failed`
 * (with its failure code); a failed render never fails the written piece.
 *
 * writerBatchWorkflow — one batch, a task (`profnet_batch`): each item is a
 * child writerGenerateWorkflow (`<batch_id>-item-<n>`), one at a time or up
 * to BATCH_CONCURRENCY at once; a failed item is recorded with its failure
 * code and the others go on. When the batch is done and the request gave a
 * `notification_webhook`, one signed message is delivered to it on the
 * webhook retry schedule (durable timers), until a 2xx answer.
 */
import { executeChild, proxyActivities, sleep } from '@temporalio/workflow';
import type { GenerationOutcome, GenerationPlan } from '../domain/image/jobs';
import type { RenderedAsset, RenderingStatus } from '../domain/writers/finish';
import {
  DEFAULT_POST_IMAGE_SIZE,
  imagePlan,
  RenderServices,
  slidePlans,
  videoPostRenderJob,
} from '../domain/writers/render';
import { imageGenerateWorkflow } from './image';
import { videoRenderWorkflow } from './video';
import type { WriterActivities } from '../activities/writers';
import { NON_RETRYABLE_CODES } from '../domain/failures';
import { delayBeforeAttempt, nextDelay } from '../domain/webhooks/schedule';
import type { BatchItemSummary, BatchResult, WriterResult } from '../domain/writers/result';
import { batchItemId, writerBatchTaskType, writerTaskType } from '../domain/writers/task-types';
import { ownerAttributes, workflowKind } from '../domain/search-attributes';
import { VIDEO_RENDER_TASK_TYPE } from '../domain/video/render';
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
    const piece = await reads.finishWriterPiece({ taskId: input.taskId, job: input.request, outcome, sources });
    const services = input.request.render;
    if (!services || !piece.rendering.some((r) => r.status === 'queued')) return piece;
    const rendering: RenderingStatus[] = [];
    for (const r of piece.rendering)
      rendering.push(r.status === 'queued' ? await renderAsset(input, piece, r, services, progress) : r);
    return { ...piece, rendering };
  });
}

/** Images rendered at once for one carousel. */
export const SLIDE_CONCURRENCY = 4;

/** The failure code and message of a failed child workflow (the first failure code in its chain of causes). */
const childFailure = (err: unknown) => failureCodeOf(err, 'rendering failed');

const imageUrl = (s: RenderServices, key: string) => `${s.baseUrl}/api/image-studio/images/${encodeURIComponent(key)}`;
const videoUrl = (s: RenderServices, file: string) => `${s.baseUrl}/api/videonet/videos/${encodeURIComponent(file)}`;

/** One image through the image studio (its own child workflow); a failure is reported, not thrown. */
async function renderImage(
  input: TaskInput<WriterJob>,
  services: RenderServices,
  plan: GenerationPlan,
  index: number,
  workflowId: string,
): Promise<RenderedAsset> {
  try {
    const out: GenerationOutcome = await executeChild(imageGenerateWorkflow, {
      workflowId,
      args: [{ userId: input.userId, plan }],
      typedSearchAttributes: ownerAttributes(input.userId, workflowKind(imageGenerateWorkflow)),
    });
    const img = out.results[0];
    return {
      index,
      status: 'rendered',
      url: imageUrl(services, img.key),
      content_type: img.content_type,
      width: img.width,
      height: img.height,
      bytes: img.bytes,
    };
  } catch (err) {
    return { index, status: 'failed', error: childFailure(err) };
  }
}

/** Renders one queued asset of a finished piece through its studio. */
async function renderAsset(
  input: TaskInput<WriterJob>,
  piece: WriterResult,
  r: RenderingStatus,
  services: RenderServices,
  progress: (message: string) => Promise<void>,
): Promise<RenderingStatus> {
  const b = input.request.brief;
  const taskId = input.taskId;
  if (r.service === 'image_studio' && services.image.available) {
    const image = services.image;
    const plans =
      b.kind === 'carousel'
        ? slidePlans(taskId, b, piece.content, image, b.renderOptions)
        : [
            imagePlan(image, {
              prompt: r.prompt ?? String(piece.content.title ?? b.topic),
              title: String(piece.content.title ?? b.topic),
              ...DEFAULT_POST_IMAGE_SIZE,
              seedKey: `${taskId}:image`,
            }),
          ];
    const what = b.kind === 'carousel' ? `${plans.length} slide images` : 'the image';
    await progress(`Rendering ${what} through the image studio (${image.provider})`);
    const assets: RenderedAsset[] = new Array(plans.length);
    let next = 0;
    const lane = async () => {
      while (next < plans.length) {
        const i = next++;
        const id = b.kind === 'carousel' ? `${taskId}-slide-${i + 1}` : `${taskId}-image`;
        assets[i] = await renderImage(input, services, plans[i], i + 1, id);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SLIDE_CONCURRENCY, plans.length) }, lane));
    const ok = assets.filter((a) => a.status === 'rendered').length;
    const offline = image.provider === 'local';
    return {
      ...r,
      status: ok === assets.length ? 'rendered' : 'failed',
      message: `${ok} of ${assets.length} image${assets.length === 1 ? '' : 's'} rendered by the image studio with ${image.provider}${offline ? ' (the offline procedural renderer: abstract shapes and the title, not a picture of the scene; configure an image vendor for pictures)' : ''}.`,
      provider: image.provider,
      model: image.model,
      offline,
      assets,
    };
  }
  if (r.service === 'video_studio' && services.video.available && b.kind === 'video_post') {
    const job = videoPostRenderJob(taskId, b, piece.content, services.video.speechVendor, b.renderOptions);
    const renderId = `${taskId}-video`;
    await progress(`Rendering the video through the video studio (${job.width}x${job.height}, task ${renderId})`);
    try {
      const v = await executeChild(videoRenderWorkflow, {
        workflowId: renderId,
        args: [{ taskId: renderId, userId: input.userId, request: job }],
        typedSearchAttributes: ownerAttributes(input.userId, VIDEO_RENDER_TASK_TYPE),
      });
      const offline = v.speech.provider === 'local';
      return {
        ...r,
        status: 'rendered',
        message: `Rendered by the video studio: ${v.video_codec}/${v.audio_codec} MP4, ${v.duration_seconds} s, voice by ${offline ? 'the offline espeak-ng synthesiser' : v.speech.provider}, backgrounds drawn locally (${v.visuals}) from the scene plan.`,
        provider: v.speech.provider,
        model: v.speech.models.join(', '),
        offline,
        task_id: renderId,
        assets: [
          {
            index: 1,
            status: 'rendered',
            url: videoUrl(services, v.filename),
            content_type: 'video/mp4',
            width: v.width,
            height: v.height,
            duration_seconds: v.duration_seconds,
            files: v.files
              .filter((f) => f.kind !== 'video')
              .map((f) => ({ kind: f.kind, url: videoUrl(services, f.filename), content_type: f.content_type })),
          },
        ],
      };
    } catch (err) {
      const error = childFailure(err);
      return {
        ...r,
        status: 'failed',
        message: `The video studio could not render the video (${error.code}); the written plan is returned.`,
        task_id: renderId,
        assets: [{ index: 1, status: 'failed', error }],
      };
    }
  }
  return { ...r, status: 'not_available', message: 'Rendering is not available for this piece.' };
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
          typedSearchAttributes: ownerAttributes(input.userId, writerTaskType(job.brief.platform, job.brief.kind)),
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
