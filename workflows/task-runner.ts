/**
 * The frame every asynchronous task workflow runs in: marks the task started,
 * exposes progress as a query, turns the outcome into exactly one terminal
 * event (completed, failed or cancelled) and runs cleanup non-cancellably.
 */
import type { TaskType } from '../domain/task-types';
import {
  ApplicationFailure,
  CancellationScope,
  defineQuery,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { TaskActivities } from '../activities/tasks';
import { FailureCode, isFailureCode } from '../domain/failures';
import { RECORD_RETRY } from './retry';

// Appending an event is cheap and idempotent: retry patiently, except what a retry cannot fix.
const LIFECYCLE = { startToCloseTimeout: '30s', retry: RECORD_RETRY } as const;
/**
 * The task's events are written by local activities: one short append each, run by the worker that runs the workflow
 * task, recorded in the history as a marker, without a round trip through the server's task queues (a regular
 * activity costs the server a dispatch, three history events and a further workflow task). A workflow started before
 * this change keeps regular activities when it is replayed (`patched`, below).
 */
const localLifecycle = proxyLocalActivities<TaskActivities>(LIFECYCLE);
const remoteLifecycle = proxyActivities<TaskActivities>(LIFECYCLE);
export const LOCAL_LIFECYCLE_PATCH = 'task-lifecycle-local-activities';

export interface TaskInput<R> {
  taskId: string;
  userId: string;
  request: R;
}

export interface ProgressMessage {
  timestamp: string;
  message: string;
}

export const progressQuery = defineQuery<ProgressMessage[]>('progress');

/**
 * The failure code of what a task body threw: the first type of the failure table along its cause chain (an activity's
 * ApplicationFailure comes wrapped in an ActivityFailure; a local activity's, such as a task event PostgreSQL refused,
 * comes bare with the error it was made from as its cause), else INTERNAL_ERROR.
 */
export function failureCodeOf(err: unknown): { code: FailureCode; message: string } {
  type Failure = { cause?: Failure; type?: string; message?: string };
  const top = err as Failure;
  for (let f: Failure | undefined = top, depth = 0; f && depth < 8; f = f.cause, depth++)
    if (isFailureCode(f.type)) return { code: f.type, message: f.message || top.message || 'task failed' };
  return { code: 'INTERNAL_ERROR', message: top.cause?.message || top.message || 'task failed' };
}

/**
 * Runs `body` as task `taskType`; `progress(msg)` records a human-readable step (event + query).
 * The task's events are all written from here: TaskStarted first, then progress, then exactly one of
 * TaskCompleted, TaskFailed (with a code of the failure table) or TaskCancelled.
 */
export async function runTask<R, O extends Record<string, unknown>>(
  taskType: TaskType,
  input: TaskInput<R>,
  body: (progress: (message: string) => Promise<void>) => Promise<O>,
): Promise<O> {
  const { taskId, userId } = input;
  const lifecycle = patched(LOCAL_LIFECYCLE_PATCH) ? localLifecycle : remoteLifecycle;
  const messages: ProgressMessage[] = [];
  setHandler(progressQuery, () => messages);
  const progress = async (message: string) => {
    messages.push({ timestamp: new Date().toISOString(), message });
    await lifecycle.reportProgress({ taskId, userId, message });
  };
  await lifecycle.markTaskStarted({ taskId, taskType, userId });
  try {
    const result = await body(progress);
    // The work is done (files stored, usage charged): a cancel that arrives now cannot undo it, so the task reads
    // completed, never cancelled with its result left behind.
    await CancellationScope.nonCancellable(() => lifecycle.completeTask({ taskId, userId, result }));
    return result;
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() =>
        lifecycle.cancelTask({ taskId, userId, reason: 'cancelled by request' }),
      );
      throw err;
    }
    const { code, message } = failureCodeOf(err);
    await CancellationScope.nonCancellable(() => lifecycle.failTask({ taskId, userId, code, message }));
    // Keep the cause's details (a plan limit's provider, limit_type, usage): the API answers a waiting client with them.
    const details = (err as { cause?: { details?: unknown[] } }).cause?.details;
    throw ApplicationFailure.create({ message, type: code, nonRetryable: true, ...(details ? { details } : {}) });
  }
}
