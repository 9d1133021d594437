/**
 * Clean shutdown for every process: on SIGTERM or SIGINT run the registered
 * closers in reverse order of registration, give up after SHUTDOWN_TIMEOUT_MS,
 * then exit. A second signal exits at once.
 */
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
      try {
        const r = await Promise.race([Promise.resolve(c.close()).then(() => 'ok' as const), timer]);
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

/** Logs a fatal start-up error and exits non-zero (never leaves a half-started process). */
export function fatal(logger: Logger, err: unknown): never {
  logger.fatal({ err }, 'could not start');
  process.exit(1);
}
