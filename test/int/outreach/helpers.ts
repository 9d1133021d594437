/**
 * Shared pieces of the outreach int tests: an API with the outreach projections and adapters, session users, and the
 * whole sending stack (mail server, Temporal, API, outreach worker).
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import type { Client } from '@temporalio/client';
import { bearer, startTestApi, TestApi, TestApiOptions } from '../../support/api';
import { call, JsonResponse } from '../../support/http';
import { isolatedSchema } from '../../support/schema';
import { outreachProjection } from '../../../projections/outreach';
import { outreachActivityProjection } from '../../../projections/outreach-activity';
import { PostgresPolicyEngine, SendLedger } from '../../../infra/outreach';
import { DEFAULT_POLICY, PolicySettings } from '../../../domain/outreach/policy';
import { testLogger, testTemporal, uniq } from '../../support/env';
import { MailServer, startMailServer } from '../../support/mail-server';
import { startOutreachWorker, TEST_SENDER } from '../../support/outreach-worker';

export const BASE = '/api/v1/backlink-outreach';

export interface OutreachApi extends TestApi {
  unsubscribeKey: Buffer;
  /** A user and a session token for the outreach family. */
  session(): Promise<{ userId: string; token: string }>;
  req(method: string, path: string, token: string | null, json?: unknown): Promise<JsonResponse>;
}

export interface OutreachApiOptions extends TestApiOptions {
  policy?: Partial<PolicySettings>;
  lockTimeoutMs?: number;
  /** Temporal client and the task queue of the test's outreach worker. */
  temporal?: { client: Client; taskQueue: string };
  unsubscribeKey?: Buffer;
  sendingConfigured?: boolean;
  repliesConfigured?: boolean;
}

export async function startOutreachApi(opts: OutreachApiOptions = {}): Promise<OutreachApi> {
  const unsubscribeKey = opts.unsubscribeKey ?? randomBytes(32);
  const own = !opts.schema;
  const schema = opts.schema ?? (await isolatedSchema());
  const sending = opts.sendingConfigured ?? true;
  const replies = opts.repliesConfigured ?? true;
  const api = await startTestApi({
    ...opts,
    schema,
    projections: [outreachProjection, outreachActivityProjection, ...(opts.projections ?? [])],
    deps: {
      ...(opts.temporal
        ? { workflows: { client: async () => opts.temporal!.client, taskQueue: opts.temporal.taskQueue } }
        : {}),
      outreach: {
        policy: new PostgresPolicyEngine(schema.db, {
          settings: { ...DEFAULT_POLICY, ...opts.policy },
          lockTimeoutMs: opts.lockTimeoutMs,
          logger: testLogger(),
        }),
        ledger: new SendLedger(schema.db),
        unsubscribeKey,
        sending: { configured: sending, missing: sending ? [] : ['OUTREACH_SMTP_URL', 'OUTREACH_FROM_ADDRESS'] },
        replies: { configured: replies, missing: replies ? [] : ['OUTREACH_IMAP_URL'] },
      },
      ...opts.deps,
    },
  });
  const stop = api.stop;
  return Object.assign(api, {
    unsubscribeKey,
    async stop() {
      await stop();
      if (own) await schema.drop();
    },
    async session() {
      const u = await api.user('pro');
      const s = await call(`${api.url}/api/settings/sessions`, { method: 'POST', headers: bearer(u.key) });
      if (s.status !== 201) throw new Error(`session: ${s.status} ${JSON.stringify(s.body)}`);
      return { userId: u.userId, token: s.body.data.token as string };
    },
    req(method: string, path: string, token: string | null, json?: unknown) {
      return call(`${api.url}${BASE}${path}`, { method, headers: token ? bearer(token) : {}, json });
    },
  });
}

/** A campaign with one lead per address; returns the campaign id and the lead ids in order. */
export async function campaignWithLeads(
  api: OutreachApi,
  token: string,
  emails: string[],
  extra: Record<string, unknown> = {},
): Promise<{ campaignId: string; leadIds: string[] }> {
  const c = await api.req('POST', '/campaigns', token, { name: 'Test campaign', keywords: ['gardening'], ...extra });
  if (c.status !== 201) throw new Error(`campaign: ${c.status} ${JSON.stringify(c.body)}`);
  const b = await api.req(
    'POST',
    `/campaigns/${c.body.id}/leads/bulk`,
    token,
    emails.map((e) => ({ website_url: `https://${e.split('@')[1]}/blog`, contact_email: e, website_title: 'Site' })),
  );
  if (b.body.added !== emails.length) throw new Error(`leads: ${JSON.stringify(b.body)}`);
  return { campaignId: c.body.id, leadIds: b.body.lead_ids };
}

/** A mail server (GreenMail) with the test sender, Temporal, an outreach API and its worker on a task queue of its own. */
export interface OutreachStack {
  mail: MailServer;
  temporal: Awaited<ReturnType<typeof testTemporal>>;
  api: OutreachApi;
  worker: Awaited<ReturnType<typeof startOutreachWorker>>;
  taskQueue: string;
  stop(): Promise<void>;
}

/** Starts an OutreachStack (`name` prefixes the task queue); what started is stopped again if a later part fails. */
export async function startOutreachStack(name: string, policy: Partial<PolicySettings>): Promise<OutreachStack> {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const s of stops.splice(0).reverse()) await s();
  };
  try {
    const mail = await startMailServer([TEST_SENDER]);
    stops.push(() => mail.stop());
    const temporal = await testTemporal();
    stops.push(() => temporal.connection.close());
    const taskQueue = uniq(name);
    const api = await startOutreachApi({
      logger: pino({ level: 'silent' }),
      policy,
      temporal: { client: temporal.client, taskQueue },
    });
    stops.push(() => api.stop());
    const worker = await startOutreachWorker(api.schema.db, {
      taskQueue,
      smtpUrl: mail.smtpUrl,
      imapUrl: mail.imapUrl(TEST_SENDER.email),
      policy,
      unsubscribeKey: api.unsubscribeKey,
    });
    stops.push(() => worker.stop());
    return { mail, temporal, api, worker, taskQueue, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
