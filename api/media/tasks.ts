/**
 * Media tasks (video renders now, podcast work next): reading the caller's
 * task and the spec's client-side cancel route, `POST /api/story/task/{taskId}/cancel`
 * (Document 2: "a client-side task cancel call posts to /api/story/task/{taskId}/cancel").
 * It cancels any task of the caller; for renders the workflow stops ffmpeg and
 * removes every file of the render before the task reads `cancelled`.
 */
import { ConflictError, NotFoundError } from '../../domain/errors';
import { getTask, TaskRecord } from '../../projections/task-status';
import { userIdOf } from '../kernel/handler';
import { defineRoute, HandlerCtx } from '../kernel/registry';
import { arr, iso, obj, params, str } from '../kernel/schema';
import { cancelWorkflow, describeTask } from '../kernel/workflows';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ctx = HandlerCtx<any, any, any>;

const ACTIVE = ['started', 'in_progress'];
/** Task ids the platform makes: `<kind>-<uuid>` (video-render-…, blog-research-…). */
const TASK_ID = /^[a-z]+(?:-[a-z]+)*-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The caller's task (of `taskType` when given) from the task projection; a
 * task no worker has picked up yet is read from its workflow's search
 * attributes (`started`). Another user's or an unknown task is 404.
 */
export async function ownTask(ctx: Ctx, taskId: string, taskType?: string): Promise<TaskRecord> {
  const userId = userIdOf(ctx);
  const t = await getTask(ctx.deps.db, userId, taskId);
  if (t) {
    if (taskType && t.task_type !== taskType) throw new NotFoundError('Task not found');
    return t;
  }
  const pending = TASK_ID.test(taskId) && ctx.deps.workflows ? await describeTask(ctx.deps, taskId) : undefined;
  if (!pending || pending.userId !== userId || (taskType && pending.taskType !== taskType))
    throw new NotFoundError('Task not found');
  return {
    task_id: taskId,
    task_type: pending.taskType,
    user_id: userId,
    status: 'started',
    created_at: pending.startedAt,
    progress_messages: [],
  };
}

/** The task record of the spec (`error` only when failed or cancelled); `omit` leaves fields to the caller. */
export function presentTask(t: TaskRecord, omit: string[] = []) {
  const out: Record<string, unknown> = {
    task_id: t.task_id,
    task_type: t.task_type,
    status: t.status,
    created_at: t.created_at,
    progress_messages: t.progress_messages,
    ...(t.result ? { result: t.result } : {}),
    ...(t.error ? { error: t.error } : {}),
  };
  for (const k of omit) delete out[k];
  return out;
}

const taskRecordSchema = obj(
  {
    task_id: { type: 'string' },
    task_type: { type: 'string' },
    status: { enum: ['started', 'in_progress', 'completed', 'failed', 'cancelled'] },
    created_at: iso,
    progress_messages: arr(obj({ timestamp: { type: 'string' }, message: { type: 'string' } })),
    result: { type: 'object' },
    error: obj({ code: { type: 'string' }, message: { type: 'string' } }),
  },
  ['task_id', 'task_type', 'status', 'created_at', 'progress_messages'],
);

export const storyCancelRoute = defineRoute<unknown, unknown, { taskId: string }>({
  method: 'post',
  path: '/api/story/task/{taskId}/cancel',
  auth: 'user',
  successBody: 'bare',
  tags: ['media tasks'],
  summary: 'Cancel a running task (video renders, podcast work, any task of the caller)',
  description:
    'Asks the task to stop and answers with its record once it is cancelled (or still cancelling after the consistency bound). A render stops ffmpeg and removes its partial files first. A task that already finished answers 409.',
  request: { params: params({ taskId: str(100, { pattern: '^[A-Za-z0-9_-]{1,100}$' }) }) },
  responses: { 200: { description: 'The task record after cancellation', data: taskRecordSchema } },
  errors: { 409: 'The task already finished', 503: 'Background work (Temporal) is not available' },
  async handler(ctx) {
    const t = await ownTask(ctx, ctx.params.taskId);
    if (!ACTIVE.includes(t.status)) throw new ConflictError(`the task is already ${t.status}`, { status: t.status });
    await cancelWorkflow(ctx.deps, t.task_id);
    const deadline = Date.now() + ctx.deps.settings.consistencyTimeoutMs;
    let now = t;
    while (Date.now() < deadline && ACTIVE.includes(now.status)) {
      await new Promise((r) => setTimeout(r, 50));
      now = (await getTask(ctx.deps.db, userIdOf(ctx), t.task_id)) ?? now;
    }
    return { data: presentTask(now) };
  },
});
