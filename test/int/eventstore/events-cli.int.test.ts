/**
 * The analysts' export (`npm run events -- export`), run as an operator runs
 * it: its own process against a database. It pages through the log, so a
 * log longer than one page comes out whole, in commit order, filtered.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { createEventStore } from '../../../infra/eventstore';
import { taskStream } from '../../../domain/events/tasks';

jest.setTimeout(120000);

const ROOT = path.resolve(__dirname, '../../..');

function events(s: IsolatedSchema, ...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/events.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: s.url, KAFKA_TOPIC_PREFIX: s.topicPrefix },
    encoding: 'utf8',
    timeout: 60000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

describe('events CLI: export', () => {
  let s: IsolatedSchema;
  const N = 5003; // one more than a page of 5,000
  beforeAll(async () => {
    s = await isolatedSchema(2);
    // Transaction ids 3..169 (explicit, 30 events each; below any real cluster's horizon, so all visible) cross
    // 9 -> 10 and 99 -> 100; every fifth event is another type.
    await s.db.raw(
      `INSERT INTO es_events (transaction_id, event_id, stream_id, stream_position, type, schema_version, data, metadata)
       SELECT (3 + g / 30)::text::xid8, gen_random_uuid(), 'task-' || g, 0,
              CASE WHEN g % 5 = 0 THEN 'TaskFailed' ELSE 'TaskStarted' END, 1,
              jsonb_build_object('task_id', g::text), jsonb_build_object('user_id', 'u' || (g % 2))
         FROM generate_series(1, ?) g`,
      [N],
    );
  });
  afterAll(() => s.drop());

  it('writes every matching event, in commit order, across pages', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'export-')), 'started.jsonl');
    const r = events(s, 'export', '--type', 'TaskStarted', '--out', out);
    expect(r.status).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; transactionId: string });
    expect(lines).toHaveLength(N - Math.floor(N / 5));
    expect(new Set(lines.map((l) => l.type))).toEqual(new Set(['TaskStarted']));
    const xids = lines.map((l) => Number(l.transactionId));
    expect(xids).toEqual([...xids].sort((a, b) => a - b));
    expect(xids[0]).toBe(3);
    expect(xids[xids.length - 1]).toBe(3 + Math.floor(N / 30)); // g = N is a TaskStarted (N % 5 != 0)
    expect(r.stderr).toContain(`exported ${lines.length} events`);
  });

  it('filters by stream and by user, to stdout', () => {
    const one = events(s, 'export', '--stream', 'task-7');
    expect(one.status).toBe(0);
    expect(
      one.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { streamId: string }).streamId),
    ).toEqual(['task-7']);
    const user = events(s, 'export', '--user', 'u1');
    expect(user.stdout.trim().split('\n')).toHaveLength(Math.ceil(N / 2));
  });

  it('exports everything without a filter, positions as numbers', () => {
    const all = events(s, 'export');
    expect(all.status).toBe(0);
    const lines = all.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { globalPosition: unknown; transactionId: unknown; streamPosition: unknown });
    expect(lines).toHaveLength(N);
    expect(lines.every((l) => [l.globalPosition, l.transactionId, l.streamPosition].every(Number.isInteger))).toBe(
      true,
    );
    expect(all.stderr).toContain(`exported ${N} events`);
  });

  it('--help describes the CLI and each command, and exits 0', () => {
    const top = events(s, '--help');
    expect([top.status, top.stderr]).toEqual([0, '']);
    for (const c of ['tail', 'export', 'stats', 'replay']) expect(top.stdout).toContain(`  ${c} `);
    const exp = events(s, 'export', '--help');
    expect(exp.status).toBe(0);
    expect(exp.stdout).toMatch(/--out FILE[\s\S]*--type T[\s\S]*--since ISO/);
    const unknown = events(s, 'frobnicate');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });
});

describe('events CLI: an export in DuckDB (docs/recipes/events-duckdb.sql)', () => {
  let s: IsolatedSchema;
  beforeAll(async () => {
    s = await isolatedSchema();
    const store = createEventStore(s.db);
    const task = async (type: string, outcome: 'TaskCompleted' | 'TaskFailed') => {
      const id = `${type.replace(/_/g, '-')}-${randomUUID()}`;
      await store.append(
        taskStream(id),
        [{ type: 'TaskStarted', data: { task_id: id, task_type: type, user_id: 'u1', workflow_id: id } }],
        'no_stream',
      );
      await store.append(
        taskStream(id),
        [
          { type: 'TaskProgressed', data: { task_id: id, message: 'working', at: new Date().toISOString() } },
          outcome === 'TaskCompleted'
            ? { type: 'TaskCompleted', data: { task_id: id, result: { ok: true } } }
            : { type: 'TaskFailed', data: { task_id: id, error: { code: 'VENDOR_TIMEOUT', message: 'slow' } } },
        ],
        0,
      );
    };
    await task('blog_research', 'TaskCompleted');
    await task('blog_research', 'TaskFailed');
    await task('video_render', 'TaskCompleted');
    const usage = (model: string, tokensIn: number, tokensOut: number, key: string) => ({
      type: 'UsageRecorded' as const,
      data: {
        user_id: 'u1',
        provider: 'vendor_a',
        model,
        calls: 1,
        tokens_in: tokensIn,
        tokens_out: tokensOut,
        cost: 0.001,
        billing_period: '2026-11',
        idempotency_key: key,
      },
    });
    await store.append(
      'usage-u1',
      [usage('small', 100, 20, 'a'), usage('small', 50, 10, 'b'), usage('large', 400, 300, 'c')],
      'no_stream',
    );
  });
  afterAll(() => s.drop());

  it('answers tokens by model and task durations by task type', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'export-')), 'events.jsonl');
    expect(events(s, 'export', '--out', out).status).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // Every event of a task's stream carries its task type.
    expect(
      lines
        .filter((l) => l.streamId.startsWith('task-'))
        .map((l) => l.taskType)
        .sort(),
    ).toEqual([...Array(6).fill('blog_research'), ...Array(3).fill('video_render')]);
    const py = spawnSync(path.join(ROOT, '.tools/venv/bin/python'), ['scripts/duckdb-recipe.py', out, '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60000,
    });
    expect([py.status, py.stderr]).toEqual([0, '']);
    const [tokens, durations] = JSON.parse(py.stdout) as Record<string, unknown>[][];
    expect(tokens).toEqual([
      { provider: 'vendor_a', model: 'large', calls: 1, tokens_in: 400, tokens_out: 300, cost: 0.001 },
      { provider: 'vendor_a', model: 'small', calls: 2, tokens_in: 150, tokens_out: 30, cost: 0.002 },
    ]);
    expect(durations.map((d) => [d.task_type, d.tasks, d.completed])).toEqual([
      ['blog_research', 2, 1],
      ['video_render', 1, 1],
    ]);
    for (const d of durations) expect(d.median_seconds).toBeGreaterThanOrEqual(0);
  });
});
