/**
 * Media tasks (video renders now, podcast work next): reading the caller's
 * task and the spec's client-side cancel route, `POST /api/story/task/{taskId}/cancel`
 * (Document 2: "a client-side task cancel call posts to /api/story/task/{taskId}/cancel").
 * It cancels any task of the caller; for renders the workflow stops ffmpeg and
 * removes every file of the render before the task reads `cancelled`.
 */
import { ConflictError } from '../../domain/errors';
import { getTask } from '../../projections/task-status';
import { userIdOf } from '../kernel/handler';
import { defineRoute } from '../kernel/registry';
import { params, str } from '../kernel/schema';
import { cancelWorkflow } from '../kernel/workflows';
import { ownTask, presentTask, taskRecordSchema } from '../kernel/tasks';

const ACTIVE = ['started', 'in_progress'];

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
