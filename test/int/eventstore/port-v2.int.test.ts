/**
 * The event store port's second generation: typed reads, transactions,
 * idempotent appends, folded streams, stream queries, refused data, and the
 * command helper (read, fold, decide, append, retry on a conflict).
 */
import { randomUUID } from 'node:crypto';
import {
  createEventStore,
  EventDataRejectedError,
  EventStore,
  NewEvent,
  RecordedEvent,
} from '../../../infra/eventstore';
import { handleCommand, handleCommands, streamCommand } from '../../../infra/eventstore/command';
import { factsDecider } from '../../../domain/decider';
import type { TaskEvent } from '../../../domain/events/tasks';
import type { Decider } from '../../../domain/decider';
import { ConflictError } from '../../../domain/errors';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';

const started = (id: string): NewEvent => ({
  type: 'TaskStarted',
  data: { task_id: id, task_type: 't', user_id: 'u', workflow_id: id },
});
const progressed = (id: string, message: string, eventId?: string): NewEvent => ({
  type: 'TaskProgressed',
  ...(eventId ? { eventId } : {}),
  data: { task_id: id, message, at: '2026-11-23T00:00:00.000Z' },
});

describe('event store port v2', () => {
  let schema: IsolatedSchema;
  let store: EventStore;
  beforeAll(async () => {
    schema = await isolatedSchema(20);
    store = createEventStore(schema.db);
  });
  afterAll(() => schema.drop());

  it('keeps type and data linked: narrowing on type gives the payload without a cast', async () => {
    const id = randomUUID();
    await store.append(`task-${id}`, [started(id), progressed(id, 'hello')], 'no_stream');
    const messages: string[] = [];
    for (const e of await store.readStream(`task-${id}`))
      if (e.type === 'TaskProgressed') messages.push(e.data.message);
    expect(messages).toEqual(['hello']);
  });

  it('commits everything done through a transaction together, or nothing', async () => {
    const a = randomUUID();
    const b = randomUUID();
    await store.transaction(async (tx) => {
      await tx.append(`task-${a}`, [started(a)], 'no_stream');
      await tx.append(`task-${b}`, [started(b)], 'no_stream');
    });
    expect(await store.streamVersions([`task-${a}`, `task-${b}`])).toEqual(
      new Map([
        [`task-${a}`, 0],
        [`task-${b}`, 0],
      ]),
    );
    const c = randomUUID();
    await expect(
      store.transaction(async (tx) => {
        await tx.append(`task-${c}`, [started(c)], 'no_stream');
        await tx.append(`task-${a}`, [started(a)], 'no_stream'); // conflict: rolls back the first append too
      }),
    ).rejects.toMatchObject({ code: 'CONCURRENCY_CONFLICT' });
    expect(await store.readStream(`task-${c}`)).toEqual([]);
  });

  it('appendOnce stores an event id once, also when many callers race, and inside a transaction', async () => {
    const id = randomUUID();
    await store.append(`task-${id}`, [started(id)], 'no_stream');
    const eventId = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => store.appendOnce(`task-${id}`, { ...progressed(id, 'once'), eventId })),
    );
    expect(results.filter((r) => r.appended)).toHaveLength(1);
    expect(new Set(results.map((r) => r.event.eventId))).toEqual(new Set([eventId]));
    const inTx = await store.transaction((tx) => tx.appendOnce(`task-${id}`, { ...progressed(id, 'again'), eventId }));
    expect(inTx.appended).toBe(false);
    expect((await store.readStream(`task-${id}`)).map((e) => e.type)).toEqual(['TaskStarted', 'TaskProgressed']);
  });

  it('aggregateStream folds a stream and gives the version to append at', async () => {
    const id = randomUUID();
    const count = (n: number, e: RecordedEvent) => (e.type === 'TaskProgressed' ? n + 1 : n);
    expect(await store.aggregateStream(`task-${id}`, count, 0)).toMatchObject({ state: 0, version: 'no_stream' });
    await store.append(`task-${id}`, [started(id), progressed(id, 'a'), progressed(id, 'b')], 'no_stream');
    expect(await store.aggregateStream(`task-${id}`, count, 0)).toMatchObject({ state: 2, version: 2 });
  });

  it('answers stream queries: versions and whether a stream holds an event type', async () => {
    const id = randomUUID();
    await store.append(`task-${id}`, [started(id)], 'no_stream');
    expect(await store.streamVersions([`task-${id}`, `task-${randomUUID()}`])).toEqual(new Map([[`task-${id}`, 0]]));
    expect(await store.hasEventOfType(`task-${id}`, 'TaskStarted')).toBe(true);
    expect(await store.hasEventOfType(`task-${id}`, 'TaskCompleted')).toBe(false);
  });

  it('refuses text PostgreSQL cannot store with a non-retryable DATA_REJECTED, naming where it is', async () => {
    const id = randomUUID();
    const err = await store
      .append(`task-${id}`, [started(id), progressed(id, 'bad\u0000text')], 'no_stream')
      .catch((e) => e);
    expect(err).toBeInstanceOf(EventDataRejectedError);
    expect(err).toMatchObject({ code: 'DATA_REJECTED', path: 'data.message' });
    const lone = await store.append(`task-${id}`, [progressed(id, 'half \ud83d pair')], 'any').catch((e) => e);
    expect(lone).toMatchObject({ code: 'DATA_REJECTED' });
    expect(await store.readStream(`task-${id}`)).toEqual([]);
  });

  it('turns a class-22 error PostgreSQL itself raises on append into the same DATA_REJECTED, storing nothing', async () => {
    // Values the store's own check (event data and metadata) lets through but PostgreSQL refuses: an event id that
    // is not a uuid (22P02 invalid_text_representation) and a NUL in a stream id (22021 character_not_in_repertoire).
    const id = randomUUID();
    const good = { streamId: `task-${id}`, events: [started(id)], expectedVersion: 'no_stream' as const };
    const badId = await store
      .appendMany([
        good,
        { streamId: `task-${randomUUID()}`, events: [progressed(id, 'ok', 'not-a-uuid')], expectedVersion: 'any' },
      ])
      .catch((e) => e);
    expect(badId).toBeInstanceOf(EventDataRejectedError);
    expect(badId).toMatchObject({ code: 'DATA_REJECTED' });
    expect(badId.message).toMatch(
      /PostgreSQL refused the data \(SQLSTATE 22P02: [\s\S]*invalid input syntax for type uuid/,
    );
    const nul = await store.append(`task-${id}\u0000x`, [started(id)], 'no_stream').catch((e) => e);
    expect(nul).toBeInstanceOf(EventDataRejectedError);
    expect(nul.message).toMatch(/PostgreSQL refused the data \(SQLSTATE 22021: /);
    // The whole append was one transaction: the good stream's event is not stored either.
    expect(await store.readStream(`task-${id}`)).toEqual([]);
    // Inside a caller's transaction too (the error leaves through the same translation).
    const inTx = await store
      .transaction((tx) => tx.append(`task-${id}`, [progressed(id, 'ok', 'also-not-a-uuid')], 'any'))
      .catch((e) => e);
    expect(inTx).toMatchObject({ code: 'DATA_REJECTED', message: expect.stringContaining('SQLSTATE 22P02') });
  });

  it('announces appended streams to onCommitted after the commit, once per transaction, never for a rollback', async () => {
    const seen: string[][] = [];
    const hooked = createEventStore(schema.db, { onCommitted: (ids) => seen.push([...ids].sort()) });
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await hooked.append(`task-${a}`, [started(a)], 'no_stream');
    expect(seen).toEqual([[`task-${a}`]]);
    await hooked.transaction(async (tx) => {
      await tx.append(`task-${b}`, [started(b)], 'no_stream');
      await tx.appendOnce(`task-${b}`, { ...progressed(b, 'x'), eventId: randomUUID() });
      await tx.append(`task-${c}`, [started(c)], 'no_stream');
      expect(seen).toHaveLength(1); // nothing announced before the commit
    });
    expect(seen[1]).toEqual([`task-${b}`, `task-${c}`].sort());
    await expect(
      hooked.transaction(async (tx) => {
        await tx.append(`task-${randomUUID()}`, [started(a)], 'no_stream');
        await tx.append(`task-${a}`, [started(a)], 'no_stream'); // conflict
      }),
    ).rejects.toMatchObject({ code: 'CONCURRENCY_CONFLICT' });
    await expect(hooked.append(`task-${a}`, [started(a)], 'no_stream')).rejects.toBeTruthy();
    const eventId = randomUUID();
    await hooked.appendOnce(`task-${a}`, { ...progressed(a, 'once'), eventId });
    await hooked.appendOnce(`task-${a}`, { ...progressed(a, 'once'), eventId }); // stored already: nothing new
    expect(seen).toHaveLength(3);
    expect(seen[2]).toEqual([`task-${a}`]);
  });

  describe('handleCommand', () => {
    type Cmd = { kind: 'step'; message: string; max: number };
    const decider: Decider<Cmd, number> = {
      initialState: 0,
      evolve: (n, e) => (e.type === 'TaskProgressed' ? n + 1 : n),
      decide(c, n) {
        if (n >= c.max) throw new ConflictError(`already ${n} steps`);
        return [{ type: 'TaskProgressed', data: { task_id: 'x', message: c.message, at: '2026-11-23T00:00:00.000Z' } }];
      },
    };

    it('decides on the folded state and appends at the version it read', async () => {
      const s = `task-${randomUUID()}`;
      const r = await handleCommand(store, s, decider, { kind: 'step', message: 'one', max: 5 });
      expect(r.state).toBe(0);
      expect(r.events.map((e) => e.streamPosition)).toEqual([0]);
    });

    it('runs again on the new state after a conflict, so concurrent commands respect the rule', async () => {
      const s = `task-${randomUUID()}`;
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          handleCommand(store, s, decider, { kind: 'step', message: `m${i}`, max: 3 }, { retries: 10 }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason)).toEqual(
        Array(3).fill(expect.any(ConflictError)),
      );
      expect(await store.readStream(s)).toHaveLength(3);
    });
  });

  describe('handleCommands (several streams, one write)', () => {
    type Cmd = { kind: 'step'; message: string; max: number };
    const steps: Decider<Cmd, number> = {
      initialState: 0,
      evolve: (n, e) => (e.type === 'TaskProgressed' ? n + 1 : n),
      decide(c, n) {
        if (n >= c.max) throw new ConflictError(`already ${n} steps`);
        return [{ type: 'TaskProgressed', data: { task_id: 'x', message: c.message, at: '2026-11-23T00:00:00.000Z' } }];
      },
    };
    const facts = factsDecider<TaskEvent>();
    const startedFact = (id: string): TaskEvent => ({
      type: 'TaskStarted',
      data: { task_id: id, task_type: 't', user_id: 'u', workflow_id: id },
    });
    const step = (streamId: string, max: number) =>
      streamCommand({ streamId, decider: steps, command: { kind: 'step', message: 'm', max } });

    it('appends every decision in one transaction: one refusal writes nothing, a new stream that exists fails', async () => {
      const [a, b, c] = [`task-${randomUUID()}`, `task-${randomUUID()}`, `task-${randomUUID()}`];
      await store.append(b, [progressed('b', 'one')], 'no_stream');
      await expect(handleCommands(store, [step(a, 5), step(b, 1)])).rejects.toBeInstanceOf(ConflictError);
      expect(await store.readStream(a)).toHaveLength(0);

      const r = await handleCommands(store, [
        step(a, 5),
        streamCommand({ streamId: c, decider: facts, command: [startedFact('c')], expect: 'new' }),
      ]);
      expect(r.events.map((e) => [e.streamId, e.type])).toEqual([
        [a, 'TaskProgressed'],
        [c, 'TaskStarted'],
      ]);
      await expect(
        handleCommands(store, [
          streamCommand({ streamId: c, decider: facts, command: [startedFact('c')], expect: 'new' }),
        ]),
      ).rejects.toThrow();
      expect(await store.readStream(c)).toHaveLength(1);
    });

    it('partial: a refused stream is reported and the others are written', async () => {
      const [a, b] = [`task-${randomUUID()}`, `task-${randomUUID()}`];
      await store.append(b, [progressed('b', 'one')], 'no_stream');
      const r = await handleCommands(store, [step(a, 5), step(b, 1)], { partial: true });
      expect(r.outcomes.map((o) => [o.streamId, o.events.length, o.refused?.message])).toEqual([
        [a, 1, undefined],
        [b, 0, 'already 1 steps'],
      ]);
      expect(await store.readStream(a)).toHaveLength(1);
    });

    it("a command made from another stream's state, and concurrent calls that respect every rule", async () => {
      const [a, b] = [`task-${randomUUID()}`, `task-${randomUUID()}`];
      // b may take as many steps as a has taken, plus one; both move together, six callers at once.
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, () =>
          handleCommands(
            store,
            [
              step(a, 3),
              streamCommand({
                streamId: b,
                decider: steps,
                command: (states) => ({ kind: 'step', message: 'b', max: (states.get(a) as number) + 1 }),
              }),
            ],
            { retries: 10 },
          ),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      expect(await store.readStream(a)).toHaveLength(3);
      expect(await store.readStream(b)).toHaveLength(3);
    });
  });
});
