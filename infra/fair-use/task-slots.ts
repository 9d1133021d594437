/**
 * The places of heavy tasks (docs/api.md, "Fair use of heavy work"): one row
 * per heavy task a user started, taken before its workflow starts. A user's
 * rows of a class are the tasks that count against the plan's
 * `concurrent_tasks` bound until they are found finished.
 *
 * Why a table of its own and not a count of the task-status projection: a
 * task reaches the projection only when a worker has recorded TaskStarted and
 * the projector has applied it. A task queued behind others on its class's
 * task queue (which is the point of those queues) has no row there yet, and
 * neither has one started a moment ago; a count of the projection would let a
 * burst of starts through. The projection still says when a task is over
 * (`finished`), by its primary key.
 *
 * Why an advisory lock: two starts of one user could both count N-1 running
 * and both start. `pg_advisory_xact_lock` on (user, class) makes count and
 * take one step per user and class, across every API process; starts of other
 * users or of another class never wait for it. The lock is held for a few
 * statements only — not across the Temporal start — so a burst of one user's
 * requests queues for milliseconds and holds no pooled connection while the
 * workflow starts. The start happens after the slot is committed: a start
 * that fails gives its slot back (`release`); a process that dies between the
 * two leaves a slot whose workflow does not exist, which the API's check
 * against Temporal frees (api/kernel/fair-use.ts).
 */
import type { Knex } from 'knex';
import type { Migration } from '../db/migrate';

const T = 'task_slots';

/** A slot a user holds: its task, and how long ago it was taken and last checked against Temporal (seconds). */
export interface HeldSlot {
  task_id: string;
  task_type: string;
  age_seconds: number;
  /** null: never checked. */
  checked_seconds_ago: number | null;
}

export interface SlotRequest {
  userId: string;
  taskClass: string;
  taskId: string;
  taskType: string;
}

export interface SlotRules {
  /** The ids among `taskIds` whose task is over (read in the same transaction, e.g. from the task-status projection). */
  finished(db: Knex, taskIds: string[]): Promise<string[]>;
  /** Whether one more task may start beside the slots still held (the plan's bound). */
  fits(held: HeldSlot[]): boolean;
}

export type SlotOutcome = { taken: true } | { taken: false; held: HeldSlot[] };

export class PostgresTaskSlots {
  constructor(private readonly db: Knex) {}

  /**
   * Under the (user, class) lock: drops the user's slots of the class whose task is over, then takes a slot for
   * `r.taskId` when `rules.fits` the slots still held; otherwise answers them (oldest first).
   */
  take(r: SlotRequest, rules: SlotRules): Promise<SlotOutcome> {
    return this.db.transaction(async (trx) => {
      await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`task-slots ${r.userId} ${r.taskClass}`]);
      const rows: HeldSlot[] = (
        await trx.raw(
          `SELECT task_id, task_type,
                  extract(epoch FROM now() - taken_at)::float8 AS age_seconds,
                  extract(epoch FROM now() - checked_at)::float8 AS checked_seconds_ago
             FROM ${T} WHERE user_id = ? AND task_class = ? ORDER BY taken_at, task_id`,
          [r.userId, r.taskClass],
        )
      ).rows;
      const over = new Set(
        rows.length
          ? await rules.finished(
              trx,
              rows.map((s) => s.task_id),
            )
          : [],
      );
      if (over.size)
        await trx(T)
          .whereIn('task_id', [...over])
          .delete();
      const held = rows.filter((s) => !over.has(s.task_id));
      if (!rules.fits(held)) return { taken: false, held };
      await trx(T).insert({ task_id: r.taskId, user_id: r.userId, task_class: r.taskClass, task_type: r.taskType });
      return { taken: true };
    });
  }

  /** Gives slots back: their workflow did not start, or is found closed. */
  async release(taskIds: string[]): Promise<void> {
    if (taskIds.length) await this.db(T).whereIn('task_id', taskIds).delete();
  }

  /** Notes that these slots were just checked against Temporal and found running. */
  async checked(taskIds: string[]): Promise<void> {
    if (taskIds.length) await this.db(T).whereIn('task_id', taskIds).update({ checked_at: this.db.fn.now() });
  }
}

export const taskSlotsMigration: Migration = {
  name: '0060_task_slots',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE ${T} (
        task_id text PRIMARY KEY,
        user_id text NOT NULL,
        task_class text NOT NULL,
        task_type text NOT NULL,
        taken_at timestamptz NOT NULL DEFAULT now(),
        checked_at timestamptz
      );
      CREATE INDEX task_slots_user_class ON ${T} (user_id, task_class);
    `);
  },
  async down(knex) {
    await knex.schema.dropTableIfExists(T);
  },
};
