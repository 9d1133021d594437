/**
 * Personas of the developer API, written only by the events of stream
 * `persona-<persona_id>`. Serves GET /v1/personas and /v1/personas/{id}.
 */
import type { Knex } from 'knex';
import { Change, defineProjection, ReadView } from './framework';
import type { PersonaFields } from '../domain/events/content';

const T = 'personas';

export const personasProjection = defineProjection({
  name: 'personas',
  migrationName: '0142_projection_personas',
  areas: ['content'],
  tables: [T],
  keys: { [T]: ['persona_id'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(T), (t) => {
      t.text('persona_id').primary();
      t.text('user_id').notNullable();
      t.jsonb('persona').notNullable();
      t.integer('version').notNullable();
      t.boolean('deleted').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['user_id', 'created_at']);
    });
  },
  handlers: {
    PersonaCreated: (e): Change[] => [
      {
        op: 'upsert',
        table: T,
        key: { persona_id: e.data.persona_id },
        insert: {
          user_id: e.data.user_id,
          persona: e.data.persona,
          version: 1,
          deleted: false,
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
        },
      },
    ],
    // The merge needs the stored fields; the row is written only by this persona's stream, so reading it is safe.
    PersonaUpdated: async (e, view: ReadView): Promise<Change[]> => {
      const row = await view.get(T, { persona_id: e.data.persona_id });
      if (!row) return [];
      const merged = Object.fromEntries(
        Object.entries({ ...(row.persona as object), ...e.data.changes }).filter(
          ([, v]) => v !== null && v !== undefined,
        ),
      );
      return [
        {
          op: 'update',
          table: T,
          key: { persona_id: e.data.persona_id },
          set: { persona: merged, version: { $inc: 1 }, updated_at: e.recordedAt },
        },
      ];
    },
    PersonaDeleted: (e): Change[] => [
      {
        op: 'update',
        table: T,
        key: { persona_id: e.data.persona_id },
        set: { deleted: true, updated_at: e.recordedAt },
      },
    ],
  },
});

export interface PersonaRecord extends PersonaFields {
  persona_id: string;
  version: number;
  created_at: string;
  updated_at: string;
}

function recordOf(r: Record<string, unknown>): PersonaRecord {
  return {
    persona_id: String(r.persona_id),
    ...(r.persona as PersonaFields),
    version: Number(r.version),
    created_at: new Date(r.created_at as string).toISOString(),
    updated_at: new Date(r.updated_at as string).toISOString(),
  };
}

export async function getPersona(db: Knex, userId: string, personaId: string): Promise<PersonaRecord | undefined> {
  const r = await db(T).where({ persona_id: personaId, user_id: userId, deleted: false }).first();
  return r ? recordOf(r) : undefined;
}

export async function listPersonas(db: Knex, userId: string): Promise<PersonaRecord[]> {
  const rows = await db(T)
    .where({ user_id: userId, deleted: false })
    .orderBy([
      { column: 'created_at', order: 'asc' },
      { column: 'persona_id', order: 'asc' },
    ]);
  return (rows as Array<Record<string, unknown>>).map(recordOf);
}
