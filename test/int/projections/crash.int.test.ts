/**
 * Crash safety of the backbone. Four writers append 20,000 events while the
 * relay and the projector (real child processes) are each killed with SIGKILL
 * twice and restarted. Afterwards every projection must equal the projection
 * rebuilt from zero by replay (same content hash), and the usage totals must
 * equal what the writers wrote: nothing lost, nothing applied twice.
 */
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createEventStore } from '../../../infra/eventstore';
import { NewEvent } from '../../../infra/eventstore/port';
import { PROJECTIONS } from '../../../projections';
import { usageByProvider } from '../../../projections/usage';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { Proc, startProcess } from '../../support/processes';
import { testKafka } from '../../support/env';
import { waitForCatchUp } from '../../support/pipeline';

const TOTAL = 20000;
const WRITERS = 4;

jest.setTimeout(600000);

describe('crash safety: SIGKILL of relay and projector while 20,000 events are written', () => {
  let s: IsolatedSchema;
  const procs: Record<'relay' | 'projector', Proc | undefined> = { relay: undefined, projector: undefined };
  const env = () => ({
    DATABASE_URL: s.url,
    KAFKA_TOPIC_PREFIX: s.topicPrefix,
    RELAY_HEALTH_PORT: '0',
    PROJECTOR_HEALTH_PORT: '0',
    DATABASE_POOL_MAX: '5',
  });

  beforeAll(async () => {
    s = await isolatedSchema(20);
  });
  afterAll(async () => {
    for (const p of Object.values(procs)) await p?.stop('SIGTERM');
    await s.drop();
  });

  it('loses nothing and applies nothing twice', async () => {
    const store = createEventStore(s.db);
    procs.relay = await startProcess('relay', env());
    procs.projector = await startProcess('projector', env());

    let written = 0;
    const expected = new Map<string, { calls: number; tokens_in: number; cost: number }>();
    const kills: { at: number; name: 'relay' | 'projector' }[] = [
      { at: 3000, name: 'relay' },
      { at: 6000, name: 'projector' },
      { at: 10000, name: 'relay' },
      { at: 14000, name: 'projector' },
    ];
    const killed: string[] = [];
    const restarts: Promise<void>[] = [];
    const maybeKill = () => {
      while (kills.length && written >= kills[0].at) {
        const { name } = kills.shift()!;
        killed.push(`${name}@${written}`);
        const old = procs[name]!;
        restarts.push(
          (async () => {
            const sig = await old.stop('SIGKILL');
            expect(sig).toBe('SIGKILL');
            procs[name] = await startProcess(name, env());
          })(),
        );
      }
    };

    const writer = async (w: number) => {
      let i = 0;
      while (written < TOTAL) {
        i++;
        const kind = i % 3;
        let events: NewEvent[];
        let stream: string;
        let expectedVersion: number | 'no_stream' | 'any' = 'any';
        if (kind === 0) {
          const user = `user-${w}-${i % 7}`;
          const provider = i % 2 ? 'vendor_a' : 'vendor_b';
          stream = `usage-${user}`;
          events = [
            {
              type: 'UsageRecorded',
              data: {
                user_id: user,
                provider,
                model: 'm',
                calls: 1,
                tokens_in: i % 50,
                tokens_out: 1,
                cost: 0.25,
                billing_period: '2026-11',
                idempotency_key: `w${w}-${i}`,
              },
            },
          ];
          const k = `${user}|${provider}`;
          const e = expected.get(k) ?? { calls: 0, tokens_in: 0, cost: 0 };
          expected.set(k, { calls: e.calls + 1, tokens_in: e.tokens_in + (i % 50), cost: e.cost + 0.25 });
        } else if (kind === 1) {
          const id = randomUUID();
          stream = `task-${id}`;
          expectedVersion = 'no_stream';
          events = [
            { type: 'TaskStarted', data: { task_id: id, task_type: 'bench', user_id: `user-${w}`, workflow_id: id } },
            {
              type: 'TaskProgressed',
              data: { task_id: id, message: `step of writer ${w}`, at: '2026-11-22T00:00:00.000Z' },
            },
            { type: 'TaskCompleted', data: { task_id: id, result: { n: i } } },
          ];
        } else {
          stream = `alerts-user-${w}`;
          events = [
            {
              type: 'AlertRaised',
              data: {
                alert_key: `k-${w}-${i}`,
                user_id: `user-${w}`,
                title: 't',
                message: 'm',
                severity: 'info',
                alert_type: 'usage_threshold',
                billing_period: '2026-11',
              },
            },
          ];
        }
        const room = TOTAL - written;
        if (room <= 0) break;
        events = events.slice(0, room);
        written += events.length; // reserve before the await so writers never overshoot
        await store.append(stream, events, expectedVersion);
        maybeKill();
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    await Promise.all(restarts);
    expect(killed).toHaveLength(4);
    expect(Number((await s.db.raw('SELECT count(*) AS n FROM es_events')).rows[0].n)).toBe(TOTAL);

    await waitForCatchUp(s.db, testKafka(), s.topicPrefix, 240000);
    // "Afterwards": the live tables are final once caught up; stop the pipeline so the rebuild runs on a quiet database.
    for (const name of ['relay', 'projector'] as const) {
      await procs[name]?.stop('SIGTERM');
      procs[name] = undefined;
    }

    // Each projection equals its rebuild from zero, checked with the analysts' tool in its own process, as an
    // operator runs it: `npm run events -- replay <projection> --verify` compares content hashes, exit 0 when equal.
    for (const p of PROJECTIONS) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/events.ts', 'replay', p.name, '--verify'], {
        cwd: path.resolve(__dirname, '../../..'),
        env: { ...process.env, DATABASE_URL: s.url, KAFKA_TOPIC_PREFIX: s.topicPrefix },
        encoding: 'utf8',
        timeout: 180000,
      });
      const verdict = JSON.parse(r.stdout.trim().split('\n').pop() || '{}') as {
        projection?: string;
        live?: unknown;
        rebuilt?: unknown;
        identical?: boolean;
      };
      expect({ projection: p.name, status: r.status, live: verdict.live }).toEqual({
        projection: p.name,
        status: 0,
        live: verdict.rebuilt,
      });
      expect(verdict.identical).toBe(true);
    }
    for (const [k, e] of expected) {
      const [user, provider] = k.split('|');
      const row = (await usageByProvider(s.db, user, '2026-11')).find((r) => r.provider === provider);
      expect({ k, calls: row?.calls, tokens_in: row?.tokens_in, cost: row?.cost }).toEqual({
        k,
        calls: e.calls,
        tokens_in: e.tokens_in,
        cost: e.cost,
      });
    }
    const tasks = Number(
      (await s.db.raw("SELECT count(*) AS n FROM task_status WHERE status = 'completed'")).rows[0].n,
    );
    const started = Number(
      (await s.db.raw("SELECT count(*) AS n FROM es_events WHERE type = 'TaskCompleted'")).rows[0].n,
    );
    expect(tasks).toBe(started);
  });
});
