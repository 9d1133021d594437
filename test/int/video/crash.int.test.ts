/**
 * Durable renders. The worker runs as a real process:
 * 1. SIGKILLed in the middle of a render and restarted, the render finishes,
 *    and the workflow history shows that every scene finished before the kill
 *    ran exactly once (attempt 1), each scene was scheduled once, and only the
 *    scene in flight was tried again.
 * 2. Cancelled through POST /api/story/task/{taskId}/cancel while ffmpeg runs:
 *    ffmpeg is stopped, no file of the render is left (scratch or storage),
 *    the task reads `cancelled` and the render's reservation is released.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { startProcess, Proc } from '../../support/processes';
import { testTemporal, uniq } from '../../support/env';
import { BUNDLE_PATH } from '../../support/global-setup';
import { mediaFolders } from '../../support/video-worker';
import { startTestApi, TestApi, bearer } from '../../support/api';
import { call } from '../../support/http';
import { taskStatusProjection } from '../../../projections/task-status';
import { videoProjection } from '../../../projections/video';
import { buildScenes } from '../../../domain/video/plan';
import { renderJob } from '../../../domain/video/render';
import type { VideoPlan } from '../../../domain/video/types';
import { videoRenderWorkflow } from '../../../workflows';
import { createLocalDirStorage } from '../../../infra/storage/local-dir';
import { probe } from '../../../infra/media/probe';
import { DEFAULT_TOOLS } from '../../../infra/media/tools';
import { waitFor } from '../../support/wait';

jest.setTimeout(900000);

const STARTED = proto.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;

interface SceneRun {
  activityId: string;
  index: number;
  attempt: number;
  completed: boolean;
}

/** renderScene activities of a workflow from its history: scene index (from the input), attempt, completed. */
async function sceneRuns(handle: WorkflowHandle): Promise<SceneRun[]> {
  const history = await handle.fetchHistory();
  const runs = new Map<string, SceneRun>();
  for (const e of history.events ?? []) {
    const s = e.activityTaskScheduledEventAttributes;
    if (s?.activityType?.name === 'renderScene') {
      const input = JSON.parse(Buffer.from(s.input!.payloads![0].data!).toString('utf8'));
      runs.set(String(e.eventId), {
        activityId: s.activityId ?? '',
        index: input.scene.index,
        attempt: 0,
        completed: false,
      });
    }
    const st = e.activityTaskStartedEventAttributes;
    const run = st && runs.get(String(st.scheduledEventId));
    if (run) run.attempt = st.attempt ?? 1;
    const done = e.activityTaskCompletedEventAttributes;
    const finished = done && runs.get(String(done.scheduledEventId));
    if (finished) finished.completed = true;
  }
  return [...runs.values()];
}

/** ffmpeg processes whose command line names `needle` (the task id is in every path of a render). */
function ffmpegFor(needle: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.startsWith('ffmpeg') && cmd.includes(needle)) out.push(Number(pid));
    } catch {
      /* gone */
    }
  }
  return out;
}

