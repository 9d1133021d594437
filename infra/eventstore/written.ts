/**
 * EventStore.writtenBy: what a workflow and its children (ids `<workflowId>-...`) wrote, by the workflow id every
 * activity append carries (infra/eventstore/ambient.ts; indexed by migration 0070_events_by_workflow).
 */
import type { Knex } from 'knex';
import type { WrittenEvent } from './port';

/** Per stream and type, the last position written by the workflow or its children. */
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
