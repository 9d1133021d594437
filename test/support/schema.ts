/**
 * A private PostgreSQL schema for one test file: its own event store,
 * checkpoints and projection tables, so tests that run relays and projectors
 * (and compare whole tables) cannot see each other's events. Child processes
 * get the same schema through the connection string (search_path option).
 * Dropping it deletes its Kafka topics too.
 */
import { privateSchema, PrivateSchema } from '../../infra/db/private-schema';
import { MIGRATIONS } from '../../workers/migrations';
import { testConfig, testKafka } from './env';

export type IsolatedSchema = PrivateSchema;

export function isolatedSchema(poolMax = 10): Promise<IsolatedSchema> {
  return privateSchema(testConfig().DATABASE_URL, MIGRATIONS, { prefix: 't', poolMax, kafka: testKafka() });
}
