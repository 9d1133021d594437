/**
 * A process's heartbeat in PostgreSQL: every `everyMs` it upserts its row in
 * platform_processes with what it wants to report (the relay its lag, the
 * projector each projection's lag, the worker its state). A stopped process
 * removes its row; a killed one stops beating, and readers treat a row older
 * than their staleness bound as down. So /api/health can tell, from any API
 * process on any host, whether the background processes are running.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Knex } from 'knex';
import type { Logger } from 'pino';

export type PlatformProcess = 'temporal-worker' | 'relay' | 'projector';

export interface BeaconOptions {
  /** Interval between beats, ms (default 2000). */
  everyMs?: number;
  /** What the process reports with each beat (must be quick; errors are logged and the beat goes on). */
  details?: () => Promise<Record<string, unknown>> | Record<string, unknown>;
}

export class ProcessBeacon {
  readonly instanceId = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private readonly startedAt = new Date().toISOString();

  constructor(
    private readonly db: Knex,
    readonly process: PlatformProcess,
    private readonly logger: Logger,
    private readonly opts: BeaconOptions = {},
  ) {}

  /** Beats once now (so readers see the process at once), then every `everyMs`. */
  async start(): Promise<void> {
    // Rows of instances that died without cleaning up (SIGKILL) are forgotten after an hour.
    await this.db('platform_processes')
      .where('beat_at', '<', this.db.raw("now() - interval '1 hour'"))
      .delete()
      .catch(() => undefined);
    await this.beat();
    this.timer = setInterval(() => void this.beat(), this.opts.everyMs ?? 2000);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    try {
      // The Node.js release each process runs on (operators see a mixed fleet during an upgrade).
      const details = { node: process.version, ...((await this.opts.details?.()) ?? {}) };
      await this.db.raw(
        `INSERT INTO platform_processes (instance_id, process, pid, host, started_at, beat_at, details)
         VALUES (?, ?, ?, ?, ?, now(), ?::jsonb)
         ON CONFLICT (instance_id) DO UPDATE SET beat_at = now(), details = excluded.details`,
        [this.instanceId, this.process, process.pid, os.hostname(), this.startedAt, JSON.stringify(details)],
      );
    } catch (e) {
      this.logger.warn({ err: e, process: this.process }, 'heartbeat failed');
    }
  }

  /** Stops beating and removes the row: a cleanly stopped process is down at once, not after the staleness bound. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.db('platform_processes').where({ instance_id: this.instanceId }).delete();
  }
}

export interface ProcessRow {
  instance_id: string;
  process: string;
  pid: number;
  host: string;
  started_at: string;
  beat_at: string;
  age_seconds: number;
  details: Record<string, unknown>;
}

/** The processes that beat within `staleSeconds`, newest first. */
export async function liveProcesses(db: Knex, staleSeconds: number): Promise<ProcessRow[]> {
  const r = await db.raw(
    `SELECT instance_id, process, pid, host, started_at, beat_at, details,
            extract(epoch FROM now() - beat_at)::float AS age_seconds
       FROM platform_processes WHERE beat_at > now() - make_interval(secs => ?) ORDER BY beat_at DESC`,
    [staleSeconds],
  );
  return r.rows;
}
