/**
 * Campaigns, leads and templates over HTTP (session tokens, outreach envelope):
 * statuses and bodies of Document 3, duplicates, bulk partial success, status
 * moves, 401 without a credential and 404 for another user's resources.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { campaignWithLeads, OutreachApi, startOutreachApi } from './helpers';

jest.setTimeout(120000);

describe('outreach campaigns, leads and templates', () => {
  let api: OutreachApi;
  let alice: string;
  let aliceId: string;
  let bob: string;

  beforeAll(async () => {
    api = await startOutreachApi({ logger: pino({ level: 'silent' }) });
    ({ token: alice, userId: aliceId } = await api.session());
    bob = (await api.session()).token;
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('creates, lists, reads (with leads) and deletes a campaign', async () => {
    const body = {
      name: 'Garden blogs',
      description: 'Guest posts on gardening',
      keywords: ['gardening', 'compost', 'gardening'],
    };
    // Identity comes from the session: a body naming a user is refused, not obeyed and not silently dropped.
    const other = await api.req('POST', '/campaigns', alice, { ...body, user_id: 'someone-else' });
    expect([other.status, other.body.detail[0].loc]).toEqual([422, ['body', 'user_id']]);
    const c = await api.req('POST', '/campaigns', alice, body);
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      name: 'Garden blogs',
      user_id: aliceId,
      workspace_id: aliceId,
      keywords: ['gardening', 'compost'],
      follow_up_days: [3, 7],
      status: 'active',
      leads_count: 0,
    });
    const list = await api.req('GET', '/campaigns', alice);
    expect([list.status, list.body.map((x: { id: string }) => x.id)]).toEqual([200, [c.body.id]]);
    expect((await api.req('GET', '/campaigns?workspace_id=other', alice)).body).toEqual([]);
    expect((await api.req('GET', '/campaigns', bob)).body).toEqual([]);

    const lead = await api.req('POST', `/campaigns/${c.body.id}/leads`, alice, {
      website_url: 'https://www.garden.example/blog/',
      website_title: 'Garden Example',
      contact_email: 'Editor@Garden.example',
      quality_score: 0.8,
    });
    expect(lead.status).toBe(201);
    expect(lead.body).toMatchObject({
      campaign_id: c.body.id,
      contact_email: 'editor@garden.example',
      status: 'discovered',
      quality_score: 0.8,
      relevance_score: null,
      legal_basis: 'legitimate_interest',
    });
    const dup = await api.req('POST', `/campaigns/${c.body.id}/leads`, alice, {
      website_url: 'https://garden.example/blog',
      contact_email: 'editor@garden.example',
    });
    expect([dup.status, typeof dup.body.detail]).toEqual([409, 'string']);

    const got = await api.req('GET', `/campaigns/${c.body.id}`, alice);
    expect(got.status).toBe(200);
    expect(got.body.leads_count).toBe(1);
    expect(got.body.leads.map((l: { id: string }) => l.id)).toEqual([lead.body.id]);

    expect((await api.req('DELETE', `/campaigns/${c.body.id}`, bob)).status).toBe(404);
    const del = await api.req('DELETE', `/campaigns/${c.body.id}`, alice);
    expect([del.status, del.body]).toEqual([204, undefined]);
    expect((await api.req('GET', `/campaigns/${c.body.id}`, alice)).body).toEqual({ detail: 'Resource not found' });
    expect((await api.req('GET', '/campaigns', alice)).body).toEqual([]);
  });

  it('bulk add reports added, skipped duplicates and failed entries with reasons', async () => {
    const c = (await api.req('POST', '/campaigns', alice, { name: 'Bulk' })).body;
    await api.req('POST', `/campaigns/${c.id}/leads`, alice, {
      website_url: 'https://a.example',
      contact_email: 'a@a.example',
    });
    const r = await api.req('POST', `/campaigns/${c.id}/leads/bulk`, alice, [
      { website_url: 'https://A.example/', contact_email: 'A@a.example' }, // duplicate of the stored lead
      { website_url: 'https://b.example', contact_email: 'b@b.example' },
      { website_url: 'https://b.example/?utm_source=news', contact_email: 'b@b.example' }, // duplicate in the batch
      { website_url: 'ftp://c.example' },
      { website_url: 'https://d.example', quality_score: 3 },
      { contact_email: 'e@e.example' },
      { website_url: 'https://f.example' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ added: 2, skipped: 2 });
    expect(r.body.failed).toEqual([
      { index: 3, website_url: 'ftp://c.example', reason: 'website_url must be an absolute http(s) URL' },
      { index: 4, website_url: 'https://d.example', reason: 'quality_score must be a number from 0 to 1' },
      { index: 5, website_url: null, reason: 'website_url is required' },
    ]);
    expect((await api.req('GET', `/campaigns/${c.id}`, alice)).body.leads).toHaveLength(3);
    const notArray = await api.req('POST', `/campaigns/${c.id}/leads/bulk`, alice, {
      website_url: 'https://x.example',
    });
    expect(notArray.status).toBe(422);
    expect(notArray.body.detail[0]).toMatchObject({ loc: ['body'], type: 'type_error' });
  });

  it('bulk add takes at most 1000 leads: 1000 are added, 1001 is a 422 that adds nothing', async () => {
    const c = (await api.req('POST', '/campaigns', alice, { name: 'Bulk limit' })).body;
    const leads = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({
        website_url: `https://${prefix}-${i}.example/blog`,
        contact_email: `editor@${prefix}-${i}.example`,
      }));
    const over = await api.req('POST', `/campaigns/${c.id}/leads/bulk`, alice, leads(1001, 'over'));
    expect(over.status).toBe(422);
    expect(over.body.detail).toHaveLength(1);
    expect(over.body.detail[0]).toMatchObject({ loc: ['body'], type: 'value_error' });
    expect(over.body.detail[0].msg).toMatch(/1000/);
    expect((await api.req('GET', `/campaigns/${c.id}`, alice)).body.leads_count).toBe(0);
    const full = await api.req('POST', `/campaigns/${c.id}/leads/bulk`, alice, leads(1000, 'full'));
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ added: 1000, skipped: 0, failed: [] });
    expect(new Set(full.body.lead_ids).size).toBe(1000);
    const got = (await api.req('GET', `/campaigns/${c.id}`, alice)).body;
    expect([got.leads_count, got.leads.length]).toEqual([1000, 1000]);
  });

  it('status moves: single (409 when not allowed), bulk with failed ids', async () => {
    const c = (await api.req('POST', '/campaigns', alice, { name: 'Moves' })).body;
    const bulk = await api.req('POST', `/campaigns/${c.id}/leads/bulk`, alice, [
      { website_url: 'https://m1.example' },
      { website_url: 'https://m2.example' },
    ]);
    const [l1, l2] = bulk.body.lead_ids;
    const placed = await api.req('PATCH', `/campaigns/${c.id}/leads/${l1}/status`, alice, { status: 'placed' });
    expect(placed.status).toBe(409);
    expect(placed.body.detail).toBe('a lead cannot move from discovered to placed');
    const contacted = await api.req('PATCH', `/campaigns/${c.id}/leads/${l1}/status`, alice, { status: 'contacted' });
    expect([contacted.status, contacted.body.status]).toEqual([200, 'contacted']);
    const bad = await api.req('PATCH', `/campaigns/${c.id}/leads/${l1}/status`, alice, { status: 'won' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'status'], type: 'value_error' });
    const missing = randomUUID();
    const b = await api.req('PATCH', `/campaigns/${c.id}/leads/bulk-status`, alice, {
      lead_ids: [l1, l2, missing],
      status: 'placed',
    });
    expect(b.status).toBe(200);
    expect(b.body).toEqual({ updated: 1, failed: [l2, missing] });
    const leads = (await api.req('GET', `/campaigns/${c.id}`, alice)).body.leads;
    expect(Object.fromEntries(leads.map((l: { id: string; status: string }) => [l.id, l.status]))).toEqual({
      [l1]: 'placed',
      [l2]: 'discovered',
    });
    expect(
      (await api.req('PATCH', `/campaigns/${c.id}/leads/${randomUUID()}/status`, alice, { status: 'lost' })).status,
    ).toBe(404);
  });

  it('templates: create with placeholders, unknown placeholders refused (422 per placeholder), read, delete', async () => {
    const t = await api.req('POST', '/emails/templates', alice, {
      name: 'Guest post pitch',
      subject: 'A guest post idea for {website}',
      body: 'Hi {first_name},\n\nI would love to write about {topic} for your readers.\n\n{sender_name}',
      category: 'guest_post',
    });
    expect(t.status).toBe(201);
    expect(t.body).toMatchObject({
      placeholders: ['website', 'first_name', 'topic', 'sender_name'],
      category: 'guest_post',
    });
    const bad = await api.req('POST', '/emails/templates', alice, {
      name: 'x',
      subject: 'Hi {firstname}',
      body: 'About {sitename}',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[]; msg: string }) => [d.loc, d.msg.split(';')[0]])).toEqual([
      [['body', 'subject'], 'unknown placeholder {firstname} in subject'],
      [['body', 'body'], 'unknown placeholder {sitename} in body'],
    ]);
    const missing = await api.req('POST', '/emails/templates', alice, { name: 'x', subject: 's' });
    expect(missing.body).toEqual({ detail: [{ loc: ['body', 'body'], msg: 'body is required', type: 'missing' }] });
    expect((await api.req('GET', '/emails/templates', alice)).body.map((x: { id: string }) => x.id)).toEqual([
      t.body.id,
    ]);
    expect((await api.req('GET', `/emails/templates/${t.body.id}`, alice)).body.name).toBe('Guest post pitch');
    expect((await api.req('GET', `/emails/templates/${t.body.id}`, bob)).status).toBe(404);
    expect((await api.req('DELETE', `/emails/templates/${t.body.id}`, bob)).status).toBe(404);
    expect((await api.req('DELETE', `/emails/templates/${t.body.id}`, alice)).status).toBe(204);
    expect((await api.req('GET', `/emails/templates/${t.body.id}`, alice)).status).toBe(404);
    // {name} is the natural alias of {lead_name}.
    const named = await api.req('POST', '/emails/templates', alice, {
      name: 'n',
      subject: 'Hi {name}',
      body: 'Hello.',
    });
    expect([named.status, named.body.placeholders]).toEqual([201, ['name']]);
  });

  it("every route: 401 without a session, another user's campaign is 404", async () => {
    const c = (await api.req('POST', '/campaigns', alice, { name: 'Owner test' })).body;
    const l = (await api.req('POST', `/campaigns/${c.id}/leads`, alice, { website_url: 'https://o.example' })).body;
    const calls: [string, string, unknown?][] = [
      ['POST', '/campaigns', { name: 'x' }],
      ['GET', '/campaigns'],
      ['GET', `/campaigns/${c.id}`],
      ['DELETE', `/campaigns/${c.id}`],
      ['POST', `/campaigns/${c.id}/leads`, { website_url: 'https://p.example' }],
      ['POST', `/campaigns/${c.id}/leads/bulk`, [{ website_url: 'https://p.example' }]],
      ['PATCH', `/campaigns/${c.id}/leads/${l.id}/status`, { status: 'lost' }],
      ['PATCH', `/campaigns/${c.id}/leads/bulk-status`, { lead_ids: [l.id], status: 'lost' }],
      ['POST', '/emails/templates', { name: 'x', subject: 's', body: 'b' }],
      ['GET', '/emails/templates'],
      ['GET', `/emails/templates/${randomUUID()}`],
      ['DELETE', `/emails/templates/${randomUUID()}`],
    ];
    for (const [m, p, body] of calls) {
      const r = await api.req(m, p, null, body);
      expect([m, p, r.status, r.body]).toEqual([m, p, 401, { detail: 'Not authenticated' }]);
    }
    for (const [m, p, body] of calls.slice(2, 8)) {
      const r = await api.req(m, p, bob, body);
      expect([m, p, r.status, r.body]).toEqual([m, p, 404, { detail: 'Resource not found' }]);
    }
    expect((await api.req('GET', `/campaigns/${c.id}`, alice)).body.leads[0].status).toBe('discovered');
  });
});

describe('outreach sends while sending is not configured', () => {
  let api: OutreachApi;
  beforeAll(async () => {
    api = await startOutreachApi({ logger: pino({ level: 'silent' }), sendingConfigured: false });
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('a send the policy refuses is a 403 with its reason, before the 503 that names what to configure', async () => {
    const { token } = await api.session();
    const { campaignId, leadIds } = await campaignWithLeads(api, token, ['jane@quiet.example', 'sam@open.example']);
    expect((await api.req('POST', '/suppression', token, { email: '@quiet.example' })).status).toBe(201);
    const send = (lead_id: string) =>
      api.req('POST', '/outreach/send', token, { campaign_id: campaignId, lead_id, subject: 'Hi', body: 'Hello.' });
    const refused = await send(leadIds[0]);
    expect([refused.status, refused.body]).toEqual([
      403,
      { detail: 'Policy validation failed', reason: 'recipient domain quiet.example is on the suppression list' },
    ]);
    const unconfigured = await send(leadIds[1]);
    expect([unconfigured.status, unconfigured.body.detail]).toEqual([
      503,
      expect.stringContaining('OUTREACH_SMTP_URL'),
    ]);
  });
});
