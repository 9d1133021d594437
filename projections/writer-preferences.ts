/**
 * Writer preferences: each user's latest saved preferences, written only by
 * WriterPreferencesSaved (stream `writerprefs-<user_id>`, which carries the
 * full preferences, so each event replaces the row). Serves
 * GET /api/profnet/user/preferences and the defaults of every generation.
 */
import type { Knex } from 'knex';
import { defineProjection } from './framework';
import { normalisePreferences, WriterPreferences } from '../domain/writers/preferences';

const T = 'writer_preferences';

export const writerPreferencesProjection = defineProjection({
  name: 'writer-preferences',
  migrationName: '0130_projection_writer_preferences',
  areas: ['writers'],
  tables: [T],
  keys: { [T]: ['user_id'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(T), (t) => {
      t.text('user_id').primary();
      t.jsonb('preferences').notNullable();
      t.integer('versions').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
  handlers: {
    WriterPreferencesSaved: (e) => [
      {
        op: 'upsert',
        table: T,
        key: { user_id: e.data.user_id },
        insert: { preferences: e.data.preferences, versions: 1, created_at: e.recordedAt, updated_at: e.recordedAt },
        update: { preferences: e.data.preferences, versions: { $inc: 1 }, updated_at: e.recordedAt },
      },
    ],
  },
});

export interface WriterPreferencesRecord {
  preferences: WriterPreferences;
  /** How many saves changed them. */
  versions: number;
  created_at: string;
  updated_at: string;
}

/** Read query: the user's saved preferences, or undefined when none were saved. */
export async function getWriterPreferences(db: Knex, userId: string): Promise<WriterPreferencesRecord | undefined> {
  const r = await db(T).where({ user_id: userId }).first();
  if (!r) return undefined;
  return {
    preferences: normalisePreferences(r.preferences),
    versions: r.versions,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}
