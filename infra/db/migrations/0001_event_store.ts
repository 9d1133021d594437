/**
 * The event store: one append-only table of every domain event, plus a row per
 * stream holding its version for optimistic concurrency.
 *
 * transaction_id records the writing transaction (xid8). Readers page through
 * (transaction_id, global_position) below pg_snapshot_xmin(pg_current_snapshot()):
 * a bigserial is taken at insert time but becomes visible at commit time, so
 * ordering by global_position alone would let a reader skip the event of a slow
 * transaction that commits after a faster, later-numbered one.
 */
import type { Migration } from '../migrate';

export const eventStoreMigration: Migration = {
  name: '0001_event_store',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE es_streams (
        stream_id text PRIMARY KEY,
        version integer NOT NULL
      );
      CREATE TABLE es_events (
        global_position bigserial PRIMARY KEY,
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        event_id uuid NOT NULL UNIQUE,
        stream_id text NOT NULL,
        stream_position integer NOT NULL,
        type text NOT NULL,
        schema_version integer NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (stream_id, stream_position)
      );
      CREATE INDEX es_events_commit_order ON es_events (transaction_id, global_position);
      CREATE INDEX es_events_type ON es_events (type, global_position);
      CREATE INDEX es_events_recorded_at ON es_events (recorded_at);
      CREATE INDEX es_events_user ON es_events ((metadata->>'user_id'), global_position);
      -- Checkpoints of readers of the whole log (the relay): where each stopped.
      CREATE TABLE es_checkpoints (
        name text PRIMARY KEY,
        transaction_id xid8 NOT NULL,
        global_position bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `);
  },
  async down(knex) {
    await knex.raw(
      'DROP TABLE IF EXISTS es_checkpoints; DROP TABLE IF EXISTS es_events; DROP TABLE IF EXISTS es_streams;',
    );
  },
};
