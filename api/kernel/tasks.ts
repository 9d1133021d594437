/**
 * The one rule every generating route answers by (docs/content.md, "Answer
 * now or a task to poll"):
 *
 *   The route starts a task workflow (workflow id = task id) and waits for its
 *   result up to the wait bound (API_TASK_WAIT_MS, default 20 s; a client may
 *   ask for less with `Prefer: wait=<seconds>` or for none with
 *   `Prefer: respond-async`, RFC 7240). Finished in time: 200 with the result
 *   as `data` (plus `task_id`). Failed in time: the error of its failure code
 *   (429 plan limit, 503 vendor not configured, 502 vendor failure, ...). Still
 *   running: 202 with `{task_id, status, status_url}` and a `Location` header;
 *   the client polls `status_url` (GET /api/tasks/{task_id}, or /v1/tasks/{task_id}
 *   in the developer family) until `status` is completed, failed or cancelled;
 *   the completed record's `result` is the same object the 200 would have carried.
 *
 * Tasks run in workflows/task-runner.ts (TaskStarted ... TaskCompleted/Failed)
 * and are read from the task-status projection, so a task survives API and
 * worker restarts. A plan limit already used up refuses the request before
 * any workflow starts.
 */
import type { TaskType } from '../../domain/task-types';
import { randomUUID } from 'node:crypto';
import type { Workflow, WorkflowResultType } from '@temporalio/common';
import { ConflictError, NotFoundError, UsageLimitExceededError } from '../../domain/errors';
import { taskStream } from '../../domain/events/tasks';
import { PLANS } from '../../domain/plans';
import { getTask, isTaskOver, TaskRecord } from '../../projections/task-status';
import { readTask } from './task-cache';
import { anyTaskRecord, defineTaskType } from './task-catalogue';
import type { TaskInput } from '../../workflows/task-runner';
import { callerOf, settleWrittenBy, userIdOf } from './handler';
import type { AppDeps, RouteCtx, HandlerResult, RouteResponse } from './types';
import type { JsonSchema } from './envelopes/common';
import {
  awaitWorkflowEnd,
  awaitWorkflowResult,
  cancelWorkflow,
  describeTask,
  executeWorkflow,
  startWorkflow,
  TIMED_OUT,
} from './workflows';

export { TIMED_OUT };

/**
 * The polling hint of task status answers (docs/api.md, "Polling a task"): a
 * task that is not final answers with `Retry-After: 2` (seconds until the
 * next poll is worth it; the 202 of a generating route says the same), so a
 * poller stays well inside the `status` rate window (60 per minute).
 */
export const POLL_HINT_SECONDS = 2;

/** Headers of a task status answer: the polling hint while the task is not final. */
export const pollHeaders = (status: string): Record<string, string> =>
  isTaskOver(status) ? {} : { 'Retry-After': String(POLL_HINT_SECONDS) };

/** Default bound of the wait (ms) when the settings do not give one. */
export const DEFAULT_TASK_WAIT_MS = 20_000;

type AnyCtx = RouteCtx;

/**
 * Refuses at once (429) when the caller's plan limit for the default provider
 * is already used up, instead of starting a task that can only fail; the
 * metered calls inside the task enforce limits atomically either way. Every route
 * that starts AI text work calls it before starting the workflow.
 */
export async function refuseWhenUsedUp(ctx: AnyCtx): Promise<void> {
  const { deps } = ctx;
  if (!deps.quota) return;
  const { userId, plan } = callerOf(ctx);
  const limits = PLANS[plan].limits as Record<string, number | undefined>;
  const provider = deps.aiProvider ?? 'local';
  const keys = [`${provider}_calls`, 'tokens', 'monthly_cost'].filter((k) => limits[k] !== undefined);
  if (!keys.length) return;
  const current = await deps.quota.current(userId);
  for (const k of keys) {
    const used = (current[k]?.used ?? 0) + (current[k]?.reserved ?? 0);
    if (used >= limits[k]!)
      throw new UsageLimitExceededError({ provider, limit_type: k, current_usage: used, limit_value: limits[k]! });
  }
}

/**
 * How long this request may wait: the configured bound, changed by `Prefer: wait=n` (at most `maxMs`, by default
 * the configured bound: a client may only ask for less) or `respond-async` (no wait).
 */
