/**
 * npm run bench:api — authenticated reads against the bare-framework ceiling, in one run.
 *
 * Starts, on a private schema:
 *   - a bare Express 5 app returning a small JSON body (scripts/bench/bare-express.ts), as one process and as
 *     a cluster of API_PROCESSES processes (the ceiling is the faster of the two at each connection count);
 *   - the platform's API as `scripts/platform up` runs it (workers/api.ts: API_PROCESSES processes, production
 *     mode, info-level logs to a file), with the benchmark user's rate limits raised by RATE_LIMIT_OVERRIDES;
 * then runs autocannon against each route at 64 and 100 connections, interleaved (bare, then each route) so the
 * load of the shared machine hits every figure alike, and prints a Markdown table: req/s, p50/p99 latency, ratio
 * to the bare app of the same connection count, the load average before each figure.
 *
 * Routes: GET /api/subscription/plans, GET /api/blog/research/status/{id} (an in-progress task with three
 * progress messages), GET /v1/me — all with an Enterprise user's production API key.
 * Settings: BENCH_API_SECONDS (10 per figure), BENCH_API_WARMUP_SECONDS (2), BENCH_API_CONNECTIONS ("64,100"),
 * API_PROCESSES (default: the number of cores), BENCH_API_ROUNDS (1: repeat the whole set, the platform routes'
 * order rotating by round), BENCH_API_PROFILE (a directory: CPU profiles of the API processes), BENCH_API_ONLY
 * (only the platform routes whose name contains it), BENCH_API_LAG (0: skip the lag phase).
 */
import { ChildProcess, fork } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { createApiKey, createUser } from '../../api/identity/commands';
import { createEventStore, RecordedEvent } from '../../infra/eventstore';
import { identityProjection } from '../../projections/identity';
import { taskStatusProjection } from '../../projections/task-status';
import { applyEvents } from '../../projections/runner';
import { taskStream } from '../../domain/events/tasks';
import { benchSchema, percentile, sleep, startWorker, until } from './lib';
import { loadConfig } from '../../infra/config';
import { createKafka } from '../../infra/kafka';
import { ensureTopics } from '../../infra/kafka-topics';
import { EVENT_AREAS } from '../../domain/events';

const root = path.resolve(__dirname, '../..');
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_API_WARMUP_SECONDS ?? 2);
const CONNECTIONS = (process.env.BENCH_API_CONNECTIONS ?? '64,100').split(',').map(Number);
const PROCESSES = Number(process.env.API_PROCESSES ?? os.availableParallelism());
const ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 1);

interface Started {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

// Children still running when this process ends however it ends (an error, a closed output pipe) are stopped.
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
});

