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
 * API_PROCESSES (default: the number of cores), BENCH_API_ROUNDS (1: repeat the whole set).
 */
import { ChildProcess, fork } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
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
import { benchSchema } from './lib';

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

function start(script: string, env: Record<string, string>, log: string): Promise<Started> {
  const out = createWriteStream(log, { flags: 'a' });
  const child = fork(path.join(root, script), [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
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
  const ok = expect === 200 ? r['2xx'] : r.statusCodeStats?.[String(expect) as '200']?.count ?? 0;
  const figure: Figure = {
    name,
    connections,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.requests.sent - ok - r.errors,
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
      PROCESSES > 1 ? await start('scripts/bench/bare-express.ts', { BARE_PROCESSES: String(PROCESSES) }, bareLog) : bare1;
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
    const figures: Figure[] = [];
    for (let round = 0; round < ROUNDS; round++)
      for (const c of CONNECTIONS)
        for (const t of targets) figures.push(await measure(t.name, t.url, c, t.headers, 200));

    console.log(report(figures));
  } finally {
    for (const s of started.reverse()) await s.stop();
    await schema.drop();
  }
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
