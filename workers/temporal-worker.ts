/**
 * Temporal worker process: runs workflows/ and activities/ on the platform's
 * task queue, and on one task queue per heavy class (`<queue>-render`,
 * `<queue>-generation`) with a bounded number of activities at once
 * (WORKER_RENDER_SLOTS, WORKER_GENERATION_SLOTS): one user's burst of renders
 * waits on its own queue, while light tasks keep starting on the platform's
 * (docs/api.md, "Fair use of heavy work"). Loads the prebuilt bundle
 * (WORKFLOW_BUNDLE_PATH) when given, otherwise bundles workflows/ once at
 * start. SIGTERM drains: the workers stop polling, let running activities
 * finish, then exit.
 */
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { HEARTBEAT_THROTTLE, workerQueues } from '../infra/temporal';
import { createActivities } from '../activities';
import { createContext } from './context';
import { fatal, Lifecycle, startWithRetry } from './lifecycle';
import { startHealthServer } from '../infra/health/server';
import { aiAdapters, createEventStore, usageMeter, webhookActivityDeps } from './adapters';
import { config as loadConfig, publicBaseUrl } from '../infra/config';
import { assertStartable } from '../infra/startup';
// One line per area (adapters built from the configuration at start-up).
import { sitebuilderActivityDeps } from './adapters';
import { imageActivityDeps } from './image-adapters';
import { outreachActivityDeps } from './adapters';
import { ensureReplyPollSchedule } from './outreach-schedule';
import { writerNotifyDeps } from './adapters';
import { ProcessBeacon } from '../infra/health/beacon';
import { keywordAdapters, performanceAdapters } from './adapters';
import { mediaActivityDeps } from './adapters';
import { podcastActivityDeps } from './adapters';

async function main(): Promise<void> {
  // Keys at rest, outreach links and the public URL, checked before anything connects (infra/startup.ts).
  assertStartable(loadConfig());
  const ctx = createContext('temporal-worker');
  const { config, logger } = ctx;
  const life = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS).listen();
  life.onStop('context', () => ctx.close());

  // Every AI call goes through one gateway, metered against the caller's plan in PostgreSQL.
  const store = createEventStore(ctx.db);
  const { gateway, research, llama } = aiAdapters(ctx.db, store, config, logger);
  if (llama) {
    // Without a vendor the writers use the model: load it now rather than on the first call (with a vendor, only
    // an explicit provider "llama" loads it). A file that does not load is logged; auto then uses the template writer.
    if (gateway.resolve('auto', true) === 'llama')
      llama.runtime.info().then(
        (info) => logger.info({ llama: info }, 'llama model loaded'),
        (e: Error) => logger.error({ err: e }, 'llama model did not load'),
      );
    life.onStop('llama', () => llama.runtime.close());
  } else logger.info('no llama model file: AI text without a vendor comes from the template writer');
  const media = mediaActivityDeps(ctx.db, store, config);

  const connection = await startWithRetry('connecting to Temporal', life, logger, () =>
    NativeConnection.connect({ address: config.TEMPORAL_ADDRESS }),
  );
  life.onStop('temporal connection', () => connection.close());
  const activities = createActivities({
    logger,
    tasks: { store },
    blog: { gateway, research },
    blogSync: { gateway, research, store },
    content: { gateway, research, store },
    keywords: keywordAdapters(ctx.db, store, config),
    performance: performanceAdapters(ctx.db, store, config),
    copy: { gateway },
    webhooks: webhookActivityDeps(ctx.db, store, config, logger),
    sitebuilder: sitebuilderActivityDeps(ctx.db, store, config, publicBaseUrl(config), logger),
    image: imageActivityDeps(config, store, gateway, usageMeter(ctx.db, store), logger),
    outreach: outreachActivityDeps(ctx.db, store, config, logger, { gateway, research }),
    writers: { gateway, research, store, notify: writerNotifyDeps(ctx.db, config) },
    calendar: { store, gateway },
    video: { store, gateway, storage: media.storage, workDir: media.workDir, meter: media.meter },
    videoRender: media,
    ...podcastActivityDeps(config, media, { gateway, research }),
  });
  // One bundle for every queue's worker (bundling takes seconds; a prebuilt one is only loaded).
  const workflowBundle = config.WORKFLOW_BUNDLE_PATH
    ? { codePath: config.WORKFLOW_BUNDLE_PATH }
    : await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows') });
  const queues = workerQueues(config.TEMPORAL_TASK_QUEUE, {
    render: config.WORKER_RENDER_SLOTS,
    generation: config.WORKER_GENERATION_SLOTS,
  });
  const workers = await Promise.all(
    queues.map((q) =>
      Worker.create({
        connection,
        namespace: config.TEMPORAL_NAMESPACE,
        maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
        workflowBundle,
        activities,
        ...q,
      }),
    ),
  );
  const states = () => Object.fromEntries(workers.map((w, i) => [queues[i].taskQueue, w.getState()]));
  const allRunning = () => workers.every((w) => w.getState() === 'RUNNING');

  const health = await startHealthServer(config.WORKER_HEALTH_PORT, async () => {
    const deps = await ctx.health();
    return {
      status: allRunning() && deps.status === 'ok' ? 'ok' : 'degraded',
      worker: workers[0].getState(),
      task_queue: config.TEMPORAL_TASK_QUEUE,
      task_queues: states(),
      services: deps.services,
    };
  });
  life.onStop('health server', () => new Promise((r) => health.close(r)));
  // Replies are polled on a Temporal Schedule when an outreach mailbox is configured (docs/outreach.md).
  if (config.OUTREACH_IMAP_URL && config.OUTREACH_REPLY_POLL_SECONDS > 0) {
    const id = await ensureReplyPollSchedule((await ctx.temporal()).client, {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      intervalSeconds: config.OUTREACH_REPLY_POLL_SECONDS,
    });
    logger.info({ schedule: id, every_seconds: config.OUTREACH_REPLY_POLL_SECONDS }, 'outreach reply poll scheduled');
  }
  const beacon = new ProcessBeacon(ctx.db, 'temporal-worker', logger, {
    everyMs: config.PROCESS_HEARTBEAT_MS,
    details: () => ({ state: workers[0].getState(), task_queue: config.TEMPORAL_TASK_QUEUE, task_queues: states() }),
  });
  await beacon.start();
  life.onStop('heartbeat', () => beacon.stop());
  // One queue's worker failing fails the process (fatal below): a platform without its render queue is not healthy.
  const running = Promise.all(workers.map((w) => w.run()));
  life.onStop('worker', async () => {
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    await running;
  });
  logger.info(
    {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      taskQueues: queues,
      namespace: config.TEMPORAL_NAMESPACE,
      health: health.port,
    },
    'worker running',
  );
  await running;
}

main().catch((e) => fatal(require('pino')(), e));
