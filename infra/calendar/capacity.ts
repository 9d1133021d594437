/**
 * The event-count limit of calendars, held atomically (table
 * calendar_event_counts): a reservation is one conditional upsert in the
 * event store transaction that appends the new events, so two concurrent
 * creations can never both take the last place; a deletion gives its place
 * back in the transaction that appends CalendarEventDeleted. Not a
 * projection: it must be exact at the moment of the write, which a projection
 * that lags cannot be.
 */
import type { Knex } from 'knex';
import type { Migration } from '../db/migrate';
import type { StoreTx } from '../eventstore/port';
import { sqlTransaction } from '../eventstore/postgres';
import { CalendarFullError } from '../../domain/errors';

const T = 'calendar_event_counts';

export const calendarCapacityMigration: Migration = {
  name: '0030_calendar_event_counts',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE ${T} (
        calendar_id text PRIMARY KEY,
        events integer NOT NULL CHECK (events >= 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  },
  async down(knex) {
    await knex.schema.dropTableIfExists(T);
  },
};

/** Takes `n` places in the calendar or throws CalendarFullError (nothing taken). */
export async function reserveEvents(tx: StoreTx, calendarId: string, n: number, limit: number): Promise<number> {
  const trx = sqlTransaction(tx);
  const r = await trx.raw(
    `INSERT INTO ${T} AS t (calendar_id, events) SELECT ?, ?::int WHERE ?::int <= ?::int
       ON CONFLICT (calendar_id) DO UPDATE SET events = t.events + EXCLUDED.events, updated_at = now()
       WHERE t.events + EXCLUDED.events <= ?::int
     RETURNING events`,
    [calendarId, n, n, limit, limit],
  );
  if (r.rows.length === 0) {
    const used = await currentEvents(trx, calendarId);
    throw new CalendarFullError(`The calendar has reached its event limit (${limit} events)`, {
      limit,
      current_events: used,
      requested: n,
    });
  }
  return Number(r.rows[0].events);
}

/** Gives back `n` places (an event was deleted). */
export async function releaseEvents(tx: StoreTx, calendarId: string, n: number): Promise<void> {
  await sqlTransaction(tx).raw(
    `UPDATE ${T} SET events = greatest(events - ?, 0), updated_at = now() WHERE calendar_id = ?`,
    [n, calendarId],
  );
}

export async function currentEvents(db: Knex, calendarId: string): Promise<number> {
  const r = await db(T).where({ calendar_id: calendarId }).first('events');
  return r ? Number(r.events) : 0;
}
