/** Events of asynchronous jobs (blog research, outline, generation, ...): stream `task-<task_id>`. */
import { anyStr, EventDefinitions, obj, str } from './types';

export type TaskEvent =
  | { type: 'TaskStarted'; data: { task_id: string; task_type: string; user_id: string; workflow_id: string } }
  | { type: 'TaskProgressed'; data: { task_id: string; message: string; at: string } }
  | { type: 'TaskCompleted'; data: { task_id: string; result: Record<string, unknown> } }
  | { type: 'TaskFailed'; data: { task_id: string; error: { code: string; message: string } } }
  | { type: 'TaskCancelled'; data: { task_id: string; reason: string } };

export const taskEvents: EventDefinitions<TaskEvent['type']> = {
  TaskStarted: {
    area: 'tasks',
    version: 1,
    schema: obj({ task_id: str, task_type: str, user_id: str, workflow_id: str }),
  },
  TaskProgressed: { area: 'tasks', version: 1, schema: obj({ task_id: str, message: str, at: str }) },
  TaskCompleted: { area: 'tasks', version: 1, schema: obj({ task_id: str, result: { type: 'object' } }) },
  TaskFailed: { area: 'tasks', version: 1, schema: obj({ task_id: str, error: obj({ code: str, message: anyStr }) }) },
  TaskCancelled: { area: 'tasks', version: 1, schema: obj({ task_id: str, reason: anyStr }) },
};

export const taskStream = (taskId: string) => `task-${taskId}`;
