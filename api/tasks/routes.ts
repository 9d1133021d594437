/**
 * Status of the tasks generating routes answer 202 with (api/kernel/tasks.ts):
 * GET /api/tasks/{task_id} in the general envelope and GET /v1/tasks/{task_id}
 * in the developer envelope. Read from the task-status projection; another
 * user's and an unknown task are 404. Polling has its own rate window
 * (`status`, 60 per minute), so a client polling every second does not use up
 * its generation tier. Answers carry a weak ETag (If-None-Match: 304 when
 * unchanged) and, while the task runs, `Retry-After: 2` as the polling hint.
 */
import { defineRoute, RouteDef } from '../kernel/registry';
import { params, str } from '../kernel/schema';
import { ownTaskRecord, pollHeaders, taskRecordResponse } from '../kernel/tasks';

const taskIdParams = params({ task_id: str(120, { minLength: 1, pattern: '^[A-Za-z0-9_-]+$' }) });

const statusRoute = (prefix: '/api' | '/v1'): RouteDef =>
  defineRoute<unknown, unknown, { task_id: string }>({
    method: 'get',
    path: `${prefix}/tasks/{task_id}`,
    auth: 'user',
    rateScheme: 'status',
    etag: true,
    tags: ['tasks'],
    summary: 'Status of a generation task (answered 202 by a generating route)',
    description:
      'status: started, in_progress, completed (with result: the same object a 200 answer carries as data), failed (error {code, message}) or cancelled.',
    request: { params: taskIdParams },
    responses: { 200: taskRecordResponse('The task record (a branch per task type: `task_type` tells which)') },
    handler: async (ctx) => {
      const data = await ownTaskRecord(ctx, ctx.params.task_id);
      return { data, headers: pollHeaders(data.status) };
    },
  });

export const taskRoutes: RouteDef[] = [statusRoute('/api'), statusRoute('/v1')];
