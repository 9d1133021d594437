/**
 * Starts a platform process (workers/*.ts) as a real child process with the
 * test environment, the way scripts/platform does, so e2e and crash tests talk
 * to it over HTTP and can SIGTERM or SIGKILL it.
 */
import { ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

export interface Proc {
  /** Which worker this is (workers/<name>.ts). */
  name: string;
  child: ChildProcess;
  /** Port reported by the process (API only). */
  port?: number;
  output: () => string;
  /** Sends the signal and resolves with the exit code (or signal name). */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export async function startProcess(
  name: 'api' | 'relay' | 'projector' | 'temporal-worker',
  env: Record<string, string> = {},
  waitForPort = name === 'api',
): Promise<Proc> {
  let out = '';
  const child = fork(path.join(root, 'workers', `${name}.ts`), [], {
    cwd: root,
    // PLATFORM_NODE: another Node.js binary to run the process on (the LTS test: test/e2e/platform/node-lts.e2e.test.ts).
    execPath: env.PLATFORM_NODE || process.execPath,
    execArgv: ['--import', 'tsx'],
    // One API process unless the test asks for a cluster (API_PROCESSES=0 would fork one per core); log lines
    // written at once, so a test reading a running process's output sees every line (LOG_BUFFER_BYTES).
    // Calls of the calendar family without a valid credential share one bucket per client IP (127.0.0.1 here): the
    // test environment raises its allowance so the fuzzer and e2e files never starve it.
    env: {
      ...process.env,
      API_PROCESSES: '1',
      LOG_BUFFER_BYTES: '0',
      CALENDAR_ANONYMOUS_RATE_PER_HOUR: '10000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, sig) => resolve(code ?? sig ?? -1)),
  );
  const proc: Proc = {
    name,
    child,
    output: () => out,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (waitForPort) {
    proc.port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start in time:\n${out}`)), 60000);
      child.on('message', (m: { type?: string; port?: number }) => {
        if (m?.type === 'listening') {
          clearTimeout(timer);
          resolve(m.port!);
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited (${code}) before listening:\n${out}`));
      });
    });
  }
  return proc;
}

/**
 * RATE_LIMIT_OVERRIDES that lift every rate tier of every plan out of the way, for runs that check answers, not
 * limits (the fuzzer, the authorization sweep, the fault suite).
 */
const UNLIMITED = { minute: 1_000_000, hour: 10_000_000, day: 100_000_000 };
export const UNLIMITED_RATES = JSON.stringify({
  '*': { general: UNLIMITED, developer: UNLIMITED, calendar: UNLIMITED, integration: UNLIMITED, status: UNLIMITED },
});

/**
 * The whole platform as scripts/platform runs it: the worker, relay and projector, then the API on a free port.
 * The processes are pushed onto `procs` as they start (stop them in reverse order), so a failed start leaves
 * nothing running that the caller does not know of. Answers the API's base URL.
 */
export async function startPlatform(env: Record<string, string>, procs: Proc[]): Promise<string> {
  for (const name of ['temporal-worker', 'relay', 'projector'] as const)
    procs.push(await startProcess(name, env, false));
  const api = await startProcess('api', { ...env, PORT: '0' });
  procs.push(api);
  return `http://127.0.0.1:${api.port}`;
}

/** A loopback port free at the time of the call, for a server the test starts itself. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
