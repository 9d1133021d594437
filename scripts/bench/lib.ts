/** Shared pieces of the benchmark scripts: a private schema, child processes, percentiles. */
import { ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { loadConfig } from '../../infra/config';
import { createDb } from '../../infra/db/knex';
import { migrateLatest } from '../../infra/db/migrate';
import { MIGRATIONS } from '../../workers/migrations';

const root = path.resolve(__dirname, '../..');

export interface BenchSchema {
  name: string;
  url: string;
  db: Knex;
  topicPrefix: string;
  drop(): Promise<void>;
}

/** A private schema (and topic prefix) in the configured database, dropped at the end. */
export async function benchSchema(poolMax = 20): Promise<BenchSchema> {
  const base = loadConfig().DATABASE_URL;
  const name = `bench_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const admin = createDb({ url: base, poolMax: 1 });
  await admin.raw('CREATE SCHEMA ??', [name]);
  await admin.destroy();
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${name}`)}`;
  const db = createDb({ url, poolMax });
  await migrateLatest(db, MIGRATIONS);
  return {
    name,
    url,
    db,
    topicPrefix: `bench-${name}`,
    async drop() {
      await db.destroy();
      const a = createDb({ url: base, poolMax: 1 });
      await a.raw('DROP SCHEMA ?? CASCADE', [name]);
      await a.destroy();
    },
  };
}

/** Starts workers/<name>.ts as a child process with extra environment. */
export function startWorker(name: string, env: Record<string, string>): { child: ChildProcess; stop(): Promise<void> } {
  const child = fork(path.join(root, 'workers', `${name}.ts`), [], { cwd: root, execArgv: ['--import', 'tsx'], env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
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
