/**
 * Temporal client connection. The API and scripts use a Client; the worker
 * uses a NativeConnection (see workers/temporal-worker.ts).
 */
import { Client, Connection } from '@temporalio/client';
import { heavyTaskQueue } from '../domain/fair-use';
import { HEAVY_TASK_CLASSES, HeavyTaskClass } from '../domain/plans';

export interface TemporalOptions {
  /** host:port of the Temporal frontend */
  address: string;
  namespace: string;
}

export async function connectTemporal(opts: TemporalOptions): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect({ address: opts.address, connectTimeout: '5s' });
  const client = new Client({ connection, namespace: opts.namespace });
  return { client, connection };
}

/**
 * Worker option `maxHeartbeatThrottleInterval` of every worker: heartbeats reach the server at least once a second,
 * so a cancellation (delivered in a heartbeat's answer) reaches a running media activity within about a second and
 * kills its ffmpeg. The SDK's default throttles to 80 % of the heartbeat timeout (8 s for media activities), long
 * enough for a short render to finish — and be stored and charged — after its task was cancelled.
 */
export const HEARTBEAT_THROTTLE = '1s';

/**
 * The task queues a platform worker polls, each with its bound: the platform's queue (light work, the SDK's
 * defaults), then one queue per heavy class with at most `slots[class]` activities at once (domain/fair-use.ts:
 * a burst of renders waits on its own queue, never in front of light tasks).
 */
export function workerQueues(
  queue: string,
  slots: Record<HeavyTaskClass, number>,
): { taskQueue: string; maxConcurrentActivityTaskExecutions?: number }[] {
  return [
    { taskQueue: queue },
    ...HEAVY_TASK_CLASSES.map((c) => ({
      taskQueue: heavyTaskQueue(queue, c),
      maxConcurrentActivityTaskExecutions: slots[c],
    })),
  ];
}
