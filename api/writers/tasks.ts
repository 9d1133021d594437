/**
 * The writers' answer-or-task rule: the kernel's (api/kernel/tasks.ts) with
 * the writers' own bounds and bodies. The route starts the task workflow
 * (workflow id = task id) and waits for its result: in time → 200 with the
 * result, else → 202 with the task id, a `Location` and `status_url` of the
 * platform's writer status route. Clients choose the wait with RFC 7240
 * `Prefer`: `respond-async` (202 at once) or `wait=<seconds>` (here up to
 * MAX_WAIT_SECONDS, beyond the default); the applied preference is echoed in
 * `Preference-Applied`.
 */
import type { TaskType } from '../../domain/task-types';
import type { Workflow } from '@temporalio/common';
import { callerOf, settleWrittenBy, userIdOf } from '../kernel/handler';
import { awaitResult, refuseWhenUsedUp, TIMED_OUT, waitBoundMs } from '../kernel/tasks';
import type { RouteCtx, HandlerResult } from '../kernel/types';
import { startWorkflow } from '../kernel/workflows';

/** How long a generation route waits for its result before answering 202 (without a Prefer header; WRITERS_TASK_WAIT_MS). */
export const DEFAULT_WAIT_SECONDS = 25;
/** The longest wait a client may ask for with `Prefer: wait=<s>` (or the configured wait when that is longer). */
export const MAX_WAIT_SECONDS = 60;

type AnyCtx = RouteCtx;

/**
 * The wait the client asked for (`Prefer: respond-async` / `wait=N`), in ms, and the preference applied; without a
 * preference the configured wait (WRITERS_TASK_WAIT_MS, default 25 s).
 */
export const preferredWait = (prefer: string | undefined, configuredMs = DEFAULT_WAIT_SECONDS * 1000) =>
  waitBoundMs(prefer, configuredMs, Math.max(configuredMs, MAX_WAIT_SECONDS * 1000));

export interface TaskRun<W extends Workflow> {
  workflow: W;
  taskId: string;
  taskType: TaskType;
  args: Parameters<W>;
  /** Path of the task's status route (202 answers point at it). */
  statusPath: string;
}

/** Starts the task; 200 with its result when it finishes within the client's wait, else 202 with the task to poll. */
export async function runOrAccept<W extends Workflow>(ctx: AnyCtx, run: TaskRun<W>): Promise<HandlerResult> {
  const wait = preferredWait(ctx.req.get('prefer'), ctx.deps.settings.writerTaskWaitMs);
  const applied: Record<string, string> = wait.applied ? { 'Preference-Applied': wait.applied } : {};
  await refuseWhenUsedUp(ctx);
  await startWorkflow(ctx.deps, run.workflow, {
    workflowId: run.taskId,
    args: run.args,
    task: { userId: userIdOf(ctx), plan: callerOf(ctx).plan, taskType: run.taskType },
  });
  const result = wait.ms > 0 ? await awaitResult(ctx.deps, run.workflow, run.taskId, wait.ms) : TIMED_OUT;
  if (result !== TIMED_OUT) {
    // Read-your-writes of the task and its renders (the files the piece names are served by the studios' routes).
    await settleWrittenBy(ctx, run.taskId);
    return { status: 200, data: result, headers: applied };
  }
  // Answered at once: the status route finds the task even before its worker has recorded TaskStarted (ownTask
  // reads a task the projection does not have yet from its running workflow).
  return {
    status: 202,
    headers: { ...applied, Location: run.statusPath, 'Retry-After': '2' },
    data: {
      success: true,
      task_id: run.taskId,
      status: 'started',
      status_url: run.statusPath,
      message: 'The work continues in the background; poll status_url until status is completed or failed.',
    },
  };
}
