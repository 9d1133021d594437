/**
 * Sending with policy against a real mail server (GreenMail on loopback,
 * started by this test): a send arrives with its headers (RFC 8058
 * unsubscribe, Message-ID, postal footer), the lead moves to contacted; the
 * idempotency window, suppression by address and domain, one-click
 * unsubscribe; 50 concurrent sends against a cap of 10 send exactly 10; a
 * policy store that cannot answer refuses the send (403, fail closed); a
 * consent lead's legal basis; a delivery failure is a generic 500 and gives
 * its policy counts back.
 */
import pino from 'pino';
import { simpleParser } from 'mailparser';
import { testTemporal, uniq } from '../../support/env';
import type { MailServer } from '../../support/mail-server';
import { startOutreachWorker, TEST_SENDER } from '../../support/outreach-worker';
import { call } from '../../support/http';
import { campaignWithLeads, OutreachApi, OutreachStack, startOutreachApi, startOutreachStack } from './helpers';
import { waitFor } from '../../support/wait';
import { awayFromBoundary } from '../../support/clock';

jest.setTimeout(240000);

/** An unfolded header of a raw message. */
const header = (raw: string, name: string): string =>
  new RegExp(`^${name}:[ \\t]*((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'mi')
    .exec(raw)?.[1]
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim() ?? '';

const POLICY = { senderDailyCap: 10, domainDailyCap: 3, warmupRamp: [], idempotencyWindowHours: 168 };

describe('outreach sending (GreenMail)', () => {
  let mail: MailServer;
  let api: OutreachApi;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let badWorker: Awaited<ReturnType<typeof startOutreachWorker>> | undefined;
  let badApi: OutreachApi | undefined;

  let stack: OutreachStack;
  beforeAll(async () => {
    stack = await startOutreachStack('outreach-send', POLICY);
    ({ mail, temporal, api } = stack);
  });
  afterAll(async () => {
    await badWorker?.stop();
    await badApi?.stop();
    await stack?.stop();
  });

  it('a send arrives with the unsubscribe headers, Message-ID and footer; the lead is contacted', async () => {
    const { token } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(api, token, ['jane@garden-one.example'], {
      follow_up_days: [30],
    });
    const r = await api.req('POST', '/outreach/send', token, {
      campaign_id: campaignId,
      lead_id: leadIds[0],
      subject: 'A guest post on composting',
      body: 'Hi Jane,\n\nWould you like an article on composting?\n\nBest',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      campaign_id: campaignId,
      lead_id: leadIds[0],
      status: 'sent',
      recipient: 'jane@garden-one.example',
      sender: TEST_SENDER.email,
      legal_basis: 'GDPR Art. 6(1)(f) legitimate interest',
      kind: 'initial',
      workspace_id: 'default',
      recovered: false,
    });
    const raw = await mail.messages('jane@garden-one.example');
    expect(raw).toHaveLength(1);
    const m = await simpleParser(raw[0]);
    expect(m.messageId).toBe(r.body.message_id);
    expect(r.body.message_id).toBe(`<outreach.${r.body.id}@platform.test>`);
    expect(m.subject).toBe('A guest post on composting');
    expect(m.from?.value[0]).toEqual({ address: TEST_SENDER.email, name: 'Platform Outreach' });
    const unsub = { url: /^<(.+)>$/.exec(header(raw[0], 'List-Unsubscribe'))![1] };
    expect(unsub.url).toMatch(
      new RegExp(
        `^https://outreach\\.platform\\.test/api/v1/backlink-outreach/unsubscribe/${r.body.id}\\.[A-Za-z0-9_-]+$`,
      ),
    );
    expect(header(raw[0], 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(m.text).toContain('Example Platform Ltd, 1 Sample Street, 00000 Testville');
    expect(m.text).toContain(unsub.url);
    // The sender's copy (same SMTP transaction) is what an interrupted retry checks.
    expect((await mail.messages(TEST_SENDER.email)).some((x) => x.includes(r.body.message_id))).toBe(true);

    const c = await api.req('GET', `/campaigns/${campaignId}`, token);
    expect(c.body.leads[0].status).toBe('contacted');
    const attempts = await api.req('GET', `/campaigns/${campaignId}/attempts`, token);
    expect(attempts.body.map((a: { status: string }) => a.status)).toEqual(['sent']);
    // The follow-up workflow scheduled its step (day 30).
    const followUps = () => api.req('GET', `/campaigns/${campaignId}/follow-ups`, token);
    let fu = await waitFor('the follow-up scheduled', async () => {
      const f = await followUps();
      return f.body.length > 0 && f;
    });
    expect(fu.body).toMatchObject([{ follow_up_of: r.body.id, step: 1, status: 'scheduled' }]);
    expect(Date.parse(fu.body[0].due_at) - Date.parse(r.body.sent_at)).toBe(30 * 86_400_000);

    // Same recipient and subject again: refused (idempotency window), nothing sent, attempt recorded as refused.
    const again = await api.req('POST', '/outreach/send', token, {
      campaign_id: campaignId,
      lead_id: leadIds[0],
      subject: '  a guest POST on composting ',
      body: 'Second try',
    });
    expect(again.status).toBe(403);
    expect(again.body).toEqual({
      detail: 'Policy validation failed',
      reason: 'an email with the same subject was sent to jane@garden-one.example within the last 168 hours',
    });
    expect(await mail.messages('jane@garden-one.example')).toHaveLength(1);
    const after = await api.req('GET', `/campaigns/${campaignId}/attempts`, token);
    expect(after.body.map((a: { status: string; reason: string | null }) => [a.status, a.reason])).toEqual([
      ['sent', null],
      ['refused', again.body.reason],
    ]);

    // Manual status change stops the waiting follow-up at once.
    await api.req('PATCH', `/campaigns/${campaignId}/leads/${leadIds[0]}/status`, token, { status: 'lost' });
    fu = await waitFor('the follow-up stopped', async () => {
      const f = await followUps();
      return f.body[0].status !== 'scheduled' && f;
    });
    expect(fu.body[0]).toMatchObject({ status: 'stopped', reason: 'lead status is lost' });
  });

  it('suppression by domain and by one-click unsubscribe; validate tells the same', async () => {
    const { token } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(
      api,
      token,
      ['ann@blocked.example', 'bo@open-site.example', 'cy@open-site.example'],
      { follow_up_days: [] },
    );
    const s = await api.req('POST', '/suppression', token, { email: '@Blocked.example', reason: 'asked us to stop' });
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({
      email: '@blocked.example',
      kind: 'domain',
      source: 'manual',
      workspace_id: 'default',
    });
    const v = await api.req('POST', '/policy/validate', token, {
      recipient_email: 'ann@blocked.example',
      sender_email: TEST_SENDER.email,
    });
    expect(v.body).toMatchObject({
      allowed: false,
      reason: 'recipient domain blocked.example is on the suppression list',
      legal_basis: 'GDPR Art. 6(1)(f) legitimate interest',
      limits: { sender_daily_cap: 10, recipient_domain_daily_cap: 3 },
    });
    const refused = await api.req('POST', '/outreach/send', token, {
      campaign_id: campaignId,
      lead_id: leadIds[0],
      subject: 'Hello',
      body: 'Hi',
    });
    expect([refused.status, refused.body.reason]).toEqual([
      403,
      'recipient domain blocked.example is on the suppression list',
    ]);
    expect(await mail.messages('ann@blocked.example')).toEqual([]);

    const sent = await api.req('POST', '/outreach/send', token, {
      campaign_id: campaignId,
      lead_id: leadIds[1],
      subject: 'Hello Bo',
      body: 'Hi Bo',
    });
    expect(sent.status).toBe(200);
    const url = new URL(
      /^<(.+)>$/.exec(header((await mail.messages('bo@open-site.example'))[0], 'List-Unsubscribe'))![1],
    );
    // The one-click POST a mail client makes (RFC 8058), to this API under the link's path.
    const u = await call(`${api.url}${url.pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(u.status).toBe(200);
    expect(String(u.body)).toContain('unsubscribed');
    const forged = await call(`${api.url}${url.pathname.replace(/\.[^.]+$/, '.AAAAAAAAAAAAAAAAAAAAAA')}`, {
      method: 'POST',
    });
    expect(forged.status).toBe(404);
    const list = await api.req('GET', '/suppression', token);
    expect(list.body.map((x: { email: string; source: string }) => [x.email, x.source])).toEqual([
      ['@blocked.example', 'manual'],
      ['bo@open-site.example', 'unsubscribe_link'],
    ]);
    const again = await api.req('POST', '/outreach/send', token, {
      campaign_id: campaignId,
      lead_id: leadIds[1],
      subject: 'Another subject',
      body: 'Hi',
    });
    expect(again.body.reason).toBe('recipient bo@open-site.example is on the suppression list');
    // Another address of the same domain is still allowed; a second user's list is their own.
    expect(
      (
        await api.req('POST', '/policy/validate', token, {
          recipient_email: 'cy@open-site.example',
          sender_email: TEST_SENDER.email,
          subject: 'x',
        })
      ).body.allowed,
    ).toBe(true);
    const other = await api.session();
    expect((await api.req('GET', '/suppression', other.token)).body).toEqual([]);
  });

  it('50 concurrent sends against a sender cap of 10: exactly 10 sent, 40 refused with the reason', async () => {
    // The cap is per UTC day: all 50 sends in one day (a day that ended among them would start a fresh count).
    await awayFromBoundary(86400, 120);
    const { token } = await api.session();
    const emails = Array.from({ length: 50 }, (_, i) => `lead${i}@cap-site-${i}.example`);
    const { campaignId, leadIds } = await campaignWithLeads(api, token, emails, { follow_up_days: [] });
    const results = await Promise.all(
      leadIds.map((leadId, i) =>
        api.req('POST', '/outreach/send', token, {
          campaign_id: campaignId,
          lead_id: leadId,
          subject: `Idea ${i}`,
          body: 'Hello',
        }),
      ),
    );
    const sent = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 403);
    expect([sent.length, refused.length]).toEqual([10, 40]);
    for (const r of refused)
      expect(r.body).toEqual({
        detail: 'Policy validation failed',
        reason: `daily cap of 10 sends reached for sender ${TEST_SENDER.email}`,
      });
    const delivered = (await Promise.all(emails.map((e) => mail.messages(e)))).reduce((a, m) => a + m.length, 0);
    expect(delivered).toBe(10);
    const v = await api.req('POST', '/policy/validate', token, {
      recipient_email: 'x@new.example',
      sender_email: TEST_SENDER.email,
    });
    expect(v.body).toMatchObject({ allowed: false, counts: { sender_today: 10 } });
    const attempts = (await api.req('GET', `/campaigns/${campaignId}/attempts`, token)).body;
    expect(attempts.filter((a: { status: string }) => a.status === 'sent')).toHaveLength(10);
    expect(attempts.filter((a: { status: string }) => a.status === 'refused')).toHaveLength(40);
  });

  it('fails closed: with the policy store unavailable a send is 403 with the reason and no mail goes out', async () => {
    const { token } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(api, token, ['ida@closed-site.example'], {
      follow_up_days: [],
    });
    const send = () =>
      api.req('POST', '/outreach/send', token, {
        campaign_id: campaignId,
        lead_id: leadIds[0],
        subject: 'While the store is down',
        body: 'Hi Ida',
      });
    // Another session holds the counters table past the engine's lock time-out: the check cannot complete.
    const trx = await api.schema.db.transaction();
    let r;
    try {
      await trx.raw('LOCK TABLE outreach_policy_counters IN ACCESS EXCLUSIVE MODE');
      r = await send();
    } finally {
      await trx.rollback();
    }
    expect([r.status, r.body]).toEqual([
      403,
      {
        detail: 'Policy validation failed',
        reason: 'policy check could not be completed (policy store unavailable); nothing was sent',
      },
    ]);
    expect(await mail.messages('ida@closed-site.example')).toEqual([]);
    const attempts = (await api.req('GET', `/campaigns/${campaignId}/attempts`, token)).body;
    expect(attempts.map((a: { status: string; reason: string | null }) => [a.status, a.reason])).toEqual([
      ['refused', r.body.reason],
    ]);
    expect((await api.req('GET', `/campaigns/${campaignId}`, token)).body.leads[0].status).toBe('discovered');
    // The refusal claimed and counted nothing: once the store answers, the same send goes out.
    const after = await send();
    expect(after.status).toBe(200);
    expect(await mail.messages('ida@closed-site.example')).toHaveLength(1);
  });

  it('a lead with consent as its legal basis is sent and recorded under GDPR Art. 6(1)(a)', async () => {
    const { token } = await api.session();
    const c = await api.req('POST', '/campaigns', token, { name: 'Consent', follow_up_days: [] });
    const lead = await api.req('POST', `/campaigns/${c.body.id}/leads`, token, {
      website_url: 'https://opted-in.example/blog',
      contact_email: 'kim@opted-in.example',
      legal_basis: 'consent',
    });
    expect([lead.status, lead.body.legal_basis]).toEqual([201, 'consent']);
    const r = await api.req('POST', '/outreach/send', token, {
      campaign_id: c.body.id,
      lead_id: lead.body.id,
      subject: 'As you asked',
      body: 'Hi Kim',
    });
    expect([r.status, r.body.legal_basis]).toEqual([200, 'GDPR Art. 6(1)(a) consent']);
    const attempts = (await api.req('GET', `/campaigns/${c.body.id}/attempts`, token)).body;
    expect(attempts).toMatchObject([{ status: 'sent', legal_basis: 'GDPR Art. 6(1)(a) consent' }]);
    // Validate reports the contact's recorded basis.
    const v = await api.req('POST', '/policy/validate', token, {
      recipient_email: 'kim@opted-in.example',
      sender_email: TEST_SENDER.email,
    });
    expect(v.body.legal_basis).toBe('GDPR Art. 6(1)(a) consent');
    expect(await mail.messages('kim@opted-in.example')).toHaveLength(1);
  });

  it('a delivery failure is a generic 500, recorded, and its policy counts are given back', async () => {
    const taskQueue = uniq('outreach-bad-smtp');
    badApi = await startOutreachApi({
      logger: pino({ level: 'silent' }),
      schema: api.schema,
      pipeline: false,
      policy: POLICY,
      temporal: { client: temporal.client, taskQueue },
    });
    badWorker = await startOutreachWorker(api.schema.db, {
      taskQueue,
      smtpUrl: 'smtp://127.0.0.1:9?starttls=never', // nothing listens on the discard port here
      policy: POLICY,
      unsubscribeKey: api.unsubscribeKey,
    });
    const { token } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(api, token, ['dee@fail-site.example'], {
      follow_up_days: [],
    });
    const r = await badApi.req('POST', '/outreach/send', token, {
      campaign_id: campaignId,
      lead_id: leadIds[0],
      subject: 'Will fail',
      body: 'Hi',
    });
    expect([r.status, r.body]).toEqual([500, { detail: 'An internal error occurred' }]);
    const attempts = (await api.req('GET', `/campaigns/${campaignId}/attempts`, token)).body;
    expect(attempts).toMatchObject([{ status: 'failed', reason: expect.stringMatching(/SMTP delivery failed/) }]);
    const v = await api.req('POST', '/policy/validate', token, {
      recipient_email: 'dee@fail-site.example',
      sender_email: TEST_SENDER.email,
      subject: 'Will fail',
    });
    expect(v.body).toMatchObject({
      allowed: true,
      counts: { sender_today: 0, recipient_domain_today: 0, same_subject_in_window: 0 },
    });
    expect((await api.req('GET', `/campaigns/${campaignId}`, token)).body.leads[0].status).toBe('discovered');
  });

  it('401 without a session; another user gets 404 for campaign reads and sends', async () => {
    const a = await api.session();
    const b = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(api, a.token, ['eve@owner-site.example'], {
      follow_up_days: [],
    });
    const send = { campaign_id: campaignId, lead_id: leadIds[0], subject: 's', body: 'b' };
    for (const [m, p, body] of [
      ['POST', '/outreach/send', send],
      ['POST', '/policy/validate', { recipient_email: 'a@b.example', sender_email: 'c@d.example' }],
      ['GET', `/campaigns/${campaignId}/attempts`],
      ['GET', `/campaigns/${campaignId}/follow-ups`],
      ['POST', '/suppression', { email: 'x@y.example' }],
      ['GET', '/suppression'],
    ] as [string, string, unknown][]) {
      expect((await api.req(m, p, null, body)).body).toEqual({ detail: 'Not authenticated' });
    }
    for (const [m, p, body] of [
      ['POST', '/outreach/send', send],
      ['GET', `/campaigns/${campaignId}/attempts`],
      ['GET', `/campaigns/${campaignId}/follow-ups`],
    ] as [string, string, unknown][]) {
      expect([(await api.req(m, p, b.token, body)).status, m, p]).toEqual([404, m, p]);
    }
    expect(await mail.messages('eve@owner-site.example')).toEqual([]);
  });
});
