/**
 * Task records, cached in each API process (docs/api.md, "Polling a task"):
 * a poll answered from memory costs no PostgreSQL round trip.
 *
 * Freshness is the notified cache's (infra/db/notified-cache.ts): the
 * task-status projection announces every row it changes when its batch
 * commits (`notify` in projections/task-status.ts: `NOTIFY
 * projection_changes, '<schema> task_status:<task_id>'`), whether the
 * projector or an API catch-up applied it, so every API process drops the
 * record at once; a rebuild by replay drops them all. In the process that
 * wrote to a task (start, cancel), `settle` drops it before the request
 * answers. A record is never cached for another user, and a task not yet in
 * the projection (read from its workflow) is not cached at all.
 */
import { taskStream } from '../../domain/events/tasks';
import { NotifiedCache } from '../../infra/db/notified-cache';
import { PROJECTION_CHANNEL, projectionRowTag } from '../../projections/framework';
import { getTask, isTaskOver, TaskRecord, taskStatusProjection } from '../../projections/task-status';
import { catchUpStreams } from '../../projections/consistency';
import type { EventStoreOps } from '../../infra/eventstore/port';
import type { Knex } from 'knex';

const TASK_STREAM = taskStream('');
const tagOf = (taskId: string) => projectionRowTag('task_status', [taskId]);

export class TaskCache extends NotifiedCache<TaskRecord> {
  constructor(opts: { ttlMs: number; maxEntries?: number; onError?(e: Error): void }) {
    super({ ...opts, channel: PROJECTION_CHANNEL });
  }

  /** `settle` has made `projection` hold this process's write to `streamIds`: their tasks are read afresh. */
  settled(projection: string, streamIds: readonly string[]): void {
    if (projection !== taskStatusProjection.name) return;
    this.invalidate(streamIds.filter((s) => s.startsWith(TASK_STREAM)).map((s) => tagOf(s.slice(TASK_STREAM.length))));
  }
}

/**
 * The caller's task from the task-status projection, through the process's cache when it has one. Read from
 * PostgreSQL, a task the projection does not have or still shows running is first brought up to what the event
 * store holds of it when `store` is given (catchUpStreams; the projector skips what was applied here): a poll never
 * answers behind the task's own recorded events because the projector lags or has stalled.
 */
export async function readTask(
  db: Knex,
  cache: TaskCache | undefined,
  userId: string,
  taskId: string,
  store?: Pick<EventStoreOps, 'readStream'>,
  onCatchUpError?: (err: unknown) => void,
): Promise<TaskRecord | undefined> {
  const now = Date.now();
  const hit = cache?.get(taskId, now);
  if (hit) return hit.user_id === userId ? hit : undefined;
  const ticket = cache?.ticket() ?? 0;
  let t = await getTask(db, userId, taskId);
  if (store && !(t && isTaskOver(t.status))) {
    const applied = await catchUpStreams(db, store, taskStatusProjection, [taskStream(taskId)]).catch((err) => {
      // The record as the projection has it is answered; the projector applies the events later.
      onCatchUpError?.(err);
      return 0;
    });
    if (applied > 0) t = await getTask(db, userId, taskId);
  }
  if (t && cache) cache.set(taskId, ticket, t, [tagOf(taskId)], now);
  return t;
}
