/**
 * A test worker for the writers, wired like workers/temporal-worker.ts: task
 * events, the gateway (local provider unless vendors are given; metered in
 * PostgreSQL), the research corpus, batch notifications with the given
 * webhook settings, and (optionally) webhook deliveries for the dispatcher.
 */
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import { createEventStore } from '../../infra/eventstore';
import { Limits, PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import type { ChatClient } from '../../infra/ai';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../infra/research';
import { SecretBox, WebhookSecretStore } from '../../infra/webhooks/secrets';
import type { WebhookSettings } from '../../infra/webhooks/settings';
import { startTestWorker, testLogger } from './env';

export async function startWritersWorker(
  db: Knex,
  opts: {
    taskQueue: string;
    webhookSettings: WebhookSettings;
    vendors?: { vendor_a?: ChatClient };
    limits?: Limits;
    /** Also run webhook deliveries (for a dispatcher in the test). */
    deliveries?: boolean;
  },
) {
  const store = createEventStore(db);
  const meter = new PostgresUsageMeter(db, store, async () => opts.limits ?? { tokens: 50_000_000 });
  const gateway = createAiGateway({
    vendors: opts.vendors ?? {},
    local: createLocalProvider(),
    meter: gatewayMeter(meter),
  });
  const research = createResearchProvider({
    corpus: createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' }),
  });
  const s = opts.webhookSettings;
  const secrets = new WebhookSecretStore(db, new SecretBox(s.secretKey));
  const worker = await startTestWorker(
    createActivities({
      logger: testLogger(),
      tasks: { store },
      writers: {
        gateway,
        research,
        store,
        notify: { secrets, allow: s.allow, schedule: s.schedule, attemptTimeoutMs: s.attemptTimeoutMs },
      },
      ...(opts.deliveries
        ? {
            webhooks: {
              store,
              secrets,
              allow: s.allow,
              schedule: s.schedule,
              attemptTimeoutMs: s.attemptTimeoutMs,
            },
          }
        : {}),
    }),
    opts.taskQueue,
  );
  return { ...worker, store, meter };
}
