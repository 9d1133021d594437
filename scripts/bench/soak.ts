/**
 * npm run soak — mixed load at a fixed arrival rate against the whole platform
 * (API, Temporal worker, relay, projector as separate processes, on a private
 * schema, task queue and topic prefix of the configured stack), for
 * SOAK_MINUTES (default 30; `npm run soak:ci` runs 3). Every SOAK_SAMPLE_SECONDS
 * (default 30) it samples: requests, error rate (5xx or network errors),
 * latency p50/p99, and the RSS of each process (/proc/<pid>/status). At the
 * end it prints a Markdown table for docs/benchmarks.md and checks that no
 * process's RSS grew by more than 10 % after the warm-up (the first fifth of
 * the run): median of the second fifth → median of the last fifth (rssGrowth);
 * it exits 1 when one did or the error rate passed 1 %.
 *
 * The mix per second at SOAK_RATE (default 20 requests/s): 40 % GET
 * /api/subscription/plans, 20 % POST /api/seo-analyzer, 10 % POST
 * /api/blog/research/start (offline provider: a workflow, a metered call,
 * task events), 30 % GET of a started task's status.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createEventStore } from '../../infra/eventstore';
import { createApiKey, createUser } from '../../api/identity/commands';
import { waitForProjection } from '../../projections/consistency';
import { benchSchema, percentile, rssGrowth, sleep } from './lib';
import { startProcess, Proc } from '../../test/support/processes';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const RATE = Number(process.env.SOAK_RATE ?? 20);
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30);
const UNLIMITED = { minute: 1_000_000, hour: 10_000_000, day: 100_000_000 };

const rssMiB = (pid: number | undefined): number => {
  if (!pid) return NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN;
  }
};

interface Sample {
  at_s: number;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  /** The machine's 1-minute load average: this machine is shared, so a slow sample is read against it. */
  load1: number;
  rss: Record<string, number>;
}

