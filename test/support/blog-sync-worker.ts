/** A test worker for the synchronous blog edits: gateway (local provider, metered in PostgreSQL), research corpus, event store. */
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import { createEventStore } from '../../infra/eventstore';
import { Limits, PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../infra/research';
import { startTestWorker, testLogger } from './env';

export async function startBlogSyncWorker(db: Knex, opts: { limits?: Limits; taskQueue?: string } = {}) {
  const store = createEventStore(db);
  const meter = new PostgresUsageMeter(db, store, async () => opts.limits ?? {});
  const gateway = createAiGateway({ local: createLocalProvider(), meter: gatewayMeter(meter) });
  const research = createResearchProvider({
    corpus: createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' }),
  });
  const worker = await startTestWorker(
    createActivities({ logger: testLogger(), blogSync: { gateway, research, store } }),
    opts.taskQueue,
  );
  return { ...worker, store, meter };
}
