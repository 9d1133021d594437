/**
 * Task status (asynchronous jobs): one row per task, written only by the
 * events of stream `task-<id>`. Serves GET .../status/{task_id}.
 */
import type { Knex } from 'knex';
import { Change, defineProjection } from './framework';

const T = 'task_status';
const ACTIVE = ['started', 'in_progress'];
const FINAL = ['completed', 'failed', 'cancelled'];

/** Whether a task in `status` is over (completed, failed or cancelled): nothing changes it any more. */
export const isTaskOver = (status: string): boolean => FINAL.includes(status);

export const taskStatusProjection = defineProjection({
  name: 'task-status',
  migrationName: '0100_projection_task_status',
  areas: ['tasks'],
  tables: [T],
  keys: { [T]: ['task_id'] },
  notify: [T], // API processes cache task records (api/kernel/task-cache.ts)
  async createTables(knex, name) {
    await knex.schema.createTable(name(T), (t) => {
      t.text('task_id').primary();
      t.text('user_id').notNullable().index();
      t.text('task_type').notNullable();
      t.text('workflow_id').notNullable();
      t.text('status').notNullable();
      t.jsonb('progress_messages').notNullable().defaultTo('[]');
      t.jsonb('result');
      t.jsonb('error');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
  handlers: {
    TaskStarted: (e) => [
      {
        op: 'upsert',
        table: T,
        key: { task_id: e.data.task_id },
        insert: {
          user_id: e.data.user_id,
          task_type: e.data.task_type,
          workflow_id: e.data.workflow_id,
          status: 'started',
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
        },
      },
    ],
    TaskProgressed: (e): Change[] => [
      {
        op: 'update',
        table: T,
        key: { task_id: e.data.task_id },
        set: { status: 'in_progress', updated_at: e.recordedAt },
        whereIn: { column: 'status', values: ACTIVE },
      },
      {
        op: 'update',
        table: T,
        key: { task_id: e.data.task_id },
        set: { progress_messages: { $append: { timestamp: e.data.at, message: e.data.message } } },
      },
    ],
    TaskCompleted: (e) => [
      {
        op: 'update',
        table: T,
        key: { task_id: e.data.task_id },
        set: { status: 'completed', result: e.data.result, updated_at: e.recordedAt },
      },
    ],
    TaskFailed: (e) => [
      {
        op: 'update',
        table: T,
        key: { task_id: e.data.task_id },
        set: { status: 'failed', error: e.data.error, updated_at: e.recordedAt },
      },
    ],
    TaskCancelled: (e) => [
      {
        op: 'update',
        table: T,
        key: { task_id: e.data.task_id },
        set: { status: 'cancelled', error: { code: 'CANCELLED', message: e.data.reason }, updated_at: e.recordedAt },
        whereIn: { column: 'status', values: ACTIVE },
      },
    ],
  },
});

export interface TaskRecord {
  task_id: string;
  user_id: string;
  task_type: string;
  status: string;
  created_at: string;
  progress_messages: { timestamp: string; message: string }[];
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

/** Read query: a user's task, or undefined (another user's task is indistinguishable from a missing one). */
export async function getTask(db: Knex, userId: string, taskId: string): Promise<TaskRecord | undefined> {
  const r = await db(T).where({ task_id: taskId, user_id: userId }).first();
  if (!r) return undefined;
  return {
    task_id: r.task_id,
    user_id: r.user_id,
    task_type: r.task_type,
    status: r.status,
    created_at: new Date(r.created_at).toISOString(),
    progress_messages: r.progress_messages,
    ...(r.result ? { result: r.result } : {}),
    ...(r.error ? { error: r.error } : {}),
  };
}

/**
 * Read query: the ids among `taskIds` whose task is over (completed, failed or cancelled), by primary key. A task
 * not recorded yet is not over (fair use counts it as running: api/kernel/fair-use.ts).
 */
export async function finishedTaskIds(db: Knex, taskIds: string[]): Promise<string[]> {
  if (!taskIds.length) return [];
  const rows = await db(T).whereIn('task_id', taskIds).whereIn('status', FINAL).select('task_id');
  return rows.map((r: { task_id: string }) => r.task_id);
}

/** Read query: a user's tasks whose ids start with `prefix` (the items of a writers' batch), oldest first. */
export async function listTasksByPrefix(db: Knex, userId: string, prefix: string, limit = 100): Promise<TaskRecord[]> {
  const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db(T)
    .where({ user_id: userId })
    .andWhere('task_id', 'like', like)
    .orderBy('created_at')
    .limit(limit);
  return rows.map((r) => ({
    task_id: r.task_id,
    user_id: r.user_id,
    task_type: r.task_type,
    status: r.status,
    created_at: new Date(r.created_at).toISOString(),
    progress_messages: r.progress_messages,
    ...(r.result ? { result: r.result } : {}),
    ...(r.error ? { error: r.error } : {}),
  }));
}
