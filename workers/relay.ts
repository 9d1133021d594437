/** Event relay process: event store (commit order) -> Kafka, checkpoint after ack. */
import { createContext } from './context';
import { fatal, Lifecycle, startWithRetry } from './lifecycle';
import { Relay } from '../infra/relay/relay';
import { createEventStore } from './adapters';
import { ensureTopics } from '../infra/kafka-topics';
import { EVENT_AREAS } from '../domain/events';
import { startHealthServer } from '../infra/health/server';
import { ProcessBeacon } from '../infra/health/beacon';

async function main(): Promise<void> {
  const ctx = createContext('relay');
  const { config, logger } = ctx;
  const life = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS).listen();
  life.onStop('context', () => ctx.close());
  const store = createEventStore(ctx.db);
  const relay = new Relay(ctx.db, store, ctx.kafka, logger, {
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
  });
  await startWithRetry(
    'connecting to Kafka',
    life,
    logger,
    async () => {
      await ensureTopics(
        ctx.kafka,
        config.KAFKA_TOPIC_PREFIX,
        EVENT_AREAS,
        config.KAFKA_TOPIC_PARTITIONS,
        config.KAFKA_REPLICATION_FACTOR,
      );
      await relay.start();
    },
    () => relay.close(),
  );
  life.onStop('producer', () => relay.close());
  const beacon = new ProcessBeacon(ctx.db, 'relay', logger, {
    everyMs: config.PROCESS_HEARTBEAT_MS,
    details: async () => ({
      relayed: relay.relayed,
      checkpoint: relay.checkpoint,
      last_error: relay.lastError ?? null,
    }),
  });
  await beacon.start();
  life.onStop('heartbeat', () => beacon.stop());
  const health = await startHealthServer(config.RELAY_HEALTH_PORT, async () => ({
    status: relay.lastError ? 'degraded' : 'ok',
    relayed: relay.relayed,
    checkpoint: relay.checkpoint,
    last_error: relay.lastError ?? null,
  }));
  life.onStop('health server', () => new Promise((r) => health.close(r)));
  const running = relay.run();
  life.onStop('relay loop', async () => {
    relay.stop();
    await running;
  });
  logger.info({ checkpoint: relay.checkpoint, health: health.port }, 'relay running');
}

main().catch((e) => fatal(require('pino')(), e));
