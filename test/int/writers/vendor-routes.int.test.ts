/**
 * Every generation route of both writers with a scripted OpenAI-compatible
 * vendor on loopback: the vendor is asked for the kind's JSON draft, its
 * answer goes through the same finishing rules as `local` (limits, timing,
 * slide counts), the call is metered with the vendor's usage, and an
 * unusable answer is 502. A batch of 10 with one failing vendor call gives
 * 9 results and 1 error, and its notification webhook is delivered once,
 * verified with the `standardwebhooks` package.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { call, JsonResponse } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { testTemporal, uniq } from '../../support/env';
import { completion, FakeVendor, startFakeVendor, Step } from '../../support/fake-vendor';
import { startWritersWorker } from '../../support/writers-worker';
import { Receiver, startReceiver } from '../webhooks/receiver';
import { waitFor } from '../../support/wait';
import { clearOfMonthEnd } from '../../support/clock';
import { createOpenAiCompatibleClient } from '../../../infra/ai/openai-compatible';
import { parseAllowList } from '../../../infra/webhooks/ssrf';
import { taskStatusProjection } from '../../../projections/task-status';
import { writerPreferencesProjection } from '../../../projections/writer-preferences';
import { writerBatchesProjection } from '../../../projections/writer-batches';
import { AD_FORMAT_LIMITS } from '../../../domain/writers/ad-formats';
import { writerResultSchema } from '../../../api/writers/responses';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

jest.setTimeout(240000);

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validResult = ajv.compile(writerResultSchema);

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
const LONG = 'Teams that plan their content a month ahead publish more consistently and waste less effort. ';

type Check = (b: JsonResponse['body']) => void;
/** Route, request, the vendor's draft, and what the finished body must show. */
const ROUTES: Array<[string, Record<string, unknown>, unknown, Check]> = [
  [
    '/api/profnet/generate-post',
    { topic: 'content planning', max_length: 300 },
    {
      hook: 'Plan a month, not a week.',
      body: LONG.repeat(6),
      question: 'How far ahead do you plan?',
      call_to_action: 'Share your approach in the comments.',
      hashtags: ['content planning', 'marketing', 'b2b', 'calendar', 'strategy', 'growth', 'teams', 'focus'],
    },
    (b) => {
      expect(chars(b.text)).toBeLessThanOrEqual(300);
      expect(b.content.hashtags).toHaveLength(5);
      expect(b.text).toContain('How far ahead do you plan?');
      expect(b.text).toContain('Share your approach in the comments.');
      expect(b.limits.adjustments.map((a: { rule: string; field: string }) => `${a.field}:${a.rule}`)).toEqual(
        expect.arrayContaining(['content.hashtags:max_hashtags', 'content.body:max_characters']),
      );
      // Shortened at a sentence boundary: the body ends with a whole sentence.
      expect(b.content.body).toMatch(/effort\.$/);
    },
  ],
  [
    '/api/profnet/generate-article',
    { topic: 'content planning' },
    {
      title: 'Why Planning Wins',
      sections: [{ heading: 'The case', body: 'Plans help [1]. Calendars help more [2].' }],
      hashtags: ['planning'],
    },
    (b) => {
      expect(b.content.title).toBe('Why Planning Wins');
      expect(b.content.markdown).toContain('## The case');
      expect(b.content.references.map((r: { index: number }) => r.index)).toEqual([1, 2]);
    },
  ],
  [
    '/api/profnet/generate-video-post',
    { topic: 'content planning', duration: '60_seconds' },
    {
      title: 'Plan ahead',
      hook: 'Plan ahead.',
      scenes: [
        { duration_seconds: 10, narration: 'Plan ahead.', visual: 'host', on_screen_text: 'Plan' },
        { duration_seconds: 10, narration: 'Use a calendar.', visual: 'screen', on_screen_text: 'Calendar' },
        { duration_seconds: 10, narration: 'Follow for more.', visual: 'end card', on_screen_text: 'Follow' },
      ],
      caption: 'Planning in a minute.',
      hashtags: ['planning'],
      voice_notes: 'calm',
      branding_notes: 'logo bottom right',
    },
    (b) => {
      expect(sum(b.content.scenes)).toBe(60);
      expect(b.content.scenes.map((s: { start_seconds: number }) => s.start_seconds)).toEqual([0, 20, 40]);
      expect(b.limits.adjustments).toContainEqual(expect.objectContaining({ rule: 'duration', before: 30, after: 60 }));
    },
  ],
  [
    '/api/profnet/generate-carousel',
    { topic: 'content planning', slides: 4 },
    {
      slides: Array.from({ length: 7 }, (_, i) => ({
        kind: 'content',
        title: `Slide ${i + 1}`,
        body: 'Body.',
        visual_notes: 'clean',
      })),
      caption: 'Swipe.',
      hashtags: [],
    },
    (b) => {
      expect(b.content.slides.map((s: { kind: string; title: string }) => `${s.kind}:${s.title}`)).toEqual([
        'cover:Slide 1',
        'content:Slide 2',
        'content:Slide 3',
        'cta:Slide 7',
      ]);
      expect(b.limits.adjustments).toContainEqual(expect.objectContaining({ rule: 'slides', before: 7, after: 4 }));
    },
  ],
  [
    '/api/socialnet-writer/post/generate',
    { topic: 'content planning', include_emoji: false },
    {
      hook: 'Plan ahead 🚀🚀',
      body: 'Calendars help 🎉.',
      question: 'Do you plan?',
      call_to_action: 'Tell us below 👇',
      hashtags: ['plan'],
    },
    (b) => {
      expect(b.text).not.toMatch(/\p{Extended_Pictographic}/u);
      expect(b.limits.max_emoji).toBe(0);
    },
  ],
  [
    '/api/socialnet-writer/story/generate',
    { topic: 'content planning', duration: '15_seconds' },
    {
      frames: [
        { duration_seconds: 5, text: 'Plan', visual_notes: 'bold' },
        { duration_seconds: 5, text: 'Go', visual_notes: 'bold' },
      ],
      call_to_action: 'Follow',
    },
    (b) => expect(sum(b.content.frames)).toBe(15),
  ],
  [
    '/api/socialnet-writer/reel/generate',
    { topic: 'content planning', duration: '7_seconds' },
    {
      hook: 'Plan!',
      scenes: Array.from({ length: 9 }, (_, i) => ({
        duration_seconds: 1,
        narration: `Point ${i + 1}.`,
        visual: 'cut',
      })),
      caption: 'Plan',
      hashtags: [],
      music_notes: 'upbeat',
    },
    (b) => {
      expect(b.content.scenes).toHaveLength(7);
      expect(sum(b.content.scenes)).toBe(7);
    },
  ],
  [
    '/api/socialnet-writer/carousel/generate',
    { topic: 'content planning', slides: 3 },
    { slides: [{ title: 'A' }, { title: 'B' }, { title: 'C' }], caption: 'Swipe', hashtags: [] },
    (b) => expect(b.content.slides.map((s: { kind: string }) => s.kind)).toEqual(['cover', 'content', 'cta']),
  ],
  [
    '/api/socialnet-writer/event/generate',
    { event_details: { name: 'Planning Day' } },
    {
      title: 'Planning Day: a very long title that goes well beyond what the platform shows for events',
      description: 'A day of planning.',
      highlights: ['calendars'],
      announcement_post: 'Join us!',
      reminder_post: 'Tomorrow!',
      follow_up_posts: ['Thanks!'],
      hashtags: [],
    },
    (b) => {
      expect(chars(b.content.title)).toBeLessThanOrEqual(64);
      expect(b.content.follow_up_posts).toEqual([]);
    },
  ],
  [
    '/api/socialnet-writer/group-post/generate',
    { topic: 'content planning' },
    { opening: 'Hi all.', body: 'How do you plan?', discussion_question: 'What works?', hashtags: ['a', 'b', 'c'] },
    (b) => expect(b.content.hashtags).toEqual([]),
  ],
  [
    '/api/socialnet-writer/page-about/generate',
    { business_type: 'bakery', character_limit: 60 },
    { text: 'We bake sourdough every morning. We deliver across the city for free. Order today.' },
    (b) => expect(b.content.text).toBe('We bake sourdough every morning.'),
  ],
  [
    '/api/socialnet-writer/ad-copy/generate',
    { product_service: 'planner app', ad_format: 'reels' },
    {
      variants: [
        {
          angle: 'benefit',
          primary_text: LONG,
          headline: 'Plan your whole month',
          description: 'Free',
          call_to_action: 'download',
        },
      ],
    },
    (b) => {
      const v = b.content.variants[0];
      expect(chars(v.primary_text)).toBeLessThanOrEqual(AD_FORMAT_LIMITS.reels.primary_text);
      expect(chars(v.headline)).toBeLessThanOrEqual(AD_FORMAT_LIMITS.reels.headline);
      expect(v.description).toBeUndefined();
      expect(v.call_to_action).toBe('Download');
    },
  ],
];

