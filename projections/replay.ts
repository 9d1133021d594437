/**
 * Rebuilds a projection from position zero of the event store into fresh
 * tables (`<table>__replay`), then, unless asked only to compare, swaps them in
 * atomically: under the projection's advisory lock (which the live consumer
 * takes for every batch) it applies the events that arrived meanwhile, then
 * drops the live tables and renames the fresh ones, all in one transaction.
 */
import type { Knex } from 'knex';
import type { EventStore } from '../infra/eventstore/port';
import { Checkpoint, checkpointOf, START } from '../infra/eventstore/port';
import { EVENT_DEFINITIONS, isEventType } from '../domain/events';
import { ALL_TAGS } from '../infra/db/notified-cache';
import { createCurrentTables, Projection, PROJECTION_CHANNEL } from './framework';
import { applyEvents, LIVE, projectionLockSql, TableMap } from './runner';

export interface ReplayProgress {
  events: number;
  total: number;
  eventsPerSecond: number;
}

export interface ReplayOptions {
  /** false = build the fresh tables and leave them beside the live ones (for comparison). Default true. */
  swap?: boolean;
  /** Events read per round (default 5000). */
  batchSize?: number;
  onProgress?: (p: ReplayProgress) => void;
}

export const REPLAY_SUFFIX = '__replay';

export function replayTables(p: Projection): TableMap {
  return {
    table: (t) => `${t}${REPLAY_SUFFIX}`,
    positions: `projection_streams${REPLAY_SUFFIX}_${p.name.replace(/[^a-z0-9]/g, '_')}`,
  };
}

function handles(p: Projection) {
  const areas = new Set(p.areas);
  return (type: string) => isEventType(type) && areas.has(EVENT_DEFINITIONS[type].area);
}

const before = (a: Checkpoint, b: Checkpoint) =>
  BigInt(a.transactionId) < BigInt(b.transactionId) ||
  (a.transactionId === b.transactionId && BigInt(a.globalPosition) < BigInt(b.globalPosition));

/**
 * Applies events from `from` until at least `target`. readAll only returns
 * events below the cluster's oldest running transaction, so an empty read does
 * not mean the end of the log: while below the target, wait for the horizon to
 * move, and name the transaction that holds it if that takes too long.
 */
async function applyFrom(
  db: Knex,
  trx: Knex.Transaction | undefined,
  store: EventStore,
  p: Projection,
  map: TableMap,
  from: Checkpoint,
  target: Checkpoint,
  batchSize: number,
  onBatch: (n: number) => void,
): Promise<Checkpoint> {
  const mine = handles(p);
  let cp = from;
  let waitingSince = 0;
  for (;;) {
    const events = await store.readAll(cp, batchSize);
    if (events.length === 0) {
      if (!before(cp, target)) return cp;
      waitingSince ||= Date.now();
      if (Date.now() - waitingSince > 120_000) {
        const r = await db.raw(
          'SELECT pid, backend_xid::text AS xid, state, now() - xact_start AS age FROM pg_stat_activity WHERE backend_xid IS NOT NULL ORDER BY age(backend_xid) DESC LIMIT 1',
        );
        throw new Error(
          `replay is blocked: events up to ${target.globalPosition} are not readable while an older transaction is open (${JSON.stringify(r.rows[0] ?? {})})`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    waitingSince = 0;
    const relevant = events.filter((e) => mine(e.type));
    if (trx) await applyEvents(trx, p, relevant, map);
    else await db.transaction((t) => applyEvents(t, p, relevant, map));
    cp = checkpointOf(events[events.length - 1]);
    onBatch(events.length);
  }
}

export async function replay(
  db: Knex,
  store: EventStore,
  p: Projection,
  opts: ReplayOptions = {},
): Promise<{ events: number; seconds: number }> {
  const map = replayTables(p);
  const batchSize = opts.batchSize ?? 5000;
  const started = Date.now();
  const total = await store.countAfter(START);
  let done = 0;
  const progress = (n: number) => {
    done += n;
    const secs = (Date.now() - started) / 1000;
    opts.onProgress?.({
      events: done,
      total: Math.max(total, done),
      eventsPerSecond: secs > 0 ? Math.round(done / secs) : 0,
    });
  };

  await dropReplayTables(db, p);
  await createCurrentTables(p, db, map.table);
  await db.raw(`CREATE TABLE ?? (LIKE projection_streams INCLUDING ALL)`, [map.positions]);
  const cp = await applyFrom(db, undefined, store, p, map, START, await store.lastCheckpoint(), batchSize, progress);

  if (opts.swap !== false) {
    await db.transaction(async (trx) => {
      await trx.raw(...projectionLockSql(p.name, 'exclusive'));
      // Under the lock the live consumer waits; catch up to whatever was stored meanwhile.
      await applyFrom(db, trx, store, p, map, cp, await store.lastCheckpoint(), batchSize, progress);
      for (const t of p.tables) {
        await trx.schema.dropTable(t);
        await trx.schema.renameTable(map.table(t), t);
        const idx = await trx.raw(
          'SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?',
          [t],
        );
        for (const { indexname } of idx.rows as { indexname: string }[]) {
          if (indexname.includes(REPLAY_SUFFIX))
            await trx.raw('ALTER INDEX ?? RENAME TO ??', [indexname, indexname.replace(REPLAY_SUFFIX, '')]);
        }
      }
      await trx('projection_streams').where({ projection: p.name }).delete();
      await trx.raw(`INSERT INTO projection_streams SELECT * FROM ??`, [map.positions]);
      await trx.schema.dropTable(map.positions);
      // Every row may have changed: caches of its rows drop everything when the swap commits.
      if (p.notify?.length)
        await trx.raw(`SELECT pg_notify(?, current_schema() || ' ' || ?)`, [PROJECTION_CHANNEL, ALL_TAGS]);
    });
  }
  return { events: done, seconds: (Date.now() - started) / 1000 };
}

export async function dropReplayTables(db: Knex, p: Projection): Promise<void> {
  const map = replayTables(p);
  for (const t of p.tables) await db.schema.dropTableIfExists(map.table(t));
  await db.schema.dropTableIfExists(map.positions);
}

/** A content hash of a projection's tables (rows ordered by primary key), to compare live and rebuilt. */
export async function hashProjection(db: Knex, p: Projection, map: TableMap = LIVE): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of p.tables) {
    const order = p.keys[t].map((k) => `"${k}"`).join(', ');
    const r = await db.raw(
      `SELECT count(*) AS n, md5(coalesce(string_agg(row_to_json(x)::text, '|' ORDER BY ${order}), '')) AS h FROM ?? x`,
      [map.table(t)],
    );
    out[t] = `${r.rows[0].n}:${r.rows[0].h}`;
  }
  return out;
}