export function waitBoundMs(
  prefer: string | undefined,
  configuredMs: number,
  maxMs = configuredMs,
): { ms: number; applied?: string } {
  if (!prefer) return { ms: configuredMs };
  const prefs = prefer
    .toLowerCase()
    .split(/[,;]/) // preferences are comma-separated; a `;` (a parameter) is read leniently as one more
    .map((p) => p.trim());
  if (prefs.includes('respond-async')) return { ms: 0, applied: 'respond-async' };
  const wait = prefs.map((p) => /^wait\s*=\s*(\d+)$/.exec(p)).find(Boolean);
  if (wait) {
    const ms = Math.min(maxMs, Number(wait[1]) * 1000);
    return { ms, applied: `wait=${Math.round(ms / 1000)}` };
  }
  return { ms: configuredMs };
}

/** The status route of a task in the family of the request. */
export const statusPathOf = (ctx: AnyCtx, taskId: string) =>
  `${ctx.req.path.startsWith('/v1/') ? '/v1' : '/api'}/tasks/${taskId}`;

/**
 * How a task type's result is shown to its caller (file URLs from file names): the same in the 200 answer of its
 * route and in its task record read later (GET /api/tasks/{task_id}), so "result is the object a 200 answer carries"
 * holds. Registered once by the area that owns the task type (module load), read by runTask and presentTask.
 */
export type ResultPresenter = (ctx: AnyCtx, result: Record<string, unknown>) => Record<string, unknown>;
const PRESENTERS = new Map<string, ResultPresenter>();
export function presentResultsOf(taskType: TaskType, present: ResultPresenter): void {
  PRESENTERS.set(taskType, present);
}
const presented = (ctx: AnyCtx | undefined, taskType: string, result: Record<string, unknown>) => {
  const present = PRESENTERS.get(taskType);
  return ctx && present ? present(ctx, result) : result;
};

export interface TaskRouteSpec<R, O extends Record<string, unknown>> {
  workflow: (input: TaskInput<R>) => Promise<O>;
  /** Task type (task-status projection, search attribute, webhook catalogue). */
  taskType: TaskType;
  /** The result's schema (the task catalogue: api/kernel/task-catalogue.ts); given to taskResponses. */
  result?: JsonSchema;
  /** Task id prefix: `<prefix>-<uuid>`. */
  idPrefix: string;
}

/** A generating route's task, declared once (type, id prefix, workflow, result) and checked against its workflow. */
export const defineTask = <R, O extends Record<string, unknown>>(
  spec: TaskRouteSpec<R, O> & { result: JsonSchema },
): TaskRouteSpec<R, O> & { result: JsonSchema } => spec;

/**
 * Starts `spec.workflow` on `request` and answers by the rule above. The
 * request is what the workflow receives (validated, defaults applied, identity
 * from the caller).
 */
export async function runTask<R, O extends Record<string, unknown>>(
  ctx: AnyCtx,
  spec: TaskRouteSpec<R, O>,
  request: R,
): Promise<HandlerResult> {
  const caller = callerOf(ctx);
  await refuseWhenUsedUp(ctx);
  const taskId = `${spec.idPrefix}-${randomUUID()}`;
  await startWorkflow(ctx.deps, spec.workflow, {
    workflowId: taskId,
    args: [{ taskId, userId: caller.userId, request }],
    task: { userId: caller.userId, plan: caller.plan, taskType: spec.taskType },
  });
  const wait = waitBoundMs(ctx.req.header('prefer'), ctx.deps.settings.taskWaitMs ?? DEFAULT_TASK_WAIT_MS);
  const headers: Record<string, string> = wait.applied ? { 'Preference-Applied': wait.applied } : {};
  const result = wait.ms > 0 ? await awaitWorkflowResult(ctx.deps, spec.workflow, taskId, wait.ms) : TIMED_OUT;
  if (result !== TIMED_OUT) {
    // Read-your-writes of whatever the task wrote, before the client's next read.
    await settleWrittenBy(ctx, taskId);
    return { status: 200, headers, data: { task_id: taskId, ...presented(ctx, spec.taskType, result) } };
  }
  // Still running: the client polls. Answered at once: the first poll finds the task even before its worker has
  // recorded TaskStarted (ownTask reads a task the projection does not have yet from its running workflow).
  const statusUrl = statusPathOf(ctx, taskId);
  return {
    status: 202,
    headers: { ...headers, Location: statusUrl, 'Retry-After': String(POLL_HINT_SECONDS) },
    data: { task_id: taskId, task_type: spec.taskType, status: 'started', status_url: statusUrl },
  };
}

