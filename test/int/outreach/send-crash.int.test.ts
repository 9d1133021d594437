/**
 * A crash of the worker between SMTP acceptance and recording does not send
 * twice. The worker runs as its own process (workers/temporal-worker.ts, the
 * production wiring) and sends through a proxy in front of GreenMail that
 * holds back the server's "250 accepted": the message is delivered, the
 * worker never learns it, and is killed (SIGKILL) right then. The restarted
 * worker retries the activity, finds the intent in the send ledger, finds the
 * message's copy in the sender mailbox, and records the send without sending
 * it again: exactly one message arrives.
 */
import { randomUUID } from 'node:crypto';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { startProcess, Proc } from '../../support/processes';
import { testTemporal, uniq } from '../../support/env';
import { BUNDLE_PATH } from '../../support/global-setup';
import { startMailServer, MailServer } from '../../support/mail-server';
import { startSmtpProxy, SmtpProxy } from '../../support/smtp-proxy';
import { TEST_SENDER } from '../../support/outreach-worker';
import { createEventStore } from '../../../infra/eventstore';
import { runCampaignCommand } from '../../../api/outreach/commands';
import { outreachSendWorkflow } from '../../../workflows';

jest.setTimeout(240000);

describe('outreach send survives a worker crash between SMTP acceptance and recording', () => {
  let s: IsolatedSchema;
  let mail: MailServer;
  let proxy: SmtpProxy;
  let worker: Proc | undefined;

  afterAll(async () => {
    await worker?.stop('SIGTERM');
    await proxy?.close();
    await mail?.stop();
    await s?.drop();
  });

  it('the retry finds the accepted message in the sender mailbox and does not send it again', async () => {
    s = await isolatedSchema();
    mail = await startMailServer([TEST_SENDER]);
    proxy = await startSmtpProxy(mail.smtpPort, { holdFirstAcceptance: true });
    const store = createEventStore(s.db);
    const userId = randomUUID();
    const campaignId = randomUUID();
    const leadId = randomUUID();
    await runCampaignCommand(store, {
      kind: 'create',
      campaign_id: campaignId,
      user_id: userId,
      workspace_id: userId,
      name: 'Crash',
      description: null,
      keywords: [],
      follow_up_days: [],
    });
    await runCampaignCommand(store, {
      kind: 'add_leads',
      campaign_id: campaignId,
      user_id: userId,
      leads: [
        {
          lead_id: leadId,
          website_url: 'https://crash.example',
          normalized_url: 'https://crash.example',
          website_title: null,
          contact_email: 'kim@crash.example',
          quality_score: null,
          relevance_score: null,
          guest_post_likelihood: null,
          source: 'manual',
          legal_basis: 'legitimate_interest',
        },
      ],
    });
    const taskQueue = uniq('outreach-crash');
    const env = {
      DATABASE_URL: s.url,
      KAFKA_TOPIC_PREFIX: s.topicPrefix,
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKFLOW_BUNDLE_PATH: BUNDLE_PATH,
      WORKER_HEALTH_PORT: '0',
      OUTREACH_SMTP_URL: `smtp://127.0.0.1:${proxy.port}?starttls=never`,
      OUTREACH_IMAP_URL: mail.imapUrl(TEST_SENDER.email),
      OUTREACH_FROM_ADDRESS: TEST_SENDER.email,
      OUTREACH_FROM_NAME: 'Platform Outreach',
      OUTREACH_POSTAL_ADDRESS: 'Example Platform Ltd, 1 Sample Street, 00000 Testville',
      OUTREACH_PUBLIC_BASE_URL: 'https://outreach.platform.test',
      OUTREACH_UNSUBSCRIBE_SECRET: 'crash-test-secret',
      OUTREACH_REPLY_POLL_SECONDS: '0',
    };
    worker = await startProcess('temporal-worker', env, false);
    const { client, connection } = await testTemporal();
    try {
      const attemptId = randomUUID();
      const handle = await client.workflow.start(outreachSendWorkflow, {
        taskQueue,
        workflowId: `outreach-send-${attemptId}`,
        args: [
          {
            attemptId,
            userId,
            workspaceId: 'default',
            campaignId,
            leadId,
            recipient: 'kim@crash.example',
            subject: 'Crash test',
            body: 'Hello Kim',
            kind: 'initial',
            followUpOf: null,
            step: null,
            legalBasis: 'legitimate_interest',
            followUpDays: [],
          },
        ],
      });
      await proxy.held; // the server accepted and delivered the message; the worker is waiting for the reply
      expect(await mail.messages('kim@crash.example')).toHaveLength(1);
      expect(await worker.stop('SIGKILL')).toBe('SIGKILL');
      worker = await startProcess('temporal-worker', env, false);

      const out = await handle.result();
      expect(out).toMatchObject({ status: 'sent', delivered: { recovered: true } });
      expect(await mail.messages('kim@crash.example')).toHaveLength(1);
      expect(proxy.accepted()).toBe(1);
      const ledger = await s.db('outreach_send_ledger').where({ attempt_id: attemptId }).first();
      expect(ledger).toMatchObject({ status: 'accepted', tries: 2 });
      const sent = await s.db('es_events').where({ type: 'OutreachEmailSent' });
      expect(sent.map((e) => [e.data.attempt_id, e.data.recovered])).toEqual([[attemptId, true]]);
      const moved = await s.db('es_events').where({ type: 'OutreachLeadStatusChanged' });
      expect(moved.map((e) => e.data.to)).toEqual(['contacted']);
    } finally {
      await connection.close();
    }
  });
});
