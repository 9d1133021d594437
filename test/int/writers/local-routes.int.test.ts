/**
 * Every route of both writers over HTTP with the offline `local` provider:
 * each generation runs its task workflow on the real Temporal server and
 * answers with its documented fields (or 202 and a task to poll), health,
 * preferences (applied as defaults to the next generation), engagement
 * analysis, batches with per-item results, content.generated delivered to a
 * registered webhook; 401 without a key and 404 for another user's task.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { call, JsonResponse } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { testKafka, testLogger, testTemporal, uniq } from '../../support/env';
import { startWritersWorker } from '../../support/writers-worker';
import { freePort, Receiver, startReceiver } from '../webhooks/receiver';
import { waitFor } from '../../support/wait';
import { clearOfMonthEnd } from '../../support/clock';
import { taskStatusProjection } from '../../../projections/task-status';
import { writerPreferencesProjection } from '../../../projections/writer-preferences';
import { writerBatchesProjection } from '../../../projections/writer-batches';
import { webhookDeliveriesProjection } from '../../../projections/webhook-deliveries';
import { parseAllowList } from '../../../infra/webhooks/ssrf';
import { WebhookDispatcher } from '../../../workers/dispatch/webhooks';
import { AD_FORMAT_LIMITS } from '../../../domain/writers/ad-formats';
import { usageStream } from '../../../domain/events/usage';
import { writerResultSchema } from '../../../api/writers/responses';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

jest.setTimeout(240000);

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validResult = ajv.compile(writerResultSchema);
/** The answer against the documented result schema (per-kind `content` included); the errors when it fails. */
const schemaErrors = (body: unknown) => (validResult(body) ? [] : validResult.errors);

const settings = {
  secretKey: randomBytes(32),
  allow: parseAllowList('127.0.0.1'),
  schedule: [0, 1, 1],
  // The receivers answer at once: a long attempt time-out keeps a loaded machine from turning one slow answer into
  // a second delivery of the same message (the tests count deliveries).
  attemptTimeoutMs: 30000,
};
const chars = (s: string) => [...s].length;
const sum = (xs: Array<{ duration_seconds: number }>) => xs.reduce((a, x) => a + x.duration_seconds, 0);