function start(script: string, env: Record<string, string>, log: string): Promise<Started> {
  // The log file is the child's stdout itself, as scripts/platform starts processes (a pipe through this process
  // would make the API's synchronous log writes wait on the benchmark).
  const out = openSync(log, 'a');
  const child = fork(path.join(root, script), [], {
    cwd: root,
    // BENCH_API_PROFILE=<dir>: CPU profiles of the platform's processes (node --cpu-prof) for finding the next cost.
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_API_PROFILE && script.startsWith('workers/')
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_API_PROFILE}`]
        : []),
    ],
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out, 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start (log: ${log})`)), 120_000);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) (log: ${log})`)));
    child.on('message', (m: { type?: string; port?: number }) => {
      if (m?.type !== 'listening') return;
      clearTimeout(timer);
      resolve({
        child,
        port: m.port!,
        stop: () =>
          new Promise((r) => {
            if (child.exitCode !== null) return r();
            child.removeAllListeners('exit');
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

interface Figure {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  load: number;
}

async function cannon(url: string, connections: number, seconds: number, headers: Record<string, string>) {
  return autocannon({ url, connections, duration: seconds, headers, pipelining: 1 });
}

async function measure(
  name: string,
  url: string,
  connections: number,
  headers: Record<string, string>,
  expect: number,
): Promise<Figure> {
  if (WARMUP > 0) await cannon(url, connections, WARMUP, headers);
  const load = os.loadavg()[0];
  const r = await cannon(url, connections, SECONDS, headers);
  const figure: Figure = {
    name,
    connections,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: expect === 200 ? r.non2xx : r['2xx'],
    errors: r.errors + r.timeouts,
    load,
  };
  console.error(
    `${name} @${connections}: ${figure.rps.toFixed(0)} req/s, p50 ${figure.p50} ms, p99 ${figure.p99} ms, load ${load.toFixed(2)}${figure.non2xx || figure.errors ? ` (unexpected: ${figure.non2xx} other status, ${figure.errors} errors)` : ''}`,
  );
  return figure;
}

async function main(): Promise<void> {
  const schema = await benchSchema(5);
  const store = createEventStore(schema.db);
  const runDir = path.join(root, '.run', 'bench');
  mkdirSync(runDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const started: Started[] = [];
  try {
    // The benchmark's user and task, projected as the projector would have projected them.
    const d = { store };
    const u = await createUser(d, { plan: 'enterprise' });
    const k = await createApiKey(d, u.value.user_id, { name: 'bench', environment: 'production' });
    const taskId = `blog-research-${randomUUID()}`;
    const now = new Date().toISOString();
    const task = await store.append(
      taskStream(taskId),
      [
        {
          type: 'TaskStarted',
          data: { task_id: taskId, task_type: 'blog_research', user_id: u.value.user_id, workflow_id: taskId },
        },
        ...['Searching the research corpus', 'Reading 5 sources', 'Summarising the findings'].map((message) => ({
          type: 'TaskProgressed' as const,
          data: { task_id: taskId, message, at: now },
        })),
      ],
      'no_stream',
    );
    await schema.db.transaction(async (t) => {
      await applyEvents(t, identityProjection, [...u.events, ...k.events] as RecordedEvent[]);
      await applyEvents(t, taskStatusProjection, task.events);
    });

    const big = 1_000_000_000;
    const overrides = {
      enterprise: {
        general: { minute: big, day: big },
        developer: { hour: big },
        status: { minute: big },
      },
    };
    const apiLog = path.join(runDir, `api-${stamp}.log`);
    const api = await start(
      'workers/api.ts',
      {
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        DATABASE_URL: schema.url,
        KAFKA_TOPIC_PREFIX: schema.topicPrefix,
        MIGRATE_ON_START: 'false',
        HOST: '127.0.0.1',
        PORT: '0',
        API_PROCESSES: String(PROCESSES),
        RATE_LIMIT_OVERRIDES: JSON.stringify(overrides),
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
        // Production mode wants an https base for outreach's unsubscribe links; nothing is sent here.
        OUTREACH_PUBLIC_BASE_URL: 'https://bench.invalid',
        OUTREACH_UNSUBSCRIBE_SECRET: randomBytes(32).toString('base64'),
      },
      apiLog,
    );
    started.push(api);
    const bareLog = path.join(runDir, `bare-${stamp}.log`);
    const bare1 = await start('scripts/bench/bare-express.ts', { BARE_PROCESSES: '1' }, bareLog);
    started.push(bare1);
    const bareN =
      PROCESSES > 1
        ? await start('scripts/bench/bare-express.ts', { BARE_PROCESSES: String(PROCESSES) }, bareLog)
        : bare1;
    if (bareN !== bare1) started.push(bareN);

    const auth = { authorization: `Bearer ${k.value.key}` };
    const base = `http://127.0.0.1:${api.port}`;
    const targets = [
      { name: 'bare Express 5, 1 process', url: `http://127.0.0.1:${bare1.port}/bare`, headers: {} },
      ...(bareN !== bare1
        ? [{ name: `bare Express 5, ${PROCESSES} processes`, url: `http://127.0.0.1:${bareN.port}/bare`, headers: {} }]
        : []),
      { name: 'GET /api/subscription/plans', url: `${base}/api/subscription/plans`, headers: auth },
      { name: 'GET /api/blog/research/status/{id}', url: `${base}/api/blog/research/status/${taskId}`, headers: auth },
      { name: 'GET /v1/me', url: `${base}/v1/me`, headers: auth },
    ];
    // What each target answers (the bare app's body is small; the platform's carry envelopes and headers).
    for (const t of targets) {
      const r = await fetch(t.url, { headers: t.headers });
      const body = await r.arrayBuffer();
      const headerBytes = [...r.headers].reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
      console.error(
        `${t.name}: ${r.status}, ${[...r.headers].length} headers (${headerBytes} bytes), body ${body.byteLength} bytes`,
      );
      if (process.env.BENCH_API_SHOW) console.error([...r.headers].map(([k, v]) => `  ${k}: ${v}`).join('\n'));
    }
    const figures: Figure[] = [];
    // The bare apps first, then the platform's routes in an order that rotates by round, so with
    // BENCH_API_ROUNDS=3 every route is measured once first, once second and once last after the bare figures.
    const bares = targets.filter((t) => t.name.startsWith('bare'));
    // BENCH_API_ONLY=<text>: only the platform routes whose name contains it (for profiling one route's phase).
    const only = process.env.BENCH_API_ONLY;
    const routes = targets.filter((t) => !t.name.startsWith('bare') && (!only || t.name.includes(only)));
    for (let round = 0; round < ROUNDS; round++) {
      const order = [...bares, ...routes.slice(round % routes.length), ...routes.slice(0, round % routes.length)];
      for (const c of CONNECTIONS) for (const t of order) figures.push(await measure(t.name, t.url, c, t.headers, 200));
    }

    console.log(report(figures));
    if (process.env.BENCH_API_LAG === '0') return;
    const lag = await lagPhase(schema, `${base}/api/settings/sessions`, auth, started);
    console.log(
      `\nProjection lag while the API runs at its maximum write rate (POST /api/settings/sessions, ${LAG_CONNECTIONS} connections, ${SECONDS} s; every answer waits for the identity projection): ` +
        `${lag.rps.toFixed(0)} writes/s, lag p50 ${lag.p50.toFixed(1)} ms, p99 ${lag.p99.toFixed(1)} ms, max ${lag.max.toFixed(1)} ms over ${lag.n} events, load avg ${lag.load.toFixed(2)}`,
    );
  } finally {
    for (const s of started.reverse()) await s.stop();
    await schema.drop();
  }
}

