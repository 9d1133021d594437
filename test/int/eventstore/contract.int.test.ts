/**
 * Event store contract, written once and run against every configured
 * implementation of the port (PostgreSQL always; others when configured).
 */
import { randomUUID } from 'node:crypto';
import { lastStoredCheckpoint } from '../../../infra/eventstore/postgres';
import { createEventStore, EventStore } from '../../../infra/eventstore';
import { Checkpoint, NewEvent, RecordedEvent, START } from '../../../infra/eventstore/port';
import { ConcurrencyError, EventValidationError } from '../../../infra/eventstore/errors';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { waitFor } from '../../support/wait';

const started = (id: string): NewEvent => ({
  type: 'TaskStarted',
  data: { task_id: id, task_type: 't', user_id: 'u', workflow_id: id },
});
const progressed = (id: string, message: string): NewEvent => ({
  type: 'TaskProgressed',
  data: { task_id: id, message, at: new Date().toISOString() },
});

/** The task id an event of a task stream carries. */
const taskIdOf = (e: RecordedEvent): string => ('task_id' in e.data ? e.data.task_id : '');

/**
 * readAll once the cluster's horizon has passed what this test wrote. readAll shows only transactions older than
 * every transaction still open anywhere in the cluster (xids are cluster-wide), so while other test files run beside
 * this one a fresh commit may stay unread for a moment. Polls until `done` holds (or 20 s pass) and returns the read.
 */
async function readAllSettled(
  store: EventStore,
  from: Checkpoint,
  limit: number,
  done: (events: RecordedEvent[]) => boolean,
): Promise<RecordedEvent[]> {
  // After the deadline, what was read last: the test's assertions then say what is missing.
  let events: RecordedEvent[] = [];
  return waitFor(
    'the events to be readable',
    async () => {
      events = await store.readAll(from, limit);
      return done(events) && events;
    },
    20_000,
  ).catch(() => events);
}

/** The checkpoint after every event stored so far, once all of them are readable. */
async function settledEnd(store: EventStore, s: IsolatedSchema): Promise<Checkpoint> {
  const stored = Number((await s.db.raw('SELECT count(*)::int AS n FROM es_events')).rows[0].n);
  const all = await readAllSettled(store, START, 100000, (es) => es.length >= stored);
  expect(all).toHaveLength(stored);
  const last = all[all.length - 1];
  return last ? { transactionId: last.transactionId, globalPosition: last.globalPosition } : START;
}

const implementations: { name: string; make(s: IsolatedSchema): EventStore }[] = [
  { name: 'postgres', make: (s) => createEventStore(s.db) },
];