describe('writers over HTTP (scripted OpenAI-compatible vendor)', () => {
  let api: TestApi;
  let vendor: FakeVendor;
  const script: Step[] = [];
  let worker: Awaited<ReturnType<typeof startWritersWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let alice: string;
  let aliceId: string;
  let bob: string;

  /** The next vendor requests get these answers, in order. */
  const answer = (...steps: Step[]) => {
    const base = vendor.requests.length;
    script.length = base;
    steps.forEach((s, i) => (script[base + i] = s));
  };

  beforeAll(async () => {
    temporal = await testTemporal();
    vendor = await startFakeVendor(script);
    const taskQueue = uniq('writers-vendor');
    api = await startTestApi({
      logger: pino({ level: 'silent' }),
      projections: [taskStatusProjection, writerPreferencesProjection, writerBatchesProjection],
      deps: { workflows: { client: async () => temporal.client, taskQueue }, aiProvider: 'vendor_a' },
      webhookSettings: settings,
    });
    const client = createOpenAiCompatibleClient({
      provider: 'vendor_a',
      baseUrl: vendor.baseUrl,
      apiKey: 'sk-test',
      model: 'gpt-4o-mini',
      // One answer is slow on purpose (3 s, to outlast a 1 s wait): a time-out far above it, whatever the machine's
      // load. No test here is about time-outs (test/int/ai/openai-compatible.int.test.ts is).
      timeoutMs: 30000,
      maxRetries: 0,
    });
    worker = await startWritersWorker(api.schema.db, {
      taskQueue,
      webhookSettings: settings,
      vendors: { vendor_a: client },
    });
    const a = await api.user('pro');
    alice = a.key;
    aliceId = a.userId;
    bob = (await api.user('pro')).key;
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await vendor?.close();
    await temporal?.connection.close();
  });

  const post = (p: string, json: unknown, k: string | null = alice, headers: Record<string, string> = {}) =>
    call(`${api.url}${p}`, { method: 'POST', headers: { ...(k ? bearer(k) : {}), ...headers }, json });
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

  it.each(['/api/profnet/health', '/api/socialnet-writer/health'])('GET %s names the configured vendor', async (p) => {
    const r = await get(p);
    expect(r.status).toBe(200);
    expect(r.body.providers.text).toBe('vendor_a');
    expect(r.body.services.text_generation).toBe('configured');
  });

  it('user preferences (GET, POST, PUT) are the defaults of the next vendor generation and reach its prompt', async () => {
    const carol = (await api.user('pro')).key;
    const put = (json: unknown) =>
      call(`${api.url}/api/profnet/user/preferences`, { method: 'PUT', headers: bearer(carol), json });
    expect((await get('/api/profnet/user/preferences', carol)).body).toMatchObject({ saved: false, version: 0 });
    const saved = await post(
      '/api/profnet/user/preferences',
      {
        content_defaults: { tone: 'wry', industry: 'cold-chain logistics', include_hashtags: false },
        brand_settings: { brand_voice: 'dry and precise', colors: ['#123456'] },
      },
      carol,
    );
    expect([saved.status, saved.body.version]).toEqual([201, 1]);
    const merged = await put({ content_defaults: { tone: 'plainspoken' } });
    expect(merged.status).toBe(200);
    expect(merged.body.changed).toEqual(['content_defaults.tone']);
    expect((await get('/api/profnet/user/preferences', carol)).body.preferences.content_defaults).toEqual({
      tone: 'plainspoken',
      industry: 'cold-chain logistics',
      include_hashtags: false,
    });

    answer({
      body: completion(
        JSON.stringify({
          hook: 'Cold chains break quietly.',
          body: 'Most spoilage starts at handover.',
          question: 'Where does yours break?',
          call_to_action: 'Tell me in the comments.',
          hashtags: ['logistics', 'coldchain'],
        }),
      ),
    });
    const before = vendor.requests.length;
    const r = await generate('/api/profnet/generate-post', { topic: 'temperature logging' }, carol);
    expect(r.status).toBe(200);
    expect(r.body.metadata.provider).toBe('vendor_a');
    expect(r.body.defaults_applied).toEqual(
      expect.arrayContaining([
        { field: 'tone', from: 'content_defaults.tone', value: 'plainspoken' },
        { field: 'industry', from: 'content_defaults.industry', value: 'cold-chain logistics' },
        { field: 'include_hashtags', from: 'content_defaults.include_hashtags', value: false },
      ]),
    );
    // The vendor was asked with the stored defaults, and its hashtags were dropped as the preference says.
    expect(vendor.requests.length).toBe(before + 1);
    const prompt = (vendor.requests[before].body as { messages: Array<{ content: string }> }).messages
      .map((m) => m.content)
      .join('\n');
    expect(prompt).toContain('Tone: plainspoken');
    expect(prompt).toContain('Industry: cold-chain logistics');
    expect(prompt).toContain('Brand voice: dry and precise');
    expect(prompt).not.toContain('Tone: wry');
    expect(r.body.content.hashtags).toEqual([]);

    // The request wins over the preference.
    answer({
      body: completion(JSON.stringify({ hook: 'Log it.', body: 'Logs help.', question: 'Do you log?', hashtags: [] })),
    });
    const own = await generate('/api/profnet/generate-post', { topic: 'temperature logging', tone: 'urgent' }, carol);
    expect(own.status).toBe(200);
    expect(own.body.defaults_applied.map((d: { field: string }) => d.field)).not.toContain('tone');
    const ownPrompt = (vendor.requests[before + 1].body as { messages: Array<{ content: string }> }).messages
      .map((m) => m.content)
      .join('\n');
    expect(ownPrompt).toContain('Tone: urgent');
  });

  it('engagement/analyze is the deterministic model: no vendor call even with a vendor configured', async () => {
    const before = vendor.requests.length;
    const r = await post('/api/socialnet-writer/engagement/analyze', {
      content: 'Do you plan your posts a month ahead? Tell us in the comments today!',
      platform_context: 'socialnet post',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      model: expect.stringMatching(/^engagement-v2/),
      engagement_prediction: { overall_score: expect.any(Number) },
      content_improvements: {
        readability_score: expect.any(Number),
        emotional_engagement: expect.any(Number),
        call_to_action_strength: expect.any(Number),
      },
    });
    expect(vendor.requests.length).toBe(before);
  });

  it.each(ROUTES)('POST %s: vendor draft, finished by the same rules', async (path, body, draft, check) => {
    answer({
      body: completion(`\`\`\`json\n${JSON.stringify(draft)}\n\`\`\``, {
        usage: { prompt_tokens: 420, completion_tokens: 180 },
      }),
    });
    const before = vendor.requests.length;
    const r = await generate(path, body);
    expect(r.status).toBe(200);
    expect(vendor.requests.length).toBe(before + 1);
    const sent = vendor.requests[before];
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    const messages = (sent.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(messages[0].content).toMatch(/Answer with one JSON object only/);
    expect(r.body.metadata).toMatchObject({
      provider: 'vendor_a',
      offline: false,
      tokens_in: 420,
      tokens_out: 180,
      token_source: 'vendor',
    });
    expect(r.body.metadata.cost).toBeGreaterThan(0);
    check(r.body);
    // The answer has the documented shape, its `content` the shape of its kind.
    expect(validResult(r.body) ? [] : validResult.errors).toEqual([]);
  });

  it('each generation is metered against the plan with the vendor-reported tokens', async () => {
    await clearOfMonthEnd(); // the meter counts per billing period: before and after in the same one
    const before = (await worker.meter.current(aliceId)).tokens?.used ?? 0;
    answer({
      body: completion(JSON.stringify({ text: 'We bake bread.' }), {
        usage: { prompt_tokens: 300, completion_tokens: 50 },
      }),
    });
    const r = await generate('/api/socialnet-writer/page-about/generate', { business_type: 'bakery' });
    expect(r.status).toBe(200);
    const after = (await worker.meter.current(aliceId)).tokens?.used ?? 0;
    expect(after - before).toBe(350);
  });

  it('work that outlasts the wait answers 202; the task completes and its status carries the result', async () => {
    answer({ delayMs: 3000, body: completion(JSON.stringify({ text: 'We bake bread every morning.' })) });
    const r = await call(`${api.url}/api/socialnet-writer/page-about/generate`, {
      method: 'POST',
      headers: { ...bearer(alice), prefer: 'wait=1' },
      json: { business_type: 'bakery' },
    });
    expect(r.status).toBe(202);
    expect(r.headers.get('preference-applied')).toBe('wait=1');
    expect(r.body).toMatchObject({ success: true, task_id: expect.stringMatching(/^socialnet-page-about-/) });
    await waitFor('completed', async () => (await get(r.body.status_url)).body.status === 'completed', 60000, 200);
    expect((await get(r.body.status_url)).body.result.content.text).toBe('We bake bread every morning.');
  });

  it('an unusable vendor answer is 502 UPSTREAM_ERROR naming VENDOR_BAD_RESPONSE; no content is made up', async () => {
    answer({ body: completion('Sure! Here is your post about planning.') });
    const r = await post('/api/profnet/generate-post', { topic: 'content planning' }, alice, { prefer: 'wait=60' });
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({
      success: false,
      error: { code: 'UPSTREAM_ERROR', details: { code: 'VENDOR_BAD_RESPONSE' } },
    });
    const wrongShape =
      (answer({ body: completion(JSON.stringify({ text: 'no hook' })) }),
      await post('/api/socialnet-writer/post/generate', { topic: 'x' }, alice, { prefer: 'wait=60' }));
    expect([wrongShape.status, wrongShape.body.error.details.code]).toEqual([502, 'VENDOR_BAD_RESPONSE']);
  });

  it('batch of 10 with one failing vendor call: 9 results, 1 error, the notification delivered once and verified', async () => {
    let rx: Receiver | undefined;
    try {
      rx = await startReceiver(() => 200);
      const ok: Step = {
        body: completion(
          JSON.stringify({ hook: 'Plan ahead.', body: 'Calendars help teams.', hashtags: ['planning'] }),
        ),
      };
      answer(ok, ok, ok, ok, { status: 400, body: { error: { message: 'content policy' } } }, ok, ok, ok, ok, ok);
      const requests = Array.from({ length: 10 }, (_, i) => ({ type: 'post', topic: `planning tip ${i + 1}` }));
      const r = await post('/api/profnet/batch-generate', {
        requests,
        options: { parallel_processing: false, priority: 'normal', notification_webhook: rx.url },
      });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ total: 10, notification: { url: rx.url, event_type: 'writer.batch.completed' } });
      const secret: string = r.body.notification.secret;
      expect(secret).toMatch(/^whsec_/);

      await waitFor('notification', () => rx!.requests.length >= 1, 180000, 300);
      // Nothing more arrives: delivered once.
      await new Promise((res) => setTimeout(res, 2500));
      expect(rx.requests).toHaveLength(1);
      const msg = rx.requests[0];
      const verified = new Webhook(secret).verify(msg.body, {
        'webhook-id': String(msg.headers['webhook-id']),
        'webhook-timestamp': String(msg.headers['webhook-timestamp']),
        'webhook-signature': String(msg.headers['webhook-signature']),
      }) as JsonResponse['body'];
      expect(verified).toMatchObject({ event_type: 'writer.batch.completed', id: msg.headers['webhook-id'] });
      expect(verified.data).toMatchObject({
        batch_id: r.body.batch_id,
        total: 10,
        succeeded: 9,
        failed: 1,
        status: 'completed',
      });
      expect(verified.data.items[4]).toMatchObject({
        index: 5,
        status: 'failed',
        error: { code: 'VENDOR_REQUEST_REJECTED' },
      });
      expect(verified.data.status_url).toContain(r.body.status_url);
      // A tampered body does not verify.
      expect(() =>
        new Webhook(secret).verify(msg.body.replace('"failed":1', '"failed":0'), {
          'webhook-id': String(msg.headers['webhook-id']),
          'webhook-timestamp': String(msg.headers['webhook-timestamp']),
          'webhook-signature': String(msg.headers['webhook-signature']),
        }),
      ).toThrow();

      await waitFor(
        'batch view',
        async () => {
          const s = await get(r.body.status_url);
          return (
            s.body.notification?.status === 'delivered' &&
            s.body.items.filter((i: { result?: unknown }) => i.result).length === 9
          );
        },
        60000,
        300,
      );
      const s = await get(r.body.status_url);
      expect(s.body).toMatchObject({ status: 'completed', total: 10, succeeded: 9, failed: 1, pending: 0 });
      expect(s.body.items.filter((i: { status: string }) => i.status === 'completed')).toHaveLength(9);
      expect(s.body.items[4]).toMatchObject({ status: 'failed', error: { code: 'VENDOR_REQUEST_REJECTED' } });
      expect(s.body.items[4].result).toBeUndefined();
      expect(s.body.notification).toMatchObject({
        url: rx.url,
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
      });
      expect((await get(r.body.status_url, bob)).status).toBe(404);
    } finally {
      await rx?.close();
    }
  });

  it('a notification receiver that fails at first is retried on the schedule until it accepts, same message id', async () => {
    let rx: Receiver | undefined;
    try {
      rx = await startReceiver((n) => (n === 1 ? 503 : 200));
      answer({ body: completion(JSON.stringify({ text: 'We bake bread.' })) });
      const r = await post('/api/socialnet-writer/batch/generate', {
        requests: [{ type: 'page_about', business_type: 'bakery' }],
        options: { notification_webhook: rx.url, notification_secret: 'a-secret-of-the-client-1234' },
      });
      expect(r.status).toBe(202);
      expect(r.body.notification.secret).toBe('a-secret-of-the-client-1234');
      await waitFor('accepted', () => rx!.accepted().length >= 1, 60000, 200);
      expect(rx.requests).toHaveLength(2);
      expect(rx.requests[0].headers['webhook-id']).toBe(rx.requests[1].headers['webhook-id']);
      await waitFor(
        'delivered',
        async () => (await get(r.body.status_url)).body.notification?.status === 'delivered',
        30000,
        200,
      );
      expect((await get(r.body.status_url)).body.notification).toMatchObject({ attempts: 2, last_status_code: 200 });
      const bad = await post('/api/socialnet-writer/batch/generate', {
        requests: [{ type: 'page_about', business_type: 'bakery' }],
        options: { notification_webhook: rx.url, notification_secret: 'short' },
      });
      expect([bad.status, bad.body.error.details.parameter]).toEqual([400, 'options.notification_secret']);
    } finally {
      await rx?.close();
    }
  });
});
