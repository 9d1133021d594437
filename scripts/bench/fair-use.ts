/**
 * npm run bench:fair-use — does one user's burst of renders delay another
 * user's short task? (docs/api.md, "Fair use of heavy work"; docs/benchmarks.md)
 *
 * One real worker process (workers/temporal-worker.ts, as `scripts/platform` runs it: the platform's queue plus the
 * render and generation queues, WORKER_RENDER_SLOTS), the API in this process on a private schema with the
 * task-status and video projections. User A (Enterprise, its render bound raised to the burst with the override
 * TASK_CONCURRENCY_OVERRIDES sets) and user B (Pro). B's short task is POST /api/blog-writer/research (corpus
 * search and one AI call with the offline writer; light work on the platform's queue), answered 200 with the
 * result. Phases, in one run:
 *
 *   alone     B's short task BENCH_FAIR_SHORT times, one after another, nothing else running
 *   fair      A starts BENCH_FAIR_RENDERS renders through the API (all accepted; one more is refused with 429); they
 *             run on the render queue. B's short task again, while A's renders are running and queued.
 *   shared    as before this change: the same renders started on the platform's queue itself (the Temporal client,
 *             as the API started them before), where the worker runs as many at once as Temporal gives it.
 *             B's short task again. (BENCH_FAIR_SHARED=0 leaves it out.)
 *   alone     B's short task again, after the renders were cancelled: the machine's drift over the run.
 *
 * Per short task: start latency (request sent → TaskStarted recorded by the worker) and answer time (request sent →
 * 200 with the result). Reported: median and worst per phase, and the ratios of the loaded phases' medians to the
 * first `alone`'s. Settings: BENCH_FAIR_RENDERS (20), BENCH_FAIR_SHORT (8), BENCH_FAIR_RESOLUTION (720p),
 * BENCH_FAIR_SECONDS (video length, 20), BENCH_FAIR_RENDER_SLOTS (the worker's WORKER_RENDER_SLOTS, 2),
 * BENCH_FAIR_SHARED (1). A private schema, task queue and media folder keep the platform beside it untouched.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { videoPlanStream } from '../../domain/events/video';
import { ownPlan, videoPlanDecider } from '../../domain/video/decide';
import type { Resolution } from '../../domain/media/formats';
import { renderJob } from '../../domain/video/render';
import { connectTemporal } from '../../infra/temporal';
import { loadConfig } from '../../infra/config';
import { createLocalDirStorage } from '../../infra/storage/local-dir';
import { taskStatusProjection } from '../../projections/task-status';
import { videoProjection } from '../../projections/video';
import { videoRenderWorkflow } from '../../workflows';
import { bearer, startTestApi } from '../../test/support/api';
import { call } from '../../test/support/http';
import { Proc, startProcess } from '../../test/support/processes';
import { percentile, sleep, until } from './lib';

const RENDERS = Number(process.env.BENCH_FAIR_RENDERS ?? 20);
const SHORT = Number(process.env.BENCH_FAIR_SHORT ?? 8);
const RESOLUTION = (process.env.BENCH_FAIR_RESOLUTION ?? '720p') as Resolution;
const SECONDS = Number(process.env.BENCH_FAIR_SECONDS ?? 20);
const RENDER_SLOTS = process.env.BENCH_FAIR_RENDER_SLOTS ?? '2';
const SHARED = process.env.BENCH_FAIR_SHARED !== '0';
const UNLIMITED = { minute: 1e7, hour: 1e8, day: 1e8 };

const ms = (x: number) => Math.round(x);

/** One of B's short tasks. */
interface Sample {
  start_ms: number;
  answer_ms: number;
  /** A's renders not finished when it was sent (loaded phases). */
  running?: number;
  /** Not answered within the route's wait bound (API_TASK_WAIT_MS, 20 s): answered 202, then polled. */
  over_wait_bound: boolean;
  load1: number;
}

interface Phase {
  name: string;
  samples: Sample[];
}

