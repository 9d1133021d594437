/**
 * The tests' one way to wait for what the platform does in the background (a task to finish, a projection to catch
 * up, a webhook to arrive, a process to come up). Domain helpers (full-platform.ts waitForTask, metering.ts
 * settledUsage, pipeline.ts waitForCatchUp, the area tests' status waits) are built on it.
 */

import type { Knex } from 'knex';
import { getTask, TaskRecord } from '../../projections/task-status';

/** What a probe gives: the value waited for, or a falsy one (undefined, null, false, 0, '') for "not yet". */
export type Probe<T> = T | undefined | null | false | 0 | '';

/** Thrown by a probe when waiting longer cannot help (the process waited for has exited): the wait ends with it. */
export class StopWaiting extends Error {}

/**
 * Calls `probe` every `intervalMs` until it gives a truthy value, and returns that value. A probe that throws is
 * called again until the deadline (a poll can meet a keep-alive connection the server has just closed: ECONNRESET on
 * a loaded machine), unless it threw StopWaiting. After `timeoutMs` the wait fails, naming `what`, what `explain`
 * says of the state it saw, and the error of the last poll when it failed.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Probe<T> | Promise<Probe<T>>,
  timeoutMs = 60_000,
  intervalMs = 100,
  explain?: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      if (err instanceof StopWaiting) throw err;
      failure = err;
    }
    if (Date.now() > deadline) {
      const seen = explain ? `: ${explain()}` : '';
      const why = failure === undefined ? '' : `; the last poll failed: ${(failure as Error)?.message ?? failure}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}${why}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** A task's record once the task-status projection shows it with `status` (a deadline of 60 s, polled every 50 ms). */
export const projectedTask = (db: Knex, userId: string, taskId: string, status: string): Promise<TaskRecord> =>
  waitFor(
    `task ${taskId} projected as ${status}`,
    async () => {
      const t = await getTask(db, userId, taskId);
      return t?.status === status && t;
    },
    60000,
    50,
  );
