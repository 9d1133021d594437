/** Shared pieces of the benchmark scripts: a private schema, child processes, percentiles. */
import { ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../../infra/config';
import { privateSchema, PrivateSchema } from '../../infra/db/private-schema';
import { createKafka } from '../../infra/kafka';
import { MIGRATIONS } from '../../workers/migrations';

const root = path.resolve(__dirname, '../..');

export type BenchSchema = PrivateSchema;

/** A private schema (and topic prefix) in the configured database, dropped at the end. */
export function benchSchema(poolMax = 20): Promise<BenchSchema> {
  const config = loadConfig();
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: `bench-${process.pid}` });
  return privateSchema(config.DATABASE_URL, MIGRATIONS, { prefix: 'bench', poolMax, kafka });
}

/** Starts workers/<name>.ts as a child process with extra environment. */
export function startWorker(name: string, env: Record<string, string>): { child: ChildProcess; stop(): Promise<void> } {
  const child = fork(path.join(root, 'workers', `${name}.ts`), [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns true; returns the elapsed milliseconds. */
export async function until(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 20): Promise<number> {
  const t0 = performance.now();
  while (!(await check())) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
  return performance.now() - t0;
}

/**
 * RSS growth after warm-up, robust to a single sample's garbage-collection timing: the warm-up is the first fifth
 * of the run; the baseline is the median RSS of the second fifth, the end the median of the last fifth. Also the
 * least-squares trend over the second half (a leak keeps climbing to the end; a one-off step does not) and the
 * single-sample figure (last sample of the warm-up → last sample) for comparison.
 */
export function rssGrowth(xs: { at_s: number; mib: number }[]): {
  percent: number;
  baseline_s: [number, number];
  end_s: [number, number];
  trendPer10Min: number;
  singlePercent: number;
} {
  const fifth = Math.max(1, Math.floor(xs.length / 5));
  const med = (v: number[]) =>
    percentile(
      [...v].sort((a, b) => a - b),
      50,
    );
  const base = xs.slice(fifth, 2 * fifth);
  const end = xs.slice(xs.length - fifth);
  const b = med(base.map((x) => x.mib));
  const e = med(end.map((x) => x.mib));
  const half = xs.slice(Math.floor(xs.length / 2));
  const mt = half.reduce((a, x) => a + x.at_s, 0) / half.length;
  const mm = half.reduce((a, x) => a + x.mib, 0) / half.length;
  const den = half.reduce((a, x) => a + (x.at_s - mt) ** 2, 0);
  const slope = den ? half.reduce((a, x) => a + (x.at_s - mt) * (x.mib - mm), 0) / den : 0;
  const warm = xs[fifth - 1];
  const last = xs[xs.length - 1];
  return {
    percent: Math.round(((e - b) / b) * 1000) / 10,
    baseline_s: [base[0]?.at_s ?? warm.at_s, base[base.length - 1]?.at_s ?? warm.at_s],
    end_s: [end[0].at_s, last.at_s],
    trendPer10Min: Math.round(slope * 600 * 10) / 10,
    singlePercent: Math.round(((last.mib - warm.mib) / warm.mib) * 1000) / 10,
  };
}
