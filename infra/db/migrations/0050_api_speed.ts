/**
 * What the API needs to answer without a PostgreSQL write per request
 * (docs/api.md, "Credentials" and "Rate limits"):
 *
 *   - `rate_limit_counters.last_grant`: the units the last lease statement
 *     handed out, so the process that asked learns it from RETURNING
 *     (infra/ratelimit/postgres.ts).
 *   - a trigger on `es_events` that sends `NOTIFY identity_changes` with
 *     "<schema> <stream id>" for every event appended to an identity stream
 *     (user-, apikey-, session-, oauthtoken-). NOTIFY is transactional: it is
 *     delivered when the append commits, by the event store itself, so every
 *     API process drops its cached credential at once even while the
 *     projector is down (api/identity/credential-cache.ts).
 */
import type { Migration } from '../migrate';

export const IDENTITY_CHANNEL = 'identity_changes';

export const apiSpeedMigration: Migration = {
  name: '0050_api_speed',
  async up(knex) {
    await knex.raw(`
      ALTER TABLE rate_limit_counters ADD COLUMN last_grant integer NOT NULL DEFAULT 0;
      CREATE FUNCTION es_notify_identity() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${IDENTITY_CHANNEL}', TG_TABLE_SCHEMA || ' ' || NEW.stream_id);
        RETURN NULL;
      END $$;
      CREATE TRIGGER es_events_notify_identity AFTER INSERT ON es_events FOR EACH ROW
        WHEN (NEW.stream_id LIKE 'user-%' OR NEW.stream_id LIKE 'apikey-%'
              OR NEW.stream_id LIKE 'session-%' OR NEW.stream_id LIKE 'oauthtoken-%')
        EXECUTE FUNCTION es_notify_identity();
    `);
  },
  async down(knex) {
    await knex.raw(`
      DROP TRIGGER IF EXISTS es_events_notify_identity ON es_events;
      DROP FUNCTION IF EXISTS es_notify_identity();
      ALTER TABLE rate_limit_counters DROP COLUMN IF EXISTS last_grant;
    `);
  },
};
