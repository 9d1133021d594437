/**
 * Where each running platform process says it is alive (infra/health/beacon.ts):
 * one row per process instance, refreshed every few seconds, removed on a
 * clean stop. Operational metadata read by /api/health, not an event.
 */
import type { Migration } from '../migrate';

export const platformProcessesMigration: Migration = {
  name: '0020_platform_processes',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE platform_processes (
        instance_id text PRIMARY KEY,
        process text NOT NULL,
        pid integer NOT NULL,
        host text NOT NULL,
        started_at timestamptz NOT NULL,
        beat_at timestamptz NOT NULL,
        details jsonb NOT NULL DEFAULT '{}'
      );
      CREATE INDEX platform_processes_process ON platform_processes (process, beat_at);
    `);
  },
  async down(knex) {
    await knex.raw('DROP TABLE IF EXISTS platform_processes;');
  },
};
