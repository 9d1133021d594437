/**
 * The API's one boundary to Temporal. Workflows are started and executed with
 * their function (never a name as a string), so arguments and results are
 * type-checked; failures come back as the error hierarchy by the failure code
 * of the workflow's root ApplicationFailure (domain/failures.ts).
 *
 * Every business workflow has one id per job, given by the caller
 * (`blog-research-<uuid>`, returned to the client as task_id), with the
 * conflict policy FAIL and the reuse policy REJECT_DUPLICATE: a job id is used
 * once, ever.
 *
 * A task of a heavy class (domain/fair-use.ts) starts on its class's task
 * queue and only within its owner's plan bound of concurrent tasks of that
 * class (./fair-use.ts): every task start goes through `startWorkflow`.
 */
import type { TaskType } from '../../domain/task-types';
import {
  ApplicationFailure,
  Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  WorkflowNotFoundError,
} from '@temporalio/client';
import { Duration, TypedSearchAttributes, Workflow, WorkflowResultType } from '@temporalio/common';
import type { WorkflowOptions, WorkflowStartOptions } from '@temporalio/client';
import {
  AppError,
  ConflictError,
  ServiceUnavailableError,
  UpstreamError,
  UsageLimitExceededError,
  ValidationError,
} from '../../domain/errors';
import { FAILURES, isFailureCode } from '../../domain/failures';
import { taskQueueOf } from '../../domain/fair-use';
import type { PlanName } from '../../domain/plans';
import { startWithinBound } from './fair-use';
import { isCataloguedTaskType } from './task-catalogue';
import type { AppDeps } from './types';

import { ownerAttributes, TASK_TYPE, USER_ID, workflowKind } from '../../domain/search-attributes';

/** The Temporal client, or 503 naming why there is none. */
async function clientOf(deps: Pick<AppDeps, 'workflows'>): Promise<{ client: Client; taskQueue: string }> {
  if (!deps.workflows)
    throw new ServiceUnavailableError('Background work is not available: this API has no Temporal connection', {
      service: 'temporal',
    });
  try {
    return { client: await deps.workflows.client(), taskQueue: deps.workflows.taskQueue };
  } catch (e) {
    throw new ServiceUnavailableError(
      `Background work is temporarily unavailable (Temporal: ${(e as Error).message})`,
      { service: 'temporal' },
    );
  }
}

export interface StartOptions<W extends Workflow> {
  workflowId: string;
  args: Parameters<W>;
  /**
   * Owner and kind of a task, as search attributes (operators filter by them in the Temporal UI); the owner's plan
   * bounds how many heavy tasks of the kind's class may run at once.
   */
  task?: { userId: string; plan: PlanName; taskType: TaskType };
}

/**
 * The start options every job gets (one id per job, used once). The SDK types
 * `args` by a conditional on the workflow's parameters, which TypeScript cannot
 * resolve for a generic W: the callers' `args: Parameters<W>` is what checks them.
 */
function options<W extends Workflow>(o: {
  taskQueue: string;
  workflowId: string;
  args: Parameters<W>;
  workflowExecutionTimeout?: Duration;
  typedSearchAttributes?: TypedSearchAttributes;
}): WorkflowStartOptions<W> {
  const start: WorkflowOptions & { args: Parameters<W> } = {
    ...o,
    workflowIdConflictPolicy: 'FAIL',
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  };
  // `start` has the `args` the SDK's conditional asks for; TypeScript cannot resolve that conditional for a generic W.
  return start as WorkflowStartOptions<W>;
}

/**
 * Starts a workflow; 409 when its id was used before, 503 when Temporal cannot be reached, 429 when it is a heavy
 * task and its owner already runs as many of its class as the plan allows.
 */
export async function startWorkflow<W extends Workflow>(
  deps: Pick<AppDeps, 'workflows' | 'db' | 'settings' | 'logger'>,
  workflow: W,
  opts: StartOptions<W>,
): Promise<void> {
  // Every task the API starts is in the task catalogue: its status routes and the document know its result.
  if (opts.task && !isCataloguedTaskType(opts.task.taskType))
    throw new Error(`task type ${opts.task.taskType} is not in the task catalogue (api/kernel/task-catalogue.ts)`);
  const { client, taskQueue } = await clientOf(deps);
  const start = async () => {
    try {
      await client.workflow.start(
        workflow,
        options<W>({
          taskQueue: taskQueueOf(taskQueue, opts.task?.taskType),
          workflowId: opts.workflowId,
          args: opts.args,
          ...(opts.task ? { typedSearchAttributes: ownerAttributes(opts.task.userId, opts.task.taskType) } : {}),
        }),
      );
    } catch (e) {
      if (e instanceof WorkflowExecutionAlreadyStartedError) throw new ConflictError('task id already in use; retry');
      throw new ServiceUnavailableError(`Could not start the work: ${(e as Error).message}`, { service: 'temporal' });
    }
  };
  if (!opts.task) return start();
  await startWithinBound(deps, { ...opts.task, taskId: opts.workflowId }, start, (ids) => closedWorkflows(deps, ids));
}

/**
 * Runs a workflow and waits for its result; a failure becomes the error of its failure code. The run carries the
 * search attributes of `userId`, its kind taken from the workflow's name (domain/search-attributes.ts).
 */
