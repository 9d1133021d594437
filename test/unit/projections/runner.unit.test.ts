/**
 * The runner's decisions without a database: per-stream de-duplication (any
 * arrival order, with repeats, applies every position exactly once), and
 * planBatch, which picks a batch's events, runs their handlers and gives the
 * streams' new states. The batch's rows are TableRows (rows.ts) over an
 * in-test store, as the runner holds them after its load queries.
 */
import type { TaskEvent } from '../../../domain/events/tasks';
import type { RecordedEvent } from '../../../infra/eventstore/port';
import { Change, defineProjection, Row } from '../../../projections/framework';
import { ColumnInfo, MemRow, TableInfo, TableRows } from '../../../projections/rows';
import {
  BatchView,
  isApplied,
  markApplied,
  planBatch,
  retryRaces,
  RowConflictError,
  StreamState,
} from '../../../projections/runner';

function rng(seed: number) {
  let x = seed >>> 0;
  return () => (x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

describe('stream position tracking', () => {
  it('applies in-order events once and skips repeats', () => {
    const st = { position: -1, pending: new Set<number>() };
    const applied: number[] = [];
    for (const p of [0, 1, 2, 1, 0, 3, 3]) {
      if (isApplied(st, p)) continue;
      markApplied(st, p);
      applied.push(p);
    }
    expect(applied).toEqual([0, 1, 2, 3]);
    expect(st).toEqual({ position: 3, pending: new Set() });
  });

  it('an event whose position is lower than one already applied is still applied (commit order ≠ stream order)', () => {
    const st = { position: -1, pending: new Set<number>() };
    markApplied(st, 1);
    expect(isApplied(st, 0)).toBe(false);
    markApplied(st, 0);
    expect(st).toEqual({ position: 1, pending: new Set() });
    expect(isApplied(st, 0) && isApplied(st, 1)).toBe(true);
  });

  it('property: 500 random shuffles with duplicates apply each of 0..n-1 exactly once', () => {
    const r = rng(42);
    for (let trial = 0; trial < 500; trial++) {
      const n = 1 + Math.floor(r() * 30);
      const arrivals = Array.from({ length: n }, (_, i) => i);
      for (let i = 0; i < n; i++) if (r() < 0.4) arrivals.push(Math.floor(r() * n));
      // local disorder only, like racing transactions: swap neighbours
      for (let i = 0; i + 1 < arrivals.length; i++)
        if (r() < 0.3) [arrivals[i], arrivals[i + 1]] = [arrivals[i + 1], arrivals[i]];
      const st = { position: -1, pending: new Set<number>() };
      const count = new Map<number, number>();
      for (const p of arrivals) {
        if (isApplied(st, p)) continue;
        markApplied(st, p);
        count.set(p, (count.get(p) ?? 0) + 1);
      }
      expect([...count.values()].every((c) => c === 1)).toBe(true);
      expect(count.size).toBe(n);
      expect(st.position).toBe(n - 1);
      expect(st.pending.size).toBe(0);
    }
  });
});

// A small projection over task events: one row per task, one counter row per user.
const col = (name: string, type: string): ColumnInfo => ({ name, type, scale: null });
function info(columns: ColumnInfo[], key: string[], defaults: Record<string, unknown>): TableInfo {
  return { columns, byName: new Map(columns.map((c) => [c.name, c])), key, uniques: [], defaults };
}
const INFO: Record<string, TableInfo> = {
  tasks: info(
    [col('task_id', 'text'), col('user_id', 'text'), col('status', 'text'), col('log', 'jsonb')],
    ['task_id'],
    { log: [] },
  ),
  user_tasks: info([col('user_id', 'text'), col('started', 'bigint'), col('done', 'bigint')], ['user_id'], {
    started: '0',
    done: '0',
  }),
};

const projection = defineProjection({
  name: 'test-tasks',
  migrationName: '9999_test_tasks',
  areas: ['tasks'],
  tables: ['tasks', 'user_tasks'],
  keys: { tasks: ['task_id'], user_tasks: ['user_id'] },
  createTables: async () => {},
  handlers: {
    TaskStarted: (e): Change[] => [
      {
        op: 'upsert',
        table: 'tasks',
        key: { task_id: e.data.task_id },
        insert: { user_id: e.data.user_id, status: 'started' },
      },
      {
        op: 'upsert',
        table: 'user_tasks',
        key: { user_id: e.data.user_id },
        insert: { started: 1 },
        update: { started: { $inc: 1 } },
      },
    ],
    TaskProgressed: (e) => [
      { op: 'update', table: 'tasks', key: { task_id: e.data.task_id }, set: { log: { $append: e.data.message } } },
    ],
    // The event does not name the user: read it from the task's row (written by this batch or an earlier one).
    TaskCompleted: async (e, view): Promise<Change[]> => {
      const task = await view.get('tasks', { task_id: e.data.task_id });
      if (!task) return [];
      return [
        { op: 'update', table: 'tasks', key: { task_id: e.data.task_id }, set: { status: 'done' } },
        { op: 'update', table: 'user_tasks', key: { user_id: task.user_id as string }, set: { done: { $inc: 1 } } },
      ];
    },
    TaskCancelled: (e) => [{ op: 'delete', table: 'tasks', key: { task_id: e.data.task_id } }],
    // TaskFailed: no handler.
  },
});

/** The batch's rows as the runner holds them: `stored` rows are in the database, every other row a change or read names is absent. */
function memoryView(stored: Record<string, MemRow[]> = {}) {
  const tables = new Map<string, TableRows>();
  const added: Change[][] = [];
  const reads: { table: string; key: Row }[] = [];
  const rows = (name: string, key: Row): TableRows => {
    let t = tables.get(name);
    if (!t) {
      t = new TableRows(name, INFO[name]);
      for (const r of stored[name] ?? []) t.loaded(name, { ...r });
      tables.set(name, t);
    }
    const { id, known } = t.identify(name, key);
    if (!known) t.absent(id);
    return t;
  };
  const view: BatchView & {
    added: Change[][];
    reads: typeof reads;
    result(name: string): ReturnType<TableRows['result']>;
  } = {
    added,
    reads,
    add(changes) {
      added.push(changes);
      for (const c of changes) rows(c.table, c.key).apply(c);
    },
    async get(table, key) {
      reads.push({ table, key });
      const row = rows(table, key).find(table, key);
      return row ? { ...row } : undefined;
    },
    result: (name) => tables.get(name)?.result() ?? { updates: [], inserts: [], deletes: [] },
  };
  return view;
}

let global = 0;
/** A recorded task event of stream task-<id>; the same object twice is a re-delivery. */
function recorded(task: string, position: number, e: TaskEvent): RecordedEvent {
  global++;
  return {
    ...e,
    eventId: `${task}-${position}`,
    streamId: `task-${task}`,
    streamPosition: position,
    globalPosition: String(global),
    transactionId: String(global),
    schemaVersion: 1,
    metadata: {},
    recordedAt: '2026-11-22T00:00:00.000Z',
  } as RecordedEvent;
}
const started = (task: string, p: number, user = 'ann') =>
  recorded(task, p, {
    type: 'TaskStarted',
    data: { task_id: task, task_type: 'blog', user_id: user, workflow_id: `wf-${task}` },
  });
const progressed = (task: string, p: number, message: string) =>
  recorded(task, p, { type: 'TaskProgressed', data: { task_id: task, message, at: '2026-11-22T00:00:00.000Z' } });
const completed = (task: string, p: number) =>
  recorded(task, p, { type: 'TaskCompleted', data: { task_id: task, result: {} } });
const failed = (task: string, p: number) =>
  recorded(task, p, { type: 'TaskFailed', data: { task_id: task, error: { code: 'X', message: 'x' } } });
const cancelled = (task: string, p: number) =>
  recorded(task, p, { type: 'TaskCancelled', data: { task_id: task, reason: 'r' } });

const state = (position: number, ...pending: number[]): StreamState => ({ position, pending: new Set(pending) });
const at = (plan: { applied: { event: RecordedEvent }[] }) =>
  plan.applied.map((a) => `${a.event.streamId}@${a.event.streamPosition}`);

describe('planBatch', () => {
  it('applies each new event once, in batch order; a re-delivered event in the same batch is skipped', async () => {
    const s0 = started('a', 0);
    const p1 = progressed('a', 1, 'one');
    const plan = await planBatch(projection, new Map(), [s0, p1, s0, p1, progressed('a', 2, 'two')], memoryView());
    expect(at(plan)).toEqual(['task-a@0', 'task-a@1', 'task-a@2']);
    expect(plan.applied[0].event).toBe(s0);
    expect(plan.states).toEqual(new Map([['task-a', state(2)]]));
  });

  it('skips events at or below the stored position and in the stored pending set', async () => {
    const plan = await planBatch(
      projection,
      new Map([['task-a', state(1, 3)]]),
      [
        started('a', 0),
        progressed('a', 1, 'x'),
        progressed('a', 2, 'y'),
        progressed('a', 3, 'z'),
        progressed('a', 4, 'w'),
      ],
      memoryView(),
    );
    expect(at(plan)).toEqual(['task-a@2', 'task-a@4']);
    expect(plan.states.get('task-a')).toEqual(state(4));
  });

  it('out-of-order positions are applied once each; a gap stays in the pending set until a later batch fills it', async () => {
    const first = await planBatch(
      projection,
      new Map(),
      [progressed('a', 2, 'two'), started('a', 0), progressed('a', 2, 'two'), progressed('a', 3, 'three')],
      memoryView(),
    );
    expect(at(first)).toEqual(['task-a@2', 'task-a@0', 'task-a@3']);
    expect(first.states.get('task-a')).toEqual(state(0, 2, 3));

    const second = await planBatch(
      projection,
      first.states,
      [progressed('a', 3, 'three'), progressed('a', 1, 'one'), progressed('a', 2, 'two')],
      memoryView(),
    );
    expect(at(second)).toEqual(['task-a@1']);
    expect(second.states.get('task-a')).toEqual(state(3));
  });

  it('an event without a handler still advances its stream, with no changes', async () => {
    const view = memoryView();
    const plan = await planBatch(projection, new Map([['task-a', state(0)]]), [failed('a', 1), failed('a', 1)], view);
    expect(plan.applied).toEqual([
      { event: expect.objectContaining({ type: 'TaskFailed', streamPosition: 1 }), changes: null },
    ]);
    expect(plan.states).toEqual(new Map([['task-a', state(1)]]));
    expect(view.added).toEqual([]);
  });

  it("returns each event's changes with it, in event order, and hands them to the view in that order", async () => {
    const view = memoryView({ tasks: [{ task_id: 'b', user_id: 'bob', status: 'started', log: [] }] });
    const plan = await planBatch(
      projection,
      new Map([['task-b', state(0)]]),
      [started('a', 0), progressed('b', 1, 'b1'), progressed('a', 1, 'a1'), cancelled('b', 2)],
      view,
    );
    const expected: Change[][] = [
      [
        { op: 'upsert', table: 'tasks', key: { task_id: 'a' }, insert: { user_id: 'ann', status: 'started' } },
        {
          op: 'upsert',
          table: 'user_tasks',
          key: { user_id: 'ann' },
          insert: { started: 1 },
          update: { started: { $inc: 1 } },
        },
      ],
      [{ op: 'update', table: 'tasks', key: { task_id: 'b' }, set: { log: { $append: 'b1' } } }],
      [{ op: 'update', table: 'tasks', key: { task_id: 'a' }, set: { log: { $append: 'a1' } } }],
      [{ op: 'delete', table: 'tasks', key: { task_id: 'b' } }],
    ];
    expect(plan.applied.map((a) => a.changes)).toEqual(expected);
    expect(view.added).toEqual(expected);
    expect(view.result('tasks')).toEqual({
      updates: [],
      inserts: [{ task_id: 'a', user_id: 'ann', status: 'started', log: ['a1'] }],
      deletes: [{ task_id: 'b' }],
    });
  });

  it("a handler reading through the view sees the changes of the batch's earlier events", async () => {
    const view = memoryView();
    const plan = await planBatch(
      projection,
      new Map(),
      [started('a', 0, 'ann'), started('c', 0, 'ann'), completed('a', 1)],
      view,
    );
    expect(view.reads).toEqual([{ table: 'tasks', key: { task_id: 'a' } }]);
    expect(plan.applied[2].changes).toEqual([
      { op: 'update', table: 'tasks', key: { task_id: 'a' }, set: { status: 'done' } },
      { op: 'update', table: 'user_tasks', key: { user_id: 'ann' }, set: { done: { $inc: 1 } } },
    ]);
    expect(view.result('user_tasks').inserts).toEqual([{ user_id: 'ann', started: '2', done: '1' }]);
  });

  it('a handler reading a stored row, or a row that does not exist, gets what the view holds', async () => {
    const view = memoryView({
      tasks: [{ task_id: 'old', user_id: 'bob', status: 'started', log: [] }],
      user_tasks: [{ user_id: 'bob', started: '4', done: '1' }],
    });
    const plan = await planBatch(
      projection,
      new Map([['task-old', state(0)]]),
      [completed('old', 1), completed('nope', 0)],
      view,
    );
    expect(plan.applied.map((a) => a.changes)).toEqual([
      [
        { op: 'update', table: 'tasks', key: { task_id: 'old' }, set: { status: 'done' } },
        { op: 'update', table: 'user_tasks', key: { user_id: 'bob' }, set: { done: { $inc: 1 } } },
      ],
      [], // handled, nothing to change: still an applied event
    ]);
    expect(view.result('user_tasks')).toEqual({
      updates: [{ user_id: 'bob', started: '4', done: '2' }],
      inserts: [],
      deletes: [],
    });
  });

  it('handlers get read access only, not the way to add changes', async () => {
    let seen: object | undefined;
    const p = defineProjection({
      ...projection,
      handlers: {
        TaskFailed: (_e, v) => {
          seen = v;
          return [];
        },
      },
    });
    const view = memoryView();
    await planBatch(p, new Map(), [failed('a', 0)], view);
    expect(seen).not.toBe(view);
    expect(Object.keys(seen!)).toEqual(['get']);
  });

  it('returns the state of every stream it moved and of no other, and leaves the stored states as they were', async () => {
    const storedStates = () =>
      new Map([
        ['task-a', state(0)],
        ['task-b', state(1)],
        ['task-c', state(-1, 1)],
      ]);
    const stored = storedStates();
    const plan = await planBatch(
      projection,
      stored,
      [progressed('a', 1, 'x'), progressed('b', 1, 'dup'), failed('d', 0), started('c', 1), progressed('c', 2, 'y')],
      memoryView(),
    );
    expect([...plan.states.keys()]).toEqual(['task-a', 'task-d', 'task-c']);
    expect(plan.states).toEqual(
      new Map([
        ['task-a', state(1)],
        ['task-d', state(0)],
        ['task-c', state(-1, 1, 2)],
      ]),
    );
    expect(stored).toEqual(storedStates());
  });

  it('a batch of events all applied before plans nothing', async () => {
    const view = memoryView();
    const plan = await planBatch(
      projection,
      new Map([['task-a', state(2)]]),
      [started('a', 0), progressed('a', 2, 'x')],
      view,
    );
    expect(plan).toEqual({ applied: [], states: new Map() });
    expect(view.added).toEqual([]);
  });

  it("a handler's error fails the plan", async () => {
    const p = defineProjection({ ...projection, handlers: { TaskFailed: () => Promise.reject(new Error('boom')) } });
    await expect(planBatch(p, new Map(), [failed('a', 0)], memoryView())).rejects.toThrow('boom');
  });

  it('property: random batches of several streams, states carried from batch to batch, apply each position exactly once', async () => {
    const r = rng(7);
    for (let trial = 0; trial < 100; trial++) {
      const streams = ['a', 'b', 'c'].map((t) => ({ t, n: 1 + Math.floor(r() * 12) }));
      const arrivals = streams.flatMap(({ t, n }) => Array.from({ length: n }, (_, i) => failed(t, i)));
      for (let i = arrivals.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [arrivals[i], arrivals[j]] = [arrivals[j], arrivals[i]];
      }
      for (let i = 0, n = arrivals.length; i < n; i++) if (r() < 0.4) arrivals.push(arrivals[Math.floor(r() * n)]);
      let states = new Map<string, StreamState>();
      const count = new Map<string, number>();
      for (let i = 0; i < arrivals.length;) {
        const size = 1 + Math.floor(r() * 6);
        const plan = await planBatch(projection, states, arrivals.slice(i, i + size), memoryView());
        for (const id of at(plan)) count.set(id, (count.get(id) ?? 0) + 1);
        states = new Map([...states, ...plan.states]);
        i += size;
      }
      expect([...count.values()].every((c) => c === 1)).toBe(true);
      expect(count.size).toBe(streams.reduce((s, x) => s + x.n, 0));
      for (const { t, n } of streams) expect(states.get(`task-${t}`)).toEqual(state(n - 1));
    }
  });
});

describe('retryRaces', () => {
  const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });
  const failing = (errors: unknown[]) => {
    let calls = 0;
    const run = async () => {
      const e = errors[calls++];
      if (e) throw e;
      return calls;
    };
    return { run, calls: () => calls };
  };

  it('runs a batch again after a deadlock (40P01) or a row conflict, telling onRetry each time', async () => {
    const f = failing([pgError('40P01'), new RowConflictError('t', 1)]);
    const retried: number[] = [];
    await expect(retryRaces(f.run, 5, (_e, attempt) => retried.push(attempt))).resolves.toBe(3);
    expect(retried).toEqual([1, 2]);
  });

  it('passes any other error on at once, PostgreSQL ones included', async () => {
    for (const e of [pgError('23505'), pgError('40001'), new Error('boom')]) {
      const f = failing([e]);
      await expect(retryRaces(f.run)).rejects.toBe(e);
      expect(f.calls()).toBe(1);
    }
  });

  it('gives up after `attempts` races with the last error', async () => {
    const errors = [pgError('40P01'), pgError('40P01'), pgError('40P01')];
    const f = failing(errors);
    await expect(retryRaces(f.run, 3)).rejects.toBe(errors[2]);
    expect(f.calls()).toBe(3);
  });
});
