/**
 * The video studio's workflows (Document 2, /api/videonet).
 * - videoPlanWorkflow: one metered AI call drafting a plan; the API executes
 *   it and records the plan (VideoPlanCreated) through the plan's decider.
 * - videoRenderWorkflow: the asynchronous render task (task id = workflow
 *   id). Minutes are reserved against the plan first; then one activity per
 *   scene, two at a time (speech, soundtrack, picture; heartbeating a
 *   checkpoint after each step), then the assembly (join, two-pass loudness,
 *   subtitles, MP4). A worker crash retries only the scenes that were
 *   running, from their last checkpoint. Cancelling waits for the running
 *   activities to stop ffmpeg, then removes every file of the render,
 *   non-cancellably.
 */
import { ActivityCancellationType, CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { VideoActivities } from '../activities/video';
import type { VideoRenderActivities } from '../activities/video-render';
import type { PlanRequest } from '../domain/video/types';
import type { RenderJob, RenderResult } from '../domain/video/render';
import { NON_RETRYABLE_CODES } from '../domain/failures';
import { PAID_CALL_RETRY, RECORD_RETRY } from './retry';
import { failureCodeOf, runTask, TaskInput } from './task-runner';

// The plan's AI call: metered under the activity's idempotency key; heartbeats while the vendor works.
const paid = proxyActivities<VideoActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '15s',
  retry: PAID_CALL_RETRY,
});
// Records, metering and clean-up: cheap, idempotent, retried patiently.
const records = proxyActivities<VideoActivities>({ startToCloseTimeout: '2m', retry: RECORD_RETRY });
// Rendering: long, CPU-bound, heartbeating every 2 s. A dead worker's scene is retried after 10 s, from its
// checkpoint. On cancellation the workflow waits until the activity has killed ffmpeg before cleaning up, so no
// process writes a file after the clean-up ran.
const render = proxyActivities<VideoRenderActivities>({
  startToCloseTimeout: '2h',
  heartbeatTimeout: '10s',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: NON_RETRYABLE_CODES,
  },
});

/**
 * Scenes rendered at once. Two keep a small machine's cores busy: one scene's
 * serial parts (speech, probing, the zoom filter, the encoder filling and
 * draining its frame threads at a segment's ends) overlap the other's encode.
 */
export const SCENE_CONCURRENCY = 2;

/**
 * Runs `one` over the scenes, SCENE_CONCURRENCY at a time, results in scene
 * order. It waits for every started scene to settle before it reports a
 * failure or cancellation, so no scene is still writing files when the
 * clean-up runs; after a failure no new scene starts.
 */
async function renderScenes<S, R>(scenes: S[], one: (scene: S) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(scenes.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < scenes.length) {
      const i = next++;
      try {
        results[i] = await one(scenes[i]);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(SCENE_CONCURRENCY, scenes.length) }, lane));
  const rejected = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (rejected) throw rejected.reason;
  return results;
}

export async function videoPlanWorkflow(input: { userId: string; request: PlanRequest }) {
  return paid.draftVideoPlan(input);
}

export async function videoRenderWorkflow(input: TaskInput<RenderJob>): Promise<RenderResult> {
  return runTask('video_render', input, async (progress) => {
    const { taskId, userId } = input;
    const { scenes, ...job } = input.request;
    const planned = Math.round(scenes.reduce((a, s) => a + s.duration_seconds, 0) * 10) / 10;
    await records.recordRenderStarted({ taskId, userId, job: input.request });
    const reservation = await records.reserveRender({ taskId, userId, seconds: planned });
    try {
      const weights = scenes.map((s) => s.duration_seconds);
      const done = await renderScenes(scenes, (scene) =>
        progress(`Rendering scene ${scene.index + 1} of ${scenes.length}: ${scene.heading}`).then(() =>
          render.renderScene({ taskId, userId, job, scene, weights }),
        ),
      );
      await progress('Joining scenes, normalising loudness to -16 LUFS, writing subtitles');
      const result = await render.assembleVideo({ taskId, userId, job, scenes: done, plannedSeconds: planned });
      await records.removeScratch({ taskId });
      await records.settleRender({ reservation, model: `ffmpeg-h264-${job.resolution}` });
      await progress(`Video ready: ${result.filename} (${result.duration_seconds} s)`);
      return result;
    } catch (err) {
      const reason = isCancellation(err) ? 'cancelled by request' : `failed: ${failureCodeOf(err).code}`;
      await CancellationScope.nonCancellable(async () => {
        await records.discardRender({ taskId, userId, reason });
        await records.releaseRender({ reservation });
      });
      throw err;
    }
  });
}
