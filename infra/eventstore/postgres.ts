/**
 * PostgreSQL implementation of the event store port.
 *
 * Concurrency: the stream's row in es_streams is moved from the expected
 * version to the new one with a conditional UPDATE (or created with INSERT ...
 * ON CONFLICT DO NOTHING for "no_stream"). Concurrent appenders with the same
 * expectation queue on the row lock; after the first commits, the others'
 * condition no longer holds, so exactly one wins.
 */
import { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '../../domain/events';
import {
  Aggregate,
  AppendOnceResult,
  AppendResult,
  Checkpoint,
  EncodedEvent,
  EventMetadata,
  EventStore,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
  START,
  StoreTx,
  StreamAppend,
  versionAfter,
  WrittenEvent,
} from './port';
import { ambientMetadata } from './ambient';
import { writtenBy } from './written';
import { ConcurrencyError, EventDataRejectedError } from './errors';
import { validateEvent } from './validate';
import { sqlState } from '../db/errors';

interface Row {
  global_position: string;
  transaction_id: string;
  event_id: string;
  stream_id: string;
  stream_position: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: string;
}

export function rowToEvent(r: Row): RecordedEvent {
  return {
    eventId: r.event_id,
    streamId: r.stream_id,
    streamPosition: r.stream_position,
    globalPosition: String(r.global_position),
    transactionId: String(r.transaction_id),
    type: r.type,
    schemaVersion: r.schema_version,
    data: r.data,
    metadata: r.metadata,
    recordedAt: r.recorded_at,
  } as RecordedEvent; // the row's type and data were validated together on append
}

/** recordedAt as JavaScript's toISOString writes it (milliseconds, truncated; Z), made by PostgreSQL for every reader alike. */
const RECORDED_AT = `to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
export const EVENT_COLUMNS = `global_position, transaction_id::text AS transaction_id, event_id, stream_id, stream_position, type, schema_version, data, metadata, ${RECORDED_AT} AS recorded_at`;
/**
 * Commit order. Qualified on purpose: EVENT_COLUMNS names its text output
 * `transaction_id`, and an unqualified ORDER BY binds to that alias, which
 * sorts xids as strings ('10000' before '9999') and silently skips events once
 * the cluster's xids gain a digit.
 */
export const COMMIT_ORDER = 'es_events.transaction_id, es_events.global_position';

/** The last event (in commit order) stored right now, or START for an empty store. */
export async function lastStoredCheckpoint(db: Knex): Promise<Checkpoint> {
  const r = await db.raw(
    'SELECT transaction_id::text AS t, global_position::text AS g FROM es_events ORDER BY es_events.transaction_id DESC, es_events.global_position DESC LIMIT 1',
  );
  return r.rows[0] ? { transactionId: r.rows[0].t, globalPosition: r.rows[0].g } : START;
}

/** PostgreSQL's class 22 "data exception" (22P05 untranslatable character, 22021 bad encoding, ...) can never succeed on retry. */
function translate(e: unknown): unknown {
  const code = sqlState(e);
  if (code && /^22[0-9A-Z]{3}$/.test(code))
    return new EventDataRejectedError(`PostgreSQL refused the data (SQLSTATE ${code}: ${(e as Error).message})`);
  return e;
}

const TX = Symbol('knex transaction');

/** The knex transaction behind a StoreTx, for PostgreSQL writers in infra/ that join it (quota meter, webhook secrets). */
export function sqlTransaction(tx: StoreTx): Knex.Transaction {
  const trx = PostgresEventStore.transactionOf(tx);
  if (!trx) throw new TypeError('not a transaction of the PostgreSQL event store');
  return trx;
}

/** Options of the PostgreSQL event store. */
export interface PostgresEventStoreOptions {
  /**
   * Called with the streams appended to once their transaction has committed
   * (after appendMany/append/appendOnce outside a transaction, after
   * transaction() for everything appended inside it). This process's
   * read-your-writes hook: e.g. the credential cache forgets a revoked token
   * before the revoking request answers, not when PostgreSQL's NOTIFY arrives.
   */
  onCommitted?(streamIds: string[]): void;
}

export class PostgresEventStore implements EventStore {
  protected readonly [TX]?: Knex.Transaction;
  /** Streams appended to inside this store's transaction, announced when the outermost transaction commits. */
  private readonly pending?: Set<string>;

  /** `db` is the pool; a store made by transaction() is bound to its knex transaction. */
  constructor(
    protected readonly db: Knex,
    trx?: Knex.Transaction,
    protected readonly options: PostgresEventStoreOptions = {},
    pending?: Set<string>,
  ) {
    this[TX] = trx;
    this.pending = trx ? (pending ?? new Set()) : undefined;
  }

  /** The knex transaction `store` is bound to: none for another kind of store or one on the pool. */
  static transactionOf(store: StoreTx): Knex.Transaction | undefined {
    return store instanceof PostgresEventStore ? store[TX] : undefined;
  }

  private get conn(): Knex {
    return this[TX] ?? this.db;
  }

  async transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T> {
    if (this.pending) {
      // A savepoint: its appends are announced with the enclosing transaction's, if that commits.
      const inner = new Set<string>();
      const out = await this.conn.transaction((trx) => work(new PostgresStoreTx(this.db, trx, this.options, inner)));
      for (const id of inner) this.pending.add(id);
      return out;
    }
    const appended = new Set<string>();
    const out = await this.db.transaction((trx) => work(new PostgresStoreTx(this.db, trx, this.options, appended)));
    this.committed([...appended]);
    return out;
  }

  /** Records (in a transaction) or announces (outside one) that `streamIds` were appended to. */
  private committed(streamIds: string[]): void {
    if (this.pending) {
      for (const id of streamIds) this.pending.add(id);
      return;
    }
    if (streamIds.length && this.options.onCommitted) {
      try {
        this.options.onCommitted(streamIds);
      } catch {
        // A hook's failure must not turn a committed append into an error.
      }
    }
  }

  async append(
    streamId: string,
    events: NewEvent[],
    expected: ExpectedVersion,
    metadata: EventMetadata = {},
  ): Promise<AppendResult> {
    return (await this.appendMany([{ streamId, events, expectedVersion: expected }], metadata))[0];
  }

  /**
   * Set-based: one statement per kind of expectation moves the streams'
   * versions (streams in id order, so concurrent callers lock rows in the same
   * order), one INSERT stores every event; positions are assigned in the order
   * given, so each stream's events keep their order in the global log.
   */
  async appendMany(appends: StreamAppend[], metadata: EventMetadata = {}): Promise<AppendResult[]> {
    if (appends.length === 0) throw new Error('appendMany needs at least one stream');
    const seen = new Set<string>();
    for (const a of appends) {
      if (a.events.length === 0) throw new Error(`append to ${a.streamId} needs at least one event`);
      if (seen.has(a.streamId)) throw new Error(`appendMany names stream ${a.streamId} twice`);
      seen.add(a.streamId);
    }
    const common = { ...ambientMetadata(), ...metadata };
    const versions = appends.map((a) =>
      a.events.map((e) => validateEvent(e.type, e.data, { ...common, ...(e.metadata ?? {}) })),
    );
    const run = async (t: Knex.Transaction) => {
      const newVersion = await this.moveVersions(t, appends);
      const rows = appends.flatMap((a, i) => {
        const first = newVersion.get(a.streamId)! - a.events.length + 1;
        return a.events.map((e, j) => ({
          event_id: e.eventId ?? randomUUID(),
          stream_id: a.streamId,
          stream_position: first + j,
          type: e.type,
          schema_version: versions[i][j],
          data: e.data,
          metadata: { ...common, ...(e.metadata ?? {}) },
        }));
      });
      const r = await t.raw(
        `INSERT INTO es_events (event_id, stream_id, stream_position, type, schema_version, data, metadata)
         SELECT x.event_id, x.stream_id, x.stream_position, x.type, x.schema_version, x.data, x.metadata
           FROM jsonb_to_recordset(?::jsonb) AS x(event_id uuid, stream_id text, stream_position integer, type text, schema_version integer, data jsonb, metadata jsonb, n bigint)
          ORDER BY x.n
         RETURNING ${EVENT_COLUMNS}`,
        [JSON.stringify(rows.map((row, n) => ({ ...row, n })))],
      );
      const byStream = new Map<string, RecordedEvent[]>();
      for (const e of (r.rows as Row[])
        .map(rowToEvent)
        .sort((a, b) => (BigInt(a.globalPosition) < BigInt(b.globalPosition) ? -1 : 1))) {
        if (!byStream.has(e.streamId)) byStream.set(e.streamId, []);
        byStream.get(e.streamId)!.push(e);
      }
      return appends.map((a) => ({
        nextExpectedVersion: newVersion.get(a.streamId)!,
        events: byStream.get(a.streamId) ?? [],
      }));
    };
    let results: AppendResult[];
    try {
      results = await (this[TX] ? run(this[TX]) : this.db.transaction(run));
    } catch (e) {
      throw translate(e);
    }
    this.committed(appends.map((a) => a.streamId));
    return results;
  }

  async appendOnce(
    streamId: string,
    event: NewEvent & { eventId: string },
    metadata: EventMetadata = {},
    expected: ExpectedVersion = 'any',
  ): Promise<AppendOnceResult> {
    const stored = await this.eventById(event.eventId);
    if (stored) return { appended: false, event: stored };
    try {
      // A savepoint inside a caller's transaction: a lost race rolls back only this append.
      const r = await this.conn.transaction((t) =>
        new PostgresEventStore(this.db, t).append(streamId, [event], expected, metadata),
      );
      this.committed([streamId]);
      return { appended: true, event: r.events[0] };
    } catch (e) {
      if (sqlState(e) !== '23505') throw e;
      const mine = await this.eventById(event.eventId);
      if (!mine) throw e;
      return { appended: false, event: mine };
    }
  }

  private async eventById(eventId: string): Promise<RecordedEvent | undefined> {
    const r = await this.conn.raw(`SELECT ${EVENT_COLUMNS} FROM es_events WHERE event_id = ?`, [eventId]);
    return r.rows[0] ? rowToEvent(r.rows[0]) : undefined;
  }

  async aggregateStream<S>(
    streamId: string,
    evolve: (state: S, event: RecordedEvent) => S,
    initial: S,
  ): Promise<Aggregate<S>> {
    const events = await this.readStream(streamId);
    return { state: events.reduce(evolve, initial), version: versionAfter(events), events };
  }

  async streamVersions(streamIds: string[]): Promise<Map<string, number>> {
    if (streamIds.length === 0) return new Map();
    const r = await this.conn.raw('SELECT stream_id, version FROM es_streams WHERE stream_id = ANY(?)', [streamIds]);
    return new Map((r.rows as { stream_id: string; version: number }[]).map((x) => [x.stream_id, x.version]));
  }

  writtenBy(workflowId: string): Promise<WrittenEvent[]> {
    return writtenBy(this.conn, workflowId);
  }

  async hasEventOfType(streamId: string, type: DomainEvent['type']): Promise<boolean> {
    const r = await this.conn.raw('SELECT 1 FROM es_events WHERE stream_id = ? AND type = ? LIMIT 1', [streamId, type]);
    return r.rows.length > 0;
  }

  /** Moves every stream's version by its number of events; throws the first conflict. Returns the new versions. */
  private async moveVersions(t: Knex.Transaction, appends: StreamAppend[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const sorted = [...appends].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
    const kind = (k: 'no_stream' | 'any' | 'number') =>
      sorted.filter((a) => (k === 'number' ? typeof a.expectedVersion === 'number' : a.expectedVersion === k));
    const conflict = async (missing: StreamAppend[]) => {
      const a = missing.find((x) => !out.has(x.streamId));
      if (a) throw new ConcurrencyError(a.streamId, a.expectedVersion, await this.version(t, a.streamId));
    };
    const fresh = kind('no_stream');
    if (fresh.length) {
      const r = await t.raw(
        `INSERT INTO es_streams (stream_id, version) SELECT s, n - 1 FROM unnest(?::text[], ?::integer[]) WITH ORDINALITY AS x(s, n, o) ORDER BY o
         ON CONFLICT DO NOTHING RETURNING stream_id, version`,
        [fresh.map((a) => a.streamId), fresh.map((a) => a.events.length)],
      );
      for (const x of r.rows as { stream_id: string; version: number }[]) out.set(x.stream_id, x.version);
      await conflict(fresh);
    }
    const any = kind('any');
    if (any.length) {
      const r = await t.raw(
        `INSERT INTO es_streams (stream_id, version) SELECT s, n - 1 FROM unnest(?::text[], ?::integer[]) WITH ORDINALITY AS x(s, n, o) ORDER BY o
         ON CONFLICT (stream_id) DO UPDATE SET version = es_streams.version + excluded.version + 1 RETURNING stream_id, version`,
        [any.map((a) => a.streamId), any.map((a) => a.events.length)],
      );
      for (const x of r.rows as { stream_id: string; version: number }[]) out.set(x.stream_id, x.version);
    }
    const numbered = kind('number');
    if (numbered.length) {
      const r = await t.raw(
        `UPDATE es_streams s SET version = s.version + x.n
           FROM unnest(?::text[], ?::integer[], ?::integer[]) AS x(sid, n, expected)
          WHERE s.stream_id = x.sid AND s.version = x.expected
         RETURNING s.stream_id, s.version`,
        [
          numbered.map((a) => a.streamId),
          numbered.map((a) => a.events.length),
          numbered.map((a) => a.expectedVersion as number),
        ],
      );
      for (const x of r.rows as { stream_id: string; version: number }[]) out.set(x.stream_id, x.version);
      await conflict(numbered);
    }
    return out;
  }

  private async version(t: Knex.Transaction, streamId: string): Promise<number | null> {
    const r = await t.raw('SELECT version FROM es_streams WHERE stream_id = ?', [streamId]);
    return r.rows[0]?.version ?? null;
  }

  async readStream(streamId: string, fromPosition = 0): Promise<RecordedEvent[]> {
    const r = await this.conn.raw(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream_id = ? AND stream_position >= ? ORDER BY stream_position`,
      [streamId, fromPosition],
    );
    return r.rows.map(rowToEvent);
  }

  async readAllEncoded(from: Checkpoint, limit: number): Promise<EncodedEvent[]> {
    const r = await this.conn.raw(
      `SELECT stream_id AS "streamId", type, transaction_id::text AS "transactionId", global_position::text AS "globalPosition",
              json_build_object('eventId', event_id, 'streamId', stream_id, 'streamPosition', stream_position,
                'globalPosition', global_position::text, 'transactionId', transaction_id::text, 'type', type,
                'schemaVersion', schema_version, 'data', data, 'metadata', metadata, 'recordedAt', ${RECORDED_AT})::text AS json
         FROM es_events
        WHERE (transaction_id, global_position) > (?::xid8, ?::bigint)
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY ${COMMIT_ORDER}
        LIMIT ?`,
      [from.transactionId, from.globalPosition, limit],
    );
    return r.rows;
  }

  lastCheckpoint(): Promise<Checkpoint> {
    return lastStoredCheckpoint(this.conn);
  }

  async countAfter(from: Checkpoint): Promise<number> {
    const r = await this.conn.raw(
      'SELECT count(*) AS n FROM es_events WHERE (transaction_id, global_position) > (?::xid8, ?::bigint)',
      [from.transactionId, from.globalPosition],
    );
    return Number(r.rows[0].n);
  }

  async countByType(): Promise<Record<string, number>> {
    const r = await this.conn.raw('SELECT type, count(*) AS n FROM es_events GROUP BY type ORDER BY type');
    return Object.fromEntries((r.rows as { type: string; n: string }[]).map((x) => [x.type, Number(x.n)]));
  }

  async readAll(from: Checkpoint, limit: number): Promise<RecordedEvent[]> {
    const r = await this.conn.raw(
      `SELECT ${EVENT_COLUMNS} FROM es_events
        WHERE (transaction_id, global_position) > (?::xid8, ?::bigint)
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY ${COMMIT_ORDER}
        LIMIT ?`,
      [from.transactionId, from.globalPosition, limit],
    );
    return r.rows.map(rowToEvent);
  }
}

/** The store bound to one knex transaction (what EventStore.transaction hands to its work). */
class PostgresStoreTx extends PostgresEventStore implements StoreTx {
  readonly inTransaction = true as const;
}
