/**
 * Projector process: one Kafka consumer group per projection, each writing its
 * read model, and the webhook dispatcher (its own group), which starts a
 * delivery workflow per webhook message (docs/webhooks.md).
 */
import { createContext } from './context';
import { fatal, Lifecycle } from './lifecycle';
import { PROJECTIONS } from '../projections';
import { ProjectionConsumer } from '../projections/projector';
import { ensureTopics } from '../infra/kafka-topics';
import { EVENT_AREAS } from '../domain/events';
import { startHealthServer } from '../infra/health/server';
import { WebhookDispatcher } from './dispatch/webhooks';
import { createEventStore } from './adapters';
import { CalendarScheduler } from './dispatch/calendar-scheduler';

async function main(): Promise<void> {
  const ctx = createContext('projector');
  const { config, logger } = ctx;
  const life = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS).listen();
  life.onStop('context', () => ctx.close());
  await ensureTopics(
    ctx.kafka,
    config.KAFKA_TOPIC_PREFIX,
    EVENT_AREAS,
    config.KAFKA_TOPIC_PARTITIONS,
    config.KAFKA_REPLICATION_FACTOR,
  );
  const consumers = PROJECTIONS.map(
    (p) =>
      new ProjectionConsumer(ctx.db, ctx.kafka, p, logger, {
        topicPrefix: config.KAFKA_TOPIC_PREFIX,
        partitionsConcurrently: config.PROJECTOR_PARTITIONS_CONCURRENTLY,
      }),
  );
  for (const c of consumers) {
    await c.start();
    life.onStop(`consumer ${c.groupId}`, () => c.stop());
  }
  const dispatcher = new WebhookDispatcher(
    ctx.db,
    createEventStore(ctx.db),
    ctx.kafka,
    async () => (await ctx.temporal()).client,
    logger,
    { topicPrefix: config.KAFKA_TOPIC_PREFIX, taskQueue: config.TEMPORAL_TASK_QUEUE },
  );
  await dispatcher.start();
  life.onStop(`consumer ${dispatcher.groupId}`, () => dispatcher.stop());
  // Calendar publishing timers: CalendarEventScheduled/Unscheduled → start/cancel their workflows.
  const scheduler = new CalendarScheduler(
    createEventStore(ctx.db),
    ctx.kafka,
    async () => (await ctx.temporal()).client,
    logger,
    { topicPrefix: config.KAFKA_TOPIC_PREFIX, taskQueue: config.TEMPORAL_TASK_QUEUE },
  );
  await scheduler.start();
  life.onStop(`consumer ${scheduler.groupId}`, () => scheduler.stop());
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