describe.each(implementations)('event store contract: $name', ({ make }) => {
  let schema: IsolatedSchema;
  let store: EventStore;
  beforeAll(async () => {
    schema = await isolatedSchema(60);
    store = make(schema);
  });
  afterAll(() => schema.drop());

  it('appends to a new stream and reads it back with positions, metadata and schema version', async () => {
    const id = randomUUID();
    const r = await store.append(`task-${id}`, [started(id), progressed(id, 'one')], 'no_stream', {
      user_id: 'u',
      correlation_id: 'c1',
      request_id: 'r1',
    });
    expect(r.nextExpectedVersion).toBe(1);
    const events = await store.readStream(`task-${id}`);
    expect(events.map((e) => [e.type, e.streamPosition, e.schemaVersion])).toEqual([
      ['TaskStarted', 0, 1],
      ['TaskProgressed', 1, 1],
    ]);
    expect(events[0].metadata).toMatchObject({ user_id: 'u', correlation_id: 'c1', request_id: 'r1' });
    expect(events[0].eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(BigInt(events[1].globalPosition)).toBeGreaterThan(BigInt(events[0].globalPosition));
    expect((await store.readStream(`task-${id}`, 1)).map((e) => e.streamPosition)).toEqual([1]);
  });

  it('honours expected versions: a number, no_stream and any', async () => {
    const id = randomUUID();
    const s = `task-${id}`;
    await store.append(s, [started(id)], 'no_stream');
    await expect(store.append(s, [progressed(id, 'x')], 'no_stream')).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(store.append(s, [progressed(id, 'x')], 5)).rejects.toMatchObject({
      code: 'CONCURRENCY_CONFLICT',
      actual: 0,
    });
    expect((await store.append(s, [progressed(id, 'a')], 0)).nextExpectedVersion).toBe(1);
    expect((await store.append(s, [progressed(id, 'b'), progressed(id, 'c')], 'any')).nextExpectedVersion).toBe(3);
    expect((await store.append(`task-${randomUUID()}`, [started(id)], 'any')).nextExpectedVersion).toBe(0);
    await expect(store.append(`task-${randomUUID()}`, [started(id)], 0)).rejects.toBeInstanceOf(ConcurrencyError);
  });

  it('validates payloads against the event schema and stores nothing when one is invalid', async () => {
    const id = randomUUID();
    const bad = { type: 'TaskStarted', data: { task_id: id } } as unknown as NewEvent;
    await expect(store.append(`task-${id}`, [started(id), bad], 'no_stream')).rejects.toBeInstanceOf(
      EventValidationError,
    );
    expect(await store.readStream(`task-${id}`)).toEqual([]);
    await expect(
      store.append(`x-${id}`, [{ type: 'NoSuchEvent', data: {} } as unknown as NewEvent], 'any'),
    ).rejects.toThrow(/unknown event type/);
  });

  it('50 concurrent appends with the same expected version: exactly one succeeds, 49 conflict', async () => {
    const id = randomUUID();
    const s = `task-${id}`;
    await store.append(s, [started(id)], 'no_stream');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => store.append(s, [progressed(id, `writer ${i}`)], 0)),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const conflicts = results.filter(
      (r) => r.status === 'rejected' && (r as PromiseRejectedResult).reason instanceof ConcurrencyError,
    );
    expect(ok).toHaveLength(1);
    expect(conflicts).toHaveLength(49);
    expect(await store.readStream(s)).toHaveLength(2);
  });

  it('appendMany appends to several streams atomically, each against its own expected version', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await store.append(`task-${c}`, [started(c)], 'no_stream');
    const r = await store.appendMany(
      [
        { streamId: `task-${a}`, events: [started(a), progressed(a, 'a1')], expectedVersion: 'no_stream' },
        { streamId: `task-${b}`, events: [started(b)], expectedVersion: 'any' },
        { streamId: `task-${c}`, events: [progressed(c, 'c1')], expectedVersion: 0 },
      ],
      { correlation_id: 'many' },
    );
    expect(
      r.map((x) => [
        x.nextExpectedVersion,
        x.events.map((e) => [e.streamId, e.streamPosition, e.metadata.correlation_id]),
      ]),
    ).toEqual([
      [
        1,
        [
          [`task-${a}`, 0, 'many'],
          [`task-${a}`, 1, 'many'],
        ],
      ],
      [0, [[`task-${b}`, 0, 'many']]],
      [1, [[`task-${c}`, 1, 'many']]],
    ]);
    // The events of one call are consecutive in the global log, in the order given.
    const positions = r.flatMap((x) => x.events.map((e) => Number(e.globalPosition)));
    expect(positions).toEqual(positions.map((_, i) => positions[0] + i));

    // One conflict fails the whole call, and nothing of it is stored.
    const d = randomUUID();
    const err = await store
      .appendMany([
        { streamId: `task-${d}`, events: [started(d)], expectedVersion: 'no_stream' },
        { streamId: `task-${c}`, events: [progressed(c, 'stale')], expectedVersion: 0 },
      ])
      .catch((e) => e);
    expect(err).toBeInstanceOf(ConcurrencyError);
    expect(err).toMatchObject({ streamId: `task-${c}`, expected: 0, actual: 1 });
    expect(await store.readStream(`task-${d}`)).toEqual([]);
    await expect(
      store.appendMany([
        { streamId: 'x', events: [started('x')], expectedVersion: 'any' },
        { streamId: 'x', events: [started('x')], expectedVersion: 'any' },
      ]),
    ).rejects.toThrow('twice');
  });

  it('readAllEncoded gives exactly readAll, serialised', async () => {
    const id = randomUUID();
    await store.append(`task-${id}`, [started(id), progressed(id, 'ünïcode "quoted" \\ back\nslash')], 'no_stream', {
      user_id: 'u',
    });
    // Both reads see the same horizon once this test's commit is behind it (other files' transactions may hold it).
    await readAllSettled(store, START, 100000, (es) => es.some((e) => taskIdOf(e) === id));
    let plain = await store.readAll(START, 100000);
    let encoded = await store.readAllEncoded(START, 100000);
    for (let i = 0; i < 50 && encoded.length !== plain.length; i++) {
      plain = await store.readAll(START, 100000);
      encoded = await store.readAllEncoded(START, 100000);
    }
    expect(encoded.map((e) => JSON.parse(e.json))).toEqual(plain);
    expect(encoded.map((e) => [e.streamId, e.type, e.transactionId, e.globalPosition])).toEqual(
      plain.map((e) => [e.streamId, e.type, e.transactionId, e.globalPosition]),
    );
  });

  it('readAll returns every event in commit order after a checkpoint', async () => {
    const cp = await settledEnd(store, schema);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) await store.append(`task-${id}`, [started(id)], 'no_stream');
    const after = await readAllSettled(store, cp, 100, (es) => es.length >= ids.length);
    expect(after.map((e) => taskIdOf(e))).toEqual(ids);
  });
});

