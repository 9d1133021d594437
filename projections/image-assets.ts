/**
 * Image assets (image studio): which stored image files each user got, from
 * the ImageStored events. Serves the owner check of
 * GET /api/image-studio/images/{key}: a file another user produced is 404.
 */
import type { Knex } from 'knex';
import { defineProjection } from './framework';

const T = 'image_assets';

export const imageAssetsProjection = defineProjection({
  name: 'image-assets',
  migrationName: '0136_projection_image_assets',
  areas: ['image'],
  tables: [T],
  keys: { [T]: ['user_id', 'key'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(T), (t) => {
      t.text('user_id').notNullable();
      t.text('key').notNullable();
      t.text('content_type').notNullable();
      t.integer('width').notNullable();
      t.integer('height').notNullable();
      t.bigInteger('bytes').notNullable();
      t.text('operation').notNullable();
      t.text('provider').notNullable();
      t.text('model').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.primary(['user_id', 'key']);
    });
  },
  handlers: {
    ImageStored: (e) => [
      {
        op: 'upsert',
        table: T,
        key: { user_id: e.data.user_id, key: e.data.key },
        insert: {
          content_type: e.data.content_type,
          width: e.data.width,
          height: e.data.height,
          bytes: e.data.bytes,
          operation: e.data.operation,
          provider: e.data.provider,
          model: e.data.model,
          created_at: e.recordedAt,
        },
        // The first record of an asset stays (the same bytes made again are the same asset).
        update: {},
      },
    ],
  },
});

export interface ImageAssetRecord {
  key: string;
  content_type: string;
  width: number;
  height: number;
  bytes: number;
  operation: string;
  provider: string;
  model: string;
  created_at: string;
}

/** Read query: the caller's asset, or undefined (another user's is indistinguishable from a missing one). */
export async function getImageAsset(db: Knex, userId: string, key: string): Promise<ImageAssetRecord | undefined> {
  const r = await db(T).where({ user_id: userId, key }).first();
  if (!r) return undefined;
  return {
    key: r.key,
    content_type: r.content_type,
    width: r.width,
    height: r.height,
    bytes: Number(r.bytes),
    operation: r.operation,
    provider: r.provider,
    model: r.model,
    created_at: new Date(r.created_at).toISOString(),
  };
}
