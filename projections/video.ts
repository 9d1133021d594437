/**
 * The video studio's read models, in one projection:
 * - video_plans, video_scenes: written only by the events of the plan's
 *   stream (`videoplan-<plan_id>`); serve GET /plan/{id} and GET /scenes/{id},
 *   and find a scene's plan for POST /scenes/{id}/update;
 * - video_renders, media_files: written only by the events of the render's
 *   stream (`videorender-<task_id>`); percent and current scene of
 *   GET /render/{task_id}, and which user owns which file for
 *   GET /videos/{filename} (files of a discarded render disappear).
 */
import type { Knex } from 'knex';
import { Change, defineProjection } from './framework';
import type { VideoPlan, VideoScene } from '../domain/video/types';
import type { MediaFileEntry } from '../domain/events/video';

const PLANS = 'video_plans';
const SCENES = 'video_scenes';
const RENDERS = 'video_renders';
const FILES = 'media_files';

export const videoProjection = defineProjection({
  name: 'video',
  migrationName: '0130_projection_video',
  areas: ['video'],
  tables: [PLANS, SCENES, RENDERS, FILES],
  keys: { [PLANS]: ['plan_id'], [SCENES]: ['scene_id'], [RENDERS]: ['task_id'], [FILES]: ['filename'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(PLANS), (t) => {
      t.text('plan_id').primary();
      t.text('user_id').notNullable().index();
      t.jsonb('plan').notNullable();
      t.jsonb('scene_ids').notNullable().defaultTo('[]');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable(name(SCENES), (t) => {
      t.text('scene_id').primary();
      t.text('plan_id').notNullable().index();
      t.text('user_id').notNullable();
      t.integer('scene_index').notNullable();
      t.jsonb('scene').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable(name(RENDERS), (t) => {
      t.text('task_id').primary();
      t.text('user_id').notNullable().index();
      t.text('plan_id').notNullable().index();
      t.text('resolution').notNullable();
      t.integer('width').notNullable();
      t.integer('height').notNullable();
      t.integer('fps').notNullable();
      t.integer('total_scenes').notNullable();
      t.double('planned_seconds').notNullable();
      t.integer('percent').notNullable().defaultTo(0);
      t.integer('current_scene').notNullable().defaultTo(0);
      t.text('step');
      t.double('duration_seconds');
      t.boolean('discarded').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable(name(FILES), (t) => {
      t.text('filename').primary();
      t.text('user_id').notNullable().index();
      t.text('task_id').notNullable();
      t.text('kind').notNullable();
      t.text('content_type').notNullable();
      t.bigInteger('size').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
  },
  handlers: {
    VideoPlanCreated: (e) => [
      {
        op: 'upsert',
        table: PLANS,
        key: { plan_id: e.data.plan_id },
        insert: { user_id: e.data.user_id, plan: e.data.plan, created_at: e.recordedAt, updated_at: e.recordedAt },
      },
    ],
    VideoScenesBuilt: (e): Change[] => [
      ...e.data.replaced_scene_ids.map((id): Change => ({ op: 'delete', table: SCENES, key: { scene_id: id } })),
      ...e.data.scenes.map((s): Change => ({
        op: 'upsert',
        table: SCENES,
        key: { scene_id: s.scene_id },
        insert: {
          plan_id: e.data.plan_id,
          user_id: e.data.user_id,
          scene_index: s.index,
          scene: s,
          updated_at: e.recordedAt,
        },
      })),
      {
        op: 'update',
        table: PLANS,
        key: { plan_id: e.data.plan_id },
        set: { scene_ids: e.data.scenes.map((s) => s.scene_id), updated_at: e.recordedAt },
      },
    ],
    VideoSceneUpdated: (e) => [
      {
        op: 'update',
        table: SCENES,
        key: { scene_id: e.data.scene.scene_id },
        set: { scene: e.data.scene, updated_at: e.recordedAt },
      },
    ],
    VideoRenderStarted: (e) => [
      {
        op: 'upsert',
        table: RENDERS,
        key: { task_id: e.data.task_id },
        insert: {
          user_id: e.data.user_id,
          plan_id: e.data.plan_id,
          resolution: e.data.resolution,
          width: e.data.width,
          height: e.data.height,
          fps: e.data.fps,
          total_scenes: e.data.total_scenes,
          planned_seconds: e.data.planned_seconds,
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
        },
      },
    ],
    VideoRenderProgressed: (e) => [
      {
        op: 'update',
        table: RENDERS,
        key: { task_id: e.data.task_id },
        set: {
          percent: { $greatest: e.data.percent },
          // Scene steps name their scene; the assembly (scene_index -1) keeps the last one.
          ...(e.data.scene_index >= 0 ? { current_scene: { $greatest: e.data.scene_index + 1 } } : {}),
          step: e.data.step,
          updated_at: e.recordedAt,
        },
      },
    ],
    VideoRendered: (e): Change[] => [
      {
        op: 'update',
        table: RENDERS,
        key: { task_id: e.data.task_id },
        set: { percent: 100, duration_seconds: e.data.duration_seconds, step: 'stored', updated_at: e.recordedAt },
      },
      ...e.data.files.map((f: MediaFileEntry): Change => ({
        op: 'upsert',
        table: FILES,
        key: { filename: f.filename },
        insert: {
          user_id: e.data.user_id,
          task_id: e.data.task_id,
          kind: f.kind,
          content_type: f.content_type,
          size: f.size,
          created_at: e.recordedAt,
        },
      })),
    ],
    VideoRenderDiscarded: (e): Change[] => [
      {
        op: 'update',
        table: RENDERS,
        key: { task_id: e.data.task_id },
        set: { discarded: true, step: 'discarded', updated_at: e.recordedAt },
      },
      // A render's files are always named after its task id (activities/video-render.ts).
      ...['mp4', 'srt', 'vtt'].map((ext): Change => ({
        op: 'delete',
        table: FILES,
        key: { filename: `${e.data.task_id}.${ext}` },
      })),
    ],
  },
});

export interface PlanRecord {
  plan: VideoPlan;
  scene_ids: string[];
  created_at: string;
  updated_at: string;
}

/** Read query: the caller's plan (another user's plan is indistinguishable from a missing one). */
export async function getPlan(db: Knex, userId: string, planId: string): Promise<PlanRecord | undefined> {
  const r = await db(PLANS).where({ plan_id: planId, user_id: userId }).first();
  if (!r) return undefined;
  return {
    plan: r.plan,
    scene_ids: r.scene_ids,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/** Read query: the caller's scene. */
export async function getScene(
  db: Knex,
  userId: string,
  sceneId: string,
): Promise<{ scene: VideoScene; updated_at: string } | undefined> {
  const r = await db(SCENES).where({ scene_id: sceneId, user_id: userId }).first();
  return r ? { scene: r.scene, updated_at: new Date(r.updated_at).toISOString() } : undefined;
}

/** Read query: the scenes of a plan, in order. */
export async function planScenes(db: Knex, userId: string, planId: string): Promise<VideoScene[]> {
  const rows = await db(SCENES).where({ plan_id: planId, user_id: userId }).orderBy('scene_index');
  return rows.map((r) => r.scene);
}

export interface RenderRecord {
  task_id: string;
  plan_id: string;
  resolution: string;
  width: number;
  height: number;
  fps: number;
  total_scenes: number;
  planned_seconds: number;
  percent: number;
  current_scene: number;
  step: string | null;
  discarded: boolean;
}

/** Read query: the caller's render progress. */
export async function getRender(db: Knex, userId: string, taskId: string): Promise<RenderRecord | undefined> {
  const r = await db(RENDERS).where({ task_id: taskId, user_id: userId }).first();
  if (!r) return undefined;
  return {
    task_id: r.task_id,
    plan_id: r.plan_id,
    resolution: r.resolution,
    width: r.width,
    height: r.height,
    fps: r.fps,
    total_scenes: r.total_scenes,
    planned_seconds: Number(r.planned_seconds),
    percent: r.percent,
    current_scene: r.current_scene,
    step: r.step,
    discarded: r.discarded,
  };
}

/** Read query: the renders of a plan, newest first. */
export async function planRenders(
  db: Knex,
  userId: string,
  planId: string,
): Promise<{ task_id: string; created_at: string }[]> {
  const rows = await db(RENDERS).where({ plan_id: planId, user_id: userId }).orderBy('created_at', 'desc').limit(50);
  return rows.map((r) => ({ task_id: r.task_id, created_at: new Date(r.created_at).toISOString() }));
}

/** Read query: a stored file the caller owns. */
export async function getMediaFile(
  db: Knex,
  userId: string,
  filename: string,
): Promise<{ filename: string; kind: string; content_type: string; size: number } | undefined> {
  const r = await db(FILES).where({ filename, user_id: userId }).first();
  return r ? { filename: r.filename, kind: r.kind, content_type: r.content_type, size: Number(r.size) } : undefined;
}