async function main(): Promise<void> {
  const config = loadConfig();
  const media = mkdtempSync(path.join(tmpdir(), 'bench-fair-'));
  const storageDir = path.join(media, 'storage');
  const taskQueue = `bench-fair-${randomUUID().slice(0, 8)}`;
  const temporal = await connectTemporal({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE });
  const api = await startTestApi({
    projections: [taskStatusProjection, videoProjection],
    settings: {
      rate: {
        overrides: { '*': { general: UNLIMITED, status: UNLIMITED } },
        concurrentTasks: { enterprise: { render: RENDERS } },
      },
    },
    deps: {
      workflows: { client: async () => temporal.client, taskQueue },
      media: { storage: createLocalDirStorage(storageDir), speechVendorConfigured: false },
      aiProvider: 'local',
    },
  });
  const db = api.schema.db;
  let worker: Proc | undefined;
  const out: Record<string, unknown> = {
    renders: RENDERS,
    short_tasks_per_phase: SHORT,
    resolution: RESOLUTION,
    video_seconds: SECONDS,
    render_slots: Number(RENDER_SLOTS),
  };
  const started: string[] = [];
  try {
    worker = await startProcess('temporal-worker', {
      DATABASE_URL: api.schema.url,
      KAFKA_TOPIC_PREFIX: api.schema.topicPrefix,
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKER_RENDER_SLOTS: RENDER_SLOTS,
      WORKER_HEALTH_PORT: '0',
      MEDIA_STORAGE_DIR: storageDir,
      MEDIA_WORK_DIR: path.join(media, 'work'),
      // The short task uses the offline writer; a language model would make it a long task.
      LLAMA_MODEL_PATH: 'off',
      LOG_LEVEL: 'warn',
    });
    const a = await api.user('enterprise');
    const b = await api.user('pro');
    const post = (key: string, p: string, json: unknown) =>
      call(`${api.url}${p}`, { method: 'POST', headers: bearer(key), json });

    // A's plan, and one render to completion: builds the scenes (renders snapshot them) and warms ffmpeg.
    const plan = await post(a.key, '/api/videonet/plan', {
      topic: 'Planning a content calendar',
      format: 'short',
      duration_seconds: SECONDS,
    });
    if (plan.status !== 201) throw new Error(`plan: ${plan.status} ${JSON.stringify(plan.body)}`);
    const planId: string = plan.body.plan_id;
    const renderOf = (key: string) => post(key, '/api/videonet/render', { plan_id: planId, resolution: RESOLUTION });
    const statusOf = async (taskId: string): Promise<string> =>
      (await db('task_status').where({ task_id: taskId }).first())?.status ?? 'started';
    const warm = await renderOf(a.key);
    if (warm.status !== 202) throw new Error(`render: ${warm.status} ${JSON.stringify(warm.body)}`);
    const t0 = performance.now();
    await until(async () => (await statusOf(warm.body.task_id)) === 'completed', 600_000, 200);
    out.one_render_alone_s = Number(((performance.now() - t0) / 1000).toFixed(1));

    /** B's short task `SHORT` times; `running()` counts A's renders still going. */
    const shortTasks = async (name: string, running?: () => Promise<number>): Promise<Phase> => {
      const phase: Phase = { name, samples: [] };
      for (let i = 0; i < SHORT; i++) {
        const busy = running ? await running() : undefined;
        const load1 = Number(loadavg()[0].toFixed(2));
        const sent = Date.now();
        const r = await post(b.key, '/api/blog-writer/research', { topic: `Content calendars ${name} ${i}` });
        if (r.status !== 200 && r.status !== 202) throw new Error(`short task: ${r.status} ${JSON.stringify(r.body)}`);
        // Not done within the route's wait bound (202): the answer is when its status route first reads completed.
        const taskId: string = r.body.data.task_id;
        if (r.status === 202) await until(async () => (await statusOf(taskId)) === 'completed', 600_000, 100);
        const answered = Date.now();
        const ev = await db('es_events')
          .where({ stream_id: `task-${taskId}`, type: 'TaskStarted' })
          .first('recorded_at');
        phase.samples.push({
          start_ms: new Date(ev.recorded_at).getTime() - sent,
          answer_ms: answered - sent,
          ...(busy !== undefined ? { running: busy } : {}),
          over_wait_bound: r.status === 202,
          load1,
        });
        await sleep(300);
      }
      return phase;
    };
    const stillRunning = (ids: string[]) => async () =>
      (await Promise.all(ids.map(statusOf))).filter((s) => !['completed', 'failed', 'cancelled'].includes(s)).length;
    /** Cancels the renders and waits until Temporal has closed every one. */
    const cancelAll = async (ids: string[]) => {
      await Promise.all(
        ids.map((id) =>
          temporal.client.workflow
            .getHandle(id)
            .cancel()
            .catch(() => undefined),
        ),
      );
      await until(
        async () =>
          (await Promise.all(ids.map((id) => temporal.client.workflow.getHandle(id).describe()))).every(
            (d) => d.status.name !== 'RUNNING',
          ),
        600_000,
        500,
      );
    };

    await shortTasks('warm-up');
    const phases: Phase[] = [await shortTasks('alone')];

    // fair: the burst through the API, every render accepted, one more refused.
    const burst = await Promise.all(Array.from({ length: RENDERS }, () => renderOf(a.key)));
    const accepted = burst.filter((r) => r.status === 202).map((r) => r.body.task_id as string);
    started.push(...accepted);
    const refused = await renderOf(a.key);
    out.fair_burst = {
      accepted: accepted.length,
      refused_beyond_bound: refused.status,
      retry_after: refused.headers.get('retry-after'),
      message: refused.body?.error?.message,
    };
    await sleep(2000); // the render queue's slots taken, the rest queued behind them
    phases.push(await shortTasks('fair', stillRunning(accepted)));
    await cancelAll(accepted);

    if (SHARED) {
      // shared: the same renders on the platform's queue, as the API started them before this change.
      const { state } = await api.store.aggregateStream(
        videoPlanStream(planId),
        videoPlanDecider.evolve,
        videoPlanDecider.initialState,
      );
      const job = renderJob(ownPlan(state, a.userId), state.scenes ?? [], {
        plan_id: planId,
        resolution: RESOLUTION,
      });
      const shared: string[] = [];
      for (let i = 0; i < RENDERS; i++) {
        const taskId = `video-render-${randomUUID()}`;
        await temporal.client.workflow.start(videoRenderWorkflow, {
          taskQueue,
          workflowId: taskId,
          args: [{ taskId, userId: a.userId, request: job }],
        });
        shared.push(taskId);
      }
      started.push(...shared);
      await sleep(2000);
      phases.push(await shortTasks('shared', stillRunning(shared)));
      await cancelAll(shared);
    }
    phases.push(await shortTasks('alone again'));

    const med = (xs: number[]) =>
      percentile(
        [...xs].sort((x, y) => x - y),
        50,
      );
    // A loaded phase counts the short tasks sent while A still had renders going (in `shared` they may all finish
    // before B's last task); every sample is listed besides.
    const counted = (p: Phase) => p.samples.filter((s) => s.running === undefined || s.running > 0);
    const base = counted(phases[0]);
    const baseStart = med(base.map((s) => s.start_ms));
    const baseAnswer = med(base.map((s) => s.answer_ms));
    out.phases = phases.map((p) => {
      const c = counted(p);
      const start = c.map((s) => s.start_ms);
      const answer = c.map((s) => s.answer_ms);
      return {
        phase: p.name,
        counted: c.length,
        start_median_ms: ms(med(start)),
        start_max_ms: ms(Math.max(...start)),
        answer_median_ms: ms(med(answer)),
        answer_max_ms: ms(Math.max(...answer)),
        start_ratio_to_alone: Number((med(start) / baseStart).toFixed(2)),
        answer_ratio_to_alone: Number((med(answer) / baseAnswer).toFixed(2)),
        over_wait_bound: c.filter((s) => s.over_wait_bound).length,
        load1: `${Math.min(...p.samples.map((s) => s.load1))}–${Math.max(...p.samples.map((s) => s.load1))}`,
        samples: p.samples.map(
          (s) =>
            `start ${ms(s.start_ms)} ms, answer ${ms(s.answer_ms)} ms${s.running !== undefined ? `, A running ${s.running}` : ''}`,
        ),
      };
    });
  } finally {
    await Promise.all(
      started.map((id) =>
        temporal.client.workflow
          .getHandle(id)
          .terminate('benchmark over')
          .catch(() => undefined),
      ),
    );
    await worker?.stop('SIGTERM');
    await api.stop();
    await temporal.connection.close();
    rmSync(media, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
