/**
 * The first command, as an operator uses it (on the private stack of
 * scripts/faults, on ports of its own): `scripts/platform down && scripts/platform up`
 * five times leaves every process running and the platform healthy; and an
 * `up` issued while a process is still shutting down waits for it and starts
 * a new one instead of taking it for running.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../int/webhooks/receiver';
import { waitFor } from '../support/wait';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const PROCS = ['temporal-worker', 'relay', 'projector', 'api'];

jest.setTimeout(30 * 60_000);

describe('scripts/platform', () => {
  let env: NodeJS.ProcessEnv;
  const runDir = path.join(root, '.run/faults');
  const platform = (cmd: 'up' | 'down' | 'status') =>
    run(path.join(root, 'scripts/platform'), [cmd], { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
  const pidOf = (name: string) => Number(readFileSync(path.join(runDir, 'pids', `${name}.pid`), 'utf8').trim());
  // Running, as scripts/lib.sh same_process reads it: a zombie (exited, not yet reaped by init) is not.
  const alive = (pid: number) => {
    try {
      return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    const port = await freePort();
    // The private stack's settings come from scripts/faults; the platform's own database is the default `platform`.
    env = {
      ...process.env,
      RUN_DIR: runDir,
      PORT: String(port),
      DATABASE_URL: process.env.DATABASE_URL!.replace(/\/platform_test(\?|$)/, '/platform$1'),
      TEMPORAL_TASK_QUEUE: `platform-loop-${Date.now()}`,
      WORKER_HEALTH_PORT: '0',
      RELAY_HEALTH_PORT: '0',
      PROJECTOR_HEALTH_PORT: '0',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    };
  });

  afterAll(async () => {
    // Leave the private stack up for the other fault tests (scripts/faults stops it at the end).
    for (const p of PROCS) {
      try {
        process.kill(-pidOf(p), 'SIGTERM');
      } catch {
        /* not running */
      }
      // No pid file outlives its process: the kernel reuses pids, and a later `scripts/platform` would take the pid
      // of another process for this one (scripts/lib.sh pid_alive checks the start time too).
      for (const ext of ['pid', 'start', 'stopping']) rmSync(path.join(runDir, 'pids', `${p}.${ext}`), { force: true });
    }
  });

  const healthy = async () => {
    const r = await fetch(`http://127.0.0.1:${env.PORT}/api/health`).catch(() => undefined);
    return r?.status === 200;
  };

  it('down && up five times leaves every process running and the platform healthy', async () => {
    await platform('up');
    for (let i = 0; i < 5; i++) {
      await platform('down');
      for (const p of PROCS) expect(() => pidOf(p)).toThrow(); // pid files removed: stopped
      await platform('up');
      const { stdout } = await platform('status');
      for (const p of PROCS) expect([i, p, new RegExp(`${p}\\s+running`).test(stdout)]).toEqual([i, p, true]);
      for (const p of PROCS) expect([i, p, alive(pidOf(p))]).toEqual([i, p, true]);
      await waitFor(`healthy after up #${i + 1}`, healthy, 60000, 500);
    }
  });

  it('up while the projector is shutting down waits for it and starts a new one', async () => {
    const old = pidOf('projector');
    process.kill(old, 'SIGTERM'); // as an operator or an orchestrator would
    // `up` comes once the projector has taken the signal (it marks itself stopping, workers/lifecycle.ts), or has
    // exited already: before that it is a running process to `up`, which a loaded machine can stretch out.
    const stopping = path.join(runDir, 'pids', 'projector.stopping');
    await waitFor('the projector to take the signal', () => existsSync(stopping) || !alive(old), 60000, 20);
    await platform('up');
    const now = pidOf('projector');
    expect(now).not.toBe(old);
    expect(alive(old)).toBe(false);
    expect(alive(now)).toBe(true);
    await waitFor('healthy with the new projector', healthy, 60000, 500);
  });
});
