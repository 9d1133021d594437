/**
 * Tables of the shared rate limiter (infra/ratelimit/postgres.ts): one counter
 * row per (bucket, window start), shared by every API process; and the
 * last-use time of each credential, written in the same statement as the
 * counters (operational metadata, not an event).
 */
import type { Migration } from '../migrate';

export const rateLimitMigration: Migration = {
  name: '0010_rate_limits',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE rate_limit_counters (
        bucket text NOT NULL,
        window_start bigint NOT NULL,
        count integer NOT NULL,
        limit_value integer NOT NULL,
        expires_at bigint NOT NULL,
        PRIMARY KEY (bucket, window_start)
      );
      CREATE INDEX rate_limit_counters_expiry ON rate_limit_counters (expires_at);
      CREATE TABLE credential_last_used (
        credential_id text PRIMARY KEY,
        last_used_at timestamptz NOT NULL
      );
    `);
  },
  async down(knex) {
    await knex.raw('DROP TABLE IF EXISTS credential_last_used; DROP TABLE IF EXISTS rate_limit_counters;');
  },
};
