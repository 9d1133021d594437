/**
 * The analysts' export (`npm run events -- export`), run as an operator runs
 * it: its own process against a database. It pages through the log, so a
 * log longer than one page comes out whole, in commit order, filtered.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';

jest.setTimeout(120000);

const ROOT = path.resolve(__dirname, '../../..');

function events(s: IsolatedSchema, ...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/events.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: s.url, KAFKA_TOPIC_PREFIX: s.topicPrefix },
    encoding: 'utf8',
    timeout: 60000,
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

  it('refuses an unfiltered export with exit code 2 and says which filters exist', () => {
    const r = events(s, 'export');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('export needs --stream, --type, --user, --since or --until');
  });
});