async function main(): Promise<void> {
  const s = await benchSchema();
  const procs: Record<string, Proc> = {};
  const env = {
    DATABASE_URL: s.url,
    KAFKA_TOPIC_PREFIX: s.topicPrefix,
    TEMPORAL_TASK_QUEUE: `soak-${Date.now()}`,
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_OVERRIDES: JSON.stringify({
      '*': { general: UNLIMITED, developer: UNLIMITED, integration: UNLIMITED, status: UNLIMITED },
    }),
    WORKER_HEALTH_PORT: '0',
    RELAY_HEALTH_PORT: '0',
    PROJECTOR_HEALTH_PORT: '0',
  };
  try {
    for (const name of ['temporal-worker', 'relay', 'projector'] as const)
      procs[name] = await startProcess(name, env, false);
    procs.api = await startProcess('api', { ...env, PORT: '0' });
    const base = `http://127.0.0.1:${procs.api.port}`;
    const store = createEventStore(s.db);
    const user = await createUser({ store }, { plan: 'enterprise' });
    const key = await createApiKey({ store }, user.value.user_id, { name: 'soak', environment: 'production' });
    await waitForProjection(s.db, 'identity', key.events[0], { timeoutMs: 60000 });
    const headers = { authorization: `Bearer ${key.value.key}`, 'content-type': 'application/json' };

    const tasks: string[] = [];
    let window: { latencies: number[]; errors: number } = { latencies: [], errors: 0 };
    const errorKinds = new Map<string, number>();
    const countError = (kind: string) => {
      window.errors++;
      errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
    };
    // A client gives up after 30 s, as a real one would: queued requests do not pile up without bound.
    const timeout = () => AbortSignal.timeout(30_000);
    const one = async (i: number) => {
      const pick = i % 10;
      const t0 = performance.now();
      try {
        let r: Response;
        if (pick < 4) r = await fetch(`${base}/api/subscription/plans`, { headers, signal: timeout() });
        else if (pick < 6)
          r = await fetch(`${base}/api/seo-analyzer`, {
            method: 'POST',
            headers,
            signal: timeout(),
            body: JSON.stringify({
              content: `# Soak ${i}\n\nA content calendar keeps publishing steady.`,
              target_keywords: ['content calendar'],
            }),
          });
        else if (pick < 7) {
          r = await fetch(`${base}/api/blog/research/start`, {
            method: 'POST',
            headers,
            signal: timeout(),
            body: JSON.stringify({ topic: `Content calendars ${i % 50}`, keywords: ['content calendar'] }),
          });
          if (r.ok) tasks.push(((await r.clone().json()) as { task_id: string }).task_id);
        } else {
          const id = tasks[i % Math.max(1, tasks.length)];
          r = id
            ? await fetch(`${base}/api/blog/research/status/${id}`, { headers, signal: timeout() })
            : await fetch(`${base}/api/subscription/plans`, { headers, signal: timeout() });
        }
        await r.arrayBuffer();
        if (r.status >= 500) countError(`HTTP ${r.status}`);
      } catch (e) {
        const err = e as Error & { cause?: { code?: string } };
        countError(err.name === 'TimeoutError' ? 'no answer within 30 s' : (err.cause?.code ?? err.name));
      }
      window.latencies.push(performance.now() - t0);
    };

    const samples: Sample[] = [];
    const started = performance.now();
    const end = started + MINUTES * 60_000;
    let nextSample = started + SAMPLE_SECONDS * 1000;
    const inflight = new Set<Promise<void>>();
    for (let i = 0; performance.now() < end; i++) {
      // Fixed arrival rate: request i is due at started + i / RATE seconds, whatever the latency of earlier ones.
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const p = one(i).finally(() => inflight.delete(p));
      inflight.add(p);
      if (performance.now() >= nextSample) {
        const sorted = window.latencies.sort((a, b) => a - b);
        samples.push({
          at_s: Math.round((performance.now() - started) / 1000),
          requests: sorted.length,
          errors: window.errors,
          p50: Math.round(percentile(sorted, 50) * 10) / 10,
          p99: Math.round(percentile(sorted, 99) * 10) / 10,
          load1: Math.round(loadavg()[0] * 10) / 10,
          rss: Object.fromEntries(Object.entries(procs).map(([n, pr]) => [n, rssMiB(pr.child.pid)])),
        });
        window = { latencies: [], errors: 0 };
        nextSample += SAMPLE_SECONDS * 1000;
      }
    }
    await Promise.all(inflight);

    const names = Object.keys(procs);
    const lines = [
      `Soak: ${MINUTES} min at ${RATE} requests/s (mix: 40 % plans, 20 % SEO analysis, 10 % research start, 30 % task status), ${new Date().toISOString().slice(0, 10)}`,
      '',
      `| t (s) | requests | errors | p50 (ms) | p99 (ms) | load (1 min) | ${names.map((n) => `RSS ${n} (MiB)`).join(' | ')} |`,
      `|---|---|---|---|---|---|${names.map(() => '---').join('|')}|`,
      ...samples.map(
        (x) =>
          `| ${x.at_s} | ${x.requests} | ${x.errors} | ${x.p50} | ${x.p99} | ${x.load1} | ${names.map((n) => x.rss[n]).join(' | ')} |`,
      ),
    ];
    const g = Object.fromEntries(
      names.map((n) => [n, rssGrowth(samples.map((x) => ({ at_s: x.at_s, mib: x.rss[n] })))]),
    );
    const growth = Object.fromEntries(names.map((n) => [n, g[n].percent]));
    const total = samples.reduce((a, x) => a + x.requests, 0);
    const errors = samples.reduce((a, x) => a + x.errors, 0);
    const w = g[names[0]];
    lines.push(
      '',
      `RSS growth after warm-up (median of t=${w.baseline_s[0]}–${w.baseline_s[1]} s → median of t=${w.end_s[0]}–${w.end_s[1]} s): ${names.map((n) => `${n} ${g[n].percent} %`).join(', ')}.`,
      `Trend over the second half (least squares, MiB per 10 min): ${names.map((n) => `${n} ${g[n].trendPer10Min}`).join(', ')}; single samples (t=${w.baseline_s[1]} s → last): ${names.map((n) => `${n} ${g[n].singlePercent} %`).join(', ')}.`,
      `Error rate ${((errors / Math.max(1, total)) * 100).toFixed(2)} % of ${total} requests; ${tasks.length} tasks started.`,
      errorKinds.size ? `Errors by kind: ${[...errorKinds].map(([k, n]) => `${k} ×${n}`).join(', ')}.` : 'No errors.',
    );
    process.stdout.write(`${lines.join('\n')}\n`);
    const bad = names.filter((n) => growth[n] > 10);
    if (bad.length || errors / Math.max(1, total) > 0.01) {
      process.stderr.write(
        `soak failed: ${bad.length ? `RSS grew more than 10 % (${bad.join(', ')})` : ''} ${errors ? `${errors} errors` : ''}\n`,
      );
      process.exitCode = 1;
    }
  } finally {
    for (const p of Object.values(procs)) await p.stop();
    await s.drop();
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
