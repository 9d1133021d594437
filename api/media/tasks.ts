/**
 * Media tasks (video renders now, podcast work next): reading the caller's
 * task and the spec's client-side cancel route, `POST /api/story/task/{taskId}/cancel`
 * (Document 2: "a client-side task cancel call posts to /api/story/task/{taskId}/cancel").
 * It cancels any task of the caller; for renders the workflow stops ffmpeg and
 * removes every file of the render before the task reads `cancelled`.
 */
import { defineRoute } from '../kernel/registry';
import { params, str } from '../kernel/schema';
import { cancelTask, presentTask, taskRecordResponse } from '../kernel/tasks';

export const storyCancelRoute = defineRoute<unknown, unknown, { taskId: string }>({
  method: 'post',
  path: '/api/story/task/{taskId}/cancel',
  auth: 'user',
  successBody: 'bare',
  tags: ['media tasks'],
  summary: 'Cancel a running task (video renders, podcast work, any task of the caller)',
  description:
    'Asks the task to stop and answers with its record once it is cancelled (or still cancelling after API_CANCEL_WAIT_MS). A render stops ffmpeg and removes its partial files first. A task that already finished answers 409.',
  request: { params: params({ taskId: str(100, { pattern: '^[A-Za-z0-9_-]{1,100}$' }) }) },
  responses: { 200: taskRecordResponse('The task record after cancellation') },
  errors: { 409: 'The task already finished', 503: 'Background work (Temporal) is not available' },
  async handler(ctx) {
    return { data: presentTask(await cancelTask(ctx, ctx.params.taskId), [], ctx) };
  },
});