/**
 * Waits up to `ms` for the task `taskId` to end (completed, failed or cancelled); once it has, everything it wrote,
 * its own record included, is settled, so the route can answer the record. False when the bound passed first.
 */
export async function awaitTaskEnd(ctx: AnyCtx, taskId: string, ms: number): Promise<boolean> {
  if (!(await awaitWorkflowEnd(ctx.deps, taskId, ms))) return false;
  await settleWrittenBy(ctx, taskId, { withTaskRecord: true });
  return true;
}

/**
 * A route's synchronous workflow (not a task: no record to poll): runs it to its end and answers its result once what
 * it wrote is settled (settleWrittenBy), so the client's next read sees it.
 */
export async function runWorkflow<W extends Workflow>(
  ctx: AnyCtx,
  workflow: W,
  opts: Parameters<typeof executeWorkflow<W>>[2],
): Promise<WorkflowResultType<W>> {
  const result = await executeWorkflow(ctx.deps, workflow, opts);
  await settleWrittenBy(ctx, opts.workflowId);
  return result;
}

/**
 * A route's synchronous AI work (metered against the plan): refused at once (429) when the caller's plan limit is used
 * up (refuseWhenUsedUp), else run to its end through its workflow, its result answered.
 */
export async function runMeteredWorkflow<W extends Workflow>(
  ctx: AnyCtx,
  workflow: W,
  opts: Parameters<typeof executeWorkflow<W>>[2],
): Promise<WorkflowResultType<W>> {
  await refuseWhenUsedUp(ctx);
  return executeWorkflow(ctx.deps, workflow, opts);
}

/**
 * The result of the task workflow started as `workflowId`, TIMED_OUT after `ms`, or the API error of its failure
 * code: `awaitWorkflowResult` of the typed Temporal boundary (api/kernel/workflows.ts), typed by `workflow`.
 */
export function awaitResult<W extends Workflow>(
  deps: AppDeps,
  workflow: W,
  workflowId: string,
  ms: number,
): Promise<WorkflowResultType<W> | typeof TIMED_OUT> {
  return awaitWorkflowResult(deps, workflow, workflowId, ms);
}

/**
 * Responses of a generating route: 200 with the task's result as `data`, 202 with the task to poll. Declares the
 * task type with its result in the task catalogue (the status routes' `result`).
 */
export function taskResponses(
  description: string,
  spec: { taskType: TaskType; result: JsonSchema },
): Record<number, RouteResponse> {
  const { result: data } = defineTaskType({ type: spec.taskType, result: spec.result });
  const withTask = {
    ...data,
    properties: { task_id: { type: 'string' }, ...((data.properties as object) ?? {}) },
    required: [...new Set(['task_id', ...((data.required as string[]) ?? [])])],
  };
  return {
    200: { description: `${description} (finished within the wait bound)`, data: withTask },
    202: { description: 'Still running: poll status_url (also in the Location header)', data: acceptedSchema },
  };
}

export const acceptedSchema: JsonSchema = {
  type: 'object',
  properties: {
    task_id: { type: 'string' },
    task_type: { type: 'string' },
    status: { enum: ['started', 'in_progress', 'completed', 'failed', 'cancelled'] },
    status_url: { type: 'string' },
  },
  required: ['task_id', 'task_type', 'status', 'status_url'],
};

/**
 * The 200 response of a route answering task records: a record of one of the task types `types` accepts (every
 * type when none is given), each with its typed `result` (api/kernel/task-catalogue.ts). Read when the document is
 * built, once every area has declared its task types.
 */
export function taskRecordResponse(description: string, types?: (type: string) => boolean): RouteResponse {
  return {
    description,
    get data() {
      return anyTaskRecord(types);
    },
  };
}

