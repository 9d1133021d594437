/**
 * Task lifecycle activities: each appends one event to the task's stream with
 * appendOnce, its event id derived from the workflow and activity ids, so a
 * retried attempt that finds its event stored succeeds without appending
 * twice. The task workflow is the one writer of every task event, TaskStarted
 * included (its first activity); the API only starts the workflow.
 */
import { Context } from '@temporalio/activity';
import type { EventStore, NewEvent } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import { taskStream } from '../domain/events/tasks';
import { storableText } from '../domain/storable-text';

export interface TaskActivityDeps {
  store: EventStore;
  now?: () => Date;
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
    await deps.store.appendOnce(
      taskStream(taskId),
      { ...event, eventId: uuidFromKey(`task:${key}`) },
      { user_id: userId, workflow_id: currentWorkflowId(), causation_id: key },
    );
  };
  return {
    /** TaskStarted: the first event of the task's stream (the status route reads the task from it). */
    async markTaskStarted(t: { taskId: string; taskType: string; userId: string }): Promise<void> {
      const wf = currentWorkflowId();
      await deps.store.appendOnce(
        taskStream(t.taskId),
        {
          type: 'TaskStarted',
          eventId: uuidFromKey(`task-started:${t.taskId}`),
          data: { task_id: t.taskId, task_type: t.taskType, user_id: t.userId, workflow_id: wf },
        },
        { user_id: t.userId, workflow_id: wf },
        'no_stream',
      );
    },
    async reportProgress(t: { taskId: string; userId: string; message: string }): Promise<void> {
      await appendOnce(
        t.taskId,
        { type: 'TaskProgressed', data: { task_id: t.taskId, message: t.message, at: now().toISOString() } },
        t.userId,
      );
    },
    async completeTask(t: { taskId: string; userId: string; result: Record<string, unknown> }): Promise<void> {
      await appendOnce(t.taskId, { type: 'TaskCompleted', data: { task_id: t.taskId, result: t.result } }, t.userId);
    },
    async failTask(t: { taskId: string; userId: string; code: string; message: string }): Promise<void> {
      await appendOnce(
        t.taskId,
        { type: 'TaskFailed', data: { task_id: t.taskId, error: { code: t.code, message: storableText(t.message) } } },
        t.userId,
      );
    },
    async cancelTask(t: { taskId: string; userId: string; reason: string }): Promise<void> {
      await appendOnce(t.taskId, { type: 'TaskCancelled', data: { task_id: t.taskId, reason: t.reason } }, t.userId);
    },
  };
}

export type TaskActivities = ReturnType<typeof createTaskActivities>;