/** Per route: request body and what its documented fields must show. */
const ROUTES: Array<[string, Record<string, unknown>, (b: JsonResponse['body']) => void]> = [
  [
    '/api/profnet/generate-post',
    {
      topic: 'B2B social media strategy',
      content_type: 'tips',
      audience: 'marketing leads',
      multimedia: { include_image: true },
    },
    (b) => {
      expect(b.content).toMatchObject({
        hook: expect.any(String),
        body: expect.any(String),
        question: expect.any(String),
      });
      expect(b.content.call_to_action).toMatch(/comment|follow|save|repost/i);
      expect(b.content.hashtags.length).toBeGreaterThan(0);
      expect(b.content.hashtags.length).toBeLessThanOrEqual(5);
      expect(b.text.startsWith(b.content.hook)).toBe(true);
      expect(chars(b.text)).toBeLessThanOrEqual(3000);
      expect(b.rendering).toEqual([
        expect.objectContaining({
          asset: 'image',
          requested: true,
          status: 'not_available',
          prompt: expect.any(String),
        }),
        expect.objectContaining({ asset: 'video', requested: false, status: 'not_requested' }),
      ]);
    },
  ],
  [
    '/api/profnet/generate-article',
    { topic: 'content repurposing', target_words: 350 },
    (b) => {
      expect(b.content.title.length).toBeGreaterThan(5);
      expect(b.content.markdown.startsWith(`# ${b.content.title}`)).toBe(true);
      expect(b.content.sections.length).toBeGreaterThan(0);
      // The offline writer writes from relevance, not to a length: as many words as the sources about the topic
      // give (the research excerpts are short), never more than the target allows.
      expect(b.content.word_count).toBeGreaterThan(10);
      expect(b.content.word_count).toBeLessThanOrEqual(350 * 1.1);
      expect(b.content.references.length).toBeGreaterThan(0);
      for (const r of b.content.references) expect(b.sources.map((s: { url: string }) => s.url)).toContain(r.url);
      // ...and says so: what the article was built from and, when short, why (metadata.coverage, docs/providers.md).
      expect(b.metadata.coverage).toMatchObject({ basis: 'brief_and_sources', target_words: 350 });
      expect(b.metadata.coverage.sources_used).toBeGreaterThan(0);
    },
  ],
  [
    '/api/profnet/generate-video-post',
    {
      topic: 'video marketing for small teams',
      duration: '45_seconds',
      render: true,
      branding: { end_screen_cta: 'Book a call' },
      include_avatar: true,
      avatar: { use_personal: true },
    },
    (b) => {
      expect(b.content.avatar).toEqual({ include: true, use_personal: true, style: null }); // the request's names
      expect(sum(b.content.scenes)).toBe(45);
      expect(b.content.total_duration_seconds).toBe(45);
      expect(b.content.scenes.at(-1).narration).toBe('Book a call.');
      expect(b.content).toMatchObject({
        voice_notes: expect.any(String),
        branding_notes: expect.stringContaining('Book a call'),
      });
      expect(b.rendering).toEqual([
        expect.objectContaining({ asset: 'video', requested: true, status: 'not_available' }),
      ]);
    },
  ],
  [
    '/api/profnet/generate-carousel',
    {
      topic: 'email newsletters',
      slides: 5,
      content_slides: [{ focus: 'subject lines', visual_style: 'bold type' }],
      cta_slide: { action: 'Subscribe', link: 'https://example.com/news' },
    },
    (b) => {
      expect(b.content.slides.map((s: { kind: string }) => s.kind)).toEqual([
        'cover',
        'content',
        'content',
        'content',
        'cta',
      ]);
      expect(b.content.slides[1]).toMatchObject({
        title: 'Subject Lines',
        visual_notes: expect.stringContaining('bold type'),
      });
      expect(b.content.slides[4]).toMatchObject({ title: 'Subscribe', body: 'More at https://example.com/news' });
      expect(b.rendering[0]).toMatchObject({ asset: 'slide_images', status: 'not_requested' });
    },
  ],
  [
    '/api/socialnet-writer/post/generate',
    {
      topic: 'posting times on social media',
      engagement_hooks: { include_poll: true, include_question: true, add_cta: true },
    },
    (b) => {
      expect(b.content.poll.options.length).toBeGreaterThanOrEqual(2);
      expect(b.content.question).toMatch(/\?$/);
      expect(b.content.hashtags.length).toBeLessThanOrEqual(3);
    },
  ],
  [
    '/api/socialnet-writer/story/generate',
    { topic: 'local SEO', duration: '15_seconds', interactive_elements: ['poll'], call_to_action: 'Visit our profile' },
    (b) => {
      expect(sum(b.content.frames)).toBe(15);
      expect(
        b.content.frames.some(
          (f: { interactive_element?: { type: string } }) => f.interactive_element?.type === 'poll',
        ),
      ).toBe(true);
      expect(b.content.call_to_action).toBe('Visit our profile');
    },
  ],
  [
    '/api/socialnet-writer/reel/generate',
    { topic: 'headlines', duration: '30_seconds', hook_strength: 'strong', music_mood: 'calm' },
    (b) => {
      expect(sum(b.content.scenes)).toBe(30);
      expect(b.content).toMatchObject({ hook_strength: 'strong', music_notes: expect.stringContaining('calm') });
    },
  ],
  [
    '/api/socialnet-writer/carousel/generate',
    { topic: 'keyword research', slides: 4, content_distribution: { tips: 2 } },
    (b) => expect(b.content.slides).toHaveLength(4),
  ],
  [
    '/api/socialnet-writer/event/generate',
    {
      event_details: {
        name: 'Content Calendar Workshop',
        date: '2027-03-05T18:00:00Z',
        duration: '2 hours',
        type: 'workshop',
        target_audience: 'small business owners',
      },
      urgency_elements: 'Only 30 seats',
      include_social_proof: true,
      follow_up_content: true,
    },
    (b) => {
      expect(b.content.title).toBe('Content Calendar Workshop');
      expect(b.content.description).toContain('Friday 5 March 2027, 18:00 UTC');
      expect(b.content.urgency_line).toBe('Only 30 seats.');
      expect(b.content.follow_up_posts).toHaveLength(2);
      expect(b.content.schedule).toEqual({ date: '2027-03-05T18:00:00Z', duration: '2 hours', type: 'workshop' });
    },
  ],
  [
    '/api/socialnet-writer/group-post/generate',
    {
      topic: 'buyer personas',
      group_context: { group_type: 'marketing' },
      value_proposition: 'A persona template you can copy',
    },
    (b) => {
      expect(b.content.opening).toContain('marketing group');
      expect(b.content.discussion_question).toMatch(/\?$/);
      expect(b.content.body).toContain('A persona template you can copy.');
    },
  ],
  [
    '/api/socialnet-writer/page-about/generate',
    {
      business_type: 'bakery',
      industry: 'food',
      key_differentiators: ['sourdough baked daily', 'organic flour'],
      character_limit: 90,
    },
    (b) => {
      expect(chars(b.content.text)).toBeLessThanOrEqual(90);
      expect(b.content).toMatchObject({ character_limit: 90, character_count: chars(b.content.text) });
      expect(b.sources).toEqual([]);
    },
  ],
  [
    '/api/socialnet-writer/ad-copy/generate',
    {
      product_service: 'project management app',
      key_benefits: ['Plan sprints in minutes'],
      ad_format: 'carousel',
      campaign_objective: 'sign ups',
    },
    (b) => {
      const l = AD_FORMAT_LIMITS.carousel;
      expect(b.content.variants).toHaveLength(3);
      for (const v of b.content.variants) {
        expect(chars(v.primary_text)).toBeLessThanOrEqual(l.primary_text);
        expect(chars(v.headline)).toBeLessThanOrEqual(l.headline);
        expect(chars(v.description ?? '')).toBeLessThanOrEqual(l.description);
        expect(v.call_to_action).toBe('Sign Up');
      }
      expect(b.content.format_limits).toMatchObject({ headline: 32, checked_at: '2026-11-23' });
    },
  ],
];

