/**
 * Fault injection (npm run test:faults, scripts/faults): the whole platform —
 * API, Temporal worker, relay, projector — runs on a PRIVATE stack (its own
 * PostgreSQL, Temporal and Kafka, started by scripts/faults) under mixed load
 * (medium blog generations that call a scripted vendor, SEO analyses,
 * webhook deliveries) while, one after another: the worker, the relay and the
 * projector are SIGKILLed and restarted; Kafka, PostgreSQL and Temporal are
 * restarted; the webhook receiver is down for a while. After recovery the
 * invariants are asserted, not printed:
 *   - no task lost or stuck: every task the API accepted completes;
 *   - no vendor call charged twice: one UsageRecorded per idempotency key, and
 *     exactly one per section of every task;
 *   - every projection is identical to a full replay (`npm run events -- replay <p> --verify`);
 *   - every webhook message is delivered under one delivery id, and each
 *     delivery id reached the receiver, which verifies the signature with the
 *     `standardwebhooks` package.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { createEventStore } from '../../infra/eventstore';
import { createApiKey, createUser } from '../../api/identity/commands';
import { waitForProjection } from '../../projections/consistency';
import { PROJECTIONS } from '../../projections';
import { Proc, startProcess, UNLIMITED_RATES } from '../support/processes';
import { BUNDLE_PATH } from '../support/global-setup';
import { startFakeVendor, completion, FakeVendor } from '../support/fake-vendor';
import { startReceiver, Receiver, freePort } from '../int/webhooks/receiver';
import { waitFor } from '../support/wait';
import { call } from '../support/http';
import { uniq } from '../support/env';
import { isolatedSchema, IsolatedSchema } from '../support/schema';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

jest.setTimeout(40 * 60_000);

/** Runs scripts/stack with the private stack's settings (scripts/faults exports them). */
const stack = (action: 'up' | 'down', service: string) =>
  run(path.join(root, 'scripts/stack'), [action], { cwd: root, env: { ...process.env, STACK_SERVICES: service } });

