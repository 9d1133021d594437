/**
 * The podcast maker's task workflows (task id = workflow id; each runs in the
 * task frame of task-runner.ts: TaskStarted … TaskCompleted/Failed/Cancelled).
 * Text work is one metered AI call (or a research search); media work is one
 * heartbeating activity on the media engine; dubbing is translation, then
 * speech in the target language re-timed onto the original segments.
 * POST /api/story/task/{taskId}/cancel cancels any of them: the running
 * activity's cancellation signal kills ffmpeg/espeak-ng, and the workflow
 * waits for it (WAIT_CANCELLATION_COMPLETED) before the task reads cancelled.
 */
import { ActivityCancellationType, proxyActivities } from '@temporalio/workflow';
import type { PodcastActivities } from '../activities/podcast';
import type { PodcastMediaActivities } from '../activities/podcast-media';
import type {
  AudioJob,
  CombineAudioJob,
  CombineVideosJob,
  DubJob,
  ResearchJob,
  SceneVideoJob,
  ScriptJob,
  TextJob,
  UploadJob,
} from '../domain/podcast/jobs';
import { TEXT_TASK_TYPE } from '../domain/podcast/jobs';
import { NON_RETRYABLE_CODES } from '../domain/failures';
import { PAID_CALL_RETRY } from './retry';
import { runTask, TaskInput } from './task-runner';

// AI calls and searches: metered under the activity's idempotency key; heartbeat while the vendor works.
const paid = proxyActivities<PodcastActivities & PodcastMediaActivities>({
  startToCloseTimeout: '10m',
  heartbeatTimeout: '30s',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: PAID_CALL_RETRY,
});
// Media: CPU-bound, heartbeating every 2 s; a dead worker's job is retried after 10 s. Cancellation waits until
// the activity has killed its child process, so nothing writes a file once the task reads cancelled.
const media = proxyActivities<PodcastMediaActivities>({
  startToCloseTimeout: '2h',
  heartbeatTimeout: '10s',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumAttempts: 4,
    nonRetryableErrorTypes: NON_RETRYABLE_CODES,
  },
});

export async function podcastTextWorkflow(input: TaskInput<TextJob>) {
  return runTask(TEXT_TASK_TYPE[input.request.kind], input, () =>
    paid.podcastText({ taskId: input.taskId, userId: input.userId, job: input.request }),
  );
}

export async function podcastResearchWorkflow(input: TaskInput<ResearchJob>) {
  return runTask('podcast_research', input, () =>
    paid.podcastResearch({ taskId: input.taskId, userId: input.userId, job: input.request }),
  );
}

/** The script, its version and the project it was stored on (the result every route shows: its 200 and the task's). */
export async function podcastScriptWorkflow(input: TaskInput<ScriptJob>) {
  return runTask('podcast_script', input, async () => ({
    project_id: input.request.project_id,
    ...(await paid.podcastScript({ taskId: input.taskId, userId: input.userId, job: input.request })),
  }));
}

export async function podcastAudioWorkflow(input: TaskInput<AudioJob>) {
  return runTask('podcast_audio', input, async (progress) => {
    await progress(`Speaking scene ${input.request.scene_id}: ${input.request.lines.length} lines`);
    return media.podcastSceneAudio({ taskId: input.taskId, userId: input.userId, job: input.request });
  });
}

export async function podcastUploadWorkflow(input: TaskInput<UploadJob>) {
  return runTask('podcast_audio_upload', input, () =>
    media.podcastUploadAudio({ taskId: input.taskId, userId: input.userId, job: input.request }),
  );
}

export async function podcastCombineAudioWorkflow(input: TaskInput<CombineAudioJob>) {
  return runTask('podcast_combine_audio', input, async (progress) => {
    await progress(`Joining ${input.request.scenes.length} scenes, normalising loudness to -16 LUFS`);
    return media.podcastCombineAudio({ taskId: input.taskId, userId: input.userId, job: input.request });
  });
}

export async function podcastSceneVideoWorkflow(input: TaskInput<SceneVideoJob>) {
  return runTask('podcast_video', input, async (progress) => {
    await progress(`Rendering scene ${input.request.scene_id} at ${input.request.resolution}`);
    return media.podcastSceneVideo({ taskId: input.taskId, userId: input.userId, job: input.request });
  });
}

export async function podcastCombineVideosWorkflow(input: TaskInput<CombineVideosJob>) {
  return runTask('podcast_combine_videos', input, async (progress) => {
    await progress(`Joining ${input.request.scenes.length} scene videos`);
    return media.podcastCombineVideos({ taskId: input.taskId, userId: input.userId, job: input.request });
  });
}

export async function podcastDubWorkflow(input: TaskInput<DubJob>) {
  return runTask('podcast_dub', input, async (progress) => {
    const job = input.request;
    await progress(`Translating ${job.segments.length} segments to ${job.target_language}`);
    const t = await paid.podcastTranslate({ taskId: input.taskId, userId: input.userId, job });
    await progress(`Speaking ${job.target_language} with ${job.voice}`);
    const speech = await media.podcastDubSpeech({ taskId: input.taskId, userId: input.userId, job, texts: t.texts });
    return {
      ...speech,
      project_id: job.project_id ?? null,
      source_language: job.source_language,
      target_language: job.target_language,
      translation: t.translation,
    };
  });
}
