/**
 * Calendar test processes: a Temporal worker with the calendar activities
 * (publishing timers, generation through the metered gateway, local provider
 * unless vendors are given) and the calendar scheduler consuming the schema's
 * topics, wired like workers/temporal-worker.ts and workers/projector.ts.
 */
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import { createActivities } from '../../activities';
import { createEventStore } from '../../infra/eventstore';
import { Limits, PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import type { ChatClient } from '../../infra/ai';
import type { PlatformPublishers } from '../../infra/calendar/platforms';
import { CalendarScheduler } from '../../workers/dispatch/calendar-scheduler';
import { startTestWorker, testKafka, testLogger } from './env';

export async function startCalendarWorker(
  db: Knex,
  opts: {
    taskQueue: string;
    limits?: Limits;
    vendors?: { vendor_a?: ChatClient; vendor_b?: ChatClient };
    /** Platform adapters (none: events publish locally). */
    platforms?: PlatformPublishers;
  },
) {
  const store = createEventStore(db);
  const meter = new PostgresUsageMeter(db, store, async () => opts.limits ?? {});
  const gateway = createAiGateway({
    vendors: opts.vendors ?? {},
    local: createLocalProvider(),
    meter: gatewayMeter(meter),
  });
  return startTestWorker(
    createActivities({ logger: testLogger(), calendar: { store, gateway, platforms: opts.platforms } }),
    opts.taskQueue,
  );
}

export async function startCalendarScheduler(db: Knex, client: Client, topicPrefix: string, taskQueue: string) {
  const s = new CalendarScheduler(createEventStore(db), testKafka(), async () => client, testLogger(), {
    topicPrefix,
    taskQueue,
  });
  await s.start();
  return s;
}
