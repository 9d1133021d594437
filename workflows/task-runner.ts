/**
 * The frame every asynchronous task workflow runs in: marks the task started,
 * exposes progress as a query, turns the outcome into exactly one terminal
 * event (completed, failed or cancelled) and runs cleanup non-cancellably.
 */
import { ApplicationFailure, CancellationScope, defineQuery, isCancellation, proxyActivities, setHandler } from '@temporalio/workflow';
import type { TaskActivities } from '../activities/tasks';

// Appending an event is cheap and idempotent: retry freely.
const lifecycle = proxyActivities<TaskActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 50 },
});

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

/** Runs `body` as task `taskType`; `progress(msg)` records a human-readable step (event + query). */
export async function runTask<R, O extends Record<string, unknown>>(
  taskType: string,
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
    await lifecycle.completeTask({ taskId, userId, result });
    return result;
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => lifecycle.cancelTask({ taskId, userId, reason: 'cancelled by request' }));
      throw err;
    }
    const failure = err as { cause?: { type?: string; message?: string }; type?: string; message?: string };
    const cause = failure.cause ?? failure;
    const code = (cause as { type?: string }).type ?? 'TASK_FAILED';
    await CancellationScope.nonCancellable(() => lifecycle.failTask({ taskId, userId, code, message: cause.message ?? 'task failed' }));
    throw ApplicationFailure.nonRetryable(cause.message ?? 'task failed', code);
  }
}
