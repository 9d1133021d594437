/**
 * A test worker for content generation, wired like workers/temporal-worker.ts:
 * task events, the AI gateway metered in PostgreSQL against each user's plan
 * (as the identity projection has it, like production), the research corpus,
 * and the event store. Vendors may be scripted servers on loopback.
 */
import type { Knex } from 'knex';
import { createActivities, ActivityDeps } from '../../activities';
import { createEventStore } from '../../infra/eventstore';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import type { ChatClient } from '../../infra/ai';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../infra/research';
import { usageMeter } from '../../workers/adapters';
import type { KeywordVendor } from '../../infra/keywords';
import type { PerformanceActivityDeps } from '../../activities/performance';
import type { WebhookActivityDeps } from '../../activities/webhooks';
import { startTestWorker, testLogger } from './env';

export async function startContentWorker(
  db: Knex,
  opts: {
    vendors?: { vendor_a?: ChatClient; vendor_b?: ChatClient };
    keywordVendor?: KeywordVendor;
    /** SEO performance activities (the worker adds its event store). */
    performance?: Omit<PerformanceActivityDeps, 'store'>;
    /** Webhook delivery activities (the worker adds its event store). */
    webhooks?: Omit<WebhookActivityDeps, 'store'>;
    extra?: Partial<ActivityDeps>;
  } = {},
) {
  const store = createEventStore(db);
  const meter = usageMeter(db, store);
  const gateway = createAiGateway({
    vendors: opts.vendors ?? {},
    local: createLocalProvider(),
    meter: gatewayMeter(meter),
  });
  const research = createResearchProvider({
    corpus: createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' }),
  });
  const worker = await startTestWorker(
    createActivities({
      logger: testLogger(),
      tasks: { store },
      content: { gateway, research, store },
      keywords: { corpus: research.corpus, vendor: opts.keywordVendor, meter },
      ...(opts.performance ? { performance: { store, ...opts.performance } } : {}),
      ...(opts.webhooks ? { webhooks: { store, ...opts.webhooks } } : {}),
      ...opts.extra,
    }),
  );
  return { ...worker, store, meter, research };
}