describe('writers over HTTP (local provider)', () => {
  let api: TestApi;
  let worker: Awaited<ReturnType<typeof startWritersWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let dispatcher: WebhookDispatcher;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    temporal = await testTemporal();
    const taskQueue = uniq('writers');
    api = await startTestApi({
      logger: pino({ level: 'silent' }),
      projections: [
        taskStatusProjection,
        writerPreferencesProjection,
        writerBatchesProjection,
        webhookDeliveriesProjection,
      ],
      deps: { workflows: { client: async () => temporal.client, taskQueue } },
      webhookSettings: settings,
    });
    worker = await startWritersWorker(api.schema.db, { taskQueue, webhookSettings: settings, deliveries: true });
    dispatcher = new WebhookDispatcher(
      api.schema.db,
      api.store,
      testKafka(),
      async () => temporal.client,
      testLogger(),
      {
        topicPrefix: api.schema.topicPrefix,
        taskQueue,
      },
    );
    await dispatcher.start();
    alice = (await api.user('pro')).key;
    bob = (await api.user('pro')).key;
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
  });

  const post = (p: string, json: unknown, k: string | null = alice, headers: Record<string, string> = {}) =>
    call(`${api.url}${p}`, { method: 'POST', headers: { ...(k ? bearer(k) : {}), ...headers }, json });
  const put = (p: string, json: unknown, k: string | null = alice) =>
    call(`${api.url}${p}`, { method: 'PUT', headers: k ? bearer(k) : {}, json });
  const get = (p: string, k: string | null = alice) => call(`${api.url}${p}`, { headers: k ? bearer(k) : {} });
  /**
   * A generation as a client runs it: wait up to 60 s in the request; on a slow (shared) machine the answer may
   * still be 202, and then the task's status route gives the same body once the task completes.
   */
  const generate = async (p: string, json: unknown, k: string = alice): Promise<JsonResponse> => {
    const r = await post(p, json, k, { prefer: 'wait=60' });
    if (r.status !== 202) return r;
    const done = async () => ['completed', 'failed'].includes((await get(r.body.status_url, k)).body.status);
    await waitFor('task finished', done, 180000, 250);
    const t = await get(r.body.status_url, k);
    return { ...t, status: t.body.status === 'completed' ? 200 : 500, body: t.body.result ?? t.body };
  };

  it.each(['/api/profnet/health', '/api/socialnet-writer/health'])(
    'GET %s: health report; 401 without a key',
    async (p) => {
      const r = await get(p);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'healthy', version: expect.any(String) });
      expect(new Date(r.body.timestamp).toISOString()).toBe(r.body.timestamp);
      expect(r.body.services).toMatchObject({
        postgres: 'healthy',
        temporal: 'healthy',
        image_studio: 'not_available',
        video_studio: 'not_available',
      });
      expect(r.body.providers).toMatchObject({ text: 'local', research: 'corpus' });
      expect(r.body.modules).toMatchObject({
        post: 'available',
        carousel: 'available',
        batch: 'available',
        video_rendering: 'not_available',
      });
      const anon = await get(p, null);
      expect([anon.status, anon.body.error.code]).toEqual([401, 'INVALID_API_KEY']);
    },
  );

  it.each(ROUTES)('POST %s: the documented fields, local provider; 401 without a key', async (path, body, check) => {
    const r = await generate(path, body);
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b).toMatchObject({
      success: true,
      task_id: expect.any(String),
      text: expect.any(String),
      defaults_applied: [],
    });
    expect(b.metadata).toMatchObject({ provider: 'local', offline: true, model: expect.any(String), cost: 0 });
    expect(b.metadata.tokens_out).toBeGreaterThan(0);
    expect(b.limits).toMatchObject({ format: `${b.platform}:${b.content_type}`, checked_at: '2026-11-23' });
    if (b.engagement_prediction) {
      expect(Object.keys(b.engagement_prediction).sort()).toEqual([
        'comment_probability',
        'like_probability',
        'overall_score',
        'save_probability',
        'share_probability',
      ]);
      expect(b.engagement_factors.length).toBe(10); // engagement-v2: + relevance, repetition
    }
    check(b);
    expect(schemaErrors(b)).toEqual([]);
    // The task record holds the same result (read from the task projection).
    await waitFor(
      'task completed',
      async () => (await get(`/api/${path.split('/')[2]}/tasks/${b.task_id}`)).body.status === 'completed',
      30000,
      100,
    );
    const t = await get(`/api/${path.split('/')[2]}/tasks/${b.task_id}`);
    expect(t.body.result.text).toBe(b.text);
    const anon = await post(path, body, null);
    expect(anon.status).toBe(401);
  });

  it('a thin brief: the article is not padded, and metadata.coverage says why it is short', async () => {
    const r = await generate('/api/profnet/generate-article', {
      topic: 'Quarterly zine swap at the Riverside Books back room',
      target_words: 800,
    });
    expect(r.status).toBe(200);
    expect(r.body.content.word_count).toBeLessThan(400);
    expect(r.body.metadata.coverage).toMatchObject({ basis: 'brief', sources_used: 0, target_words: 800 });
    expect(r.body.metadata.coverage.shortfall).toContain('of 800 words');
    expect(schemaErrors(r.body)).toEqual([]);
    // Kinds without a length to fall short of carry no coverage.
    const p = await generate('/api/profnet/generate-post', { topic: 'Quarterly zine swap' });
    expect(p.body.metadata.coverage).toBeUndefined();
  });

  it('a local generation is metered once: one UsageRecorded (local, cost 0) with the tokens of its metadata', async () => {
    await clearOfMonthEnd(); // the meter counts per billing period: before and after in the same one
    const dave = await api.user('pro');
    const records = async () =>
      (
        await api.schema
          .db('es_events')
          .where({ stream_id: usageStream(dave.userId), type: 'UsageRecorded' })
          .select('data')
      ).map((x: { data: Record<string, unknown> }) => x.data);
    const before = (await worker.meter.current(dave.userId)).tokens?.used ?? 0;
    expect(await records()).toEqual([]);
    const r = await generate('/api/socialnet-writer/page-about/generate', { business_type: 'bakery' }, dave.key);
    expect(r.status).toBe(200);
    const m = r.body.metadata;
    expect(m).toMatchObject({ provider: 'local', offline: true, cost: 0 });
    expect(m.tokens_in + m.tokens_out).toBeGreaterThan(0);
    const after = (await worker.meter.current(dave.userId)).tokens?.used ?? 0;
    expect(after - before).toBe(m.tokens_in + m.tokens_out);
    expect(await records()).toEqual([
      expect.objectContaining({
        user_id: dave.userId,
        provider: 'local',
        calls: 1,
        tokens_in: m.tokens_in,
        tokens_out: m.tokens_out,
        cost: 0,
      }),
    ]);
  });

  it('Prefer: respond-async answers 202 with a task to poll; another user gets 404; 401 without a key', async () => {
    const r = await post('/api/socialnet-writer/post/generate', { topic: 'content calendars' }, alice, {
      prefer: 'respond-async',
    });
    expect(r.status).toBe(202);
    expect(r.headers.get('preference-applied')).toBe('respond-async');
    expect(r.body).toMatchObject({
      success: true,
      status: expect.stringMatching(/started|in_progress/),
      task_id: expect.stringMatching(/^socialnet-post-/),
    });
    expect(r.headers.get('location')).toBe(r.body.status_url);
    await waitFor('completed', async () => (await get(r.body.status_url)).body.status === 'completed', 60000, 200);
    const done = await get(r.body.status_url);
    expect(done.body).toMatchObject({
      task_type: 'socialnet_post',
      result: { content_type: 'post', platform: 'socialnet' },
    });
    expect(done.body.progress_messages.length).toBeGreaterThanOrEqual(3);
    expect((await get(r.body.status_url, bob)).status).toBe(404);
    expect((await get(r.body.status_url, null)).status).toBe(401);
    // A profnet task id is not found under the other writer's prefix.
    expect((await get(`/api/profnet/tasks/${r.body.task_id}`)).status).toBe(404);
    expect((await get('/api/profnet/tasks/profnet-post-00000000-0000-0000-0000-000000000000')).status).toBe(404);
  });

  it('user preferences: stored as events, applied as defaults to the next generation; per user; 401', async () => {
    const empty = await get('/api/profnet/user/preferences');
    expect(empty.body).toMatchObject({ success: true, saved: false, version: 0, updated_at: null });
    const saved = await post('/api/profnet/user/preferences', {
      content_defaults: { tone: 'playful', industry: 'retail', include_hashtags: false, max_length: 400 },
      multimedia_defaults: { video_style: 'whiteboard animation', voice_preference: 'warm' },
      brand_settings: { colors: ['#ff6600'], brand_voice: 'plain-spoken', logo_url: 'https://example.com/logo.png' },
    });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({
      saved: true,
      version: 1,
      preferences: { content_defaults: { tone: 'playful' } },
    });
    expect((await get('/api/profnet/user/preferences')).body.preferences.brand_settings.colors).toEqual(['#ff6600']);

    const gen = await generate('/api/profnet/generate-post', { topic: 'Loyalty programmes' });
    expect(gen.status).toBe(200);
    const applied = Object.fromEntries(
      gen.body.defaults_applied.map((d: { field: string; value: unknown }) => [d.field, d.value]),
    );
    expect(applied).toMatchObject({ tone: 'playful', industry: 'retail', include_hashtags: false, max_length: 400 });
    expect(gen.body.content.hashtags).toEqual([]);
    expect(chars(gen.body.text)).toBeLessThanOrEqual(400);
    expect(gen.body.limits.max_characters).toBe(400);

    const video = await generate('/api/profnet/generate-video-post', { topic: 'Store tours', duration: '20_seconds' });
    expect(video.body.defaults_applied.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(['style', 'voice_type', 'brand_colors']),
    );
    expect(video.body.content.audio.voice.type).toBe('warm');

    const merged = await put('/api/profnet/user/preferences', {
      content_defaults: { tone: 'formal', max_length: null },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.preferences.content_defaults).toEqual({
      tone: 'formal',
      industry: 'retail',
      include_hashtags: false,
    });
    expect(merged.body.changed).toEqual(['content_defaults.max_length', 'content_defaults.tone']);
    const next = await generate('/api/profnet/generate-post', { topic: 'Loyalty programmes' });
    expect(next.body.defaults_applied).toContainEqual({
      field: 'tone',
      from: 'content_defaults.tone',
      value: 'formal',
    });
    expect(next.body.limits.max_characters).toBe(3000);

    // Bob's generations and preferences are his own.
    expect((await get('/api/profnet/user/preferences', bob)).body.saved).toBe(false);
    expect(
      (await generate('/api/profnet/generate-post', { topic: 'Loyalty programmes' }, bob)).body.defaults_applied,
    ).toEqual([]);
    const bad = await put('/api/profnet/user/preferences', { brand_settings: { logo_url: 'ftp://x' } });
    expect([bad.status, bad.body.error.details.parameter]).toEqual([400, 'brand_settings.logo_url']);
    expect((await get('/api/profnet/user/preferences', null)).status).toBe(401);
    expect((await post('/api/profnet/user/preferences', {}, null)).status).toBe(401);
    expect((await put('/api/profnet/user/preferences', {}, null)).status).toBe(401);
  });

  it('POST /api/socialnet-writer/engagement/analyze: prediction, suggestions, improvements, factors; 401', async () => {
    const r = await post('/api/socialnet-writer/engagement/analyze', {
      content:
        'Planning a month of posts? Here is how we do it.\n\nWe map launches first, then fill the gaps. Share your method in the comments below!\n\n#ContentPlanning',
      platform_context: 'profnet feed',
      audience_demographics: { age_range: '25-44', interests: ['planning', 'launches'] },
      historical_performance: {
        similar_content_avg_engagement: 3.1,
        platform_benchmarks: { industry: 'saas', content_type: 'post' },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, platform: 'profnet', content_type: 'post', model: 'engagement-v2' });
    expect(r.body.engagement_prediction.overall_score).toBeGreaterThan(50);
    expect(Object.keys(r.body.content_improvements).sort()).toEqual([
      'call_to_action_strength',
      'emotional_engagement',
      'readability_score',
    ]);
    expect(r.body.content_improvements.call_to_action_strength).toBe(100);
    expect(Array.isArray(r.body.optimization_suggestions)).toBe(true);
    expect(r.body.factors.map((f: { factor: string }) => f.factor)).toContain('historical_performance');
    const bad = await post('/api/socialnet-writer/engagement/analyze', { platform_context: 'x' });
    expect([bad.status, bad.body.error.details.parameter]).toEqual([400, 'content']);
    expect((await post('/api/socialnet-writer/engagement/analyze', { content: 'x' }, null)).status).toBe(401);
  });

  it.each([
    [
      '/api/profnet/batch-generate',
      'profnet',
      [
        { type: 'post', topic: 'remote onboarding' },
        { type: 'article', topic: 'remote onboarding', target_words: 200 },
        { type: 'video_post', topic: 'remote onboarding', duration: '20_seconds' },
      ],
    ],
    [
      '/api/socialnet-writer/batch/generate',
      'socialnet',
      [
        { type: 'story', topic: 'local SEO' },
        { type: 'page_about', business_type: 'florist', character_limit: 100 },
        { type: 'ad_copy', product_service: 'flower delivery', ad_format: 'stories' },
      ],
    ],
  ])(
    'POST %s: a batch workflow with per-item results; status route; 404 for another user; 401',
    async (path, platform, requests) => {
      const r = await post(path, { requests, options: { parallel_processing: true, priority: 'high' } });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({
        success: true,
        status: 'started',
        total: 3,
        batch_id: expect.stringMatching(new RegExp(`^${platform}-batch-`)),
      });
      expect(r.body.notification).toBeUndefined();
      await waitFor(
        'batch completed',
        async () => {
          const s = await get(r.body.status_url);
          return s.body.status === 'completed' && s.body.items.every((i: { result?: unknown }) => i.result);
        },
        120000,
        300,
      );
      const s = await get(r.body.status_url);
      expect(s.body).toMatchObject({ platform, total: 3, succeeded: 3, failed: 0, pending: 0 });
      expect(s.body.items.map((i: { type: string }) => i.type)).toEqual(requests.map((x) => x.type));
      for (const item of s.body.items) {
        expect(item).toMatchObject({ status: 'completed', task_id: `${r.body.batch_id}-item-${item.index}` });
        expect(item.result).toMatchObject({ success: true, content_type: item.type, metadata: { provider: 'local' } });
      }
      expect((await get(r.body.status_url, bob)).status).toBe(404);
      expect((await get(r.body.status_url, null)).status).toBe(401);
      expect((await post(path, { requests }, null)).status).toBe(401);
    },
  );

  it('refuses malformed requests with the field path (400 INVALID_REQUEST)', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/api/profnet/generate-post', {}, 'topic'],
      ['/api/profnet/generate-video-post', { topic: 'x', duration: '700_seconds' }, 'duration'],
      ['/api/profnet/generate-video-post', { topic: 'x', duration: 'one minute' }, 'duration'],
      ['/api/socialnet-writer/ad-copy/generate', { product_service: 'x', ad_format: 'billboard' }, 'ad_format'],
      ['/api/socialnet-writer/page-about/generate', { business_type: 'x', character_limit: 5 }, 'character_limit'],
      [
        '/api/profnet/batch-generate',
        { requests: [{ type: 'post', topic: 'ok' }, { type: 'post' }] },
        'requests.1.topic',
      ],
      ['/api/profnet/batch-generate', { requests: [{ type: 'story', topic: 'x' }] }, 'requests.0.type'],
      [
        '/api/socialnet-writer/batch/generate',
        { requests: [{ type: 'reel', topic: 'x', duration: '95_seconds' }] },
        'requests.0.duration',
      ],
      [
        '/api/profnet/batch-generate',
        { requests: [{ type: 'post', topic: 'x' }], options: { notification_webhook: 'http://10.0.0.1/hook' } },
        'options.notification_webhook',
      ],
    ];
    for (const [path, body, field] of cases) {
      const r = await post(path, body);
      expect([path, r.status, r.body.error?.code, r.body.error?.details?.parameter]).toEqual([
        path,
        400,
        'INVALID_REQUEST',
        field,
      ]);
    }
    // A duration that fits none of the forms is told them.
    const vague = await post('/api/socialnet-writer/story/generate', { topic: 'x', duration: 'one minute' });
    expect(vague.body.error.message).toContain('60_seconds');
  });

  it('story and reel durations: the spec form, a number of seconds, or seconds as text with or without a unit', async () => {
    for (const [path, duration, unitOf] of [
      ['/api/socialnet-writer/story/generate', 30, 'frames'],
      ['/api/socialnet-writer/story/generate', '30', 'frames'],
      ['/api/socialnet-writer/reel/generate', '30s', 'scenes'],
      ['/api/socialnet-writer/reel/generate', '30 seconds', 'scenes'],
    ] as const) {
      const r = await generate(path, { topic: 'headlines that earn the click', duration });
      expect([path, duration, sum(r.body.content[unitOf])]).toEqual([path, duration, 30]);
    }
  });

  it('a generation emits content.generated to a registered webhook', async () => {
    const port = await freePort();
    let rx: Receiver | undefined;
    try {
      rx = await startReceiver(() => 200, port);
      const reg = await post('/api/webhooks', { url: rx.url, events: ['content.generated', 'content_generated'] });
      expect(reg.status).toBe(201);
      const r = await generate('/api/socialnet-writer/group-post/generate', { topic: 'buyer personas' });
      expect(r.status).toBe(200);
      await waitFor('two webhook messages', () => rx!.accepted().length >= 2, 60000, 200);
      const bodies = rx.accepted().map((x) => JSON.parse(x.body));
      const generated = bodies.find((x) => x.event_type === 'content.generated');
      expect(generated.data).toMatchObject({ task_id: r.body.task_id, task_type: 'socialnet_group_post' });
      expect(bodies.find((x) => x.event_type === 'content_generated').content).toBe(r.body.text);
    } finally {
      await rx?.close();
    }
  });
});
