/**
 * What every process shares: validated configuration, a logger, the database
 * pool, the Kafka client and a lazily connected Temporal client. Processes
 * build exactly one context at start.
 */
import { Knex } from 'knex';
import { Kafka } from 'kafkajs';
import { Client, Connection } from '@temporalio/client';
import { Logger } from 'pino';
import { Config, config as loadConfig } from '../infra/config';
import { createLogger } from '../infra/logger';
import { createDb } from '../infra/db/knex';
import { createKafka } from '../infra/kafka';
import { connectTemporal } from '../infra/temporal';
import { checkAll, kafkaProbe, postgresProbe, temporalProbe } from '../infra/health/checks';

export interface Context {
  config: Config;
  logger: Logger;
  db: Knex;
  kafka: Kafka;
  /** Connects on first use and reconnects after a failure, so a process can start while Temporal is still coming up. */
  temporal(): Promise<{ client: Client; connection: Connection }>;
  /** Health of PostgreSQL, Temporal and Kafka with latencies. */
  health(): ReturnType<typeof checkAll>;
  close(): Promise<void>;
}

export function createContext(processName: string, overrides: Partial<Config> = {}): Context {
  const config = { ...loadConfig(), ...overrides };
  const logger = createLogger(processName, config.LOG_LEVEL, config.LOG_BUFFER_BYTES);
  const db = createDb({ url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX, applicationName: processName });
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: `${config.KAFKA_CLIENT_ID}-${processName}` });
  let temporalPromise: Promise<{ client: Client; connection: Connection }> | undefined;
  const temporal = () => {
    if (!temporalPromise) {
      temporalPromise = connectTemporal({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE });
      temporalPromise.catch(() => (temporalPromise = undefined));
    }
    return temporalPromise;
  };
  const kafkaHealth = kafkaProbe(kafka);
  return {
    config,
    logger,
    db,
    kafka,
    temporal,
    health: () =>
      checkAll({
        postgres: postgresProbe(db),
        temporal: temporalProbe(async () => (await temporal()).connection, config.TEMPORAL_NAMESPACE),
        kafka: kafkaHealth,
      }),
    async close() {
      await kafkaHealth.close();
      if (temporalPromise) await (await temporalPromise.catch(() => undefined))?.connection.close();
      await db.destroy();
    },
  };
}
