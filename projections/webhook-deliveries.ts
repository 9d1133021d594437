/**
 * Webhook endpoints (stream `webhook-<endpoint_id>`) and their deliveries
 * (stream `delivery-<delivery_id>`): status, attempts, last response code and
 * next attempt. Each row is written by one stream's events only.
 */
import { defineProjection } from './framework';

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
        insert: { user_id: e.data.user_id, url: e.data.url, events: e.data.events, family: e.data.family, created_at: e.recordedAt, updated_at: e.recordedAt },
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
          ...(e.data.enabled !== undefined ? { enabled: e.data.enabled, disabled_reason: e.data.enabled ? null : 'disabled by user' } : {}),
          updated_at: e.recordedAt,
        },
      },
    ],
    WebhookDeleted: (e) => [{ op: 'update', table: E, key: { endpoint_id: e.data.endpoint_id }, set: { deleted: true, enabled: false, updated_at: e.recordedAt } }],
    WebhookDisabled: (e) => [{ op: 'update', table: E, key: { endpoint_id: e.data.endpoint_id }, set: { enabled: false, disabled_reason: e.data.reason, updated_at: e.recordedAt } }],
    WebhookDeliveryScheduled: (e) => [
      {
        op: 'upsert',
        table: D,
        key: { delivery_id: e.data.delivery_id },
        insert: { endpoint_id: e.data.endpoint_id, user_id: e.data.user_id, event_type: e.data.event_type, status: 'pending', created_at: e.recordedAt, updated_at: e.recordedAt },
      },
    ],
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
    WebhookDeliveryFinished: (e) => [{ op: 'update', table: D, key: { delivery_id: e.data.delivery_id }, set: { status: e.data.status, next_attempt_at: null, updated_at: e.recordedAt } }],
  },
});
