/**
 * A test worker for the image studio, wired like workers/temporal-worker.ts:
 * image activities with the given storage and vendor clients, the AI gateway
 * (local writer unless a text vendor is given) and the PostgreSQL usage meter.
 */
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import { createEventStore } from '../../infra/eventstore';
import { Limits, PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import type { ChatClient } from '../../infra/ai';
import type { ImageStorage } from '../../infra/image/storage';
import type { ImageVendors } from '../../infra/image/vendors';
import { startTestWorker, testLogger } from './env';

export async function startImageWorker(
  db: Knex,
  opts: {
    storage: ImageStorage;
    vendors?: ImageVendors;
    textVendor?: ChatClient;
    limits?: (userId: string) => Limits;
    taskQueue: string;
  },
) {
  const store = createEventStore(db);
  const meter = new PostgresUsageMeter(db, store, async (u) => opts.limits?.(u) ?? {});
  const gateway = createAiGateway({
    vendors: opts.textVendor ? { vendor_a: opts.textVendor } : {},
    local: createLocalProvider(),
    meter: gatewayMeter(meter),
  });
  const worker = await startTestWorker(
    createActivities({
      logger: testLogger(),
      image: {
        storage: opts.storage,
        vendors: opts.vendors ?? {},
        gateway,
        meter,
        store,
        limitInputPixels: 40_000_000,
      },
    }),
    opts.taskQueue,
  );
  return { ...worker, store, meter };
}
