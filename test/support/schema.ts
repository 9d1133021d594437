/**
 * A private PostgreSQL schema for one test file: its own event store,
 * checkpoints and projection tables, so tests that run relays and projectors
 * (and compare whole tables) cannot see each other's events. Child processes
 * get the same schema through the connection string (search_path option).
 * Its Kafka topics are deleted by the next run's global setup once the schema is gone (deleted at the drop, they
 * turned a consumer still leaving its group within its grace into errors logged after the file's end).
 */
import { privateSchema, PrivateSchema } from '../../infra/db/private-schema';
import { MIGRATIONS } from '../../workers/migrations';
import { testConfig } from './env';

export type IsolatedSchema = PrivateSchema;

export function isolatedSchema(poolMax = 10): Promise<IsolatedSchema> {
  return privateSchema(testConfig().DATABASE_URL, MIGRATIONS, { prefix: 't', poolMax });
}
