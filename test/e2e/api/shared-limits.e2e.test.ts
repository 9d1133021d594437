/**
 * Real processes: the CLI bootstraps a user and key, two API processes on
 * one database share one rate limit, and the CLI reports whether the
 * projector has applied its events.
 */
import { execFile } from 'node:child_process';
import { userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Proc, startProcess } from '../../support/processes';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { call } from '../../support/http';
import { awayFromBoundary } from '../../support/clock';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');

describe('API processes share identity and rate limits', () => {
  let s: IsolatedSchema;
  const procs: Proc[] = [];
  let env: Record<string, string>;
  beforeAll(async () => {
    s = await isolatedSchema();
    env = {
      DATABASE_URL: s.url,
      KAFKA_TOPIC_PREFIX: s.topicPrefix,
      MIGRATE_ON_START: 'false',
      PORT: '0',
      RATE_LIMIT_OVERRIDES: '{"*":{"general":{"minute":6}}}',
    };
  });
  afterAll(async () => {
    for (const p of procs.reverse()) await p.stop();
    await s?.drop();
  });

  // tsx straight from node_modules, not through npx: stderr then holds only what the CLI says, not npm's own
  // configuration warnings (which differ from machine to machine).
  const cli = async (args: string[]) => {
    const r = await run(path.join(root, 'node_modules/.bin/tsx'), ['scripts/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: s.url },
    });
    return { out: JSON.parse(r.stdout), stderr: r.stderr };
  };

  it('a CLI-made key works on two API processes, which count requests against one shared limit', async () => {
    const { out, stderr } = await cli(['users', 'create', '--plan', 'free', '--json', '--wait', '1']);
    expect(out.api_key).toMatch(/^cp_test_/);
    expect(out.projected).toBe(false);
    expect(stderr).toMatch(/projector running/);

    const a = await startProcess('api', env);
    procs.push(a);
    const b = await startProcess('api', env);
    procs.push(b);
    // production key: the override of 6 per minute applies in full
    const { out: prod } = await cli([
      'keys',
      'create',
      out.user_id,
      '--environment',
      'production',
      '--json',
      '--wait',
      '0',
    ]);
    // The 8 requests in one minute window (a window that ended among them would start a fresh count): they begin
    // with at least 20 s of it left, room for two processes on a loaded machine.
    await awayFromBoundary(60, 20);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const port = i % 2 === 0 ? a.port : b.port;
      const r = await call(`http://127.0.0.1:${port}/api/settings/api-keys`, {
        headers: { authorization: `Bearer ${prod.api_key}` },
      });
      statuses.push(r.status);
      if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    // The CLI's first key (test environment: a limit of its own) works on the other process too.
    const me = await call(`http://127.0.0.1:${b.port}/v1/me`, { headers: { authorization: `Bearer ${out.api_key}` } });
    expect(me.status).toBe(200);
    expect(me.body.data.user_id).toBe(out.user_id);
  });

  it('with the relay and projector running, the CLI sees its events projected', async () => {
    procs.push(await startProcess('relay', env, false));
    procs.push(await startProcess('projector', env, false));
    const { out, stderr } = await cli(['users', 'create', '--plan', 'pro', '--admin', '--json', '--wait', '90']);
    expect(out.projected).toBe(true);
    expect(out.role).toBe('admin');
    expect(stderr).toBe('');
    const listed = await s.db('api_keys').where({ key_id: out.key_id }).first();
    expect(listed.user_id).toBe(out.user_id);

    // An operator's plan change names the operator (the console's login name) in the event.
    const set = await cli(['users', 'set-plan', out.user_id, 'enterprise', '--json', '--wait', '90']);
    expect(set.out).toMatchObject({ user_id: out.user_id, plan: 'enterprise', projected: true });
    const changed = await s
      .db('es_events')
      .where({ stream_id: `user-${out.user_id}`, type: 'PlanChanged' })
      .first();
    expect(changed.data.changed_by).toEqual({ kind: 'operator', id: process.env.SUDO_USER || userInfo().username });
  });
});
