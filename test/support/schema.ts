/**
 * A private PostgreSQL schema for one test file: its own event store,
 * checkpoints and projection tables, so tests that run relays and projectors
 * (and compare whole tables) cannot see each other's events. Child processes
 * get the same schema through the connection string (search_path option).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createDb } from '../../infra/db/knex';
import { migrateLatest } from '../../infra/db/migrate';
import { MIGRATIONS } from '../../workers/migrations';
import { testConfig } from './env';

export interface IsolatedSchema {
  name: string;
  url: string;
  db: Knex;
  /** Unique Kafka topic prefix to go with the schema. */
  topicPrefix: string;
  drop(): Promise<void>;
}

export async function isolatedSchema(poolMax = 10): Promise<IsolatedSchema> {
  const base = testConfig().DATABASE_URL;
  const name = `t_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = createDb({ url: base, poolMax: 1 });
  await admin.raw('CREATE SCHEMA ??', [name]);
  await admin.destroy();
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${name}`)}`;
  const db = createDb({ url, poolMax });
  await migrateLatest(db, MIGRATIONS);
  return {
    name,
    url,
    db,
    topicPrefix: `test-${name}`,
    async drop() {
      await db.destroy();
      const a = createDb({ url: base, poolMax: 1 });
      await a.raw('DROP SCHEMA ?? CASCADE', [name]);
      await a.destroy();
    },
  };
}
