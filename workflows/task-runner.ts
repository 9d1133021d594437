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
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { TaskActivities } from '../activities/tasks';
import { FailureCode, isFailureCode } from '../domain/failures';
import { RECORD_RETRY } from './retry';

// Appending an event is cheap and idempotent: retry patiently, except what a retry cannot fix. Regular activities,
// not local ones: tried (2026-11-30), local activities made a short task ~35 % cheaper at 20 at a time, but under a
// burst of hundreds of tasks (the OpenAPI fuzzer) each waiting local activity held its workflow task open for 5-8 s,
// and a synchronous route of the fuzzer timed out after 120 s (docs/benchmarks.md, "Durable AI tasks").
const lifecycle = proxyActivities<TaskActivities>({ startToCloseTimeout: '30s', retry: RECORD_RETRY });

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
 * ApplicationFailure comes wrapped in an ActivityFailure; one that arrives bare, as a local activity's does, has the
 * error it was made from as its cause; a child workflow's comes wrapped in a ChildWorkflowFailure), else
 * INTERNAL_ERROR. `fallback` is the message when the failures carry none.
 */
export function failureCodeOf(err: unknown, fallback = 'task failed'): { code: FailureCode; message: string } {
  type Failure = { cause?: Failure; type?: string; message?: string };
  const top = err as Failure;
  for (let f: Failure | undefined = top, depth = 0; f && depth < 8; f = f.cause, depth++)
    if (isFailureCode(f.type)) return { code: f.type, message: f.message || top.message || fallback };
  return { code: 'INTERNAL_ERROR', message: top.cause?.message || top.message || fallback };
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
