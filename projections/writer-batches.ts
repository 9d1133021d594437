/**
 * Writer batches: one row per batch (what it holds, where its notification
 * goes and how that delivery went), written only by the events of stream
 * `writerbatch-<batch_id>`. The items' own state is in task-status (their
 * task ids are `<batch_id>-item-<n>`). Serves the batch status routes.
 */
import type { Knex } from 'knex';
import { defineProjection } from './framework';

const T = 'writer_batches';

export const writerBatchesProjection = defineProjection({
  name: 'writer-batches',
  migrationName: '0131_projection_writer_batches',
  areas: ['writers'],
  tables: [T],
  keys: { [T]: ['batch_id'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(T), (t) => {
      t.text('batch_id').primary();
      t.text('user_id').notNullable().index();
      t.text('platform').notNullable();
      t.integer('total').notNullable();
      t.jsonb('types').notNullable();
      t.text('notification_url');
      t.text('notification_status').notNullable();
      t.text('message_id');
      t.integer('attempts').notNullable();
      t.integer('last_status_code');
      t.text('last_error');
      t.timestamp('delivered_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
  handlers: {
    WriterBatchAccepted: (e) => [
      {
        op: 'upsert',
        table: T,
        key: { batch_id: e.data.batch_id },
        insert: {
          user_id: e.data.user_id,
          platform: e.data.platform,
          total: e.data.total,
          types: e.data.types,
          notification_url: e.data.notification_url,
          notification_status: e.data.notification_url ? 'pending' : 'none',
          attempts: 0,
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
        },
      },
    ],
    WriterBatchNotificationAttempted: (e) => {
      const delivered = e.data.outcome === 'succeeded';
      return [
        {
          op: 'update',
          table: T,
          key: { batch_id: e.data.batch_id },
          set: {
            message_id: e.data.message_id,
            notification_status: delivered ? 'delivered' : 'retrying',
            attempts: e.data.attempt,
            last_status_code: e.data.status_code,
            last_error: e.data.error,
            delivered_at: delivered ? e.recordedAt : null,
            updated_at: e.recordedAt,
          },
        },
      ];
    },
    WriterBatchNotificationFinished: (e) => [
      {
        op: 'update',
        table: T,
        key: { batch_id: e.data.batch_id },
        set: { notification_status: e.data.status, attempts: e.data.attempts, updated_at: e.recordedAt },
      },
    ],
  },
});

export interface WriterBatchRecord {
  batch_id: string;
  platform: string;
  total: number;
  types: string[];
  notification?: {
    url: string;
    /** `pending` (not tried yet), `retrying`, `delivered`, `failed` (gave up). */
    status: string;
    message_id: string | null;
    attempts: number;
    last_status_code: number | null;
    last_error: string | null;
    delivered_at: string | null;
  };
}

/** Read query: the user's batch, or undefined (another user's batch is indistinguishable from a missing one). */
export async function getWriterBatch(
  db: Knex,
  userId: string,
  batchId: string,
): Promise<WriterBatchRecord | undefined> {
  const r = await db(T).where({ batch_id: batchId, user_id: userId }).first();
  if (!r) return undefined;
  return {
    batch_id: r.batch_id,
    platform: r.platform,
    total: r.total,
    types: r.types,
    ...(r.notification_url
      ? {
          notification: {
            url: r.notification_url,
            status: r.notification_status,
            message_id: r.message_id ?? null,
            attempts: r.attempts,
            last_status_code: r.last_status_code ?? null,
            last_error: r.last_error ?? null,
            delivered_at: r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
          },
        }
      : {}),
  };
}
