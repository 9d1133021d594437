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
import { AppendResult, Checkpoint, START, EventMetadata, EventStore, ExpectedVersion, NewEvent, RecordedEvent } from './port';
import { ConcurrencyError } from './errors';
import { validateEvent } from './validate';

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
  recorded_at: Date;
}

export function rowToEvent(r: Row): RecordedEvent {
  return {
    eventId: r.event_id,
    streamId: r.stream_id,
    streamPosition: r.stream_position,
    globalPosition: String(r.global_position),
    transactionId: String(r.transaction_id),
    type: r.type as RecordedEvent['type'],
    schemaVersion: r.schema_version,
    data: r.data as RecordedEvent['data'],
    metadata: r.metadata,
    recordedAt: r.recorded_at.toISOString(),
  };
}

export const EVENT_COLUMNS = 'global_position, transaction_id::text AS transaction_id, event_id, stream_id, stream_position, type, schema_version, data, metadata, recorded_at';
/**
 * Commit order. Qualified on purpose: EVENT_COLUMNS names its text output
 * `transaction_id`, and an unqualified ORDER BY binds to that alias, which
 * sorts xids as strings ('10000' before '9999') and silently skips events once
 * the cluster's xids gain a digit.
 */
export const COMMIT_ORDER = 'es_events.transaction_id, es_events.global_position';

/** The last event (in commit order) stored right now, or START for an empty store. */
export async function lastStoredCheckpoint(db: Knex): Promise<Checkpoint> {
  const r = await db.raw('SELECT transaction_id::text AS t, global_position::text AS g FROM es_events ORDER BY es_events.transaction_id DESC, es_events.global_position DESC LIMIT 1');
  return r.rows[0] ? { transactionId: r.rows[0].t, globalPosition: r.rows[0].g } : START;
}

export class PostgresEventStore implements EventStore {
  constructor(private readonly db: Knex) {}

  /**
   * Appends in its own transaction, or inside `trx` when the caller needs the
   * append to commit together with another write (e.g. a quota reservation).
   */
  async append(streamId: string, events: NewEvent[], expected: ExpectedVersion, metadata: EventMetadata = {}, trx?: Knex.Transaction): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const versions = events.map((e) => validateEvent(e.type, e.data));
    const run = async (t: Knex.Transaction) => {
      const n = events.length;
      let newVersion: number;
      if (expected === 'no_stream') {
        const r = await t.raw('INSERT INTO es_streams (stream_id, version) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING version', [streamId, n - 1]);
        if (r.rows.length === 0) throw new ConcurrencyError(streamId, expected, await this.version(t, streamId));
        newVersion = n - 1;
      } else if (expected === 'any') {
        const r = await t.raw(
          'INSERT INTO es_streams (stream_id, version) VALUES (?, ?) ON CONFLICT (stream_id) DO UPDATE SET version = es_streams.version + ? RETURNING version',
          [streamId, n - 1, n],
        );
        newVersion = r.rows[0].version;
      } else {
        const r = await t.raw('UPDATE es_streams SET version = version + ? WHERE stream_id = ? AND version = ? RETURNING version', [n, streamId, expected]);
        if (r.rows.length === 0) throw new ConcurrencyError(streamId, expected, await this.version(t, streamId));
        newVersion = r.rows[0].version;
      }
      const first = newVersion - n + 1;
      const rows = events.map((e, i) => ({
        event_id: e.eventId ?? randomUUID(),
        stream_id: streamId,
        stream_position: first + i,
        type: e.type,
        schema_version: versions[i],
        data: JSON.stringify(e.data),
        metadata: JSON.stringify({ ...metadata, ...(e.metadata ?? {}) }),
      }));
      const inserted: Row[] = await t('es_events').insert(rows).returning('*');
      return { nextExpectedVersion: newVersion, events: inserted.map(rowToEvent) };
    };
    return trx ? run(trx) : this.db.transaction(run);
  }

  private async version(t: Knex.Transaction, streamId: string): Promise<number | null> {
    const r = await t.raw('SELECT version FROM es_streams WHERE stream_id = ?', [streamId]);
    return r.rows[0]?.version ?? null;
  }

  async readStream(streamId: string, fromPosition = 0): Promise<RecordedEvent[]> {
    const r = await this.db.raw(`SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream_id = ? AND stream_position >= ? ORDER BY stream_position`, [streamId, fromPosition]);
    return r.rows.map(rowToEvent);
  }

  async readAll(from: Checkpoint, limit: number): Promise<RecordedEvent[]> {
    const r = await this.db.raw(
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