/** Task ids the platform makes: `<kind>-<uuid>`, and `<kind>-<uuid>-item-<n>` for the items of a batch. */
const TASK_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:-item-\d+)?$/;

/**
 * The caller's task, the one way every status route reads a task. It comes
 * from the task-status projection; a task no worker has picked up yet (no
 * TaskStarted recorded) is read from its workflow's search attributes:
 * `started`, no progress. `accepts` narrows the task types the route answers
 * for (a type name or a test). Another user's task, one of another type and
 * an unknown id are all 404 with `notFound` as the message.
 */
export async function ownTask(
  ctx: AnyCtx,
  taskId: string,
  accepts?: string | ((taskType: string) => boolean),
  notFound = 'Task not found',
): Promise<TaskRecord> {
  const ok = (type: string) => !accepts || (typeof accepts === 'string' ? type === accepts : accepts(type));
  const userId = userIdOf(ctx);
  const t = await readTask(ctx.deps.db, ctx.deps.tasks, userId, taskId, ctx.deps.store, (err) =>
    ctx.req.log?.warn({ err, taskId }, 'task catch-up failed; answering the projection as it is'),
  );
  if (t) {
    if (!ok(t.task_type)) throw new NotFoundError(notFound);
    return t;
  }
  const pending = TASK_ID.test(taskId) && ctx.deps.workflows ? await describeTask(ctx.deps, taskId) : undefined;
  if (!pending || pending.userId !== userId || !ok(pending.taskType)) throw new NotFoundError(notFound);
  return {
    task_id: taskId,
    task_type: pending.taskType,
    user_id: userId,
    status: 'started',
    created_at: pending.startedAt,
    progress_messages: [],
  };
}

/** A task as a status route answers it. */
export type TaskView = Record<string, unknown> & { status: TaskRecord['status'] };

/**
 * A task record as status routes answer it (`result`/`error` only when present, the result as its route's 200
 * answer shows it when `ctx` is given: presentResultsOf); `omit` leaves fields out.
 */
export function presentTask(t: TaskRecord, omit: readonly string[] = [], ctx?: AnyCtx): TaskView {
  const out: TaskView = {
    task_id: t.task_id,
    task_type: t.task_type,
    status: t.status,
    created_at: t.created_at,
    progress_messages: t.progress_messages,
    ...(t.result ? { result: presented(ctx, t.task_type, t.result as Record<string, unknown>) } : {}),
    ...(t.error ? { error: t.error } : {}),
  };
  for (const k of omit) delete out[k];
  return out;
}

/** The caller's task record of any type (GET /api/tasks/{task_id}, /v1/tasks/{task_id}). */
export async function ownTaskRecord(ctx: AnyCtx, taskId: string): Promise<TaskView> {
  return presentTask(await ownTask(ctx, taskId), [], ctx);
}

/** Default of ApiSettings.cancelWaitMs. */
export const DEFAULT_CANCEL_WAIT_MS = 10_000;

/**
 * Cancels the caller's task (the one way every cancel route does): 409 when
 * it already finished, else asks its workflow to stop and waits (bounded by
 * `cancelWaitMs`) until the task reads `cancelled` — the worker stops the
 * work (ffmpeg, vendor calls) and records it. Answers the record as it
 * stands then (still `in_progress` while cancelling past the bound).
 */
export async function cancelTask(ctx: AnyCtx, taskId: string): Promise<TaskRecord> {
  const t = await ownTask(ctx, taskId);
  if (isTaskOver(t.status)) throw new ConflictError(`the task is already ${t.status}`, { status: t.status });
  await cancelWorkflow(ctx.deps, t.task_id);
  const deadline = Date.now() + (ctx.deps.settings.cancelWaitMs ?? DEFAULT_CANCEL_WAIT_MS);
  let now = t;
  while (Date.now() < deadline && !isTaskOver(now.status)) {
    await new Promise((r) => setTimeout(r, 50));
    now = (await getTask(ctx.deps.db, t.user_id, t.task_id)) ?? now;
  }
  // Read from the projection itself above; this process's cache reads it afresh too.
  ctx.deps.tasks?.settled('task-status', [taskStream(t.task_id)]);
  return now;
}
