/**
 * The podcast maker's read models, in one projection, written only by the
 * events of the projects' streams (`podcast-<project_id>`):
 * - podcast_projects: one row per project with everything a user resumes
 *   from (client state, notes, script and its approval, assets);
 * - podcast_files: which stored file (audio, video, dub) belongs to which
 *   user and project, for the file routes and GET /videos. Files of a deleted
 *   project are no longer served (the read joins the project).
 */
import type { Knex } from 'knex';
import { Change, defineProjection } from './framework';
import type { PodcastAsset, PodcastProject, PodcastScript } from '../domain/podcast/types';

const PROJECTS = 'podcast_projects';
const FILES = 'podcast_files';

/** Where each kind of file is kept in the media storage (`podcast/<folder>/<filename>`). */
export const FILE_FOLDERS = {
  audio: 'audio',
  video: 'videos',
  final_video: 'final-videos',
  dub: 'dub',
  voice: 'voices',
} as const;
export type FileFolder = keyof typeof FILE_FOLDERS;
export const storageKeyOf = (folder: FileFolder, filename: string) => `podcast/${FILE_FOLDERS[folder]}/${filename}`;

/** Files an asset brings, with the folder each is served from. */
export function assetFiles(a: PodcastAsset): Array<{ filename: string; folder: FileFolder; kind: string }> {
  switch (a.kind) {
    case 'scene_audio':
    case 'combined_audio':
      return [{ filename: a.filename, folder: 'audio', kind: a.kind }];
    case 'scene_video':
      return [{ filename: a.filename, folder: 'video', kind: a.kind }];
    case 'final_video':
      return a.files.map((f) => ({
        filename: f,
        folder: 'final_video' as const,
        kind: f.endsWith('.mp4') ? a.kind : 'subtitles',
      }));
    case 'dub':
      return [{ filename: a.filename, folder: 'dub', kind: a.kind }];
    default:
      return [];
  }
}

const NOTE_COLUMNS = {
  enhanced_idea: 'note_enhanced_idea',
  analysis: 'note_analysis',
  queries: 'note_queries',
  research: 'note_research',
} as const;

