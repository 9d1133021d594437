/**
 * Applies a batch of recorded events to a projection inside a transaction:
 * skips events at or below the stream position already applied (so a
 * re-delivered event changes nothing), turns each handler's changes into SQL,
 * and records the new stream positions. Statements are sent in multi-statement
 * round trips (values escaped by knex) because a batch can hold thousands.
 */
import type { Knex } from 'knex';
import type { RecordedEvent } from '../infra/eventstore/port';
import type { Change, Expr, Projection, ReadView, Row, SetValues } from './framework';

/** Physical table names: the live ones, or the fresh ones of a replay. */
export interface TableMap {
  table(logical: string): string;
  /** The stream-position table (projection_streams, or the replay's copy). */
  positions: string;
}

export const LIVE: TableMap = { table: (t) => t, positions: 'projection_streams' };

const isExpr = (v: unknown): v is Expr => typeof v === 'object' && v !== null && !Array.isArray(v) && ('$inc' in v || '$append' in v || '$greatest' in v);

function val(v: unknown): unknown {
  // Objects and arrays go to jsonb columns as JSON text.
  return v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v;
}

function setClause(knex: Knex, table: string, set: SetValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [col, v] of Object.entries(set)) {
    if (isExpr(v)) {
      if ('$inc' in v) out[col] = knex.raw('?? + ?', [`${table}.${col}`, v.$inc]);
      else if ('$append' in v) out[col] = knex.raw("?? || jsonb_build_array(?::jsonb)", [`${table}.${col}`, JSON.stringify(v.$append)]);
      else out[col] = knex.raw('greatest(??, ?)', [`${table}.${col}`, v.$greatest]);
    } else out[col] = val(v);
  }
  return out;
}

function rowValues(r: Row): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, val(v)]));
}

export function changeToSql(knex: Knex, c: Change, map: TableMap): string {
  const table = map.table(c.table);
  switch (c.op) {
    case 'upsert': {
      const q = knex(table).insert(rowValues({ ...c.key, ...c.insert })).onConflict(Object.keys(c.key));
      return (c.update && Object.keys(c.update).length ? q.merge(setClause(knex, table, c.update)) : q.ignore()).toString();
    }
    case 'update': {
      let q = knex(table).where(rowValues(c.key)).update(setClause(knex, table, c.set));
      if (c.whereIn) q = q.whereIn(c.whereIn.column, c.whereIn.values as never[]);
      return q.toString();
    }
    case 'delete':
      return knex(table).where(rowValues(c.key)).delete().toString();
  }
}

async function execAll(trx: Knex.Transaction, statements: string[]): Promise<void> {
  for (let i = 0; i < statements.length; i += 250) {
    await trx.raw(statements.slice(i, i + 250).join(';\n').replace(/\?/g, '\\?'));
  }
}

interface StreamState {
  /** Every position up to and including this one is applied (-1: none yet). */
  position: number;
  /** Applied positions above `position`. */
  pending: Set<number>;
}

/** Whether `p` is already applied in `st`. */
export function isApplied(st: StreamState | undefined, p: number): boolean {
  return !!st && (p <= st.position || st.pending.has(p));
}

/** Records `p` as applied and advances the contiguous watermark. */
export function markApplied(st: StreamState, p: number): void {
  st.pending.add(p);
  while (st.pending.has(st.position + 1)) {
    st.position++;
    st.pending.delete(st.position);
  }
}

/**
 * Applies `events` (ordered by commit, which within a stream is almost but not
 * always stream order): skips every event already applied, applies the rest,
 * records the streams' states. Returns how many were applied (not skipped).
 */
export async function applyEvents(trx: Knex.Transaction, projection: Projection, events: RecordedEvent[], map: TableMap = LIVE): Promise<number> {
  if (events.length === 0) return 0;
  const streamIds = [...new Set(events.map((e) => e.streamId))];
  const r = await trx.raw(`SELECT stream_id, position, pending FROM ?? WHERE projection = ? AND stream_id = ANY(?)`, [map.positions, projection.name, streamIds]);
  const states = new Map<string, StreamState>(
    r.rows.map((x: { stream_id: string; position: number; pending: number[] }) => [x.stream_id, { position: x.position, pending: new Set(x.pending) }]),
  );
  const moved = new Set<string>();
  let pending: string[] = [];
  const view: ReadView = {
    async get(table, key) {
      await execAll(trx, pending); // the view must see the batch's earlier changes
      pending = [];
      return trx(map.table(table)).where(rowValues(key)).first();
    },
  };
  let applied = 0;
  for (const e of events) {
    if (isApplied(states.get(e.streamId), e.streamPosition)) continue;
    if (!states.has(e.streamId)) states.set(e.streamId, { position: -1, pending: new Set() });
    markApplied(states.get(e.streamId)!, e.streamPosition);
    moved.add(e.streamId);
    const handler = projection.handlers[e.type] as ((ev: RecordedEvent, v: ReadView) => Change[] | Promise<Change[]>) | undefined;
    if (!handler) continue;
    const changes = await handler(e, view);
    for (const c of changes) pending.push(changeToSql(trx, c, map));
    applied++;
  }
  if (moved.size) {
    const rows = [...moved].map((s) => {
      const st = states.get(s)!;
      return { projection: projection.name, stream_id: s, position: st.position, pending: trx.raw('?::integer[]', [`{${[...st.pending].sort((a, b) => a - b).join(',')}}`]) };
    });
    pending.push(trx(map.positions).insert(rows).onConflict(['projection', 'stream_id']).merge(['position', 'pending']).toString());
  }
  await execAll(trx, pending);
  return applied;
}
