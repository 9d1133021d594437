/**
 * The set-based runner under concurrency: batches of different partitions
 * run in parallel transactions, and a row written by events of two streams
 * (commuting increments of the usage projection) must not lose an update.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { RecordedEvent } from '../../../infra/eventstore/port';
import { applyEvents, RowConflictError } from '../../../projections/runner';
import { usageProjection } from '../../../projections/usage';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { usageRecorded } from '../../support/usage-events';
import { waitFor } from '../../support/wait';

let position = 1000;
function usage(stream: string, calls: number): RecordedEvent {
  position++;
  return {
    eventId: randomUUID(),
    streamId: stream,
    streamPosition: 0,
    globalPosition: String(position),
    transactionId: String(position),
    ...usageRecorded('u', calls),
    schemaVersion: 1,
    metadata: {},
    recordedAt: '2026-11-22T00:00:00.000Z',
  };
}

/**
 * Resolves when the session `pid` waits for a lock (a blocked insert), whatever the machine's load. Only that
 * session counts: other test files share the database, and their sessions wait for locks of their own.
 */
async function waitsForLock(db: Knex, pid: Promise<number>): Promise<void> {
  const backend = await pid;
  await waitFor(
    `session ${backend} to wait for a lock`,
    async () => {
      const r = await db.raw(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ? AND wait_event_type = 'Lock'",
        [backend],
      );
      return r.rows[0].n >= 1;
    },
    30_000,
    20,
  );
}

/** Opens a transaction, runs `f` in it, and commits only when `release` resolves. */
function held(db: Knex, f: (t: Knex.Transaction) => Promise<unknown>, release: Promise<void>): Promise<unknown> {
  return db.transaction(async (t) => {
    await f(t);
    await release;
  });
}

describe('projection runner: concurrent batches', () => {
  let s: IsolatedSchema;
  beforeAll(async () => {
    s = await isolatedSchema(4);
  });
  afterAll(() => s.drop());
  const totals = async () =>
    (await s.db('usage_totals').where({ user_id: 'u' }).first('calls', 'cost')) as
      { calls: string; cost: string } | undefined;

  it('two batches creating the same row: the second fails with RowConflictError, and its retry adds up', async () => {
    let commitA!: () => void;
    let insertedA!: () => void;
    const aInserted = new Promise<void>((r) => (insertedA = r));
    const a = held(
      s.db,
      async (t) => {
        await applyEvents(t, usageProjection, [usage('usage-1', 1)]);
        insertedA();
      },
      new Promise<void>((r) => (commitA = r)),
    );
    await aInserted; // A has inserted the row, not committed
    const eventB = usage('usage-2', 2);
    let pidB!: (pid: number) => void;
    const backendB = new Promise<number>((r) => (pidB = r));
    const b = s.db.transaction(async (t) => {
      pidB((await t.raw('SELECT pg_backend_pid() AS pid')).rows[0].pid);
      return applyEvents(t, usageProjection, [eventB]); // waits on A's insert
    });
    await waitsForLock(s.db, backendB);
    // B's failure is awaited from now on: B can fail before A's commit is answered, and a rejection nobody awaits
    // yet fails the test (seen in CI).
    const bFails = expect(b).rejects.toBeInstanceOf(RowConflictError);
    commitA();
    await Promise.all([a, bFails]);
    await s.db.transaction((t) => applyEvents(t, usageProjection, [eventB])); // the retry kafkajs would make
    expect(await totals()).toEqual({ calls: '3', cost: '0.20000000' });
  });

  it('two batches updating the same stored row: the second waits for the first and adds to its result', async () => {
    // Each step waits for what the one before it did (A's update made, B waiting for A's lock), not for a pause that
    // a loaded machine can outrun: then B has really waited for A when A commits.
    let commitA!: () => void;
    let updatedA!: () => void;
    const aUpdated = new Promise<void>((r) => (updatedA = r));
    const a = held(
      s.db,
      async (t) => {
        await applyEvents(t, usageProjection, [usage('usage-3', 10)]);
        updatedA();
      },
      new Promise<void>((r) => (commitA = r)),
    );
    await aUpdated; // A has updated the row, not committed
    let pidB!: (pid: number) => void;
    const backendB = new Promise<number>((r) => (pidB = r));
    const b = s.db.transaction(async (t) => {
      pidB((await t.raw('SELECT pg_backend_pid() AS pid')).rows[0].pid);
      return applyEvents(t, usageProjection, [usage('usage-4', 100)]); // blocks on A's row lock
    });
    await waitsForLock(s.db, backendB);
    commitA();
    await Promise.all([a, b]);
    expect(await totals()).toEqual({ calls: '113', cost: '0.40000000' });
  });
});
