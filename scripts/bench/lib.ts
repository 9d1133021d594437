/** Shared pieces of the benchmark scripts: a private schema, child processes, percentiles. */
import { ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../../infra/config';
import { privateSchema, PrivateSchema } from '../../infra/db/private-schema';
import { MIGRATIONS } from '../../workers/migrations';

const root = path.resolve(__dirname, '../..');

export type BenchSchema = PrivateSchema;

/** A private schema (and topic prefix) in the configured database, dropped at the end. */
export function benchSchema(poolMax = 20): Promise<BenchSchema> {
  return privateSchema(loadConfig().DATABASE_URL, MIGRATIONS, { prefix: 'bench', poolMax });
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
