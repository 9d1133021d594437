/**
 * Applies a batch of recorded events to a projection inside a transaction,
 * set-based: skips events at or below the stream position already applied (so
 * a re-delivered event changes nothing), runs the handlers, loads every row
 * their changes name with one query per table, applies the changes in memory
 * in event order (rows.ts), then writes each touched row once (bulk update,
 * insert and delete per table) and records the new stream positions with one
 * more statement. A batch of thousands of events costs a handful of round trips.
 *
 * The decision which events apply, what their handlers change and where each
 * stream then stands is planBatch, which does no I/O of its own (the rows it
 * reads come through the view it is given), so it is unit-tested without a
 * database; applyEvents is planBatch between the loads and the writes.
 */
import type { Knex } from 'knex';
import type { RecordedEvent } from '../infra/eventstore/port';
import { isDeadlock } from '../infra/db/errors';
import { PROJECTION_CHANNEL, projectionRowTag } from './framework';
import type { Change, Projection, ReadView, Row, Scalar } from './framework';
import { canonical, ColumnInfo, MemRow, supportedType, TableInfo, TableRows } from './rows';

/** Physical table names: the live ones, or the fresh ones of a replay. */
export interface TableMap {
  table(logical: string): string;
  /** The stream-position table (projection_streams, or the replay's copy). */
  positions: string;
}

export const LIVE: TableMap = { table: (t) => t, positions: 'projection_streams' };

/**
 * The projection's advisory lock. Batches take it shared (batches of different
 * partitions, and the API's catch-up of one stream, run side by side; rows
 * they share are locked row by row, streams stream by stream); `replay`'s swap
 * takes it exclusive, so no batch runs across it.
 */
export function projectionLockSql(name: string, mode: 'shared' | 'exclusive'): [string, string[]] {
  return [
    `SELECT ${mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}(hashtext(?))`,
    [`projection:${name}`],
  ];
}

/**
 * Runs `run` (a whole transaction) again when it lost a race that rolled it
 * back entirely: two batches inserting one row (RowConflictError) or locking
 * rows in opposite orders (PostgreSQL breaks the deadlock, 40P01). Past
 * `attempts` the error goes to the caller.
 */
export async function retryRaces<T>(
  run: () => Promise<T>,
  attempts = 5,
  onRetry?: (err: unknown, attempt: number) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (e) {
      const race = e instanceof RowConflictError || isDeadlock(e);
      if (!race || attempt >= attempts) throw e;
      onRetry?.(e, attempt);
    }
  }
}

