/**
 * Outreach through configured vendors, each replaced by a scripted HTTP
 * server on loopback speaking its real protocol (test/support/fake-vendor.ts):
 * deep discovery through the web-search vendor (Tavily: POST /search with a
 * Bearer key) — its results scored, used, saved and named in `sources` — and
 * a failing vendor answering the documented 502; email writing through an
 * OpenAI-compatible text vendor (chat completions) — its JSON answer used,
 * `metadata` naming the vendor and model, metered — and an unusable answer
 * being a 502 too.
 */
import pino from 'pino';
import { testTemporal, uniq } from '../../support/env';
import { completion, FakeVendor, RecordedRequest, startFakeVendor, Step } from '../../support/fake-vendor';
import { startOutreachWorker } from '../../support/outreach-worker';
import { createWebSearchProvider } from '../../../infra/research';
import { createOpenAiCompatibleClient } from '../../../infra/ai/openai-compatible';
import { OutreachApi, startOutreachApi } from './helpers';

jest.setTimeout(180000);

const WRITE_FOR_US = {
  title: 'Write for us - Seed Savers Weekly',
  url: 'https://www.seed-savers-weekly.example/write-for-us/?utm_source=search',
  content:
    'Write for us! Seed Savers Weekly accepts guest posts about gardening, seed saving and composting. Read our contributor guidelines, then submit an article pitch to editor@seed-savers-weekly.example. We link to useful gardening sources.',
  score: 0.91,
};
const RESOURCES = {
  title: 'Balcony gardening resources',
  url: 'https://balcony-growers.example/resources',
  content:
    'Gardening resources: our resource page lists useful links for balcony gardening, container soil, watering and small-space composting. Suggestions welcome at hello@balcony-growers.example.',
  score: 0.7,
};
const UNRELATED = {
  title: 'Car repair tips',
  url: 'https://motor-fix.example/tips',
  content: 'Change your oil and check the brakes every spring.',
  score: 0.4,
};

/** Tavily's /search: the answer depends on the query; a query for "vendorfail" is refused like a bad key. */
function tavily(req: RecordedRequest): Step {
  const q = String((req.body as { query?: unknown })?.query ?? '');
  if (q.includes('vendorfail'))
    return { status: 401, body: { detail: { error: 'Unauthorized: missing or invalid API key.' } } };
  const results = q.includes('write for us')
    ? [WRITE_FOR_US, UNRELATED]
    : q.includes('guest post')
      ? [{ ...WRITE_FOR_US, url: 'https://seed-savers-weekly.example/write-for-us' }] // the same page: one result
      : [RESOURCES];
  return { body: { query: q, answer: null, images: [], results, response_time: 0.42 } };
}

