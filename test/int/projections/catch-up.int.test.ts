/**
 * Read-your-writes without the projector: the API applies a stream's events
 * to a projection itself (catchUpStreams), and the projector, applying the
 * same events later or at the same time, never applies one twice.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createEventStore } from '../../../infra/eventstore';
import type { EventStore, RecordedEvent } from '../../../infra/eventstore/port';
import { catchUpStreams } from '../../../projections/consistency';
import { applyEvents } from '../../../projections/runner';
import { usageProjection } from '../../../projections/usage';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { usageRecorded } from '../../support/usage-events';
import { waitFor } from '../../support/wait';

const usage = usageRecorded;

/** Resolves once a session waits for the advisory lock of (usage projection, `streamId`). */
async function waitsForStreamLock(db: Knex, streamId: string): Promise<void> {
  await waitFor(
    `a session waiting for the lock of stream ${streamId}`,
    async () => {
      const r = await db.raw(
        `WITH k AS (SELECT hashtextextended(?, 0) AS k)
         SELECT count(*)::int AS n FROM pg_locks, k
          WHERE locktype = 'advisory' AND NOT granted
            AND classid::bigint = ((k.k >> 32) & 4294967295) AND objid::bigint = (k.k & 4294967295)`,
        [`projection_streams:usage:${streamId}`],
      );
      return r.rows[0].n >= 1;
    },
    30_000,
    20,
  );
}

describe('catch-up of a projection by the API', () => {
  let s: IsolatedSchema;
  let store: EventStore;
  beforeAll(async () => {
    s = await isolatedSchema(6);
    store = createEventStore(s.db);
  });
  afterAll(() => s.drop());

  const totals = async (user: string) =>
    (await s.db('usage_totals').where({ user_id: user }).first('calls')) as { calls: string } | undefined;
  const position = async (streamId: string) =>
    (await s.db('projection_streams').where({ projection: 'usage', stream_id: streamId }).first('position'))
      ?.position as number | undefined;

  it('applies what the projector has not, from where the projection stands; the projector then skips it', async () => {
    const user = randomUUID();
    const stream = `usage-${user}`;
    const first = await store.append(stream, [usage(user, 1), usage(user, 2)], 'no_stream');
    await s.db.transaction((t) => applyEvents(t, usageProjection, first.events.slice(0, 1))); // the projector got one
    const more = await store.append(stream, [usage(user, 4)], first.nextExpectedVersion);

    expect(await catchUpStreams(s.db, store, usageProjection, [stream, stream])).toBe(2);
    expect(await totals(user)).toEqual({ calls: '7' });
    expect(await position(stream)).toBe(2);
    expect(await catchUpStreams(s.db, store, usageProjection, [stream])).toBe(0); // nothing left

    // The projector's batches, delivered afterwards (and again), change nothing.
    const all: RecordedEvent[] = [...first.events, ...more.events];
    expect(await s.db.transaction((t) => applyEvents(t, usageProjection, all))).toBe(0);
    expect(await totals(user)).toEqual({ calls: '7' });
  });

  it('waits for a projector batch that holds the stream, then skips what the batch applied', async () => {
    const user = randomUUID();
    const stream = `usage-${user}`;
    const first = await store.append(stream, [usage(user, 1)], 'no_stream');
    await s.db.transaction((t) => applyEvents(t, usageProjection, first.events)); // the row exists
    const second = await store.append(stream, [usage(user, 10)], first.nextExpectedVersion);

    // A projector batch applies the second event and holds its transaction open.
    let commit!: () => void;
    let applied!: () => void;
    const batchApplied = new Promise<void>((r) => (applied = r));
    const batch = s.db.transaction(async (t) => {
      await applyEvents(t, usageProjection, second.events);
      applied();
      await new Promise<void>((r) => (commit = r));
    });
    await batchApplied;
    // The API catches the stream up meanwhile: it sees the event as not applied, and must wait for the stream.
    const catchUp = catchUpStreams(s.db, store, usageProjection, [stream]);
    await waitsForStreamLock(s.db, stream);
    commit();
    await batch;
    expect(await catchUp).toBe(0); // the batch applied it; applying it again would count 10 more calls
    expect(await totals(user)).toEqual({ calls: '11' });
  });
});
