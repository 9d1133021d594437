/** Projector process: one Kafka consumer group per projection, each writing its read model. */
import { createContext } from './context';
import { fatal, Lifecycle } from './lifecycle';
import { PROJECTIONS } from '../projections';
import { ProjectionConsumer } from '../projections/projector';
import { ensureTopics } from '../infra/kafka-topics';
import { EVENT_AREAS } from '../domain/events';
import { startHealthServer } from '../infra/health/server';

async function main(): Promise<void> {
  const ctx = createContext('projector');
  const { config, logger } = ctx;
  const life = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS).listen();
  life.onStop('context', () => ctx.close());
  await ensureTopics(ctx.kafka, config.KAFKA_TOPIC_PREFIX, EVENT_AREAS, config.KAFKA_TOPIC_PARTITIONS, config.KAFKA_REPLICATION_FACTOR);
  const consumers = PROJECTIONS.map((p) => new ProjectionConsumer(ctx.db, ctx.kafka, p, logger, { topicPrefix: config.KAFKA_TOPIC_PREFIX }));
  for (const c of consumers) {
    await c.start();
    life.onStop(`consumer ${c.groupId}`, () => c.stop());
  }
  const health = await startHealthServer(config.PROJECTOR_HEALTH_PORT, async () => ({
    status: consumers.every((c) => c.isRunning && !c.lastError) ? 'ok' : 'degraded',
    projections: Object.fromEntries(consumers.map((c) => [c.groupId, { running: c.isRunning, applied: c.applied, last_error: c.lastError ?? null }])),
  }));
  life.onStop('health server', () => new Promise((r) => health.close(r)));
  logger.info({ projections: PROJECTIONS.map((p) => p.name), health: health.port }, 'projector running');
}

main().catch((e) => fatal(require('pino')(), e));
