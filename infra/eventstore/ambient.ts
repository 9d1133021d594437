/**
 * Metadata an append made inside a Temporal activity carries without being told: the workflow it ran for
 * (`workflow_id`). The kernel's task runner reads what a task wrote by it (EventStore.writtenBy) and waits for
 * exactly those streams in the projections that apply them before answering (api/kernel/handler.ts settleWrittenBy),
 * so no area keeps its own list of what its workflows write. Metadata given by the caller wins.
 */
import { Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { EventMetadata, WrittenEvent } from './port';

export function ambientMetadata(): EventMetadata {
  let workflowId: string | undefined;
  try {
    workflowId = Context.current().info.workflowExecution?.workflowId;
  } catch {
    return {}; // not inside an activity (the API, a projector, a script)
  }
  return workflowId ? { workflow_id: workflowId } : {};
}

/** EventStore.writtenBy: per stream and type, the last position written by the workflow or its children. */
export async function writtenBy(conn: Knex | Knex.Transaction, workflowId: string): Promise<WrittenEvent[]> {
  const r = await conn.raw(
    `SELECT stream_id, type, max(stream_position)::int AS position FROM es_events
      WHERE metadata->>'workflow_id' = ? OR metadata->>'workflow_id' LIKE ?
      GROUP BY stream_id, type`,
    [workflowId, `${workflowId.replace(/[\\%_]/g, '\\$&')}-%`],
  );
  return (r.rows as { stream_id: string; type: string; position: number }[]).map((x) => ({
    streamId: x.stream_id,
    type: x.type,
    streamPosition: x.position,
  }));
}
