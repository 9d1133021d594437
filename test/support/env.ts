/**
 * Shared helpers of integration and e2e tests: the test configuration (from
 * the environment scripts/test sets), a database handle, and a Temporal worker
 * that reuses the bundle built once by global-setup.
 */
import { randomUUID } from 'node:crypto';
import { DefaultLogger, NativeConnection, Runtime, Worker, WorkerOptions } from '@temporalio/worker';
import { Config, loadConfig } from '../../infra/config';
import { createDb } from '../../infra/db/knex';
import { createKafka } from '../../infra/kafka';
import { connectTemporal, HEARTBEAT_THROTTLE, workerQueues } from '../../infra/temporal';
import { createLogger } from '../../infra/logger';
import { BUNDLE_PATH } from './global-setup';

export const testConfig = (): Config => loadConfig();
export const testDb = (poolMax = 10) => createDb({ url: testConfig().DATABASE_URL, poolMax, applicationName: 'jest' });
export const testKafka = () => createKafka({ brokers: testConfig().KAFKA_BROKERS, clientId: `jest-${process.pid}` });
export const testLogger = () => createLogger('test', process.env.LOG_LEVEL ?? 'warn');
export const testTemporal = () =>
  connectTemporal({ address: testConfig().TEMPORAL_ADDRESS, namespace: testConfig().TEMPORAL_NAMESPACE });
export const uniq = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

let runtimeInstalled = false;
/** Worker state changes are INFO in the SDK; tests show warnings and errors only. Once per process. */
function quietRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN' | undefined) ?? 'WARN') });
  } catch {
    /* already installed by another helper in this process */
  }
}

/**
 * Workers on their own task queue, running the prebuilt test bundle with the given activities (and `options`), as
 * workers/temporal-worker.ts runs them: one on `taskQueue` (`worker`), one on each heavy class's queue
 * (`<taskQueue>-render`, `<taskQueue>-generation`, with the configured slots), where the API starts heavy tasks.
 */
export async function startTestWorker(
  activities: object,
  taskQueue = uniq('tq'),
  options: Partial<WorkerOptions> = {},
) {
  quietRuntime();
  const c = testConfig();
  const connection = await NativeConnection.connect({ address: c.TEMPORAL_ADDRESS });
  const queues = workerQueues(taskQueue, { render: c.WORKER_RENDER_SLOTS, generation: c.WORKER_GENERATION_SLOTS });
  const workers = await Promise.all(
    queues.map((q) =>
      Worker.create({
        connection,
        namespace: c.TEMPORAL_NAMESPACE,
        workflowBundle: { codePath: BUNDLE_PATH },
        activities,
        maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
        ...q,
        ...options,
      }),
    ),
  );
  const running = Promise.all(workers.map((w) => w.run()));
  return {
    taskQueue,
    worker: workers[0],
    workers,
    async stop() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await running;
      await connection.close();
    },
  };
}
