/** A test worker wired like workers/temporal-worker.ts for outreach: policy, ledger, SMTP, IMAP, gateway, research. */
import type { Knex } from 'knex';
import { createActivities } from '../../activities';
import { createEventStore } from '../../infra/eventstore';
import { PostgresUsageMeter } from '../../infra/quota/meter';
import { gatewayMeter } from '../../infra/quota/gateway-meter';
import { createAiGateway, createLocalProvider } from '../../infra/ai';
import type { ChatClient } from '../../infra/ai';
import { createCorpusProvider, createResearchProvider, DEFAULT_CORPUS_DIR } from '../../infra/research';
import type { WebSearchProvider } from '../../infra/research';
import { MailboxPollState, PostgresPolicyEngine, SendLedger } from '../../infra/outreach';
import type { MailIdentity } from '../../infra/outreach';
import { createSmtpTransport } from '../../infra/outreach/smtp';
import { createImapMailbox } from '../../infra/outreach/imap';
import { loadSampleSites } from '../../infra/outreach/sites';
import { DEFAULT_POLICY, PolicySettings } from '../../domain/outreach/policy';
import { startTestWorker, testLogger } from './env';

export const TEST_SENDER = { email: 'outreach@platform.test', password: 'sender-secret' };

export function testIdentity(unsubscribeKey: Buffer, publicBaseUrl = 'https://outreach.platform.test'): MailIdentity {
  return {
    from: { address: TEST_SENDER.email, name: 'Platform Outreach' },
    postalAddress: 'Example Platform Ltd, 1 Sample Street, 00000 Testville',
    publicBaseUrl,
    unsubscribeKey,
  };
}

export async function startOutreachWorker(
  db: Knex,
  opts: {
    taskQueue: string;
    smtpUrl?: string;
    imapUrl?: string;
    policy?: Partial<PolicySettings>;
    unsubscribeKey: Buffer;
    vendors?: { vendor_a?: ChatClient };
    web?: WebSearchProvider;
  },
) {
  const store = createEventStore(db);
  const meter = new PostgresUsageMeter(db, store, async () => ({}));
  const gateway = createAiGateway({
    vendors: opts.vendors ?? {},
    local: createLocalProvider(),
    meter: gatewayMeter(meter),
  });
  const research = createResearchProvider({
    corpus: createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' }),
    web: opts.web,
  });
  const worker = await startTestWorker(
    createActivities({
      logger: testLogger(),
      outreach: {
        store,
        policy: new PostgresPolicyEngine(db, { settings: { ...DEFAULT_POLICY, ...opts.policy }, logger: testLogger() }),
        ledger: new SendLedger(db),
        pollState: new MailboxPollState(db),
        sites: loadSampleSites(),
        identity: testIdentity(opts.unsubscribeKey),
        transport: opts.smtpUrl ? createSmtpTransport(opts.smtpUrl, 10000) : undefined,
        mailbox: opts.imapUrl ? createImapMailbox(opts.imapUrl, 'INBOX', 10000) : undefined,
        logger: testLogger(),
        gateway,
        research: research,
      },
    }),
    opts.taskQueue,
  );
  return { ...worker, store };
}
