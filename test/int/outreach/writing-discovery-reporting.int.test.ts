/**
 * Email writing through the AI gateway (offline `local` provider: honest
 * template output, metered), deep discovery over the sample sites and the
 * research corpus (scores, contact emails, saving to a campaign), analytics,
 * snapshot and formula-safe CSV exports.
 */
import pino from 'pino';
import { testTemporal, uniq } from '../../support/env';
import { call } from '../../support/http';
import { bearer } from '../../support/api';
import { startMailServer, MailServer } from '../../support/mail-server';
import { startOutreachWorker, TEST_SENDER } from '../../support/outreach-worker';
import { campaignWithLeads, OutreachApi, startOutreachApi } from './helpers';
import { awayFromBoundary } from '../../support/clock';

jest.setTimeout(180000);

describe('outreach writing, discovery and reporting', () => {
  let mail: MailServer;
  let api: OutreachApi;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let worker: Awaited<ReturnType<typeof startOutreachWorker>>;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    mail = await startMailServer([TEST_SENDER]);
    temporal = await testTemporal();
    const taskQueue = uniq('outreach-misc');
    api = await startOutreachApi({
      logger: pino({ level: 'silent' }),
      temporal: { client: temporal.client, taskQueue },
    });
    worker = await startOutreachWorker(api.schema.db, {
      taskQueue,
      smtpUrl: mail.smtpUrl,
      imapUrl: mail.imapUrl(TEST_SENDER.email),
      policy: { warmupRamp: [] },
      unsubscribeKey: api.unsubscribeKey,
    });
    ({ token, userId } = await api.session());
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
    await mail?.stop();
  });

  it('generate, personalize, subject suggestions and follow-up: offline template writer, says so, metered', async () => {
    const offline = { provider: 'local', offline: true, method: 'template' };
    const g = await api.req('POST', '/emails/generate', token, { topic: 'home composting', tone: 'friendly' });
    expect(g.status).toBe(200);
    expect(g.body.metadata).toMatchObject(offline);
    expect(g.body.subject).toMatch(/composting/);
    expect(g.body.body).toContain('{first_name}');
    expect(g.body.body).toContain('home composting');

    const p = await api.req('POST', '/emails/personalize', token, {
      base_email: g.body.body,
      lead_name: 'Jane Doe',
      lead_website: 'https://www.green-thumb-journal.example/blog',
      content_topic: 'home composting',
    });
    expect(p.status).toBe(200);
    expect(p.body.body).toMatch(/^Hey Jane,/);
    expect(p.body.body).toContain('green-thumb-journal.example');
    expect(p.body.unfilled_placeholders).toEqual(['sender_name']);
    expect(p.body.metadata).toMatchObject(offline);
    const generic = await api.req('POST', '/emails/personalize', token, {
      base_email: 'Subject: A quick idea\nHello there,\n\nI write about soil.',
      lead_name: 'Sam Lee',
      lead_website: 'https://soil-notes.example',
    });
    expect(generic.body.subject).toBe('A quick idea');
    expect(generic.body.body).toMatch(/^Hi Sam,\n\nI came across soil-notes\.example recently\./);
    // A bare host is a site too (read as https://), and {name} is {lead_name}.
    const bare = await api.req('POST', '/emails/personalize', token, {
      base_email: 'Dear {name}, I read {website_url} every week.',
      lead_name: 'Sam Lee',
      lead_website: 'blog.test',
    });
    expect([bare.status, bare.body.unfilled_placeholders]).toEqual([200, []]);
    expect(bare.body.body).toContain('Dear Sam Lee, I read https://blog.test every week.');
    const notASite = await api.req('POST', '/emails/personalize', token, {
      base_email: 'x',
      lead_website: 'not a site',
    });
    expect(notASite.status).toBe(422);

    const s = await api.req('POST', '/emails/subject-suggestions', token, {
      topic: 'urban beekeeping',
      tone: 'formal',
    });
    expect(s.status).toBe(200);
    expect(s.body.suggestions.length).toBeGreaterThanOrEqual(3);
    expect(s.body.suggestions.every((x: string) => /beekeeping/i.test(x))).toBe(true);

    const f = await api.req('POST', '/emails/follow-up', token, {
      original_subject: 'Guest post about composting',
      original_body: 'Hi Jane,\nWould you like an article about composting?',
    });
    expect(f.body.subject).toBe('Re: Guest post about composting');
    expect(f.body.body).toContain('> Would you like an article about composting?');

    const t = await api.req('POST', '/emails/templates', token, {
      name: 'Pitch',
      subject: 'Guest post: {topic}',
      body: 'Hi {first_name}, a piece on {topic} for {website}?',
    });
    const fromTemplate = await api.req('POST', '/emails/generate', token, {
      topic: 'mulching',
      template_id: t.body.id,
    });
    expect(fromTemplate.body).toMatchObject({
      subject: 'Guest post: mulching',
      body: 'Hi {first_name}, a piece on mulching for {website}?',
    });
    const other = await api.session();
    expect(
      (await api.req('POST', '/emails/generate', other.token, { topic: 'x', template_id: t.body.id })).status,
    ).toBe(404);
    // Every call went through the metered gateway (local calls are counted, free).
    const usage = await api.schema.db('es_events').where({ type: 'UsageRecorded' });
    expect(usage.filter((e) => e.data.user_id === userId && e.data.provider === 'local').length).toBe(7);
    expect(
      (await api.req('POST', '/emails/generate', token, { tone: 'loud' })).body.detail.map(
        (d: { loc: string[] }) => d.loc,
      ),
    ).toEqual([
      ['body', 'topic'],
      ['body', 'tone'],
    ]);
  });

  it('deep discovery finds guest-post and resource pages with contacts and scores, and saves them', async () => {
    const c = (await api.req('POST', '/campaigns', token, { name: 'Garden', keywords: ['composting', 'gardening'] }))
      .body;
    const r = await api.req('POST', '/discover/deep', token, {
      keyword: 'gardening',
      campaign_id: c.id,
      max_results: 10,
      save_to_campaign: true,
    });
    expect(r.status).toBe(200);
    expect(r.body.sources).toEqual(['sample_sites', 'research_corpus']);
    const top = r.body.results[0];
    expect(top).toMatchObject({
      website_url: 'https://green-thumb-journal.example/write-for-us',
      contact_email: 'editor@green-thumb-journal.example',
      source: 'sample_site',
    });
    expect(top.guest_post_likelihood).toBeGreaterThan(0.6);
    for (const x of r.body.results)
      for (const k of ['quality_score', 'relevance_score', 'guest_post_likelihood']) {
        expect(x[k]).toBeGreaterThanOrEqual(0);
        expect(x[k]).toBeLessThanOrEqual(1);
      }
    const byUrl = Object.fromEntries(r.body.results.map((x: { website_url: string }) => [x.website_url, x]));
    const plain = byUrl['https://allotment-diary.example/spring-sowing'];
    expect(plain.guest_post_likelihood).toBeLessThan(0.2);
    expect(byUrl['https://urban-compost-club.example/resources'].signals).toContain('resource page');
    expect(r.body.saved_to_campaign).toBe(r.body.results.length);
    const again = await api.req('POST', '/discover/deep', token, {
      keyword: 'gardening',
      campaign_id: c.id,
      max_results: 10,
      save_to_campaign: true,
    });
    expect([again.body.saved_to_campaign, again.body.save_skipped]).toEqual([0, r.body.results.length]);
    const leads = (await api.req('GET', `/campaigns/${c.id}`, token)).body.leads;
    expect(leads[0]).toMatchObject({
      source: 'discovery:sample_site',
      contact_email: 'editor@green-thumb-journal.example',
    });
    expect((await api.req('POST', '/discover/deep', token, { keyword: 'x', save_to_campaign: true })).status).toBe(422);
    const other = await api.session();
    expect((await api.req('POST', '/discover/deep', other.token, { keyword: 'x', campaign_id: c.id })).status).toBe(
      404,
    );
  });

  it('analytics, snapshot and formula-safe CSV exports', async () => {
    // The send is counted on its UTC day, and the series below ends with today: both in the same day.
    await awayFromBoundary(86400, 60);
    const { token: t, userId: u } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(api, t, ['amy@rep1.example', 'ben@rep2.example'], {
      follow_up_days: [],
    });
    await api.req('POST', `/campaigns/${campaignId}/leads`, t, {
      website_url: 'https://evil.example',
      website_title: '=HYPERLINK("http://evil.example","click")',
      contact_email: 'x@evil.example',
    });
    const s1 = await api.req('POST', '/outreach/send', t, {
      campaign_id: campaignId,
      lead_id: leadIds[0],
      subject: '+1 idea',
      body: 'Hi',
    });
    expect(s1.status).toBe(200);
    await api.req('POST', '/suppression', t, { email: 'ben@rep2.example' });
    expect(
      (
        await api.req('POST', '/outreach/send', t, {
          campaign_id: campaignId,
          lead_id: leadIds[1],
          subject: 'Idea',
          body: 'Hi',
        })
      ).status,
    ).toBe(403);
    await api.req('PATCH', `/campaigns/${campaignId}/leads/${leadIds[0]}/status`, t, { status: 'placed' });

    const a = await api.req('GET', `/campaigns/${campaignId}/analytics?days=7`, t);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      days: 7,
      leads_by_status: { discovered: 2, contacted: 0, replied: 0, placed: 1, bounced: 0, lost: 0 },
      attempts_by_status: { sent: 1, refused: 1, failed: 0 },
      replies_by_classification: { interested: 0, bounce: 0 },
      rates: { contact_rate: 0.3333, reply_rate: 0, bounce_rate: 0, refusal_rate: 0.5, placement_rate: 1 },
    });
    expect(a.body.daily_send_volume).toHaveLength(7);
    expect(a.body.daily_send_volume[6]).toEqual({ date: new Date().toISOString().slice(0, 10), sent: 1 });
    expect((await api.req('GET', `/campaigns/${campaignId}/analytics`, t)).body.daily_send_volume).toHaveLength(30);
    expect((await api.req('GET', `/campaigns/${campaignId}/analytics?days=0`, t)).status).toBe(422);

    const snap = await api.req('GET', '/reporting/snapshot', t);
    expect(snap.body).toMatchObject({ campaigns: 1, leads: 3, attempts_by_status: { sent: 1, refused: 1 } });

    const leadsCsv = await call(`${api.url}/api/v1/backlink-outreach/campaigns/${campaignId}/export/leads`, {
      headers: bearer(t),
    });
    expect(leadsCsv.status).toBe(200);
    expect(leadsCsv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(leadsCsv.headers.get('content-disposition')).toBe(`attachment; filename="campaign-${campaignId}-leads.csv"`);
    const text = String(leadsCsv.body);
    expect(text.split('\r\n')[0]).toBe(
      'id,website_url,website_title,contact_email,status,quality_score,relevance_score,guest_post_likelihood,source,legal_basis,created_at,status_changed_at',
    );
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
    const attemptsCsv = String(
      (
        await call(`${api.url}/api/v1/backlink-outreach/campaigns/${campaignId}/export/attempts`, {
          headers: bearer(t),
        })
      ).body,
    );
    expect(attemptsCsv).toContain(",'+1 idea,");
    expect(attemptsCsv.trim().split('\r\n')).toHaveLength(3);
    const repliesCsv = String(
      (await call(`${api.url}/api/v1/backlink-outreach/campaigns/${campaignId}/export/replies`, { headers: bearer(t) }))
        .body,
    );
    expect(repliesCsv.trim()).toBe(
      'id,lead_id,attempt_id,from,subject,kind,classification,confidence,signals,bounce_status,snippet,received_at',
    );
    void u;
  });

  it('auth and ownership of writing, discovery and reporting routes', async () => {
    const c = (await api.req('POST', '/campaigns', token, { name: 'Own' })).body;
    const other = await api.session();
    for (const [m, p, body] of [
      ['POST', '/emails/generate', { topic: 'x' }],
      ['POST', '/emails/personalize', { base_email: 'x' }],
      ['POST', '/emails/subject-suggestions', { topic: 'x' }],
      ['POST', '/emails/follow-up', { original_subject: 'x', original_body: 'y' }],
      ['POST', '/discover/deep', { keyword: 'x' }],
      ['GET', `/campaigns/${c.id}/analytics`],
      ['GET', '/reporting/snapshot'],
      ['GET', `/campaigns/${c.id}/export/leads`],
      ['GET', `/campaigns/${c.id}/export/attempts`],
      ['GET', `/campaigns/${c.id}/export/replies`],
    ] as [string, string, unknown][])
      expect([p, (await api.req(m, p, null, body)).status]).toEqual([p, 401]);
    for (const p of ['analytics', 'export/leads', 'export/attempts', 'export/replies'])
      expect([p, (await api.req('GET', `/campaigns/${c.id}/${p}`, other.token)).status]).toEqual([p, 404]);
    expect((await api.req('GET', '/reporting/snapshot', other.token)).body).toMatchObject({ campaigns: 0, leads: 0 });
  });
});
