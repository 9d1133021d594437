/**
 * Webhook endpoints (stream `webhook-<endpoint_id>`) and their deliveries
 * (stream `delivery-<delivery_id>`): status, attempts, last response code and
 * next attempt. Each row is written by one stream's events only.
 */
import type { Knex } from 'knex';
import { Change, defineProjection } from './framework';
import type { RecordedEvent } from '../infra/eventstore/port';
import type { EventOfType } from '../domain/events';

const E = 'webhook_endpoints';
const D = 'webhook_deliveries';

export const webhookDeliveriesProjection = defineProjection({
  name: 'webhook-deliveries',
  migrationName: '0103_projection_webhook_deliveries',
  areas: ['webhooks'],
  tables: [E, D],
  keys: { [E]: ['endpoint_id'], [D]: ['delivery_id'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(E), (t) => {
      t.text('endpoint_id').primary();
      t.text('user_id').notNullable().index();
      t.text('url').notNullable();
      t.jsonb('events').notNullable();
      t.text('family').notNullable();
      t.boolean('enabled').notNullable().defaultTo(true);
      t.boolean('deleted').notNullable().defaultTo(false);
      t.text('disabled_reason');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable(name(D), (t) => {
      t.text('delivery_id').primary();
      t.text('endpoint_id').notNullable().index();
      t.text('user_id').notNullable();
      t.text('event_type').notNullable();
      t.text('status').notNullable();
      t.integer('attempts').notNullable().defaultTo(0);
      t.integer('last_status_code');
      t.text('last_error');
      t.timestamp('next_attempt_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
  handlers: {
    WebhookRegistered: (e) => [
      {
        op: 'upsert',
        table: E,
        key: { endpoint_id: e.data.endpoint_id },
        insert: {
          user_id: e.data.user_id,
          url: e.data.url,
          events: e.data.events,
          family: e.data.family,
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
        },
      },
    ],
    WebhookUpdated: (e) => [
      {
        op: 'update',
        table: E,
        key: { endpoint_id: e.data.endpoint_id },
        set: {
          ...(e.data.url !== undefined ? { url: e.data.url } : {}),
          ...(e.data.events !== undefined ? { events: e.data.events } : {}),
          ...(e.data.enabled !== undefined
            ? { enabled: e.data.enabled, disabled_reason: e.data.enabled ? null : 'disabled by user' }
            : {}),
          updated_at: e.recordedAt,
        },
      },
    ],
    WebhookDeleted: (e) => [
      {
        op: 'update',
        table: E,
        key: { endpoint_id: e.data.endpoint_id },
        set: { deleted: true, enabled: false, updated_at: e.recordedAt },
      },
    ],
    WebhookDisabled: (e) => [
      {
        op: 'update',
        table: E,
        key: { endpoint_id: e.data.endpoint_id },
        set: { enabled: false, disabled_reason: e.data.reason, updated_at: e.recordedAt },
      },
    ],
    WebhookDeliveryScheduled: (e) => pending(e),
    // Asked for by the API (test ping, redeliver): listed as pending before its workflow starts.
    WebhookDeliveryRequested: (e) => pending(e),
    WebhookDeliveryAttempted: (e) => [
      {
        op: 'update',
        table: D,
        key: { delivery_id: e.data.delivery_id },
        set: {
          attempts: e.data.attempt,
          last_status_code: e.data.status_code,
          last_error: e.data.error,
          next_attempt_at: e.data.next_attempt_at,
          status: e.data.outcome === 'succeeded' ? 'succeeded' : 'retrying',
          updated_at: e.recordedAt,
        },
      },
    ],
    WebhookDeliveryFinished: (e) => [
      {
        op: 'update',
        table: D,
        key: { delivery_id: e.data.delivery_id },
        set: { status: e.data.status, next_attempt_at: null, updated_at: e.recordedAt },
      },
    ],
  },
});

/** A delivery row, inserted once (by its request or its schedule, whichever of its stream comes first). */
function pending(
  e: RecordedEvent<EventOfType<'WebhookDeliveryScheduled'> | EventOfType<'WebhookDeliveryRequested'>>,
): Change[] {
  return [
    {
      op: 'upsert',
      table: D,
      key: { delivery_id: e.data.delivery_id },
      insert: {
        endpoint_id: e.data.endpoint_id,
        user_id: e.data.user_id,
        event_type: e.data.event_type,
        status: 'pending',
        created_at: e.recordedAt,
        updated_at: e.recordedAt,
      },
    },
  ];
}

const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

export interface EndpointRecord {
  endpoint_id: string;
  user_id: string;
  url: string;
  events: string[];
  family: string;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryRecord {
  delivery_id: string;
  endpoint_id: string;
  event_type: string;
  /** pending, retrying, succeeded, failed, endpoint_disabled */
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

function toEndpoint(r: Record<string, unknown>): EndpointRecord {
  return {
    endpoint_id: r.endpoint_id as string,
    user_id: r.user_id as string,
    url: r.url as string,
    events: r.events as string[],
    family: r.family as string,
    enabled: r.enabled as boolean,
    disabled_reason: (r.disabled_reason as string | null) ?? null,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

/** Read query: a user's endpoints of a family (deleted ones excluded), oldest first. */
export async function listEndpoints(db: Knex, userId: string, family?: string): Promise<EndpointRecord[]> {
  const q = db(E).where({ user_id: userId, deleted: false });
  if (family) q.andWhere({ family });
  return (await q.orderBy([{ column: 'created_at' }, { column: 'endpoint_id' }])).map(toEndpoint);
}

/** Read query: one endpoint of the user; another user's or a deleted endpoint is undefined. */
export async function getEndpoint(db: Knex, userId: string, endpointId: string): Promise<EndpointRecord | undefined> {
  const r = await db(E).where({ endpoint_id: endpointId, user_id: userId, deleted: false }).first();
  return r ? toEndpoint(r) : undefined;
}

/** Read query (dispatcher): the user's enabled endpoints subscribed to any of `names`. */
export async function subscribedEndpoints(db: Knex, userId: string, names: string[]): Promise<EndpointRecord[]> {
  const rows = await db(E)
    .where({ user_id: userId, enabled: true, deleted: false })
    .andWhere((q) => {
      for (const n of names) q.orWhereRaw('events @> ?::jsonb', [JSON.stringify([n])]);
    })
    .orderBy('endpoint_id');
  return rows.map(toEndpoint);
}

/** Read query: an endpoint's deliveries, newest first. */
export async function listDeliveries(
  db: Knex,
  userId: string,
  endpointId: string,
  opts: { limit?: number; status?: string } = {},
): Promise<DeliveryRecord[]> {
  const q = db(D).where({ endpoint_id: endpointId, user_id: userId });
  if (opts.status) q.andWhere({ status: opts.status });
  const rows = await q
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'delivery_id' }])
    .limit(opts.limit ?? 100);
  return rows.map((r) => ({
    delivery_id: r.delivery_id,
    endpoint_id: r.endpoint_id,
    event_type: r.event_type,
    status: r.status,
    attempts: r.attempts,
    last_status_code: r.last_status_code ?? null,
    last_error: r.last_error ?? null,
    next_attempt_at: iso(r.next_attempt_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  }));
}