export interface StreamState {
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

/** A copy to mark positions in, so the caller's states stay as they were loaded (-1: a stream never seen). */
function copyState(st: StreamState | undefined): StreamState {
  return st ? { position: st.position, pending: new Set(st.pending) } : { position: -1, pending: new Set() };
}

/** What planBatch reads through and hands the handlers' changes to: the batch's rows. */
export interface BatchView extends ReadView {
  /**
   * Takes the changes of one applied event, in event order. A handler that
   * reads must see the changes of the batch's earlier events, as it would if
   * each event were applied on its own.
   */
  add(changes: Change[]): void;
}

/** An event of the batch that was not applied before. */
export interface PlannedEvent {
  event: RecordedEvent;
  /** What its handler returned; null when the projection has no handler for its type (then only its stream's position advances). */
  changes: Change[] | null;
}

export interface BatchPlan {
  /** The events to apply now, in batch order: every event not already applied, each once. */
  applied: PlannedEvent[];
  /** The new state of every stream the batch moves, and of no other (in the order the batch first moved them). */
  states: Map<string, StreamState>;
}

/**
 * The decision of a batch, without I/O: given the streams' stored states (a
 * stream absent from `stored` has applied nothing yet) and the batch's events
 * in commit order (re-deliveries and out-of-order stream positions included),
 * which events apply, what each handler changes, and the states to store.
 * `stored` is not modified. A handler's error fails the whole plan, and so
 * the batch's transaction.
 */
export async function planBatch(
  projection: Projection,
  stored: ReadonlyMap<string, StreamState>,
  events: RecordedEvent[],
  view: BatchView,
): Promise<BatchPlan> {
  const states = new Map<string, StreamState>();
  const applied: PlannedEvent[] = [];
  // Handlers only read: their changes reach the rows through the planner, in event order.
  const read: ReadView = { get: (table, key) => view.get(table, key) };
  for (const e of events) {
    const st = states.get(e.streamId) ?? copyState(stored.get(e.streamId));
    if (isApplied(st, e.streamPosition)) continue;
    markApplied(st, e.streamPosition);
    states.set(e.streamId, st);
    const handler = projection.handlers[e.type] as
      ((ev: RecordedEvent, v: ReadView) => Change[] | Promise<Change[]>) | undefined;
    const changes = handler ? await handler(e, read) : null;
    if (changes) view.add(changes);
    applied.push({ event: e, changes });
  }
  return { applied, states };
}

const VOLATILE_DEFAULT = /nextval|now\(|clock_|random|current_|gen_random|uuid/i;
const TIME_TYPES = new Set(['timestamp with time zone', 'timestamp without time zone', 'date']);
const tableInfos = new Map<string, TableInfo>();

/** Columns, key and constant defaults of a physical table (cached per schema and name). */
async function tableInfo(trx: Knex.Transaction, schema: string, physical: string, key: string[]): Promise<TableInfo> {
  const cacheKey = `${schema}.${physical}`;
  const cached = tableInfos.get(cacheKey);
  if (cached) return cached;
  const r = await trx.raw(
    `SELECT column_name AS name, data_type AS type, numeric_scale AS scale, column_default AS def
       FROM information_schema.columns WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position`,
    [schema, physical],
  );
  const cols = r.rows as (ColumnInfo & { def: string | null })[];
  if (cols.length === 0) throw new Error(`projection table ${schema}.${physical} does not exist`);
  const odd = cols.find((c) => !supportedType(c.type));
  if (odd)
    throw new Error(
      `projection column ${physical}.${odd.name} has type ${odd.type}, which projections do not support (use jsonb)`,
    );
  const columns = cols.map((c) => ({
    name: c.name,
    type: c.type,
    scale: c.type === 'numeric' && c.scale !== null ? Number(c.scale) : null,
  }));
  const byName = new Map(columns.map((c) => [c.name, c]));
  const defaults: Record<string, unknown> = {};
  const withDefault = cols.filter((c) => c.def !== null);
  for (const c of withDefault) {
    if (VOLATILE_DEFAULT.test(c.def!))
      throw new Error(
        `projection column ${physical}.${c.name} has a non-constant default (${c.def}); set it from the event instead`,
      );
  }
  if (withDefault.length) {
    const d = await trx.raw(
      `SELECT ${withDefault.map((c) => `(${c.def}) AS ${trx.client.wrapIdentifier(c.name)}`).join(', ')}`,
    );
    for (const c of withDefault) defaults[c.name] = canonical(byName.get(c.name)!, d.rows[0][c.name]);
  }
  const u = await trx.raw(
    `SELECT array_agg(a.attname::text ORDER BY k.n) AS cols
       FROM pg_index i
       CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE i.indrelid = (quote_ident(?) || '.' || quote_ident(?))::regclass AND i.indisunique AND NOT i.indisprimary AND i.indpred IS NULL
      GROUP BY i.indexrelid HAVING bool_and(k.attnum > 0)`,
    [schema, physical],
  );
  const uniques = (u.rows as { cols: string[] }[]).map((x) => x.cols);
  const info: TableInfo = { columns, byName, key, uniques, defaults };
  tableInfos.set(cacheKey, info);
  return info;
}

const ident = (trx: Knex.Transaction, name: string) => trx.client.wrapIdentifier(name) as string;

/** The rows a batch works on, per physical table; loads on demand, one query per table per round. */
class BatchRows implements BatchView {
  private tables = new Map<string, TableRows>();
  private pending: Change[] = [];

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly schema: string,
    private readonly projection: Projection,
    private readonly map: TableMap,
  ) {}

  add(changes: Change[]): void {
    this.pending.push(...changes);
  }

  private async table(logical: string): Promise<TableRows> {
    let t = this.tables.get(logical);
    if (!t) {
      const key = this.projection.keys[logical];
      if (!key)
        throw new Error(`projection ${this.projection.name} changes table ${logical}, which it does not declare`);
      t = new TableRows(this.map.table(logical), await tableInfo(this.trx, this.schema, this.map.table(logical), key));
      this.tables.set(logical, t);
    }
    return t;
  }

  /** Loads the rows the pending changes name (and `extra`), one query per table and key, then applies the changes in order. */
  async settle(extra?: { table: string; key: Row }): Promise<void> {
    const wanted = new Map<string, Map<string, { cols: string[]; ids: Map<string, Row> }>>();
    for (const c of extra ? [...this.pending, extra] : this.pending) {
      const t = await this.table(c.table);
      const { id, cols, known } = t.identify(c.table, c.key);
      if (known) continue;
      const byTable = wanted.get(c.table) ?? new Map<string, { cols: string[]; ids: Map<string, Row> }>();
      wanted.set(c.table, byTable);
      const set = byTable.get(cols.join(',')) ?? { cols, ids: new Map<string, Row>() };
      byTable.set(cols.join(','), set);
      set.ids.set(id, c.key);
    }
    for (const [logical, sets] of wanted) {
      const t = await this.table(logical);
      const q = (c: string) => ident(this.trx, c);
      const select = t.info.columns
        .map((c) => (TIME_TYPES.has(c.type) ? `to_json(t.${q(c.name)}) #>> '{}' AS ${q(c.name)}` : `t.${q(c.name)}`))
        .join(', ');
      for (const { cols, ids } of sets.values()) {
        const keyRows = [...ids.values()].map((key) =>
          Object.fromEntries(cols.map((k) => [k, canonical(t.info.byName.get(k)!, key[k])])),
        );
        // FOR UPDATE (in key order): a batch of another partition that wants the same rows waits for this one.
        const r = await this.trx.raw(
          `SELECT ${select} FROM ?? t WHERE (${cols.map((k) => `t.${q(k)}`).join(', ')}) IN (SELECT ${cols.map(q).join(', ')} FROM jsonb_populate_recordset(NULL::??, ?::jsonb))
           ORDER BY ${t.info.key.map((k) => `t.${q(k)}`).join(', ')} FOR UPDATE`,
          [t.name, t.name, JSON.stringify(keyRows)],
        );
        for (const raw of r.rows as Record<string, unknown>[]) {
          const row: MemRow = {};
          for (const c of t.info.columns) row[c.name] = canonical(c, raw[c.name]);
          t.loaded(logical, row);
        }
        for (const id of ids.keys()) t.absent(id);
      }
    }
    for (const c of this.pending) (await this.table(c.table)).apply(c);
    this.pending = [];
  }

  async get(table: string, key: Row): Promise<MemRow | undefined> {
    await this.settle({ table, key });
    const t = await this.table(table);
    const row = t.find(table, key);
    return row ? { ...row } : undefined;
  }

  /**
   * Writes every touched row once: per table one bulk update of stored rows,
   * one bulk insert of new rows and (if any) one bulk delete. Stored rows are
   * locked since they were read; a new row can still be inserted meanwhile by
   * a concurrent batch of another partition (insert-if-absent from two
   * streams): then the insert finds it, and the batch fails with
   * RowConflictError to be retried, when it will read that row.
   */
  async write(): Promise<void> {
    await this.settle();
    const announced: string[] = [];
    for (const [logical, t] of this.tables) {
      const { updates, inserts, deletes } = t.result();
      if (this.map === LIVE && this.projection.notify?.includes(logical))
        for (const row of [...updates, ...inserts, ...deletes])
          announced.push(
            `${this.schema} ${projectionRowTag(
              logical,
              t.info.key.map((k) => row[k] as Scalar),
            )}`,
          );
      const keyCols = t.info.key.map((k) => ident(this.trx, k));
      const cols = t.info.columns.map((c) => ident(this.trx, c.name));
      const rest = cols.filter((c) => !keyCols.includes(c));
      if (deletes.length) {
        await this.trx.raw(
          `DELETE FROM ?? t USING jsonb_populate_recordset(NULL::??, ?::jsonb) d WHERE ${keyCols.map((k) => `t.${k} = d.${k}`).join(' AND ')}`,
          [t.name, t.name, JSON.stringify(deletes)],
        );
      }
      if (updates.length && rest.length) {
        await this.trx.raw(
          `UPDATE ?? t SET ${rest.map((c) => `${c} = d.${c}`).join(', ')} FROM jsonb_populate_recordset(NULL::??, ?::jsonb) d WHERE ${keyCols.map((k) => `t.${k} = d.${k}`).join(' AND ')}`,
          [t.name, t.name, JSON.stringify(updates)],
        );
      }
      if (inserts.length) {
        const r = await this.trx.raw(
          `INSERT INTO ?? (${cols.join(', ')}) SELECT ${cols.join(', ')} FROM jsonb_populate_recordset(NULL::??, ?::jsonb) ON CONFLICT DO NOTHING RETURNING 1`,
          [t.name, t.name, JSON.stringify(inserts)],
        );
        if (r.rows.length !== inserts.length) throw new RowConflictError(t.name, inserts.length - r.rows.length);
      }
    }
    // Delivered when the batch commits (never for a rollback): caches of these rows drop them (notified-cache.ts).
    if (announced.length)
      await this.trx.raw('SELECT count(pg_notify(?, x)) FROM unnest(?::text[]) x', [PROJECTION_CHANNEL, announced]);
  }
}

/** A concurrent batch inserted a row this batch meant to insert; retrying the batch resolves it. */
export class RowConflictError extends Error {
  constructor(
    readonly table: string,
    readonly rows: number,
  ) {
    super(`${rows} row(s) of ${table} were inserted by a concurrent batch; the batch is retried`);
    this.name = 'RowConflictError';
  }
}

/**
 * Applies `events` (ordered by commit, which within a stream is almost but not
 * always stream order): skips every event already applied, applies the rest,
 * records the streams' states. Returns how many were applied (not skipped) by
 * a handler; events of types the projection does not handle only move positions.
 */
export async function applyEvents(
  trx: Knex.Transaction,
  projection: Projection,
  events: RecordedEvent[],
  map: TableMap = LIVE,
): Promise<number> {
  if (events.length === 0) return 0;
  const streamIds = [...new Set(events.map((e) => e.streamId))];
  // One applier per stream at a time: the projector's batches own their partitions' streams, but the API may
  // catch a stream up itself (consistency.ts). Taken in key order (the sorted subquery feeds the aggregate), so
  // two batches wait instead of deadlocking; released at commit.
  await trx.raw(
    `SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT DISTINCT hashtextextended(? || s, 0) AS k FROM unnest(?::text[]) s ORDER BY k OFFSET 0) x`,
    [`${map.positions}:${projection.name}:`, streamIds],
  );
  const r = await trx.raw(
    `SELECT current_schema() AS schema, p.stream_id, p.position, p.pending FROM (SELECT 1) one LEFT JOIN ?? p ON p.projection = ? AND p.stream_id = ANY(?)`,
    [map.positions, projection.name, streamIds],
  );
  const schema = r.rows[0].schema as string;
  const states = new Map<string, StreamState>();
  for (const x of r.rows as { stream_id: string | null; position: number; pending: number[] }[]) {
    if (x.stream_id !== null) states.set(x.stream_id, { position: x.position, pending: new Set(x.pending) });
  }
  const rows = new BatchRows(trx, schema, projection, map);
  const plan = await planBatch(projection, states, events, rows);
  await rows.write();
  if (plan.states.size) {
    const positions = [...plan.states].map(([s, st]) => ({
      stream_id: s,
      position: st.position,
      pending: [...st.pending].sort((a, b) => a - b),
    }));
    await trx.raw(
      `INSERT INTO ?? (projection, stream_id, position, pending)
       SELECT ?, x.stream_id, x.position, x.pending FROM jsonb_to_recordset(?::jsonb) AS x(stream_id text, position integer, pending integer[])
       ON CONFLICT (projection, stream_id) DO UPDATE SET position = excluded.position, pending = excluded.pending`,
      [map.positions, projection.name, JSON.stringify(positions)],
    );
  }
  return plan.applied.filter((a) => a.changes !== null).length;
}
