/**
 * Threshold alerts are raised where usage is known atomically: in the meter's
 * settle transaction. quota_alerts remembers which threshold of which limit key
 * has been raised for a user in a period, so each is raised exactly once.
 */
import type { Migration } from '../db/migrate';

export const quotaAlertsMigration: Migration = {
  name: '0004_quota_alerts',
  async up(knex) {
    await knex.raw(`
      ALTER TABLE quota_reservations ADD COLUMN limits jsonb NOT NULL DEFAULT '{}'::jsonb;
      CREATE TABLE quota_alerts (
        alert_key text PRIMARY KEY,
        user_id text NOT NULL,
        raised_at timestamptz NOT NULL DEFAULT now()
      );
    `);
  },
  async down(knex) {
    await knex.raw('DROP TABLE IF EXISTS quota_alerts; ALTER TABLE quota_reservations DROP COLUMN IF EXISTS limits;');
  },
};
