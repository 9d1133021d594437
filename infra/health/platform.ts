/**
 * Health of the platform's own processes, as /api/health reports it: the
 * Temporal worker (a fresh heartbeat and pollers on every task queue it
 * serves: the platform's and each heavy class's, domain/fair-use.ts), the
 * relay (a fresh heartbeat and its lag behind the event store, counted from
 * the database so it is true even when the relay is down) and the projector
 * (a fresh heartbeat and each projection's lag behind Kafka, as the projector
 * measured it). A process is `down` without a fresh heartbeat (or, for the
 * worker, without pollers) and `lagging` past the configured bound.
 */
import type { Knex } from 'knex';
import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { EventStore } from '../eventstore/port';
import { HEAVY_TASK_CLASSES } from '../../domain/plans';
import { heavyTaskQueue } from '../../domain/fair-use';
import { loadCheckpoint } from '../relay/relay';
import { liveProcesses, ProcessRow } from './beacon';

export interface PlatformHealthOptions {
  /** A heartbeat older than this (s) means the process is down. */
  staleSeconds: number;
  /** Events the relay may be behind the store before it counts as lagging. */
  maxRelayLagEvents: number;
  /** Messages a projection may be behind Kafka before the projector counts as lagging. */
  maxProjectionLagMessages: number;
  namespace: string;
  taskQueue: string;
}

export interface ProcessHealth {
  status: 'ok' | 'down' | 'lagging';
  instances: number;
  /** Why it is not ok. */
  reason?: string;
  [detail: string]: unknown;
}

/** Pollers seen on the task queue within this many seconds count (a long poll refreshes about every minute). */
const POLLER_WINDOW_SECONDS = 120;

async function pollers(connection: Connection, namespace: string, taskQueue: string): Promise<number> {
  const r = await connection.workflowService.describeTaskQueue({
    namespace,
    taskQueue: { name: taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  const now = Date.now() / 1000;
  return (r.pollers ?? []).filter((p) => now - Number(p.lastAccessTime?.seconds ?? 0) < POLLER_WINDOW_SECONDS).length;
}

export async function platformHealth(
  db: Knex,
  store: Pick<EventStore, 'countAfter'>,
  connection: () => Promise<Connection>,
  opts: PlatformHealthOptions,
): Promise<Record<string, ProcessHealth>> {
  const live = await liveProcesses(db, opts.staleSeconds);
  const of = (name: string) => live.filter((p) => p.process === name);
  const down = (rows: ProcessRow[], what: string): ProcessHealth => ({
    status: 'down',
    instances: rows.length,
    reason: what,
  });

  const workers = of('temporal-worker');
  // Every queue needs a poller: a worker that polls the platform's queue but not the render queue would leave
  // renders waiting forever while health said ok.
  const queues = [opts.taskQueue, ...HEAVY_TASK_CLASSES.map((c) => heavyTaskQueue(opts.taskQueue, c))];
  let worker: ProcessHealth;
  try {
    const conn = await connection();
    const counts = await Promise.all(queues.map((q) => pollers(conn, opts.namespace, q)));
    const byQueue = Object.fromEntries(queues.map((q, i) => [q, counts[i]]));
    const n = counts[0];
    const empty = queues.filter((_, i) => counts[i] === 0);
    worker = !workers.length
      ? { ...down(workers, 'no worker process has sent a heartbeat recently'), pollers: n, queues: byQueue }
      : empty.length
        ? { ...down(workers, `no pollers on task queue ${empty.join(', ')}`), pollers: n, queues: byQueue }
        : { status: 'ok', instances: workers.length, pollers: n, task_queue: opts.taskQueue, queues: byQueue };
  } catch (e) {
    worker = {
      ...down(workers, `cannot ask Temporal for the task queues' pollers: ${(e as Error).message}`),
      pollers: null,
    };
  }

  const relays = of('relay');
  const lag = await store.countAfter(await loadCheckpoint(db, 'relay'));
  const relay: ProcessHealth = !relays.length
    ? { ...down(relays, 'no relay process has sent a heartbeat recently'), lag_events: lag }
    : lag > opts.maxRelayLagEvents
      ? {
          status: 'lagging',
          instances: relays.length,
          reason: `${lag} events not yet relayed (bound ${opts.maxRelayLagEvents})`,
          lag_events: lag,
        }
      : { status: 'ok', instances: relays.length, lag_events: lag };

  const projectors = of('projector');
  const lags: Record<string, number> = {};
  for (const p of projectors) {
    const reported = (p.details.projections ?? {}) as Record<string, { lag_messages?: number }>;
    for (const [name, v] of Object.entries(reported))
      lags[name] = Math.min(lags[name] ?? Infinity, Number(v.lag_messages ?? 0));
  }
  const behind = Object.entries(lags).filter(([, n]) => n > opts.maxProjectionLagMessages);
  const projector: ProcessHealth = !projectors.length
    ? down(projectors, 'no projector process has sent a heartbeat recently')
    : behind.length
      ? {
          status: 'lagging',
          instances: projectors.length,
          reason: `behind Kafka: ${behind.map(([n, m]) => `${n} (${m})`).join(', ')} (bound ${opts.maxProjectionLagMessages})`,
          projections: lags,
        }
      : { status: 'ok', instances: projectors.length, projections: lags };

  return { 'temporal-worker': worker, relay, projector };
}