describe('postgres event store: commit order under overlapping transactions', () => {
  let schema: IsolatedSchema;
  beforeAll(async () => {
    schema = await isolatedSchema(20);
  });
  afterAll(() => schema.drop());

  it('an event of a transaction that commits late is not skipped by readAll', async () => {
    const store = createEventStore(schema.db);
    const slow = randomUUID();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let appendedInside!: () => void;
    const inside = new Promise<void>((r) => (appendedInside = r));
    // Transaction A appends first (takes the lower global position) but stays open.
    const a = store.transaction(async (tx) => {
      await tx.append(`task-${slow}`, [started(slow)], 'no_stream');
      appendedInside();
      await held;
    });
    await inside;
    // Transactions B1..B5 append and commit while A is still open.
    const fast = Array.from({ length: 5 }, () => randomUUID());
    for (const id of fast) await store.append(`task-${id}`, [started(id)], 'no_stream');

    // A reader that advanced its checkpoint now must not pass A's event: nothing at or after A is visible yet.
    const seenWhileOpen = await store.readAll(START, 1000);
    expect(seenWhileOpen.map((e) => taskIdOf(e))).toEqual([]);

    release();
    await a;
    const all = await readAllSettled(store, START, 1000, (es) => es.length >= 6);
    const order = all.map((e) => taskIdOf(e));
    expect(order).toHaveLength(6);
    expect(new Set(order)).toEqual(new Set([slow, ...fast]));
    // The late transaction's event has the smallest global position but a consistent commit-order place.
    const pos = all.map((e) => [e.transactionId, e.globalPosition].map(BigInt));
    for (let i = 1; i < pos.length; i++)
      expect(pos[i][0] > pos[i - 1][0] || (pos[i][0] === pos[i - 1][0] && pos[i][1] > pos[i - 1][1])).toBe(true);
  });

  it('a reader checkpointed past the fast transactions still receives the late one', async () => {
    const store = createEventStore(schema.db);
    let cp = await settledEnd(store, schema);
    const slow = randomUUID();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let ready!: () => void;
    const inside = new Promise<void>((r) => (ready = r));
    const a = store.transaction(async (tx) => {
      await tx.append(`task-${slow}`, [started(slow)], 'no_stream');
      ready();
      await held;
    });
    await inside;
    const seen: string[] = [];
    for (let round = 0; round < 3; round++) {
      const id = randomUUID();
      await store.append(`task-${id}`, [started(id)], 'no_stream');
      const batch = await store.readAll(cp, 1000);
      for (const e of batch) seen.push(taskIdOf(e));
      if (batch.length)
        cp = {
          transactionId: batch[batch.length - 1].transactionId,
          globalPosition: batch[batch.length - 1].globalPosition,
        };
    }
    release();
    await a;
    const rest = await readAllSettled(store, cp, 1000, (es) => seen.length + es.length >= 4);
    for (const e of rest) seen.push(taskIdOf(e));
    expect(seen).toContain(slow);
    expect(seen).toHaveLength(4);
  });

  it('reads transaction ids in numeric order when they gain a digit (9 < 10 < 99 < 100 < ...)', async () => {
    // A fresh cluster's xids cross 9999 -> 10000 within minutes; a text ordering would read 10000 before 9999 and skip.
    // Rows get explicit (old, so visible) transaction ids; the store reads them in small batches as the relay does.
    const db = await isolatedSchema(2);
    try {
      // Only ids below the cluster's horizon are readable: every crossing 10^k - 1 -> 10^k below it (9 -> 10 at least).
      const horizon = BigInt((await db.db.raw('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x')).rows[0].x);
      const xids: bigint[] = [];
      for (let p = 10n; p < horizon; p *= 10n) xids.push(p - 1n, p);
      expect(xids.length).toBeGreaterThanOrEqual(4);
      for (const [i, xid] of xids.entries()) {
        await db.db.raw(
          `INSERT INTO es_events (transaction_id, event_id, stream_id, stream_position, type, schema_version, data) VALUES (?::xid8, ?, ?, 0, 'TaskStarted', 1, ?)`,
          [
            xid.toString(),
            randomUUID(),
            `task-x${i}`,
            JSON.stringify({ task_id: `x${i}`, task_type: 't', user_id: 'u', workflow_id: 'w' }),
          ],
        );
      }
      const store = createEventStore(db.db);
      const seen: string[] = [];
      let cp = START;
      for (;;) {
        const batch = await store.readAll(cp, 3);
        if (!batch.length) break;
        seen.push(...batch.map((e) => e.transactionId));
        cp = {
          transactionId: batch[batch.length - 1].transactionId,
          globalPosition: batch[batch.length - 1].globalPosition,
        };
      }
      expect(seen).toEqual(xids.map(String));
      expect(await lastStoredCheckpoint(db.db)).toEqual({
        transactionId: xids[xids.length - 1].toString(),
        globalPosition: cp.globalPosition,
      });
    } finally {
      await db.drop();
    }
  });
});
