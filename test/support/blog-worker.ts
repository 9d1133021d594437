/** A test worker wired like workers/temporal-worker.ts: task events, the gateway (metered in PostgreSQL) and research. */
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import { createEventStore } from '../../infra/eventstore';
import { Limits, PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import type { ChatClient } from '../../infra/ai';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../infra/research';
import { startTestWorker, testLogger } from './env';

export async function startBlogWorker(
  db: Knex,
  opts: { limits?: Limits; vendors?: { vendor_a?: ChatClient; vendor_b?: ChatClient } } = {},
) {
  const store = createEventStore(db);
  const meter = new PostgresUsageMeter(db, store, async () => opts.limits ?? {});
  const gateway = createAiGateway({
    vendors: opts.vendors ?? {},
    local: createLocalProvider(),
    meter: gatewayMeter(meter),
  });
  const research = createResearchProvider({
    corpus: createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' }),
  });
  const worker = await startTestWorker(
    createActivities({ logger: testLogger(), tasks: { store }, blog: { gateway, research } }),
  );
  return { ...worker, store, meter };
}
