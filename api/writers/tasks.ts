/**
 * WRITERS-LOCAL TASK HELPER — to be folded into the general kernel helper
 * (api/kernel/tasks.ts, being written on another branch) when the branches
 * merge; nothing here is specific to the writers but the route prefix.
 *
 * "Answer within the request when the work finishes in time, otherwise with
 * a task to poll": the route starts the task workflow (workflow id = task id)
 * and waits for its result up to a bound; in time → 200 with the result,
 * else → 202 with the task id, a `Location` and `status_url` to poll.
 * A client chooses the bound with RFC 7240 `Prefer`: `respond-async` (202 at
 * once) or `wait=<seconds>` (at most MAX_WAIT_SECONDS); the applied
 * preference is echoed in `Preference-Applied`.
 */
import { WorkflowFailedError } from '@temporalio/client';
import type { Workflow, WorkflowResultType } from '@temporalio/common';
import { taskStream } from '../../domain/events/tasks';
import { NotFoundError } from '../../domain/errors';
import { getTask, TaskRecord } from '../../projections/task-status';
import { settle, userIdOf } from '../kernel/handler';
import type { HandlerCtx, HandlerResult } from '../kernel/types';
import { describeTask, failureError, startWorkflow } from '../kernel/workflows';

/** How long a generation route waits for its result before answering 202 (without a Prefer header). */
export const DEFAULT_WAIT_SECONDS = 25;
export const MAX_WAIT_SECONDS = 60;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCtx = HandlerCtx<any, any, any>;

/** The wait the client asked for (`Prefer: respond-async` / `wait=N`), in ms, and the preference applied. */
export function preferredWait(prefer: string | undefined): { ms: number; applied?: string } {
  const p = (prefer ?? '').toLowerCase();
  if (/(^|[\s,;])respond-async\b/.test(p)) return { ms: 0, applied: 'respond-async' };
  const m = /(^|[\s,;])wait\s*=\s*(\d{1,6})\b/.exec(p);
  if (m) {
    const s = Math.min(Number(m[2]), MAX_WAIT_SECONDS);
    return { ms: s * 1000, applied: `wait=${s}` };
  }
  return { ms: DEFAULT_WAIT_SECONDS * 1000 };
}

/** The workflow's result when it finishes within `ms`, else undefined; a failure becomes its API error. */
async function resultWithin<W extends Workflow>(
  ctx: AnyCtx,
  workflowId: string,
  ms: number,
): Promise<WorkflowResultType<W> | undefined> {
  if (ms <= 0 || !ctx.deps.workflows) return undefined;
  const client = await ctx.deps.workflows.client();
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), ms);
  try {
    return await client.withAbortSignal(ac.signal, () => client.workflow.getHandle<W>(workflowId).result());
  } catch (e) {
    if (ac.signal.aborted) return undefined;
    if (e instanceof WorkflowFailedError) throw failureError(e, workflowId);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

export interface TaskRun<W extends Workflow> {
  workflow: W;
  taskId: string;
  taskType: string;
  args: Parameters<W>;
  /** Path of the task's status route (202 answers point at it). */
  statusPath: string;
}

/** Starts the task; 200 with its result when it finishes within the client's wait, else 202 with the task to poll. */
export async function runOrAccept<W extends Workflow>(ctx: AnyCtx, run: TaskRun<W>): Promise<HandlerResult> {
  const wait = preferredWait(ctx.req.get('prefer'));
  const applied: Record<string, string> = wait.applied ? { 'Preference-Applied': wait.applied } : {};
  await startWorkflow(ctx.deps, run.workflow, {
    workflowId: run.taskId,
    args: run.args,
    task: { userId: userIdOf(ctx), taskType: run.taskType },
  });
  const result = await resultWithin<W>(ctx, run.taskId, wait.ms);
  if (result !== undefined) return { status: 200, data: result, headers: applied };
  // The task's status route reads the task projection: let it see TaskStarted before pointing the client at it.
  await settle(ctx, 'task-status', [{ streamId: taskStream(run.taskId), streamPosition: 0 }]);
  const t = await getTask(ctx.deps.db, userIdOf(ctx), run.taskId);
  return {
    status: 202,
    headers: { ...applied, Location: run.statusPath, 'Retry-After': '2' },
    data: {
      success: true,
      task_id: run.taskId,
      status: t?.status === 'in_progress' ? 'in_progress' : 'started',
      status_url: run.statusPath,
      message: 'The work continues in the background; poll status_url until status is completed or failed.',
    },
  };
}

/**
 * The caller's task of one of `taskTypes` from the task projection; a task no
 * worker has picked up yet is read from its workflow's search attributes.
 * Another user's task, or one of another kind, is 404.
 */
export async function ownTask(
  ctx: AnyCtx,
  taskId: string,
  accepts: (taskType: string) => boolean,
): Promise<TaskRecord> {
  const userId = userIdOf(ctx);
  const t = await getTask(ctx.deps.db, userId, taskId);
  if (t) {
    if (!accepts(t.task_type)) throw new NotFoundError('Task not found');
    return t;
  }
  const pending =
    ctx.deps.workflows && /^[a-z-]+-[0-9a-f-]{36}(-item-\d+)?$/.test(taskId)
      ? await describeTask(ctx.deps, taskId)
      : undefined;
  if (!pending || pending.userId !== userId || !accepts(pending.taskType)) throw new NotFoundError('Task not found');
  return {
    task_id: taskId,
    task_type: pending.taskType,
    user_id: userId,
    status: 'started',
    created_at: pending.startedAt,
    progress_messages: [],
  };
}

/** The task record as the status routes answer it. */
export const presentTask = (t: TaskRecord) => ({
  task_id: t.task_id,
  task_type: t.task_type,
  status: t.status,
  created_at: t.created_at,
  progress_messages: t.progress_messages,
  ...(t.result ? { result: t.result } : {}),
  ...(t.error ? { error: t.error } : {}),
});
