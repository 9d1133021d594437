/**
 * A private PostgreSQL schema with the platform's whole schema migrated into
 * it, for work that must not see or touch anyone else's tables (tests,
 * benchmarks). Processes started with `url` use it too: the schema is set as
 * the search_path in the connection string.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Kafka } from 'kafkajs';
import { deleteTopicsOf } from '../kafka-topics';
import { createDb } from './knex';
import { migrateLatest, Migration } from './migrate';

export interface PrivateSchema {
  name: string;
  url: string;
  db: Knex;
  /** A Kafka topic prefix to go with the schema. */
  topicPrefix: string;
  /** Drops the schema and, when a Kafka client was given, the topics of its prefix. */
  drop(): Promise<void>;
}

export async function privateSchema(
  baseUrl: string,
  migrations: Migration[],
  opts: { prefix: string; poolMax?: number; kafka?: Kafka },
): Promise<PrivateSchema> {
  const name = `${opts.prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = createDb({ url: baseUrl, poolMax: 1 });
  await admin.raw('CREATE SCHEMA ??', [name]);
  await admin.destroy();
  const url = `${baseUrl}${baseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${name}`)}`;
  const db = createDb({ url, poolMax: opts.poolMax ?? 10 });
  await migrateLatest(db, migrations);
  const topicPrefix = `${opts.prefix === 't' ? 'test' : opts.prefix}-${name}`;
  return {
    name,
    url,
    db,
    topicPrefix,
    async drop() {
      await db.destroy();
      const a = createDb({ url: baseUrl, poolMax: 1 });
      await a.raw('DROP SCHEMA ?? CASCADE', [name]);
      await a.destroy();
      if (opts.kafka) await deleteTopicsOf(opts.kafka, topicPrefix);
    },
  };
}
