/** Events of asynchronous jobs (blog research, outline, generation, ...): stream `task-<task_id>`. */
import { EventDefinitions, openAllRequired } from './types';
import { anyString, nonEmptyString } from '../schema';

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
    schema: openAllRequired({
      task_id: nonEmptyString,
      task_type: nonEmptyString,
      user_id: nonEmptyString,
      workflow_id: nonEmptyString,
    }),
  },
  TaskProgressed: {
    area: 'tasks',
    version: 1,
    schema: openAllRequired({ task_id: nonEmptyString, message: nonEmptyString, at: nonEmptyString }),
  },
  TaskCompleted: {
    area: 'tasks',
    version: 1,
    schema: openAllRequired({ task_id: nonEmptyString, result: { type: 'object' } }),
  },
  TaskFailed: {
    area: 'tasks',
    version: 1,
    schema: openAllRequired({
      task_id: nonEmptyString,
      error: openAllRequired({ code: nonEmptyString, message: anyString }),
    }),
  },
  TaskCancelled: {
    area: 'tasks',
    version: 1,
    schema: openAllRequired({ task_id: nonEmptyString, reason: anyString }),
  },
};

export const taskStream = (taskId: string) => `task-${taskId}`;
