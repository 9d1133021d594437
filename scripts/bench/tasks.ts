/**
 * npm run bench:tasks — durable AI tasks on the real Temporal server, in one run:
 *   1. ceiling: completed bare workflows with one no-op activity per second (smokeWorkflow);
 *   2. completed blog research workflows per second with the `local` provider (corpus search,
 *      metered AI call, task events), same worker, same concurrency;
 *   3. the status route's latency p50/p99 under 100 concurrent pollers (HTTP, real API stages);
 *   4. one blog research workflow at a time (five activities): its latency p50/p90, which the dev server's task
 *      dispatch decides (scripts/stack, STACK_TEMPORAL_POLL_RPS).
 * A private schema, task queue and topic prefix keep the platform beside it untouched.
 * Settings: BENCH_WORKFLOWS (default 200), BENCH_CONCURRENCY (20), BENCH_POLL_SECONDS (10), BENCH_SEQUENTIAL (30).
 */
import { randomUUID } from 'node:crypto';
import { NativeConnection, Worker, bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { loadConfig } from '../../infra/config';
import { createLogger } from '../../infra/logger';
import { connectTemporal } from '../../infra/temporal';
import { createEventStore } from '../../infra/eventstore';
import { PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../infra/research';
import { taskStatusProjection } from '../../projections/task-status';
import { startTestApi } from '../../test/support/api';
import { percentile } from './lib';
import { blogResearchWorkflow, smokeWorkflow } from '../../workflows';

const N = Number(process.env.BENCH_WORKFLOWS ?? 200);
const C = Number(process.env.BENCH_CONCURRENCY ?? 20);
const POLL_SECONDS = Number(process.env.BENCH_POLL_SECONDS ?? 10);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 30);

/** Runs `n` jobs with at most `c` at once; returns completions per second. */
async function rate(n: number, c: number, job: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (next < n) await job(next++);
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const config = loadConfig();
  const logger = createLogger('bench', 'warn');
  const api = await startTestApi({
    projections: [taskStatusProjection],
    settings: { rate: { overrides: { '*': { general: { minute: 1e7, day: 1e8 }, status: { minute: 1e7 } } } } },
  });
  const db = api.schema.db;
  const store = createEventStore(db);
  const meter = new PostgresUsageMeter(db, store, async () => ({}));
  const gateway = createAiGateway({ local: createLocalProvider(), meter: gatewayMeter(meter) });
  const research = createResearchProvider({
    corpus: createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' }),
  });
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: new DefaultLogger('WARN'),
  });
  const taskQueue = `bench-${randomUUID().slice(0, 8)}`;
  const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue,
    workflowBundle: { code },
    activities: createActivities({ logger, tasks: { store }, blog: { gateway, research } }),
    maxConcurrentWorkflowTaskExecutions: 100,
    maxConcurrentActivityTaskExecutions: 100,
  });
  const running = worker.run();
  const temporal = await connectTemporal({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE });
  const out: Record<string, number | string> = { workflows: N, concurrency: C };
  try {
    // Warm-up (connections, caches, corpus index) before anything is timed.
    await temporal.client.workflow.execute(smokeWorkflow, {
      taskQueue,
      workflowId: `bench-warm-${randomUUID()}`,
      args: ['warm'],
    });

    out.bare_workflows_per_s = Number(
      (
        await rate(N, C, () =>
          temporal.client.workflow.execute(smokeWorkflow, {
            taskQueue,
            workflowId: `bench-smoke-${randomUUID()}`,
            args: ['x'],
          }),
        )
      ).toFixed(1),
    );

    const user = await api.user('enterprise');
    const request = {
      keywords: ['content calendar', 'posting schedule'],
      topic: 'Planning a content calendar',
      industry: 'marketing',
      target_audience: 'marketers',
      tone: 'professional',
      word_count_target: 1200,
    };
    const taskIds: string[] = [];
    out.research_workflows_per_s = Number(
      (
        await rate(N, C, async () => {
          const taskId = `blog-research-${randomUUID()}`;
          taskIds.push(taskId);
          await temporal.client.workflow.execute(blogResearchWorkflow, {
            taskQueue,
            workflowId: taskId,
            args: [{ taskId, userId: user.userId, request }],
          });
        })
      ).toFixed(1),
    );
    out.ratio_research_to_bare = Number(
      (Number(out.research_workflows_per_s) / Number(out.bare_workflows_per_s)).toFixed(3),
    );

    // One at a time: the latency a synchronous route waits for (no batching of dispatches by concurrency).
    const one: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const taskId = `blog-research-${randomUUID()}`;
      const t0 = performance.now();
      await temporal.client.workflow.execute(blogResearchWorkflow, {
        taskQueue,
        workflowId: taskId,
        args: [{ taskId, userId: user.userId, request }],
      });
      one.push(performance.now() - t0);
    }
    one.sort((a, b) => a - b);
    out.research_one_at_a_time_p50_ms = Number(percentile(one, 50).toFixed(1));
    out.research_one_at_a_time_p90_ms = Number(percentile(one, 90).toFixed(1));

    // Status route under 100 concurrent pollers (tasks are completed and projected by now).
    await new Promise((r) => setTimeout(r, 2000));
    const lat: number[] = [];
    let errors = 0;
    const end = performance.now() + POLL_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: 100 }, async (_, p) => {
        let i = p;
        while (performance.now() < end) {
          const id = taskIds[i++ % taskIds.length];
          const t0 = performance.now();
          const res = await fetch(`${api.url}/api/blog/research/status/${id}`, {
            headers: { authorization: `Bearer ${user.key}` },
          });
          await res.arrayBuffer();
          lat.push(performance.now() - t0);
          if (res.status !== 200) errors++;
        }
      }),
    );
    lat.sort((a, b) => a - b);
    out.status_requests = lat.length;
    out.status_requests_per_s = Math.round(lat.length / POLL_SECONDS);
    out.status_non_200 = errors;
    out.status_p50_ms = Number(percentile(lat, 50).toFixed(1));
    out.status_p99_ms = Number(percentile(lat, 99).toFixed(1));
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await temporal.connection.close();
    await api.stop();
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