describe('outreach with configured vendors (scripted, loopback)', () => {
  let api: OutreachApi;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let worker: Awaited<ReturnType<typeof startOutreachWorker>>;
  let search: FakeVendor;
  let text: FakeVendor;
  const textScript: Step[] = [];
  let token: string;
  let userId: string;

  beforeAll(async () => {
    search = await startFakeVendor([{ handler: tavily }], '');
    text = await startFakeVendor(textScript);
    temporal = await testTemporal();
    const taskQueue = uniq('outreach-vendors');
    api = await startOutreachApi({
      logger: pino({ level: 'silent' }),
      temporal: { client: temporal.client, taskQueue },
    });
    worker = await startOutreachWorker(api.schema.db, {
      taskQueue,
      policy: { warmupRamp: [] },
      unsubscribeKey: api.unsubscribeKey,
      web: createWebSearchProvider(
        { vendor: 'tavily', apiKey: 'tvly-test-key', baseUrl: search.origin, timeoutMs: 5000, maxRetries: 0 },
        { backoffBaseMs: 10, backoffMaxMs: 50 },
      ),
      vendors: {
        vendor_a: createOpenAiCompatibleClient({
          provider: 'vendor_a',
          baseUrl: text.baseUrl,
          apiKey: 'sk-test',
          model: 'gpt-4o-mini',
          timeoutMs: 5000,
          maxRetries: 0,
        }),
      },
    });
    ({ token, userId } = await api.session());
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
    await search?.close();
    await text?.close();
  });

  it('deep discovery uses the web-search vendor: its pages scored, named in sources and saved', async () => {
    const c = (await api.req('POST', '/campaigns', token, { name: 'Seeds', keywords: ['composting'] })).body;
    const before = search.requests.length;
    const r = await api.req('POST', '/discover/deep', token, {
      keyword: 'gardening',
      campaign_id: c.id,
      max_results: 100,
      save_to_campaign: true,
    });
    expect(r.status).toBe(200);
    expect(r.body.sources).toEqual(['sample_sites', 'research_corpus', 'web:tavily']);
    // The three documented queries, in Tavily's protocol, with the key.
    const reqs = search.requests.slice(before);
    expect(reqs.map((q) => [q.method, q.path, q.headers.authorization])).toEqual(
      Array(3).fill(['POST', '/search', 'Bearer tvly-test-key']),
    );
    expect(reqs.map((q) => q.body)).toEqual([
      { query: 'gardening "write for us"', max_results: 100, search_depth: 'basic' },
      { query: 'gardening guest post', max_results: 100, search_depth: 'basic' },
      { query: 'gardening resources', max_results: 100, search_depth: 'basic' },
    ]);
    const web = r.body.results.filter((x: { source: string }) => x.source === 'web:tavily');
    // The same page found by two queries is one result; the unrelated page shares no term and is left out.
    expect(web.map((x: { website_url: string }) => x.website_url).sort()).toEqual([
      'https://balcony-growers.example/resources',
      'https://www.seed-savers-weekly.example/write-for-us/?utm_source=search',
    ]);
    const guest = web.find((x: { website_url: string }) => x.website_url.includes('seed-savers'));
    expect(guest).toMatchObject({
      website_title: 'Write for us - Seed Savers Weekly',
      contact_email: 'editor@seed-savers-weekly.example',
    });
    // The documented formula: 0.5·g (two or more guest-post phrases: 1) + 0.1·e (a contact email); no links.
    expect(guest.guest_post_likelihood).toBe(0.6);
    const res = web.find((x: { website_url: string }) => x.website_url.includes('balcony'));
    expect(res.signals).toContain('resource page');
    expect(res.guest_post_likelihood).toBe(0.3); // 0.2·r (a resource page) + 0.1·e
    expect(res.contact_email).toBe('hello@balcony-growers.example');
    for (const x of web)
      for (const k of ['quality_score', 'relevance_score', 'guest_post_likelihood']) {
        expect(x[k]).toBeGreaterThan(0);
        expect(x[k]).toBeLessThanOrEqual(1);
      }
    expect(r.body.results.some((x: { source: string }) => x.source === 'sample_site')).toBe(true);
    expect(r.body.saved_to_campaign).toBe(r.body.results.length);
    const leads = (await api.req('GET', `/campaigns/${c.id}`, token)).body.leads;
    expect(leads.filter((l: { source: string }) => l.source === 'discovery:web:tavily')).toHaveLength(2);
  });

  it('a failing web-search vendor is a 502 naming it; nothing is saved', async () => {
    const c = (await api.req('POST', '/campaigns', token, { name: 'Fails' })).body;
    const r = await api.req('POST', '/discover/deep', token, {
      keyword: 'vendorfail gardening',
      campaign_id: c.id,
      save_to_campaign: true,
    });
    expect(r.status).toBe(502);
    expect(r.body).toEqual({
      detail: expect.stringMatching(/^tavily rejected the request: HTTP 401 \(check the API key\)/),
    });
    expect((await api.req('GET', `/campaigns/${c.id}`, token)).body.leads).toEqual([]);
  });

  it('email writing goes through the text vendor: its answer, metadata naming it, metered', async () => {
    textScript.length = 0;
    textScript.push(
      {
        body: completion(
          JSON.stringify({
            subject: 'A composting guide for {website}',
            body: 'Hi {first_name},\n\nI would love to write a practical home composting guide for {website}.\n\nBest,\n{sender_name}',
          }),
          { model: 'gpt-4o-mini-2024-07-18', usage: { prompt_tokens: 120, completion_tokens: 60 } },
        ),
      },
      {
        body: completion(
          JSON.stringify({ suggestions: ['Composting at home', ' Composting at home ', 'Soil, simply'] }),
        ),
      },
      { body: completion('Sure! Here is your email: it is great.') },
    );
    const before = text.requests.length;
    const g = await api.req('POST', '/emails/generate', token, { topic: 'home composting', tone: 'friendly' });
    expect(g.status).toBe(200);
    expect(g.body).toEqual({
      subject: 'A composting guide for {website}',
      body: 'Hi {first_name},\n\nI would love to write a practical home composting guide for {website}.\n\nBest,\n{sender_name}',
      metadata: expect.objectContaining({
        provider: 'vendor_a',
        model: 'gpt-4o-mini-2024-07-18',
        offline: false,
        method: 'language_model',
      }),
    });
    // The chat-completions request: model, key, and the documented prompt (domain/outreach/prompts.ts).
    const sent = text.requests[before];
    expect([sent.method, sent.path, sent.headers.authorization]).toEqual([
      'POST',
      '/v1/chat/completions',
      'Bearer sk-test',
    ]);
    const body = sent.body as { model: string; messages: { role: string; content: string }[] };
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[1].content).toContain('guest article on "home composting" in a friendly tone');

    const s = await api.req('POST', '/emails/subject-suggestions', token, { topic: 'composting' });
    expect(s.status).toBe(200);
    expect(s.body.suggestions).toEqual(['Composting at home', 'Soil, simply']); // trimmed, duplicates removed
    expect(s.body.metadata).toMatchObject({ provider: 'vendor_a', offline: false });

    // An answer that is not the JSON asked for, asked again once with what was wrong, then afresh with its own
    // re-ask, and still not: the vendor's failure, 502, not a made-up email.
    const asked = text.requests.length;
    const bad = await api.req('POST', '/emails/follow-up', token, {
      original_subject: 'Composting',
      original_body: 'Hi, would you like a guest post?',
    });
    expect(bad.status).toBe(502);
    expect(bad.body.detail).toMatch(
      /^vendor_a returned an unusable response: outreach\.email\.follow_up answer unusable: it is not one complete JSON object/,
    );
    expect(text.requests.length - asked).toBe(4);
    const reask = (text.requests[text.requests.length - 1].body as { messages: { content: string }[] }).messages;
    expect(reask[reask.length - 1].content).toMatch(/^That answer cannot be used: it is not one complete JSON object/);

    // Metered against the plan, with the vendor's token counts.
    const usage = (await api.schema.db('es_events').where({ type: 'UsageRecorded' })).filter(
      (e) => e.data.user_id === userId && e.data.provider === 'vendor_a',
    );
    expect(usage.length).toBeGreaterThanOrEqual(2);
    expect(usage.some((e) => e.data.tokens_in === 120 && e.data.tokens_out === 60)).toBe(true);
  });
});