export const podcastProjection = defineProjection({
  name: 'podcast',
  migrationName: '0140_projection_podcast',
  areas: ['podcast'],
  tables: [PROJECTS, FILES],
  keys: { [PROJECTS]: ['project_id'], [FILES]: ['filename'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(PROJECTS), (t) => {
      t.text('project_id').primary();
      t.text('user_id').notNullable().index();
      t.text('title').notNullable();
      t.text('idea').notNullable();
      t.boolean('favorite').notNullable().defaultTo(false);
      t.boolean('deleted').notNullable().defaultTo(false);
      t.jsonb('state').notNullable().defaultTo('{}');
      for (const c of Object.values(NOTE_COLUMNS)) t.jsonb(c);
      t.jsonb('script');
      t.integer('script_version').notNullable().defaultTo(0);
      t.timestamp('script_approved_at', { useTz: true });
      t.jsonb('assets').notNullable().defaultTo('[]');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable(name(FILES), (t) => {
      t.text('filename').primary();
      t.text('user_id').notNullable().index();
      t.text('project_id').notNullable().index();
      t.text('folder').notNullable();
      t.text('kind').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
  },
  handlers: {
    PodcastProjectCreated: (e) => [
      {
        op: 'upsert',
        table: PROJECTS,
        key: { project_id: e.data.project_id },
        insert: {
          user_id: e.data.user_id,
          title: e.data.title,
          idea: e.data.idea,
          state: e.data.state,
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
        },
      },
    ],
    PodcastProjectUpdated: (e) => [
      {
        op: 'update',
        table: PROJECTS,
        key: { project_id: e.data.project_id },
        set: { ...e.data.changes, updated_at: e.recordedAt },
      },
    ],
    PodcastProjectFavoriteSet: (e) => [
      {
        op: 'update',
        table: PROJECTS,
        key: { project_id: e.data.project_id },
        set: { favorite: e.data.favorite, updated_at: e.recordedAt },
      },
    ],
    PodcastProjectDeleted: (e) => [
      {
        op: 'update',
        table: PROJECTS,
        key: { project_id: e.data.project_id },
        set: { deleted: true, updated_at: e.recordedAt },
      },
    ],
    PodcastNotesRecorded: (e) => [
      {
        op: 'update',
        table: PROJECTS,
        key: { project_id: e.data.project_id },
        set: { [NOTE_COLUMNS[e.data.field]]: e.data.value as object, updated_at: e.recordedAt },
      },
    ],
    PodcastScriptWritten: (e) => [
      {
        op: 'update',
        table: PROJECTS,
        key: { project_id: e.data.project_id },
        set: {
          script: e.data.script,
          script_version: e.data.version,
          script_approved_at: null,
          updated_at: e.recordedAt,
        },
      },
    ],
    PodcastScriptApproved: (e) => [
      {
        op: 'update',
        table: PROJECTS,
        key: { project_id: e.data.project_id },
        whereIn: { column: 'script_version', values: [e.data.version] },
        set: { script_approved_at: e.data.approved_at, updated_at: e.recordedAt },
      },
    ],
    PodcastAssetRecorded: (e): Change[] => [
      {
        op: 'update',
        table: PROJECTS,
        key: { project_id: e.data.project_id },
        set: { assets: { $append: e.data.asset }, updated_at: e.recordedAt },
      },
      ...assetFiles(e.data.asset).map((f): Change => ({
        op: 'upsert',
        table: FILES,
        key: { filename: f.filename },
        insert: {
          user_id: e.data.user_id,
          project_id: e.data.project_id,
          folder: f.folder,
          kind: f.kind,
          created_at: e.recordedAt,
        },
      })),
    ],
  },
});

export interface ProjectRecord extends PodcastProject {
  created_at: string;
  updated_at: string;
}

const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : undefined);

function recordOf(r: Record<string, unknown>): ProjectRecord {
  const notes: PodcastProject['notes'] = {};
  for (const [field, col] of Object.entries(NOTE_COLUMNS))
    if (r[col] !== null && r[col] !== undefined) notes[field as keyof typeof NOTE_COLUMNS] = r[col];
  return {
    project_id: r.project_id as string,
    user_id: r.user_id as string,
    title: r.title as string,
    idea: r.idea as string,
    favorite: r.favorite as boolean,
    state: r.state as Record<string, unknown>,
    notes,
    ...(r.script ? { script: r.script as PodcastScript } : {}),
    script_version: r.script_version as number,
    ...(r.script_approved_at ? { script_approved_at: iso(r.script_approved_at) } : {}),
    assets: r.assets as PodcastAsset[],
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

/** Read query: the caller's live project (another user's or a deleted one is not found). */
export async function getProject(db: Knex, userId: string, projectId: string): Promise<ProjectRecord | undefined> {
  const r = await db(PROJECTS).where({ project_id: projectId, user_id: userId, deleted: false }).first();
  return r ? recordOf(r) : undefined;
}

/** Read query: the caller's projects, newest change first (favourites only on request). */
export async function listProjects(
  db: Knex,
  userId: string,
  o: { favorite?: boolean; limit: number; offset: number },
): Promise<{ total: number; projects: ProjectRecord[] }> {
  const base = () => {
    const q = db(PROJECTS).where({ user_id: userId, deleted: false });
    if (o.favorite !== undefined) q.andWhere({ favorite: o.favorite });
    return q;
  };
  const [{ n }] = await base().count({ n: '*' });
  const rows = await base().orderBy('updated_at', 'desc').orderBy('project_id').limit(o.limit).offset(o.offset);
  return { total: Number(n), projects: rows.map(recordOf) };
}

export interface PodcastFileRecord {
  filename: string;
  project_id: string;
  folder: FileFolder;
  kind: string;
  created_at: string;
}

/** Read query: a file of the caller in `folder`, while its project lives. */
export async function getPodcastFile(
  db: Knex,
  userId: string,
  folder: FileFolder,
  filename: string,
): Promise<PodcastFileRecord | undefined> {
  const r = await db(`${FILES} as f`)
    .join(`${PROJECTS} as p`, 'p.project_id', 'f.project_id')
    .where({ 'f.filename': filename, 'f.user_id': userId, 'f.folder': folder, 'p.deleted': false })
    .first('f.*');
  return r ? { ...r, created_at: iso(r.created_at)! } : undefined;
}

/** Read query: one page of the caller's files of these kinds (newest first), optionally of one project, and their total. */
export async function listPodcastFiles(
  db: Knex,
  userId: string,
  kinds: string[],
  o: { projectId?: string; limit: number; offset: number },
): Promise<{ total: number; files: PodcastFileRecord[] }> {
  const base = () => {
    const q = db(`${FILES} as f`)
      .join(`${PROJECTS} as p`, 'p.project_id', 'f.project_id')
      .where({ 'f.user_id': userId, 'p.deleted': false })
      .whereIn('f.kind', kinds);
    if (o.projectId) q.andWhere('f.project_id', o.projectId);
    return q;
  };
  const [{ n }] = await base().count({ n: '*' });
  const rows = await base()
    .orderBy('f.created_at', 'desc')
    .orderBy('f.filename')
    .limit(o.limit)
    .offset(o.offset)
    .select('f.*');
  return { total: Number(n), files: rows.map((r) => ({ ...r, created_at: iso(r.created_at)! })) };
}