export async function executeWorkflow<W extends Workflow>(
  deps: Pick<AppDeps, 'workflows'>,
  workflow: W,
  opts: { workflowId: string; userId: string; args: Parameters<W>; timeout?: Duration },
): Promise<WorkflowResultType<W>> {
  const { client, taskQueue } = await clientOf(deps);
  try {
    return await client.workflow.execute(
      workflow,
      options<W>({
        taskQueue,
        workflowId: opts.workflowId,
        args: opts.args,
        workflowExecutionTimeout: opts.timeout ?? '10m',
        typedSearchAttributes: ownerAttributes(opts.userId, workflowKind(workflow)),
      }),
    );
  } catch (e) {
    if (e instanceof WorkflowFailedError) throw failureError(e, opts.workflowId);
    if (e instanceof WorkflowExecutionAlreadyStartedError) throw new ConflictError('work id already in use; retry');
    throw e;
  }
}

/** What `awaitWorkflowResult` answers when the bound passed before the workflow finished. */
export const TIMED_OUT = Symbol('timed out');

/**
 * The result of the started workflow `workflowId`, typed by the workflow function that was started with it
 * (`startWorkflow(deps, w, { workflowId })` then `awaitWorkflowResult(deps, w, workflowId, ms)`); TIMED_OUT after
 * `ms`; a failure becomes the error of its failure code.
 */
export async function awaitWorkflowResult<W extends Workflow>(
  deps: Pick<AppDeps, 'workflows'>,
  workflow: W,
  workflowId: string,
  ms: number,
): Promise<WorkflowResultType<W> | typeof TIMED_OUT> {
  const { client } = await clientOf(deps);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  try {
    return await client.withAbortSignal(abort.signal, () => client.workflow.getHandle<W>(workflowId).result());
  } catch (e) {
    if (e instanceof WorkflowFailedError) throw failureError(e, workflowId);
    if (abort.signal.aborted) return TIMED_OUT;
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits up to `ms` for the workflow `workflowId` to close, however it closes (completed, failed, cancelled): true
 * when it closed in time. For routes that answer the task record rather than the result (a failure is a record
 * with status failed there, not an error answer).
 */
export async function awaitWorkflowEnd(
  deps: Pick<AppDeps, 'workflows'>,
  workflowId: string,
  ms: number,
): Promise<boolean> {
  if (ms <= 0) return false;
  const { client } = await clientOf(deps);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  try {
    await client.withAbortSignal(abort.signal, () => client.workflow.getHandle(workflowId).result());
    return true;
  } catch (e) {
    if (abort.signal.aborted) return false;
    if (e instanceof WorkflowFailedError) return true;
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** Asks a workflow to cancel; a workflow that no longer exists is not an error. */
export async function cancelWorkflow(deps: Pick<AppDeps, 'workflows'>, workflowId: string): Promise<void> {
  const { client } = await clientOf(deps);
  try {
    await client.workflow.getHandle(workflowId).cancel();
  } catch (e) {
    if (!(e instanceof WorkflowNotFoundError)) throw e;
  }
}

/** The workflows among `workflowIds` that are not running: closed in any way (even terminated), or unknown. */
export async function closedWorkflows(deps: Pick<AppDeps, 'workflows'>, workflowIds: string[]): Promise<string[]> {
  const { client } = await clientOf(deps);
  const closed = await Promise.all(
    workflowIds.map(async (id) => {
      try {
        return (await client.workflow.getHandle(id).describe()).status.name === 'RUNNING' ? undefined : id;
      } catch (e) {
        if (e instanceof WorkflowNotFoundError) return id;
        throw e;
      }
    }),
  );
  return closed.filter((id): id is string => id !== undefined);
}

/** Owner, kind and start time of a running workflow from its search attributes, or undefined when there is none. */
export async function describeTask(
  deps: Pick<AppDeps, 'workflows'>,
  workflowId: string,
): Promise<{ userId: string; taskType: string; startedAt: string } | undefined> {
  const { client } = await clientOf(deps);
  try {
    const d = await client.workflow.getHandle(workflowId).describe();
    // A closed run is no task in waiting: a task records its events before it ends (and every run carries the
    // attributes, synchronous ones too).
    if (d.status.name !== 'RUNNING') return undefined;
    const userId = d.typedSearchAttributes.get(USER_ID);
    const taskType = d.typedSearchAttributes.get(TASK_TYPE);
    return userId && taskType ? { userId, taskType, startedAt: d.startTime.toISOString() } : undefined;
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return undefined;
    throw e;
  }
}

/** The root ApplicationFailure of a failed workflow (activity failures nest theirs as `cause`). */
export function rootFailure(e: unknown): ApplicationFailure | undefined {
  let c: unknown = e;
  let found: ApplicationFailure | undefined;
  for (let i = 0; c && i < 10; i++, c = (c as { cause?: unknown }).cause)
    if (c instanceof ApplicationFailure) found = c;
  return found;
}

/**
 * The API error for a failed workflow, by the failure code of its root cause.
 * An internal failure stays a plain Error: the error stage logs it and answers a generic 500.
 */
export function failureError(e: WorkflowFailedError, workflowId: string): AppError | Error {
  const f = rootFailure(e);
  const code = isFailureCode(f?.type) ? f.type : 'INTERNAL_ERROR';
  const message = f?.message ?? e.message;
  switch (FAILURES[code].kind) {
    case 'usage_limit': {
      const d = (f?.details?.[0] ?? {}) as {
        provider: string;
        limit_type: string;
        current_usage: number;
        limit_value: number;
      };
      return new UsageLimitExceededError(
        { provider: d.provider, limit_type: d.limit_type, current_usage: d.current_usage, limit_value: d.limit_value },
        message,
      );
    }
    case 'unavailable':
      return new ServiceUnavailableError(message, { code });
    case 'validation':
      return new ValidationError([{ location: 'body', path: '', kind: 'constraint', message }]);
    case 'internal':
      return new Error(`workflow ${workflowId} failed: ${code}: ${message}`, { cause: e });
    default:
      return new UpstreamError(message, { code, workflow_id: workflowId });
  }
}
