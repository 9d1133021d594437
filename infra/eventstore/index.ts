/**
 * The event store as the rest of the platform sees it: the port's types and
 * one factory. Only infra/ and workers/ know which adapter stands behind it.
 */
import type { Knex } from 'knex';
import type { EventStore } from './port';
import { PostgresEventStore, PostgresEventStoreOptions } from './postgres';

export * from './port';
export { ConcurrencyError, EventDataRejectedError, EventValidationError } from './errors';

export type { PostgresEventStoreOptions as EventStoreOptions } from './postgres';

/** The PostgreSQL event store over `db` (tables of infra/db/migrations/0001_event_store.ts). */
export function createEventStore(db: Knex, options: PostgresEventStoreOptions = {}): EventStore {
  return new PostgresEventStore(db, undefined, options);
}
