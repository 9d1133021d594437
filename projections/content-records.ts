/**
 * Content records of the developer API: the current state of each record and
 * every version, written only by the events of stream `content-<content_id>`
 * (one stream per record keeps its versions in order, live and on replay).
 * Serves GET /v1/content, /v1/content/{id}, /v1/content/{id}/versions[/{n}].
 */
import type { Knex } from 'knex';
import { Change, defineProjection } from './framework';

const R = 'content_records';
const V = 'content_versions';

export const contentRecordsProjection = defineProjection({
  name: 'content-records',
  migrationName: '0141_projection_content_records',
  areas: ['content'],
  tables: [R, V],
  keys: { [R]: ['content_id'], [V]: ['content_id', 'version'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(R), (t) => {
      t.text('content_id').primary();
      t.text('user_id').notNullable();
      t.text('type').notNullable();
      t.text('topic').notNullable();
      t.text('title');
      t.text('content').notNullable();
      t.jsonb('metadata').notNullable();
      t.integer('version').notNullable();
      t.boolean('deleted').notNullable();
      t.text('origin_task_id');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['user_id', 'created_at']);
    });
    await knex.schema.createTable(name(V), (t) => {
      t.text('content_id').notNullable();
      t.integer('version').notNullable();
      t.text('title');
      t.text('content').notNullable();
      t.jsonb('metadata').notNullable();
      t.jsonb('changed').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.primary(['content_id', 'version']);
    });
  },
  handlers: {
    ContentCreated: (e): Change[] => [
      {
        op: 'upsert',
        table: R,
        key: { content_id: e.data.content_id },
        insert: {
          user_id: e.data.user_id,
          type: e.data.type,
          topic: e.data.topic,
          title: e.data.title,
          content: e.data.content,
          metadata: e.data.metadata,
          version: 1,
          deleted: false,
          origin_task_id: e.data.origin_task_id,
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
        },
      },
      {
        op: 'upsert',
        table: V,
        key: { content_id: e.data.content_id, version: 1 },
        insert: {
          title: e.data.title,
          content: e.data.content,
          metadata: e.data.metadata,
          changed: ['created'],
          created_at: e.recordedAt,
        },
      },
    ],
    ContentRevised: (e): Change[] => [
      {
        op: 'update',
        table: R,
        key: { content_id: e.data.content_id },
        set: {
          title: e.data.title,
          content: e.data.content,
          metadata: e.data.metadata,
          version: e.data.version,
          updated_at: e.recordedAt,
        },
      },
      {
        op: 'upsert',
        table: V,
        key: { content_id: e.data.content_id, version: e.data.version },
        insert: {
          title: e.data.title,
          content: e.data.content,
          metadata: e.data.metadata,
          changed: e.data.changed,
          created_at: e.recordedAt,
        },
      },
    ],
    ContentDeleted: (e): Change[] => [
      {
        op: 'update',
        table: R,
        key: { content_id: e.data.content_id },
        set: { deleted: true, updated_at: e.recordedAt },
      },
    ],
  },
});

const iso = (v: unknown) => new Date(v as string).toISOString();

export interface ContentRecord {
  content_id: string;
  type: string;
  topic: string;
  title: string | null;
  content: string;
  metadata: Record<string, unknown>;
  version: number;
  origin_task_id: string | null;
  created_at: string;
  updated_at: string;
}

function recordOf(r: Record<string, unknown>): ContentRecord {
  return {
    content_id: String(r.content_id),
    type: String(r.type),
    topic: String(r.topic),
    title: (r.title as string | null) ?? null,
    content: String(r.content),
    metadata: r.metadata as Record<string, unknown>,
    version: Number(r.version),
    origin_task_id: (r.origin_task_id as string | null) ?? null,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** The caller's live record, or undefined (another user's and a deleted record look missing). */
export async function getContent(db: Knex, userId: string, contentId: string): Promise<ContentRecord | undefined> {
  const r = await db(R).where({ content_id: contentId, user_id: userId, deleted: false }).first();
  return r ? recordOf(r) : undefined;
}

/** The caller's live records, newest first, without their text. */
export async function listContent(db: Knex, userId: string, limit: number, offset: number) {
  const rows = await db(R)
    .where({ user_id: userId, deleted: false })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'content_id', order: 'asc' },
    ])
    .limit(limit)
    .offset(offset)
    .select('content_id', 'type', 'topic', 'title', 'version', 'created_at', 'updated_at');
  const [{ total }] = await db(R).where({ user_id: userId, deleted: false }).count({ total: '*' });
  return {
    total: Number(total),
    items: (rows as Array<Record<string, unknown>>).map((r) => ({
      content_id: String(r.content_id),
      type: String(r.type),
      topic: String(r.topic),
      title: (r.title as string | null) ?? null,
      version: Number(r.version),
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
    })),
  };
}

export interface ContentVersion {
  version: number;
  title: string | null;
  content: string;
  metadata: Record<string, unknown>;
  changed: string[];
  created_at: string;
}

/** Every version of a live record of the caller, oldest first (without text when `withText` is false). */
export async function listVersions(
  db: Knex,
  userId: string,
  contentId: string,
  version?: number,
): Promise<ContentVersion[] | undefined> {
  const owner = await db(R).where({ content_id: contentId, user_id: userId, deleted: false }).first('content_id');
  if (!owner) return undefined;
  const rows = await db(V)
    .where({ content_id: contentId })
    .modify((q) => {
      if (version !== undefined) q.where({ version });
    })
    .orderBy('version');
  return (rows as Array<Record<string, unknown>>).map((r) => ({
    version: Number(r.version),
    title: (r.title as string | null) ?? null,
    content: String(r.content),
    metadata: r.metadata as Record<string, unknown>,
    changed: r.changed as string[],
    created_at: iso(r.created_at),
  }));
}
