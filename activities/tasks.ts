/**
 * Task lifecycle activities: each appends one event to the task's stream.
 * Activities can be retried, so every event id is derived from the workflow id
 * and the activity id: a retry that finds its event already stored succeeds
 * without appending twice.
 */
import { Context } from '@temporalio/activity';
import type { PostgresEventStore } from '../infra/eventstore/postgres';
import { NewEvent } from '../infra/eventstore/port';
import { uuidFromKey } from '../infra/quota/meter';
import { taskStream } from '../domain/events/tasks';

export interface TaskActivityDeps {
  store: PostgresEventStore;
  now?: () => Date;
}

function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';
}

/** The activity's idempotency key: workflow id + activity id (stable across retries of this activity). */
export function activityKey(suffix = ''): string {
  return `${currentWorkflowId()}/${Context.current().info.activityId}${suffix}`;
}

/** The workflow this activity runs for (activities here always run inside one). */
export function currentWorkflowId(): string {
  const wf = Context.current().info.workflowExecution?.workflowId;
  if (!wf) throw new Error('this activity must run inside a workflow');
  return wf;
}

export function createTaskActivities(deps: TaskActivityDeps) {
  const now = deps.now ?? (() => new Date());
  const appendOnce = async (taskId: string, event: NewEvent, userId: string) => {
    const key = activityKey();
    try {
      await deps.store.append(taskStream(taskId), [{ ...event, eventId: uuidFromKey(`task:${key}`) }], 'any', {
        user_id: userId,
        workflow_id: currentWorkflowId(),
        causation_id: key,
      });
    } catch (e) {
      if (!isUniqueViolation(e)) throw e; // already appended by an earlier attempt
    }
  };
  return {
    /** Appends TaskStarted unless the API already did (it appends it when it starts the workflow). */
    async markTaskStarted(t: { taskId: string; taskType: string; userId: string }): Promise<void> {
      const wf = currentWorkflowId();
      try {
        await deps.store.append(taskStream(t.taskId), [{ type: 'TaskStarted', data: { task_id: t.taskId, task_type: t.taskType, user_id: t.userId, workflow_id: wf } }], 'no_stream', { user_id: t.userId, workflow_id: wf });
      } catch (e) {
        if ((e as { code?: string }).code !== 'CONCURRENCY_CONFLICT') throw e;
      }
    },
    async reportProgress(t: { taskId: string; userId: string; message: string }): Promise<void> {
      await appendOnce(t.taskId, { type: 'TaskProgressed', data: { task_id: t.taskId, message: t.message, at: now().toISOString() } }, t.userId);
    },
    async completeTask(t: { taskId: string; userId: string; result: Record<string, unknown> }): Promise<void> {
      await appendOnce(t.taskId, { type: 'TaskCompleted', data: { task_id: t.taskId, result: t.result } }, t.userId);
    },
    async failTask(t: { taskId: string; userId: string; code: string; message: string }): Promise<void> {
      await appendOnce(t.taskId, { type: 'TaskFailed', data: { task_id: t.taskId, error: { code: t.code, message: t.message } } }, t.userId);
    },
    async cancelTask(t: { taskId: string; userId: string; reason: string }): Promise<void> {
      await appendOnce(t.taskId, { type: 'TaskCancelled', data: { task_id: t.taskId, reason: t.reason } }, t.userId);
    },
  };
}

export type TaskActivities = ReturnType<typeof createTaskActivities>;
