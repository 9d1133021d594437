/**
 * The general family's generating routes over HTTP with a real worker (local
 * provider, metered in PostgreSQL against the caller's plan): each answers with
 * its documented fields within the wait bound, or 202 and a task to poll;
 * every route records exactly one usage record per AI call (read from the
 * usage projection before and after); a plan limit answers 429
 * UsageLimitExceededException, at the start and inside the task.
 */
import { analyzeSeo } from '../../../domain/analysis';
import { billingPeriod } from '../../../infra/quota/meter';
import { taskStatusProjection } from '../../../projections/task-status';
import { usageProjection } from '../../../projections/usage';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { startContentWorker } from '../../support/content-worker';
import { testTemporal } from '../../support/env';
import { call, JsonResponse } from '../../support/http';
import { metered, usageCalls } from '../../support/metering';
import { clearOfMonthEnd } from '../../support/clock';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { answerSchemas, Conforms } from '../../support/conformance';
import { waitFor } from '../../support/wait';

jest.setTimeout(240000);

const RATES = { rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, status: { minute: 10000 } } } } };

describe('general family: content generation', () => {
  let api: TestApi;
  let schema: IsolatedSchema;
  let worker: Awaited<ReturnType<typeof startContentWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let alice: { userId: string; key: string };
  let bob: { userId: string; key: string };
  let conforms: Conforms;

  beforeAll(async () => {
    temporal = await testTemporal();
    schema = await isolatedSchema();
    worker = await startContentWorker(schema.db);
    api = await startTestApi({
      schema,
      projections: [taskStatusProjection, usageProjection],
      deps: { workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue }, aiProvider: 'local' },
      settings: RATES,
    });
    alice = await api.user('pro');
    bob = await api.user('pro');
    conforms = answerSchemas((await call(`${api.url}/openapi.json`)).body);
  });

  afterAll(async () => {
    await worker.stop();
    await api.stop();
    await temporal.connection.close();
    await schema.drop();
  });

  const post = (path: string, key: string, json: unknown, headers: Record<string, string> = {}) =>
    call(`${api.url}${path}`, { method: 'POST', headers: { ...bearer(key), ...headers }, json });

  const localCalls = (userId: string, atLeast = 0) => usageCalls(schema.db, userId, 'local', atLeast);

  it('POST /api/blog-writer answers data.content and metadata measured by the analysis engine; one usage record', async () => {
    const r = await metered(schema.db, alice.userId, 1, () =>
      post('/api/blog-writer', alice.key, {
        topic: 'Keyword research for small businesses',
        target_audience: 'small business owners',
        content_type: 'how-to-guide',
        word_count: 600,
        tone: 'professional',
        keywords: ['keyword research'],
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const { content, metadata, task_id } = r.body.data;
    expect(task_id).toMatch(/^blog-writer-/);
    expect(content).toMatch(/^# /);
    expect(metadata).toMatchObject({ provider: 'local', offline: true, target_word_count: 600 });
    // The offline writer says what it built the article from (docs/providers.md), in the documented shape.
    expect(metadata.coverage).toMatchObject({
      basis: metadata.sources.length ? 'brief_and_sources' : 'brief',
      target_words: 600,
      words: expect.any(Number),
    });
    expect(metadata.coverage.sources_used).toBe(metadata.sources.length);
    conforms('post', '/api/blog-writer', r);
    // The length is an upper bound: the offline writer states the brief and the sources about it, never padding
    // (docs/providers.md); a shorter text says why.
    expect(metadata.word_count).toBeLessThanOrEqual(660);
    if (metadata.coverage.words < 540) expect(metadata.coverage.shortfall).toMatch(/adds nothing to reach a length/);
    // The numbers are the analysis engine's on the produced text.
    expect(metadata.seo_score).toBe(analyzeSeo({ content, keywords: ['keyword research'] }).seo_score);
    expect(metadata.readability_score).toBeGreaterThan(0);
    expect(metadata.readability_score).toBeLessThanOrEqual(100);
    // Every cited source is listed and can be followed.
    expect(metadata.sources.length).toBeGreaterThan(0);
    for (const s of metadata.sources) expect(content).toContain(`[${s.index}]`);
  });

  it('a thin brief: the offline writer does not pad, and metadata.coverage says why the text is short', async () => {
    const thin = { topic: 'Quarterly zine swap at the Riverside Books back room', include_hashtags: false };
    const post1 = await post('/api/profnet-writer', alice.key, thin);
    expect(post1.status).toBe(200);
    expect(post1.body.data.metadata.coverage).toMatchObject({
      basis: 'brief',
      key_points: 0,
      sources_used: 0,
      shortfall: expect.stringContaining('no key points and no source about the topic'),
    });
    conforms('post', '/api/profnet-writer', post1);
    const blog = await post('/api/blog-writer', alice.key, { topic: thin.topic, word_count: 800 });
    expect(blog.status).toBe(200);
    const m = blog.body.data.metadata;
    expect(m.word_count).toBeLessThan(400);
    expect(m.coverage).toMatchObject({ basis: 'brief', target_words: 800, words: expect.any(Number) });
    expect(m.coverage.shortfall).toContain('of 800 words');
    conforms('post', '/api/blog-writer', blog);
  });

  it('length is honoured when word_count is absent (integration field)', async () => {
    const r = await post('/api/blog-writer', alice.key, { topic: 'Content repurposing', length: 'short' });
    expect(r.status).toBe(200);
    expect(r.body.data.metadata.target_word_count).toBe(500);
  });

  it('Prefer: respond-async answers 202 with a task to poll; the completed record carries the same result', async () => {
    const r = await post(
      '/api/blog-writer',
      alice.key,
      { topic: 'Email newsletters', word_count: 300 },
      { prefer: 'respond-async' },
    );
    expect(r.status).toBe(202);
    expect(r.headers.get('preference-applied')).toBe('respond-async');
    expect(r.body.data).toMatchObject({ task_type: 'blog_writer', status: expect.any(String) });
    const url = r.body.data.status_url;
    expect(url).toBe(`/api/tasks/${r.body.data.task_id}`);
    expect(r.headers.get('location')).toBe(url);
    let t: JsonResponse | undefined;
    await waitFor(
      'the task to complete',
      async () => {
        t = await call(`${api.url}${url}`, { headers: bearer(alice.key) });
        return t.body.data?.status === 'completed';
      },
      30_000,
    ).catch(() => undefined);
    expect(t!.body.data).toMatchObject({ status: 'completed', task_type: 'blog_writer' });
    expect(t!.body.data.result.content).toMatch(/^# /);
    expect(t!.body.data.result.metadata.provider).toBe('local');
    expect(t!.body.data.progress_messages.length).toBeGreaterThanOrEqual(2);
    // Owner and auth.
    expect((await call(`${api.url}${url}`, { headers: bearer(bob.key) })).status).toBe(404);
    expect((await call(`${api.url}${url}`)).status).toBe(401);
    expect((await call(`${api.url}/api/tasks/blog-writer-nope`, { headers: bearer(alice.key) })).status).toBe(404);
  });

  it('POST /api/blog-writer/research reads only the kinds asked for and says web search is not configured', async () => {
    const r = await metered(schema.db, alice.userId, 1, () =>
      post('/api/blog-writer/research', alice.key, {
        topic: 'content marketing',
        research_depth: 'comprehensive',
        sources: ['academic', 'web'],
      }),
    );
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.sources.length).toBeGreaterThan(0);
    // Offline the sources are sample documents, chosen by the kind each is written as; no web search ran.
    expect(
      d.sources.every(
        (s: { source_type: string; sample_of: string; credibility_score: unknown }) =>
          s.source_type === 'sample' && ['academic', 'web'].includes(s.sample_of) && s.credibility_score === null,
      ),
    ).toBe(true);
    expect(d.grounding_metadata.web_search_queries).toEqual([]);
    expect(d.keyword_analysis.primary_keywords.length).toBeGreaterThan(0);
    expect(d.metadata).toMatchObject({ provider: 'local', searched: 'corpus', sources_wanted: 12 });
    expect(d.metadata.web_search).toContain('WEB_SEARCH_PROVIDER');
    const only = await post('/api/blog-writer/research', alice.key, {
      topic: 'content marketing',
      sources: ['industry'],
    });
    expect(only.body.data.sources.every((s: { sample_of: string }) => s.sample_of === 'industry')).toBe(true);
    expect(only.body.data.metadata.web_search).toBeUndefined();
  });

  it('POST /api/profnet-writer writes a post within 3,000 characters, with the given hashtags first', async () => {
    const r = await metered(schema.db, alice.userId, 1, () =>
      post('/api/profnet-writer', alice.key, {
        content_type: 'post',
        topic: 'Repurposing webinars into posts',
        tone: 'inspirational',
        include_hashtags: true,
        target_audience: 'B2B marketers',
        hashtags: ['#B2B', 'webinars'],
      }),
    );
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect([...d.content].length).toBeLessThanOrEqual(3000);
    expect(d.metadata.character_count).toBe([...d.content].length);
    expect(d.hashtags.slice(0, 2)).toEqual(['#B2B', '#Webinars']);
    for (const h of d.hashtags) expect(d.content).toContain(h);
    expect(d.call_to_action).toEqual(expect.any(String));
    const none = await post('/api/profnet-writer', alice.key, { topic: 'Hiring writers', include_hashtags: false });
    expect(none.body.data.hashtags).toEqual([]);
    expect(none.body.data.content).not.toMatch(/#\w/);
  });

  it('POST /api/content-strategy/generate quotes sources for every goal and content type', async () => {
    const r = await metered(schema.db, alice.userId, 1, () =>
      post('/api/content-strategy/generate', alice.key, {
        business_type: 'B2B SaaS',
        target_audience: 'marketing managers',
        goals: ['lead_generation', 'brand_awareness'],
        content_types: ['blog', 'social', 'email'],
      }),
    );
    expect(r.status).toBe(200);
    const s = r.body.data.strategy;
    expect(s.goals.map((g: { goal: string }) => g.goal)).toEqual(['lead_generation', 'brand_awareness']);
    expect(s.content_types.map((t: { content_type: string }) => t.content_type)).toEqual(['blog', 'social', 'email']);
    expect(s.content_pillars.length).toBeGreaterThan(0);
    const refs = new Set(s.references.map((x: { index: number }) => x.index));
    for (const g of s.goals) for (const a of g.approach) expect(refs.has(a.source)).toBe(true);
    expect(r.body.data.metadata.provider).toBe('local');
  });

  it('POST /api/content-strategy/personas develops one persona from the demographics given', async () => {
    const r = await metered(schema.db, alice.userId, 1, () =>
      post('/api/content-strategy/personas', alice.key, {
        business_niche: 'B2B SaaS',
        target_demographics: {
          age_range: '25-34',
          profession: 'Marketing Manager',
          pain_points: ['limited time', 'proving ROI'],
        },
      }),
    );
    expect(r.status).toBe(200);
    const [p] = r.body.data.personas;
    expect(r.body.data.personas).toHaveLength(1);
    expect(p.demographics).toEqual({ age_range: '25-34', profession: 'Marketing Manager' });
    expect(p.pain_points.map((x: { pain_point: string }) => x.pain_point)).toEqual(['limited time', 'proving ROI']);
    expect(p.label).toBe('Marketing managers, 25-34, in B2B SaaS');
  });

  it('refuses bad requests naming the field and calls without a key', async () => {
    const bad = await post('/api/blog-writer', alice.key, { word_count: 'many' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_REQUEST');
    expect(JSON.stringify(bad.body.error.details)).toContain('topic');
    const depth = await post('/api/blog-writer/research', alice.key, { topic: 'x', research_depth: 'deep' });
    expect(depth.status).toBe(400);
    const demo = await post('/api/content-strategy/personas', alice.key, {
      business_niche: 'x',
      target_demographics: {},
    });
    expect(demo.status).toBe(400);
    expect(JSON.stringify(demo.body.error.details)).toContain('target_demographics.pain_points');
    for (const path of [
      '/api/blog-writer',
      '/api/blog-writer/research',
      '/api/profnet-writer',
      '/api/content-strategy/generate',
      '/api/content-strategy/personas',
    ])
      expect((await call(`${api.url}${path}`, { method: 'POST', json: { topic: 't' } })).status).toBe(401);
  });

  it('a plan limit answers 429 UsageLimitExceededException: used up at the start, and reached inside the task', async () => {
    await clearOfMonthEnd(); // the used-up limit is this billing period's: the test must not run into the next one
    const carol = await api.user('free');
    const period = billingPeriod();
    await schema.db('quota_usage').insert({
      user_id: carol.userId,
      billing_period: period,
      limit_key: 'tokens',
      used: 100000,
      reserved: 0,
    });
    const before = await localCalls(carol.userId);
    const r = await post('/api/blog-writer', carol.key, { topic: 'Local SEO' });
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({
      success: false,
      error: 'UsageLimitExceededException',
      details: { provider: 'local', limit_type: 'tokens', current_usage: 100000, limit_value: 100000 },
    });
    // Room for the precheck but not for the call's reservation: the metered call inside the task refuses.
    await schema
      .db('quota_usage')
      .where({ user_id: carol.userId, billing_period: period, limit_key: 'tokens' })
      .update({ used: 99990 });
    const inside = await post('/api/profnet-writer', carol.key, { topic: 'Local SEO' });
    expect(inside.status).toBe(429);
    expect(inside.body).toMatchObject({ error: 'UsageLimitExceededException', details: { limit_type: 'tokens' } });
    expect(await localCalls(carol.userId)).toBe(before);
  });

  it('research, strategy and personas answer 429 UsageLimitExceededException at the limit and charge nothing', async () => {
    await clearOfMonthEnd(); // the used-up limit is this billing period's
    const erin = await api.user('free');
    await schema.db('quota_usage').insert({
      user_id: erin.userId,
      billing_period: billingPeriod(),
      limit_key: 'tokens',
      used: 100000,
      reserved: 0,
    });
    const requests: [string, unknown][] = [
      ['/api/blog-writer/research', { topic: 'content marketing', research_depth: 'basic' }],
      [
        '/api/content-strategy/generate',
        { business_type: 'B2B SaaS', goals: ['lead_generation'], content_types: ['blog'] },
      ],
      [
        '/api/content-strategy/personas',
        { business_niche: 'B2B SaaS', target_demographics: { age_range: '25-34', pain_points: ['limited time'] } },
      ],
    ];
    for (const [path, body] of requests) {
      const r = await metered(schema.db, erin.userId, 0, () => post(path, erin.key, body));
      expect([path, r.status]).toEqual([path, 429]);
      expect(r.body).toEqual({
        success: false,
        error: 'UsageLimitExceededException',
        message: expect.stringContaining('tokens'),
        details: { provider: 'local', limit_type: 'tokens', current_usage: 100000, limit_value: 100000 },
        user_id: erin.userId,
        timestamp: expect.any(String),
      });
    }
  });
});