describe('renders survive worker crashes and stop on cancel', () => {
  let s: IsolatedSchema;
  let worker: Proc | undefined;
  let api: TestApi;
  const folders = mediaFolders();
  const taskQueue = uniq('video-crash');
  let temporal: Awaited<ReturnType<typeof testTemporal>>;

  beforeAll(async () => {
    s = await isolatedSchema();
    temporal = await testTemporal();
    worker = await start();
    api = await startTestApi({
      schema: s,
      projections: [taskStatusProjection, videoProjection],
      settings: {
        rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, status: { minute: 10000 } } } },
      },
      deps: {
        workflows: { client: async () => temporal.client, taskQueue },
        media: { storage: createLocalDirStorage(folders.storageDir), speechVendorConfigured: false },
      },
    });
  });

  afterAll(async () => {
    await worker?.stop('SIGTERM');
    await api?.stop();
    await temporal?.connection.close();
    await s?.drop();
    folders.remove();
  });

  function start() {
    return startProcess(
      'temporal-worker',
      {
        DATABASE_URL: s.url,
        KAFKA_TOPIC_PREFIX: s.topicPrefix,
        TEMPORAL_TASK_QUEUE: taskQueue,
        WORKFLOW_BUNDLE_PATH: BUNDLE_PATH,
        WORKER_HEALTH_PORT: '0',
        MEDIA_STORAGE_DIR: folders.storageDir,
        MEDIA_WORK_DIR: folders.workDir,
        MEDIA_X264_PRESET: 'ultrafast',
      },
      false,
    );
  }

  it('SIGKILL mid-render: the render completes and finished scenes are not rendered again', async () => {
    const plan: VideoPlan = {
      plan_id: randomUUID(),
      user_id: 'crash-user',
      title: 'Crash',
      topic: 'crash',
      format: 'standard',
      aspect_ratio: '16:9',
      target_duration_seconds: 36,
      key_points: [],
      scenes: Array.from({ length: 6 }, (_, i) => ({
        index: i,
        heading: `Scene ${i + 1}`,
        narration: `This is scene number ${i + 1}. It has two sentences of narration.`,
        visual_description: 'gradient',
        duration_seconds: 6,
      })),
      provider: 'local',
      model: 'm',
    };
    const job = renderJob(
      plan,
      buildScenes(
        plan.plan_id,
        plan.scenes,
        plan.scenes.map(() => randomUUID()),
      ),
      {
        plan_id: plan.plan_id,
        resolution: '720p',
      },
    );
    const taskId = `video-render-${randomUUID()}`;
    const handle = await temporal.client.workflow.start(videoRenderWorkflow, {
      taskQueue,
      workflowId: taskId,
      args: [{ taskId, userId: plan.user_id, request: job }],
    });
    // Kill once at least one scene has finished and another one is being rendered. The scene seen in flight may
    // still finish before the signal lands, so what was in flight is read after the kill (a dead worker completes
    // nothing): activities the server holds as started. If the kill fell between two scenes, restart and try again.
    let inFlight: string[] = [];
    for (let round = 0; round < 5 && inFlight.length === 0; round++) {
      await waitFor(
        'a finished scene and one in flight',
        async () => {
          const runs = await sceneRuns(handle);
          if (!runs.some((r) => r.completed)) return false;
          const d = await handle.describe();
          return (d.raw.pendingActivities ?? []).some((p) => p.activityType?.name === 'renderScene' && p.attempt === 1);
        },
        300000,
        100,
      );
      expect(await worker!.stop('SIGKILL')).toBe('SIGKILL');
      const d = await handle.describe();
      inFlight = (d.raw.pendingActivities ?? [])
        .filter((p) => p.activityType?.name === 'renderScene' && p.state === STARTED && p.attempt === 1)
        .map((p) => p.activityId ?? '');
      if (inFlight.length === 0) worker = await start();
    }
    expect(inFlight.length).toBeGreaterThanOrEqual(1);
    const finishedBefore = (await sceneRuns(handle)).filter((r) => r.completed).map((r) => r.index);
    worker = await start();
    const result = await handle.result();

    const after = await sceneRuns(handle);
    expect(after.map((r) => r.index).sort()).toEqual([0, 1, 2, 3, 4, 5]); // each scene scheduled once
    for (const i of finishedBefore)
      expect(after.find((r) => r.index === i)).toMatchObject({ attempt: 1, completed: true });
    expect(after.every((r) => r.completed)).toBe(true);
    expect(finishedBefore.length).toBeLessThan(6);
    for (const id of inFlight) expect(after.find((r) => r.activityId === id)!.attempt).toBeGreaterThan(1); // retried
    process.stdout.write(
      `finished before the kill: ${finishedBefore.join(',')}; attempts ${after.map((r) => `${r.index}:${r.attempt}`).join(' ')}; resumed ${JSON.stringify(result.scenes.filter((x) => x.resumed_after))}\n`,
    );
    expect(Math.abs(result.duration_seconds - 36) / 36).toBeLessThan(0.02);
    const p = await probe(DEFAULT_TOOLS, path.join(folders.storageDir, 'videos', result.filename));
    expect(p.streams.map((x) => x.codec_name)).toEqual(['h264', 'aac', 'mov_text']);
    expect(existsSync(path.join(folders.workDir, taskId))).toBe(false); // scratch removed once stored
  });

  it('cancel while ffmpeg runs: ffmpeg stopped, no partial file left, task cancelled, reservation released', async () => {
    const user = await api.user('free');
    const planR = await call(`${api.url}/api/videonet/plan`, {
      method: 'POST',
      headers: bearer(user.key),
      json: { topic: 'Cancelling renders', format: 'standard', duration_seconds: 120, scene_count: 4 },
    });
    expect(planR.status).toBe(201);
    const start = await call(`${api.url}/api/videonet/render`, {
      method: 'POST',
      headers: bearer(user.key),
      json: { plan_id: planR.body.plan_id, resolution: '1080p' },
    });
    expect(start.status).toBe(202);
    const taskId: string = start.body.task_id;
    await waitFor('ffmpeg rendering the first scene', () => ffmpegFor(taskId).length > 0, 300000, 100);
    expect(existsSync(path.join(folders.workDir, taskId))).toBe(true);

    const cancel = await call(`${api.url}/api/story/task/${taskId}/cancel`, {
      method: 'POST',
      headers: bearer(user.key),
    });
    expect(cancel.status).toBe(200);
    await waitFor(
      'the task to read cancelled',
      async () => {
        const r = await call(`${api.url}/api/videonet/render/${taskId}`, { headers: bearer(user.key) });
        return r.body.status === 'cancelled';
      },
      300000,
      100,
    );
    const status = await call(`${api.url}/api/videonet/render/${taskId}`, { headers: bearer(user.key) });
    expect(status.body).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED' } });
    expect(status.body.result).toBeUndefined();

    expect(ffmpegFor(taskId)).toEqual([]);
    expect(existsSync(path.join(folders.workDir, taskId))).toBe(false);
    expect(await createLocalDirStorage(folders.storageDir).list(`videos/${taskId}`)).toEqual([]);
    const discarded = await s
      .db('es_events')
      .where({ type: 'VideoRenderDiscarded', stream_id: `videorender-${taskId}` });
    expect(discarded).toHaveLength(1);
    expect(discarded[0].data).toMatchObject({ reason: 'cancelled by request', removed: 0 });
    const reservation = await s
      .db('quota_reservations')
      .where({ reservation_id: `${taskId}/render` })
      .first();
    expect(reservation.status).toBe('released');
    expect(
      (await call(`${api.url}/api/story/task/${taskId}/cancel`, { method: 'POST', headers: bearer(user.key) })).status,
    ).toBe(409);
  });
});
