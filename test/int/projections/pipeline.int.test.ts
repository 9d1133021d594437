/**
 * The event backbone in one process: event store -> relay -> Kafka ->
 * projection consumers -> read models, against the real PostgreSQL and Kafka.
 */
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { createEventStore, EventStore } from '../../../infra/eventstore';
import { Relay, saveCheckpoint } from '../../../infra/relay/relay';
import { ensureTopics } from '../../../infra/kafka-topics';
import { START } from '../../../infra/eventstore/port';
import { EVENT_AREAS } from '../../../domain/events';
import { PROJECTIONS, findProjection } from '../../../projections';
import { ProjectionConsumer, stallOf } from '../../../projections/projector';
import { waitForProjection } from '../../../projections/consistency';
import { hashProjection, replay } from '../../../projections/replay';
import { getTask } from '../../../projections/task-status';
import { usageByProvider } from '../../../projections/usage';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { testKafka, testLogger } from '../../support/env';
import { waitForCatchUp } from '../../support/pipeline';

describe('event pipeline', () => {
  let s: IsolatedSchema;
  let kafka: Kafka;
  let relay: Relay;
  let relayRun: Promise<void>;
  let consumers: ProjectionConsumer[];
  let store: EventStore;

  beforeAll(async () => {
    s = await isolatedSchema();
    kafka = testKafka();
    store = createEventStore(s.db);
    await ensureTopics(kafka, s.topicPrefix, EVENT_AREAS, 3, 1);
    relay = new Relay(s.db, store, kafka, testLogger(), { topicPrefix: s.topicPrefix });
    await relay.start();
    relayRun = relay.run();
    consumers = PROJECTIONS.map(
      (p) => new ProjectionConsumer(s.db, kafka, p, testLogger(), { topicPrefix: s.topicPrefix }),
    );
    await Promise.all(consumers.map((c) => c.start()));
  });

  afterAll(async () => {
    relay.stop();
    await relayRun;
    await relay.close();
    await Promise.all(consumers.map((c) => c.stop()));
    await s.drop();
  });

  it('projects a task through its states, and read-your-writes waits for it', async () => {
    const id = randomUUID();
    const stream = `task-${id}`;
    await store.append(
      stream,
      [{ type: 'TaskStarted', data: { task_id: id, task_type: 'blog-research', user_id: 'alice', workflow_id: id } }],
      'no_stream',
    );
    const r = await store.append(
      stream,
      [
        {
          type: 'TaskProgressed',
          data: { task_id: id, message: 'Collecting sources', at: '2026-11-22T00:00:01.000Z' },
        },
        { type: 'TaskProgressed', data: { task_id: id, message: 'Ranking sources', at: '2026-11-22T00:00:02.000Z' } },
        { type: 'TaskCompleted', data: { task_id: id, result: { success: true, sources: [] } } },
      ],
      0,
    );
    // The projection usually applies an event within milliseconds; the bounds of these waits leave a loaded machine room.
    expect(await waitForProjection(s.db, 'task-status', r.events[r.events.length - 1], { timeoutMs: 60000 })).toBe(
      true,
    );
    const task = await getTask(s.db, 'alice', id);
    expect(task).toMatchObject({ task_id: id, status: 'completed', result: { success: true } });
    expect(task!.progress_messages.map((m) => m.message)).toEqual(['Collecting sources', 'Ranking sources']);
    expect(await getTask(s.db, 'bob', id)).toBeUndefined();
  });

  it('a replaced consumer (kafkajs gave up, or the watchdog found it stalled) goes on where the read model stands', async () => {
    const c = consumers.find((x) => x.projectionName === 'task-status')!;
    // The watchdog's rule: messages waiting and no batch for longer than the bound.
    expect(stallOf({ lastProgressAt: 0 }, 3, 60_000, 61_000)).toMatch(
      /^stalled: 3 messages waiting, no batch for 61 s/,
    );
    expect(stallOf({ lastProgressAt: 0 }, 0, 60_000, 61_000)).toBeUndefined();
    expect(stallOf({ lastProgressAt: 0 }, 3, 60_000, 59_000)).toBeUndefined();
    expect(stallOf({ lastProgressAt: 0 }, 3, 0, 61_000)).toBeUndefined();
    const id = randomUUID();
    const stream = `task-${id}`;
    const started = await store.append(
      stream,
      [{ type: 'TaskStarted', data: { task_id: id, task_type: 'blog-research', user_id: 'carol', workflow_id: id } }],
      'no_stream',
    );
    expect(await waitForProjection(s.db, 'task-status', started.events[0], { timeoutMs: 60000 })).toBe(true);
    await c.restart('test');
    expect([c.restarts, c.isRunning]).toEqual([1, true]);
    const done = await store.append(stream, [{ type: 'TaskCompleted', data: { task_id: id, result: { ok: 1 } } }], 0);
    expect(await waitForProjection(s.db, 'task-status', done.events[0], { timeoutMs: 60000 })).toBe(true);
    expect(await getTask(s.db, 'carol', id)).toMatchObject({ status: 'completed', result: { ok: 1 } });
  });

  it('read-your-writes gives up after its bound when the projection has not caught up', async () => {
    const t0 = Date.now();
    expect(
      await waitForProjection(
        s.db,
        'task-status',
        { streamId: `task-${randomUUID()}`, streamPosition: 0 },
        { timeoutMs: 150 },
      ),
    ).toBe(false);
    // It waited its bound, and gave up well before the 2 s it waits when none is given: a wall-clock upper bound
    // closer to 150 ms would measure the machine's load (each poll is a query), not the bound.
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(150);
    expect(took).toBeLessThan(2000);
  });

  it('sums usage increments per user, period and provider', async () => {
    const user = `u-${randomUUID().slice(0, 6)}`;
    for (let i = 0; i < 5; i++) {
      await store.append(
        `usage-${user}`,
        [
          {
            type: 'UsageRecorded',
            data: {
              user_id: user,
              provider: 'vendor_a',
              model: 'm',
              calls: 1,
              tokens_in: 100,
              tokens_out: 50,
              cost: 0.0015,
              billing_period: '2026-11',
              idempotency_key: `wf-${i}/1`,
            },
          },
        ],
        'any',
      );
    }
    const last = await store.append(
      `usage-${user}`,
      [
        {
          type: 'UsageRecorded',
          data: {
            user_id: user,
            provider: 'vendor_b',
            model: 'm',
            calls: 1,
            tokens_in: 10,
            tokens_out: 5,
            cost: 0.01,
            billing_period: '2026-11',
            idempotency_key: 'wf-b/1',
          },
        },
      ],
      'any',
    );
    expect(await waitForProjection(s.db, 'usage', last.events[0], { timeoutMs: 60000 })).toBe(true);
    const usage = await usageByProvider(s.db, user, '2026-11');
    expect(usage).toEqual([
      { provider: 'vendor_a', calls: 5, tokens_in: 500, tokens_out: 250, tokens: 750, cost: 0.0075 },
      { provider: 'vendor_b', calls: 1, tokens_in: 10, tokens_out: 5, tokens: 15, cost: 0.01 },
    ]);
  });

  it('re-delivering everything (relay checkpoint reset to zero) changes no projection', async () => {
    await waitForCatchUp(s.db, kafka, s.topicPrefix);
    const before = await Promise.all(PROJECTIONS.map((p) => hashProjection(s.db, p)));
    relay.stop();
    await relayRun;
    await saveCheckpoint(s.db, 'relay', START);
    relay.checkpoint = START;
    (relay as unknown as { stopped: boolean }).stopped = false;
    relayRun = relay.run();
    await waitForCatchUp(s.db, kafka, s.topicPrefix);
    const after = await Promise.all(PROJECTIONS.map((p) => hashProjection(s.db, p)));
    expect(after).toEqual(before);
  });

  it('replay rebuilds each projection identical to the live one, and swaps atomically', async () => {
    await waitForCatchUp(s.db, kafka, s.topicPrefix);
    for (const p of PROJECTIONS) {
      const live = await hashProjection(s.db, p);
      await replay(s.db, store, p, { swap: true });
      expect(await hashProjection(s.db, p)).toEqual(live);
    }
    // The swapped-in tables keep working for the live consumer.
    const id = randomUUID();
    const r = await store.append(
      `task-${id}`,
      [{ type: 'TaskStarted', data: { task_id: id, task_type: 't', user_id: 'carol', workflow_id: id } }],
      'no_stream',
    );
    expect(await waitForProjection(s.db, 'task-status', r.events[0], { timeoutMs: 60000 })).toBe(true);
    expect(await getTask(s.db, 'carol', id)).toMatchObject({ status: 'started' });
    expect(findProjection('task-status')).toBeDefined();
  });

  it('replay does not stop early while an older open transaction hides newer events', async () => {
    const task = (id: string) => ({
      type: 'TaskStarted' as const,
      data: { task_id: id, task_type: 'held', user_id: 'dave', workflow_id: id },
    });
    const held = randomUUID();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let appended!: () => void;
    const inside = new Promise<void>((r) => (appended = r));
    const open = store.transaction(async (tx) => {
      await tx.append(`task-${held}`, [task(held)], 'no_stream');
      appended();
      await gate;
    });
    await inside;
    const after = randomUUID();
    await store.append(`task-${after}`, [task(after)], 'no_stream'); // committed, but behind the open transaction
    const p = findProjection('task-status')!;
    let finished = false;
    const rebuilding = replay(s.db, store, p, { swap: false }).then(() => (finished = true));
    await new Promise((r) => setTimeout(r, 400));
    expect(finished).toBe(false); // still waiting for the horizon
    release();
    await open;
    await rebuilding;
    const rows = await s.db('task_status__replay').whereIn('task_id', [held, after]);
    expect(rows).toHaveLength(2);
    await s.db.schema.dropTable('task_status__replay');
    await s.db.schema.dropTable(`projection_streams__replay_task_status`);
  });
});
