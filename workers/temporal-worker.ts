/**
 * Temporal worker process: runs workflows/ and activities/ on the platform's
 * task queue. Loads the prebuilt bundle (WORKFLOW_BUNDLE_PATH) when given,
 * otherwise bundles workflows/ at start. SIGTERM drains: the worker stops
 * polling, lets running activities finish, then exits.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { HEARTBEAT_THROTTLE } from '../infra/temporal';
import { createActivities } from '../activities';
import { createContext } from './context';
import { fatal, Lifecycle, startWithRetry } from './lifecycle';
import { startHealthServer } from '../infra/health/server';
import { aiAdapters, createEventStore, usageMeter, webhookActivityDeps } from './adapters';
import { publicBaseUrl } from '../infra/config';
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
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
    ...(config.WORKFLOW_BUNDLE_PATH
      ? { workflowBundle: { codePath: config.WORKFLOW_BUNDLE_PATH } }
      : { workflowsPath: require.resolve('../workflows') }),
    activities: createActivities({
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
    }),
  });

  const health = await startHealthServer(config.WORKER_HEALTH_PORT, async () => {
    const state = worker.getState();
    const deps = await ctx.health();
    return {
      status: state === 'RUNNING' && deps.status === 'ok' ? 'ok' : 'degraded',
      worker: state,
      task_queue: config.TEMPORAL_TASK_QUEUE,
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
    details: () => ({ state: worker.getState(), task_queue: config.TEMPORAL_TASK_QUEUE }),
  });
  await beacon.start();
  life.onStop('heartbeat', () => beacon.stop());
  const running = worker.run();
  life.onStop('worker', async () => {
    worker.shutdown();
    await running;
  });
  logger.info(
    { taskQueue: config.TEMPORAL_TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE, health: health.port },
    'worker running',
  );
  await running;
}

main().catch((e) => fatal(require('pino')(), e));
