/**
 * Section continuity (blog writer): the latest continuity metrics of each
 * user's section, written only by the events of stream
 * `blogsection-<user_id>:<section_id>`. Serves GET /api/blog/section/{section_id}/continuity.
 */
import type { Knex } from 'knex';
import { defineProjection } from './framework';
import type { ContinuityMetrics } from '../domain/blog/continuity';

const T = 'section_continuity';

export const sectionContinuityProjection = defineProjection({
  name: 'section-continuity',
  migrationName: '0120_projection_section_continuity',
  areas: ['blog'],
  tables: [T],
  keys: { [T]: ['user_id', 'section_id'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(T), (t) => {
      t.text('user_id').notNullable();
      t.text('section_id').notNullable();
      t.text('heading').notNullable();
      t.text('origin').notNullable();
      t.jsonb('metrics').notNullable();
      t.integer('versions').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.primary(['user_id', 'section_id']);
    });
  },
  handlers: {
    SectionContinuityRecorded: (e) => [
      {
        op: 'upsert',
        table: T,
        key: { user_id: e.data.user_id, section_id: e.data.section_id },
        insert: {
          heading: e.data.heading,
          origin: e.data.origin,
          metrics: e.data.metrics,
          versions: 1,
          updated_at: e.recordedAt,
        },
        update: {
          heading: e.data.heading,
          origin: e.data.origin,
          metrics: e.data.metrics,
          versions: { $inc: 1 },
          updated_at: e.recordedAt,
        },
      },
    ],
  },
});

export interface SectionContinuityRecord {
  section_id: string;
  heading: string;
  origin: string;
  continuity_metrics: ContinuityMetrics;
  /** How many times the section was generated or optimized. */
  versions: number;
  updated_at: string;
}

/** Read query: the caller's section, or undefined (another user's section is indistinguishable from a missing one). */
export async function getSectionContinuity(
  db: Knex,
  userId: string,
  sectionId: string,
): Promise<SectionContinuityRecord | undefined> {
  const r = await db(T).where({ user_id: userId, section_id: sectionId }).first();
  if (!r) return undefined;
  return {
    section_id: r.section_id,
    heading: r.heading,
    origin: r.origin,
    continuity_metrics: r.metrics,
    versions: r.versions,
    updated_at: new Date(r.updated_at).toISOString(),
  };
}
