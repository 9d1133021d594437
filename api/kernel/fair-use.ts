/**
 * Fair use of heavy work at the start of a task (docs/api.md, "Fair use of
 * heavy work"; which work is heavy: domain/fair-use.ts). `startWorkflow`
 * (./workflows.ts) starts every task through `startWithinBound`, so no route
 * can start a heavy task around it.
 *
 * A heavy task starts only while fewer than its owner's plan allows of its
 * class are running; otherwise 429 RATE_LIMIT_EXCEEDED in the route's family
 * envelope, `Retry-After`, and details naming the class, the limit and the
 * running tasks. What counts as running is the user's slots
 * (infra/fair-use/task-slots.ts: taken atomically per user and class under a
 * PostgreSQL advisory lock, before the workflow starts) whose task the
 * task-status projection does not show finished.
 *
 * A slot can outlive its task where the projection cannot see it end: a
 * workflow an operator terminated writes no final event, and an API process
 * that died between taking a slot and starting the workflow leaves a slot
 * with no workflow. Before refusing, the slots that are old enough
 * (VERIFY_AFTER_SECONDS: a start in progress is never mistaken for a missing
 * workflow) and not checked lately (VERIFY_EVERY_SECONDS: a client retrying
 * in a loop costs Temporal little) are asked of Temporal; a closed or unknown
 * workflow gives its slot back and the start is decided again. The same
 * check frees the place of a task that finished a moment ago and is not
 * projected yet.
 */
import { ConcurrentTaskLimitError, heavyClassOf, mayStartHeavyTask } from '../../domain/fair-use';
import { concurrentTaskLimit, PlanName } from '../../domain/plans';
import { HeldSlot, PostgresTaskSlots, SlotRequest, SlotRules } from '../../infra/fair-use/task-slots';
import { finishedTaskIds } from '../../projections/task-status';
import type { AppDeps } from './types';

/** A slot is checked against Temporal only once it is this old (s): far longer than a workflow start takes. */
export const VERIFY_AFTER_SECONDS = 30;
/** ... and at most this often (s). */
export const VERIFY_EVERY_SECONDS = 15;

/** The held slots worth asking Temporal about before a refusal: old enough, and not checked lately. */
export const slotsToVerify = (held: HeldSlot[]): string[] =>
  held
    .filter((s) => s.age_seconds >= VERIFY_AFTER_SECONDS)
    .filter((s) => s.checked_seconds_ago === null || s.checked_seconds_ago >= VERIFY_EVERY_SECONDS)
    .map((s) => s.task_id);

export interface TaskOwner {
  taskId: string;
  taskType: string;
  userId: string;
  plan: PlanName;
}

/**
 * Runs `start` (the workflow's start) for the task, within its owner's plan bound when the task is heavy: takes the
 * slot first, gives it back when the start fails. `closed(ids)` names the workflows among `ids` that are not running.
 */
export async function startWithinBound(
  deps: Pick<AppDeps, 'db' | 'settings' | 'logger'>,
  task: TaskOwner,
  start: () => Promise<void>,
  closed: (workflowIds: string[]) => Promise<string[]>,
): Promise<void> {
  const taskClass = heavyClassOf(task.taskType);
  if (!taskClass) return start();
  const limit = concurrentTaskLimit(task.plan, taskClass, deps.settings.rate);
  const slots = new PostgresTaskSlots(deps.db);
  const request: SlotRequest = { userId: task.userId, taskClass, taskId: task.taskId, taskType: task.taskType };
  const rules: SlotRules = {
    finished: finishedTaskIds,
    fits: (held) => mayStartHeavyTask(limit, held.length),
  };
  let outcome = await slots.take(request, rules);
  const due = outcome.taken ? [] : slotsToVerify(outcome.held);
  if (due.length) {
    let gone: string[] | undefined;
    try {
      gone = await closed(due);
    } catch (e) {
      // Temporal not answering the check: the slots stay counted as running and the refusal stands (the start would
      // need Temporal anyway), rather than failing the request with a 500.
      deps.logger.warn({ err: e, task_ids: due }, 'fair use: could not check held slots against Temporal');
    }
    if (gone) {
      await slots.checked(due.filter((id) => !gone.includes(id)));
      if (gone.length) {
        await slots.release(gone);
        outcome = await slots.take(request, rules);
      }
    }
  }
  if (!outcome.taken)
    throw new ConcurrentTaskLimitError({
      plan: task.plan,
      taskClass,
      limit,
      running: outcome.held.map((s) => s.task_id),
    });
  try {
    await start();
  } catch (e) {
    await slots.release([task.taskId]);
    throw e;
  }
}

/**
 * The 429 a route that starts tasks of `taskType` documents (RouteDef.errors), when the type is heavy: besides the
 * rate tiers and plan limits every route has, the bound of concurrent tasks of its class.
 */
export function boundErrors(taskType: string): Record<number, string> {
  const c = heavyClassOf(taskType);
  if (!c) return {};
  return {
    429: `The plan's ${c} tasks are all running (RATE_LIMIT_EXCEEDED, details.limit_type concurrent_tasks, Retry-After: a place frees when one finishes); or a rate limit (Retry-After) or plan limit (UsageLimitExceededException)`,
  };
}
