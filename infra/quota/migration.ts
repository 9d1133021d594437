/**
 * Plan limits are enforced in PostgreSQL in the same path as the action (not
 * from a projection): quota_usage holds, per user, billing period and limit key,
 * what is used and what is reserved by calls in flight; quota_reservations holds
 * each reservation under its idempotency key (workflow id + activity id).
 */
import type { Migration } from '../db/migrate';

export const quotaMigration: Migration = {
  name: '0003_quota',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE quota_usage (
        user_id text NOT NULL,
        billing_period char(7) NOT NULL,
        limit_key text NOT NULL,
        used numeric(24, 8) NOT NULL DEFAULT 0,
        reserved numeric(24, 8) NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, billing_period, limit_key),
        CHECK (reserved >= 0)
      );
      CREATE TABLE quota_reservations (
        reservation_id text PRIMARY KEY,
        user_id text NOT NULL,
        billing_period char(7) NOT NULL,
        provider text NOT NULL,
        amounts jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('reserved', 'settled', 'released')),
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      );
      CREATE INDEX quota_reservations_open ON quota_reservations (created_at) WHERE status = 'reserved';
    `);
  },
  async down(knex) {
    await knex.raw('DROP TABLE IF EXISTS quota_reservations; DROP TABLE IF EXISTS quota_usage;');
  },
};
