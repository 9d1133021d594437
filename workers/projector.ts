/**
 * Projector process: one Kafka consumer group per projection, each writing its
 * read model, and the webhook dispatcher (its own group), which starts a
 * delivery workflow per webhook message (docs/webhooks.md).
 */
import { createContext } from './context';
import { fatal, Lifecycle, startWithRetry } from './lifecycle';
import { PROJECTIONS } from '../projections';
import { ProjectionConsumer, stallOf } from '../projections/projector';
import { ensureTopics } from '../infra/kafka-topics';
import { EVENT_AREAS } from '../domain/events';
import { startHealthServer } from '../infra/health/server';
import { ProcessBeacon } from '../infra/health/beacon';
import { projectionLags } from '../projections/stats';
import { WebhookDispatcher } from './dispatch/webhooks';
import { createEventStore } from './adapters';
import { CalendarScheduler } from './dispatch/calendar-scheduler';

async function main(): Promise<void> {
  const ctx = createContext('projector');
  const { config, logger } = ctx;
  const life = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS).listen();
  life.onStop('context', () => ctx.close());
  await startWithRetry('creating the topics', life, logger, () =>
    ensureTopics(
      ctx.kafka,
      config.KAFKA_TOPIC_PREFIX,
      EVENT_AREAS,
      config.KAFKA_TOPIC_PARTITIONS,
      config.KAFKA_REPLICATION_FACTOR,
    ),
  );
  const consumers = PROJECTIONS.map(
    (p) =>
      new ProjectionConsumer(ctx.db, ctx.kafka, p, logger, {
        topicPrefix: config.KAFKA_TOPIC_PREFIX,
        partitionsConcurrently: config.PROJECTOR_PARTITIONS_CONCURRENTLY,
      }),
  );
  // All groups leave at once (the projections', the dispatcher's, the scheduler's): one by one, their rebalances would
  // add up past the shutdown bound (seen: 5.6 s instead of 3).
  const started: { stop(): Promise<void> }[] = [];
  life.onStop('consumer groups', () => Promise.all(started.map((c) => c.stop())));
  for (const c of consumers) {
    await startWithRetry(
      `starting consumer ${c.groupId}`,
      life,
      logger,
      () => c.start(),
      () => c.stop(),
    );
    started.push(c);
  }
  const dispatcher = new WebhookDispatcher(
    ctx.db,
    createEventStore(ctx.db),
    ctx.kafka,
    async () => (await ctx.temporal()).client,
    logger,
    { topicPrefix: config.KAFKA_TOPIC_PREFIX, taskQueue: config.TEMPORAL_TASK_QUEUE },
  );
  await startWithRetry(
    'starting the webhook dispatcher',
    life,
    logger,
    () => dispatcher.start(),
    () => dispatcher.stop(),
  );
  started.push(dispatcher);
  // Calendar publishing timers: CalendarEventScheduled/Unscheduled → start/cancel their workflows.
  const scheduler = new CalendarScheduler(
    createEventStore(ctx.db),
    ctx.kafka,
    async () => (await ctx.temporal()).client,
    logger,
    { topicPrefix: config.KAFKA_TOPIC_PREFIX, taskQueue: config.TEMPORAL_TASK_QUEUE },
  );
  await startWithRetry(
    'starting the calendar scheduler',
    life,
    logger,
    () => scheduler.start(),
    () => scheduler.stop(),
  );
  started.push(scheduler);
  // Each projection's lag behind Kafka, measured at most every 5 s, rides on the heartbeat (read by /api/health).
  const admin = ctx.kafka.admin();
  await startWithRetry('connecting the Kafka admin', life, logger, () => admin.connect());
  life.onStop('kafka admin', () => admin.disconnect());
  let lags: { at: number; value: Awaited<ReturnType<typeof projectionLags>> } = { at: 0, value: {} };
  const measureLags = async () => {
    if (Date.now() - lags.at > 5000)
      lags = { at: Date.now(), value: await projectionLags(ctx.db, admin, config.KAFKA_TOPIC_PREFIX, PROJECTIONS) };
    return lags.value;
  };
  // The watchdog: a consumer with messages waiting that has finished no batch for PROJECTOR_STALL_MS is replaced.
  const stallMs = config.PROJECTOR_STALL_MS;
  const watchdog =
    stallMs > 0
      ? setInterval(
          () => {
            void measureLags()
              .then((measured) => {
                for (const c of consumers) {
                  const stalled = stallOf(c, measured[c.projectionName]?.lag_messages ?? 0, stallMs);
                  if (stalled) void c.restart(stalled);
                }
              })
              .catch((err) => logger.warn({ err }, 'projection lags not measured'));
          },
          Math.min(10_000, stallMs),
        ).unref()
      : undefined;
  life.onStop('projection watchdog', () => clearInterval(watchdog));
  const beacon = new ProcessBeacon(ctx.db, 'projector', logger, {
    everyMs: config.PROCESS_HEARTBEAT_MS,
    details: async () => {
      const measured = await measureLags();
      return {
        projections: Object.fromEntries(
          Object.entries(measured).map(([n, l]) => {
            const c = consumers.find((x) => x.projectionName === n);
            return [n, { lag_messages: l.lag_messages, running: c?.isRunning ?? false, restarts: c?.restarts ?? 0 }];
          }),
        ),
        webhook_dispatcher: { running: dispatcher.isRunning, started: dispatcher.started },
        calendar_scheduler: { running: scheduler.isRunning },
      };
    },
  });
  await beacon.start();
  life.onStop('heartbeat', () => beacon.stop());
  const health = await startHealthServer(config.PROJECTOR_HEALTH_PORT, async () => ({
    status:
      consumers.every((c) => c.isRunning && !c.lastError) &&
      dispatcher.isRunning &&
      !dispatcher.lastError &&
      scheduler.isRunning &&
      !scheduler.lastError
        ? 'ok'
        : 'degraded',
    projections: Object.fromEntries(
      consumers.map((c) => [c.groupId, { running: c.isRunning, applied: c.applied, last_error: c.lastError ?? null }]),
    ),
    webhook_dispatcher: {
      running: dispatcher.isRunning,
      started: dispatcher.started,
      last_error: dispatcher.lastError ?? null,
    },
    calendar_scheduler: {
      running: scheduler.isRunning,
      started: scheduler.started,
      cancelled: scheduler.cancelled,
      last_error: scheduler.lastError ?? null,
    },
  }));
  life.onStop('health server', () => new Promise((r) => health.close(r)));
  logger.info({ projections: PROJECTIONS.map((p) => p.name), health: health.port }, 'projector running');
}

main().catch((e) => fatal(require('pino')(), e));
