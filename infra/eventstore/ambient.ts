/**
 * Metadata an append made inside a Temporal activity carries without being told: the workflow it ran for
 * (`workflow_id`). The kernel's task runner reads what a task wrote by it (EventStore.writtenBy) and waits for
 * exactly those streams in the projections that apply them before answering (api/kernel/handler.ts settleWrittenBy),
 * so no area keeps its own list of what its workflows write. Metadata given by the caller wins.
 */
import { Context } from '@temporalio/activity';
import type { EventMetadata } from './port';

export function ambientMetadata(): EventMetadata {
  let workflowId: string | undefined;
  try {
    workflowId = Context.current().info.workflowExecution?.workflowId;
  } catch {
    return {}; // not inside an activity (the API, a projector, a script)
  }
  return workflowId ? { workflow_id: workflowId } : {};
}