describe('the platform survives faults (private stack)', () => {
  // A schema of its own in the private stack's database: nothing left by an earlier run counts.
  let s: IsolatedSchema;
  let db: IsolatedSchema['db'];
  let store: ReturnType<typeof createEventStore>;
  const procs: Record<string, Proc> = {};
  const all: { name: string; proc: Proc }[] = [];
  let vendor: FakeVendor;
  let receiver: Receiver;
  let receiverPort: number;
  let env: Record<string, string>;
  let base = '';
  let key = '';
  const verifiedIds = new Map<string, number>();
  let webhookSecret = '';

  /** Starts a process and, for the background ones, waits until it beats (a new instance: it is up). */
  const start = async (name: 'api' | 'temporal-worker' | 'relay' | 'projector') => {
    const before = new Set(
      (
        await db('platform_processes')
          .where({ process: name })
          .select('instance_id')
          .catch(() => [])
      ).map((r) => r.instance_id),
    );
    procs[name] = await startProcess(name, name === 'api' ? { ...env, PORT: '0' } : env, name === 'api');
    all.push({ name, proc: procs[name] });
    if (name === 'api') base = `http://127.0.0.1:${procs.api.port}`;
    else {
      await waitFor(
        `${name} to beat`,
        async () => {
          if (procs[name].child.exitCode !== null)
            throw new Error(`${name} exited:\n${procs[name].output().slice(-4000)}`);
          const rows = await db('platform_processes')
            .where({ process: name })
            .select('instance_id')
            .catch(() => []);
          return rows.some((r) => !before.has(r.instance_id));
        },
        180_000,
        500,
      );
    }
  };

  const listen = async () => {
    const wh = new Webhook(webhookSecret);
    receiver = await startReceiver((_n, r) => {
      try {
        wh.verify(r.body, {
          'webhook-id': String(r.headers['webhook-id']),
          'webhook-timestamp': String(r.headers['webhook-timestamp']),
          'webhook-signature': String(r.headers['webhook-signature']),
        });
      } catch {
        return 401;
      }
      const id = String(r.headers['webhook-id']);
      verifiedIds.set(id, (verifiedIds.get(id) ?? 0) + 1);
      return 204;
    }, receiverPort);
  };

  afterAll(async () => {
    for (const p of Object.values(procs)) await p.stop('SIGKILL').catch(() => undefined);
    // What each process printed, for the reader of a failure.
    all.forEach(({ name, proc }, i) =>
      writeFileSync(path.join(root, `.run/faults/logs/test-${i}-${name}.log`), proc.output()),
    );
    await vendor?.close();
    await receiver?.close();
    await s?.drop();
  });

  it('no task lost, no double charge, projections equal replay, every webhook delivered and verified', async () => {
    s = await isolatedSchema(6);
    db = s.db;
    store = createEventStore(db);
    vendor = await startFakeVendor([
      {
        delayMs: 300,
        body: completion('A grounded paragraph about planning content, citing [1].', {
          usage: { prompt_tokens: 120, completion_tokens: 60 },
        }),
      },
    ]);
    receiverPort = await freePort();
    env = {
      DATABASE_URL: s.url,
      KAFKA_TOPIC_PREFIX: s.topicPrefix,
      TEMPORAL_TASK_QUEUE: uniq('faults'),
      WORKFLOW_BUNDLE_PATH: BUNDLE_PATH,
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_OVERRIDES: UNLIMITED_RATES,
      WEBHOOK_ALLOW_PRIVATE_HOSTS: `127.0.0.1:${receiverPort}`,
      WEBHOOK_RETRY_SCHEDULE: ['0', '1', '2', ...Array(40).fill('3')].join(','),
      VENDOR_A_BASE_URL: vendor.baseUrl,
      VENDOR_A_API_KEY: 'test-key',
      VENDOR_A_MODEL: 'gpt-4o-mini',
      AI_MAX_RETRIES: '1',
      AI_TIMEOUT_MS: '10000',
      API_CONSISTENCY_TIMEOUT_MS: '3000',
      WORKER_HEALTH_PORT: '0',
      RELAY_HEALTH_PORT: '0',
      PROJECTOR_HEALTH_PORT: '0',
    };
    for (const p of ['temporal-worker', 'relay', 'projector', 'api'] as const) await start(p);

    const user = await createUser({ store }, { plan: 'enterprise' });
    const k = await createApiKey({ store }, user.value.user_id, { name: 'faults', environment: 'production' });
    await waitForProjection(db, 'identity', k.events[0], { timeoutMs: 60000 });
    key = k.value.key;
    const auth = { authorization: `Bearer ${key}` };
    const reg = await call(`${base}/api/webhooks`, {
      method: 'POST',
      headers: auth,
      json: { url: `http://127.0.0.1:${receiverPort}/hook`, events: ['content.generated', 'seo.analysis.completed'] },
    });
    expect(reg.status).toBe(201);
    webhookSecret = reg.body.data.secret;
    await listen();

    // ---- mixed load, running through every fault ----
    const tasks: string[] = [];
    let analyses = 0;
    let refused = 0;
    let stop = false;
    const sections = [1, 2, 3].map((i) => ({
      id: `s${i}`,
      heading: `Part ${i}`,
      keyPoints: ['a point'],
      targetWords: 60,
      references: [
        { title: 'Source', url: 'https://example.org/a', excerpt: 'Planning content ahead keeps a team steady.' },
      ],
    }));
    let next = 0;
    const load = Promise.all(
      [0, 1, 2].map(async () => {
        while (!stop) {
          const i = next++;
          try {
            if (i % 2 === 0) {
              const r = await call(`${base}/api/blog/generate/medium/start`, {
                method: 'POST',
                headers: auth,
                json: { title: `Fault run ${i}`, sections },
              });
              if (r.status === 200) tasks.push(r.body.task_id);
              else refused++;
            } else {
              const r = await call(`${base}/api/seo-analyzer`, {
                method: 'POST',
                headers: auth,
                json: {
                  content: `# Planning\n\nA content calendar keeps publishing steady (${i}).`,
                  target_keywords: ['content calendar'],
                },
              });
              if (r.status === 200) analyses++;
              else refused++;
            }
          } catch {
            refused++; // the API process itself may be unreachable for a moment (it is not killed, but PostgreSQL is)
          }
          await sleep(250);
        }
      }),
    );

    const kill = async (name: 'temporal-worker' | 'relay' | 'projector') => {
      await procs[name].stop('SIGKILL');
      await sleep(2000);
      await start(name);
    };
    await sleep(6000);
    await kill('temporal-worker');
    await sleep(5000);
    await kill('relay');
    await sleep(5000);
    await kill('projector');
    await sleep(5000);
    await stack('down', 'kafka');
    await sleep(3000);
    await stack('up', 'kafka');
    await sleep(6000);
    await stack('down', 'postgres');
    await sleep(3000);
    await stack('up', 'postgres');
    await sleep(6000);
    await stack('down', 'temporal');
    await sleep(3000);
    await stack('up', 'temporal');
    await sleep(6000);
    await receiver.close();
    await sleep(8000);
    await listen();
    await sleep(4000);
    // The load runs on until it has made at least some of each kind of work: how much fits into the fault schedule
    // depends on the machine's pace, and a loaded machine may need longer (the checks below would be vacuous
    // without it).
    await waitFor(
      'the load to start 11 tasks and 6 analyses',
      () => tasks.length > 10 && analyses > 5,
      10 * 60_000,
      500,
    );
    stop = true;
    await load;

    // ---- recovery ----
    expect(tasks.length).toBeGreaterThan(10);
    expect(analyses).toBeGreaterThan(5);
    await waitFor(
      'every accepted task to complete',
      async () => {
        const rows = await db('task_status').whereIn('task_id', tasks).select('task_id', 'status');
        return rows.length === tasks.length && rows.every((r) => r.status === 'completed');
      },
      10 * 60_000,
      1000,
    );
    const done = await db('task_status').whereIn('task_id', tasks).select('status');
    expect(done.map((r) => r.status)).toEqual(tasks.map(() => 'completed'));

    // A start whose answer was lost in a fault (the client saw an error) may still have run: count what completed.
    const completed: string[] = (
      await db.raw(`SELECT data->>'task_id' AS t FROM es_events WHERE type = 'TaskCompleted'`)
    ).rows.map((r: { t: string }) => r.t);
    expect(completed).toEqual(expect.arrayContaining(tasks));
    expect(await db('task_status').whereNot({ status: 'completed' }).count<{ n: string }[]>({ n: '*' })).toEqual([
      { n: '0' },
    ]);

    // One charge per vendor call: each idempotency key once, three sections → three charges per task.
    const usage = (
      await db.raw(
        `SELECT data->>'idempotency_key' AS k, metadata->>'workflow_id' AS wf FROM es_events WHERE type = 'UsageRecorded'`,
      )
    ).rows as { k: string }[];
    expect(new Set(usage.map((u) => u.k)).size).toBe(usage.length);
    const perTask = new Map<string, number>();
    for (const u of usage) {
      const wf = u.k.split('/')[0];
      perTask.set(wf, (perTask.get(wf) ?? 0) + 1);
    }
    for (const t of completed) expect([t, perTask.get(t)]).toEqual([t, 3]);

    // Every webhook message under one delivery id, each delivered (verified by standardwebhooks) and recorded as succeeded.
    const expected = tasks.length + analyses; // at least: starts whose answer was lost may add a few
    await waitFor(
      'every delivery to succeed',
      async () => {
        const rows = await db('webhook_deliveries').select('delivery_id', 'status');
        return (
          rows.length >= expected &&
          rows.every((r) => r.status === 'succeeded') &&
          rows.every((r) => verifiedIds.has(r.delivery_id))
        );
      },
      10 * 60_000,
      1000,
    );
    const deliveries = await db('webhook_deliveries').select('delivery_id', 'event_type', 'status');
    const perTaskDelivery = (
      await db.raw(
        `SELECT data->'payload'->'data'->>'task_id' AS t, count(*)::int AS n FROM es_events WHERE type = 'WebhookDeliveryScheduled' AND data->>'event_type' = 'content.generated' GROUP BY 1`,
      )
    ).rows as { t: string; n: number }[];
    expect(perTaskDelivery.map((r) => r.t).sort()).toEqual([...completed].sort()); // one message per completed task …
    expect(perTaskDelivery.every((r) => r.n === 1)).toBe(true); // … under one delivery id
    expect(deliveries.filter((d) => d.event_type === 'seo.analysis.completed').length).toBeGreaterThanOrEqual(analyses);
    for (const d of deliveries) expect(verifiedIds.get(d.delivery_id)).toBeGreaterThanOrEqual(1);
    expect(receiver.requests.filter((r) => r.status === 401)).toHaveLength(0);

    // Every projection equals a full replay, checked by the analysts' tool in its own process.
    for (const p of PROJECTIONS) {
      const r = await run('npx', ['tsx', 'scripts/events.ts', 'replay', p.name, '--verify'], {
        cwd: root,
        env: process.env,
        maxBuffer: 16 * 1024 * 1024,
      }).catch((e) => e);
      expect([p.name, r.code ?? 0]).toEqual([p.name, 0]);
    }
    process.stdout.write(
      `faults: ${tasks.length} tasks, ${analyses} analyses, ${refused} requests refused during faults, ${deliveries.length} deliveries, ${[...verifiedIds.values()].filter((n) => n > 1).length} delivered more than once (same id)\n`,
    );
  });
});
