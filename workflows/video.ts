/**
 * The video studio's workflows (Document 2, /api/videonet).
 * - videoPlanWorkflow: one metered AI call drafting a plan; the API executes
 *   it and records the plan (VideoPlanCreated) through the plan's decider.
 * - videoRenderWorkflow: the asynchronous render task (task id = workflow
 *   id). Minutes are reserved against the plan first; then one activity per
 *   scene (speech, soundtrack, picture; heartbeating a checkpoint after each
 *   step), then the assembly (join, two-pass loudness, subtitles, MP4). A
 *   worker crash retries only the scene that was running, from its last
 *   checkpoint. Cancelling waits for the running activity to stop ffmpeg,
 *   then removes every file of the render, non-cancellably.
 */
import { ActivityCancellationType, CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { VideoActivities } from '../activities/video';
import type { VideoRenderActivities } from '../activities/video-render';
import type { PlanRequest } from '../domain/video/types';
import type { RenderJob, RenderResult, SceneResult } from '../domain/video/render';
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
      const done: SceneResult[] = [];
      for (const scene of scenes) {
        await progress(`Rendering scene ${scene.index + 1} of ${scenes.length}: ${scene.heading}`);
        done.push(await render.renderScene({ taskId, userId, job, scene, weights }));
      }
      await progress('Joining scenes, normalising loudness to -16 LUFS, writing subtitles');
      const result = await render.assembleVideo({ taskId, userId, job, scenes: done, plannedSeconds: planned });
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
