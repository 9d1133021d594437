/**
 * Read-your-writes. After a write, the API waits (briefly) until the
 * projection that serves the next read has applied the write's last event,
 * and past that wait applies the write's streams to the projection itself
 * (catchUpStreams), so a client that writes and then reads sees its write
 * even when the projector is behind or down.
 */
import type { Knex } from 'knex';
import type { EventStoreOps, RecordedEvent } from '../infra/eventstore/port';
import type { Projection } from './framework';
import { applyEvents, LIVE, projectionLockSql, retryRaces } from './runner';

export interface WaitOptions {
  /** Longest wait, ms (default 2000). */
  timeoutMs?: number;
  /** Poll interval, ms (default 10). */
  intervalMs?: number;
}

/** Resolves true once `projection` has applied `event` (or a later event of its stream), false on time-out. */
export async function waitForProjection(
  db: Knex,
  projection: string,
  event: Pick<RecordedEvent, 'streamId' | 'streamPosition'>,
  opts: WaitOptions = {},
): Promise<boolean> {
  const deadline = Date.now() + (opts.timeoutMs ?? 2000);
  for (;;) {
    const row = await db('projection_streams')
      .where({ projection, stream_id: event.streamId })
      .first('position', 'pending');
    if (row && (row.position >= event.streamPosition || (row.pending as number[]).includes(event.streamPosition)))
      return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 10));
  }
}

/** The stream positions `projection` has applied of `streamIds` (read them in the snapshot of the rows they vouch for). */
export async function appliedPositions(
  db: Knex,
  projection: string,
  streamIds: string[],
): Promise<Map<string, number>> {
  const rows = (await db('projection_streams')
    .where({ projection })
    .whereIn('stream_id', streamIds)
    .select('stream_id', 'position')) as { stream_id: string; position: number }[];
  return new Map(rows.map((r) => [r.stream_id, r.position]));
}

/**
 * Of `streamIds`, those with events the projection had not applied when
 * `applied` (appliedPositions) was read: the event store's stream version is
 * past that watermark. For callers that must not act on a stale row (a
 * revoked credential), and fold the stream from the event store instead.
 *
 * `applied` must be read in the same snapshot as the rows the caller trusts
 * (one repeatable-read transaction): read apart, the projector can apply an
 * event between the row and the watermark, and the stale row passes as
 * current. The versions are read afterwards, so they include every event
 * stored before the call.
 */
export async function streamsBehind(
  store: Pick<EventStoreOps, 'streamVersions'>,
  applied: Map<string, number>,
  streamIds: string[],
): Promise<Set<string>> {
  const versions = await store.streamVersions(streamIds);
  return new Set([...versions].filter(([id, version]) => (applied.get(id) ?? -1) < version).map(([id]) => id));
}

/**
 * Applies, here and now, the events of `streamIds` that `projection` has not
 * applied yet: read-your-writes that does not depend on the projector keeping
 * up. Safe beside the projector: the same runner applies them under the same
 * locks (the projection's, shared; each stream's, exclusive), and the
 * projector later skips them by stream position. Returns how many events a
 * handler applied.
 */
export async function catchUpStreams(
  db: Knex,
  store: Pick<EventStoreOps, 'readStream'>,
  projection: Projection,
  streamIds: string[],
): Promise<number> {
  const ids = [...new Set(streamIds)];
  const rows = (await db('projection_streams')
    .where({ projection: projection.name })
    .whereIn('stream_id', ids)
    .select('stream_id', 'position')) as { stream_id: string; position: number }[];
  const at = new Map(rows.map((r) => [r.stream_id, r.position]));
  const events = (await Promise.all(ids.map((id) => store.readStream(id, (at.get(id) ?? -1) + 1)))).flat();
  if (events.length === 0) return 0;
  return retryRaces(() =>
    db.transaction(async (trx) => {
      await trx.raw(...projectionLockSql(projection.name, 'shared'));
      return applyEvents(trx, projection, events, LIVE);
    }),
  );
}
