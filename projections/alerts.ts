/**
 * Alerts. The alert id is the global position of its AlertRaised event: an
 * integer (as the spec wants) that is the same live and after replay.
 * alert_key is unique, so a threshold alert exists once however often its
 * event is raised or re-delivered.
 */
import type { Knex } from 'knex';
import { defineProjection } from './framework';

const T = 'alerts';

export const alertsProjection = defineProjection({
  name: 'alerts',
  migrationName: '0102_projection_alerts',
  areas: ['alerts'],
  tables: [T],
  keys: { [T]: ['id'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(T), (t) => {
      t.bigInteger('id').primary();
      t.text('alert_key').notNullable().unique();
      t.text('user_id').notNullable().index();
      t.text('title').notNullable();
      t.text('message').notNullable();
      t.text('severity').notNullable();
      t.text('alert_type').notNullable();
      t.string('billing_period', 7).notNullable();
      t.boolean('read').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
  },
  handlers: {
    AlertRaised: (e) => [
      {
        op: 'upsert',
        table: T,
        key: { alert_key: e.data.alert_key },
        insert: {
          id: Number(e.globalPosition),
          user_id: e.data.user_id,
          title: e.data.title,
          message: e.data.message,
          severity: e.data.severity,
          alert_type: e.data.alert_type,
          billing_period: e.data.billing_period,
          created_at: e.recordedAt,
        },
      },
    ],
    AlertMarkedRead: (e) => [
      { op: 'update', table: T, key: { id: e.data.alert_id, user_id: e.data.user_id }, set: { read: true } },
    ],
  },
});

export interface Alert {
  id: number;
  user_id: string;
  title: string;
  message: string;
  severity: string;
  alert_type: string;
  created_at: string;
  read: boolean;
}

export async function listAlerts(db: Knex, userId: string, unreadOnly: boolean): Promise<Alert[]> {
  const q = db(T).where({ user_id: userId }).orderBy('id', 'desc');
  if (unreadOnly) q.andWhere({ read: false });
  const rows = await q;
  return rows.map((r) => ({
    id: Number(r.id),
    user_id: r.user_id,
    title: r.title,
    message: r.message,
    severity: r.severity,
    alert_type: r.alert_type,
    created_at: new Date(r.created_at).toISOString(),
    read: r.read,
  }));
}

/** One alert by id (any user's: the caller checks ownership). */
export async function getAlert(db: Knex, id: number): Promise<Alert | undefined> {
  const r = await db(T).where({ id }).first();
  return r
    ? {
        id: Number(r.id),
        user_id: r.user_id,
        title: r.title,
        message: r.message,
        severity: r.severity,
        alert_type: r.alert_type,
        created_at: new Date(r.created_at).toISOString(),
        read: r.read,
      }
    : undefined;
}

/** How many of a user's alerts are unread. */
export async function countUnread(db: Knex, userId: string): Promise<number> {
  const r = await db(T).where({ user_id: userId, read: false }).count<{ n: string }[]>({ n: '*' });
  return Number(r[0]?.n ?? 0);
}