const LAG_CONNECTIONS = Number(process.env.BENCH_API_LAG_CONNECTIONS ?? 64);

/**
 * Lag phase: relay and projector run (real processes), the API takes session starts (SessionStarted, projected
 * into access_tokens) as fast as it can; a trigger notes, inside the projector's transaction, how old each
 * projected event is (projection insert time − event recorded time).
 */
async function lagPhase(
  schema: Awaited<ReturnType<typeof benchSchema>>,
  url: string,
  auth: Record<string, string>,
  started: { stop(): Promise<void> }[],
) {
  const config = loadConfig();
  await ensureTopics(
    createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'bench-api' }),
    schema.topicPrefix,
    EVENT_AREAS,
    config.KAFKA_TOPIC_PARTITIONS,
    config.KAFKA_REPLICATION_FACTOR,
  );
  await schema.db.raw(`CREATE TABLE bench_lag (lag_ms double precision NOT NULL);
    CREATE FUNCTION bench_note_lag() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO bench_lag VALUES (extract(epoch FROM clock_timestamp() - NEW.created_at) * 1000); RETURN NEW; END $$;
    CREATE TRIGGER bench_lag AFTER INSERT ON access_tokens FOR EACH ROW EXECUTE FUNCTION bench_note_lag();`);
  const env = {
    DATABASE_URL: schema.url,
    KAFKA_TOPIC_PREFIX: schema.topicPrefix,
    MIGRATE_ON_START: 'false',
    RELAY_HEALTH_PORT: '0',
    PROJECTOR_HEALTH_PORT: '0',
    LOG_LEVEL: 'warn',
  };
  started.push(startWorker('projector', env), startWorker('relay', env));
  await sleep(8000); // both connected and caught up with the setup's events
  const load = os.loadavg()[0];
  const r = await autocannon({
    url,
    method: 'POST',
    connections: LAG_CONNECTIONS,
    duration: SECONDS,
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{}',
  });
  const n = r['2xx'];
  await until(async () => Number((await schema.db.raw('SELECT count(*) AS n FROM bench_lag')).rows[0].n) >= n, 60000);
  const lags = ((await schema.db.raw('SELECT lag_ms FROM bench_lag ORDER BY lag_ms')).rows as { lag_ms: number }[]).map(
    (x) => x.lag_ms,
  );
  return {
    n: lags.length,
    rps: r.requests.average,
    p50: percentile(lags, 50),
    p99: percentile(lags, 99),
    max: lags[lags.length - 1] ?? 0,
    load,
  };
}

function report(figures: Figure[]): string {
  const lines = [
    `API_PROCESSES=${PROCESSES}, ${SECONDS} s per figure after ${WARMUP} s warm-up, ${os.cpus().length} cores, Node.js ${process.version}`,
    '',
    '| Route | connections | req/s | p50 / p99 (ms) | × bare req/s | × bare p99 | load avg | other status / errors |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    const bare = figures
      .filter((b) => b.name.startsWith('bare') && b.connections === f.connections)
      .reduce<Figure | undefined>((a, b) => (!a || b.rps > a.rps ? b : a), undefined);
    const ratio = bare && !f.name.startsWith('bare') ? (f.rps / bare.rps).toFixed(2) : '';
    const p99 = bare && !f.name.startsWith('bare') ? (f.p99 / bare.p99).toFixed(2) : '';
    lines.push(
      `| ${f.name} | ${f.connections} | ${f.rps.toFixed(0)} | ${f.p50} / ${f.p99} | ${ratio} | ${p99} | ${f.load.toFixed(2)} | ${f.non2xx} / ${f.errors} |`,
    );
  }
  return lines.join('\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
