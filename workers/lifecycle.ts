/**
 * Clean shutdown for every process: on SIGTERM or SIGINT run the registered
 * closers in reverse order of registration, give up after SHUTDOWN_TIMEOUT_MS,
 * then exit. A second signal exits at once.
 */
import { writeFileSync } from 'node:fs';
import { Logger } from 'pino';

type Closer = { name: string; close: () => Promise<unknown> | unknown };

export class Lifecycle {
  private closers: Closer[] = [];
  private stopping = false;

  constructor(
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  get isStopping(): boolean {
    return this.stopping;
  }

  onStop(name: string, close: Closer['close']): void {
    this.closers.push({ name, close });
  }

  /** Installs the signal handlers. */
  listen(): this {
    const handler = (signal: NodeJS.Signals) => {
      if (this.stopping) process.exit(130);
      this.logger.info({ signal }, 'shutting down');
      markStopping();
      void this.stop().then((code) => process.exit(code));
    };
    process.on('SIGTERM', handler);
    process.on('SIGINT', handler);
    return this;
  }

  /** Runs every closer; resolves with the exit code (0 when all closed in time). */
  async stop(): Promise<number> {
    this.stopping = true;
    const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), this.timeoutMs).unref());
    let code = 0;
    for (const c of [...this.closers].reverse()) {
      const started = Date.now();
      try {
        const r = await Promise.race([Promise.resolve(c.close()).then(() => 'ok' as const), timer]);
        // What a slow shutdown waited for (LOG_LEVEL=debug).
        this.logger.debug({ closer: c.name, ms: Date.now() - started }, 'closed');
        if (r === 'timeout') {
          this.logger.warn({ closer: c.name }, 'shutdown timed out');
          return 1;
        }
      } catch (e) {
        this.logger.error({ err: e, closer: c.name }, 'error while shutting down');
        code = 1;
      }
    }
    this.logger.info('stopped');
    return code;
  }
}

/**
 * Tells scripts/platform this process is on its way out: it writes the file
 * named by PLATFORM_STOPPING_FILE (set by scripts/lib.sh start_bg), so an
 * `up` arriving meanwhile waits for the exit instead of taking the process for running.
 */
function markStopping(): void {
  const file = process.env.PLATFORM_STOPPING_FILE;
  if (!file) return;
  try {
    writeFileSync(file, `${process.pid}\n`);
  } catch {
    /* the marker is a courtesy to the scripts; shutting down matters more */
  }
}

/** Logs a fatal start-up error and exits non-zero (never leaves a half-started process). */
export function fatal(logger: Logger, err: unknown): never {
  logger.fatal({ err }, 'could not start');
  process.exit(1);
}

/**
 * Start-up steps that need a service (Kafka, Temporal, PostgreSQL) are tried
 * again with backoff until they succeed or the process is asked to stop: a
 * process started while a service restarts waits for it instead of exiting
 * (nothing would restart it). `undo` cleans up a half-done attempt.
 */
export async function startWithRetry<T>(
  what: string,
  life: Lifecycle,
  logger: Logger,
  attempt: () => Promise<T>,
  undo?: () => Promise<unknown>,
): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (e) {
      if (life.isStopping) throw e;
      await undo?.().catch(() => undefined);
      const waitMs = Math.min(10_000, 500 * 2 ** i);
      logger.warn({ err: e, attempt: i + 1, retry_in_ms: waitMs }, `${what} failed; trying again`);
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }
}
