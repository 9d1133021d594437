/**
 * Generation over HTTP: one event (status generated, title/thread_content/
 * hashtags, estimated_performance with its basis) and a series (RRULE
 * occurrences in the calendar zone and working hours), metered through the AI
 * gateway — offline `local` writer, and a scripted vendor_a on loopback.
 */
import type { TestApi } from '../../support/api';
import { testTemporal, uniq } from '../../support/env';
import { startCalendarWorker } from '../../support/calendar-worker';
import { completion, FakeVendor, RecordedRequest, startFakeVendor } from '../../support/fake-vendor';
import { createOpenAiCompatibleClient } from '../../../infra/ai/openai-compatible';
import { local } from '../../../domain/calendar/time';
import { call } from '../../support/http';
import { answerSchemas, Conforms } from '../../support/conformance';
import { C, client, Client, inHours, startCalendarApi } from './support';

jest.setTimeout(180000);

describe('calendar generation (local provider)', () => {
  let api: TestApi;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let worker: Awaited<ReturnType<typeof startCalendarWorker>>;
  let alice: Client;
  let userId: string;
  let calendarId: string;
  let conforms: Conforms;
  const taskQueue = uniq('calendar-gen');

  beforeAll(async () => {
    temporal = await testTemporal();
    api = await startCalendarApi({ deps: { workflows: { client: async () => temporal.client, taskQueue } } });
    worker = await startCalendarWorker(api.schema.db, { taskQueue, limits: { tokens: 10_000_000 } });
    const u = await api.user('pro');
    userId = u.userId;
    alice = client(api, u.key);
    conforms = answerSchemas((await call(`${api.url}/openapi.json`)).body);
    calendarId = (
      await alice.post('/calendars', {
        name: 'Gen',
        timezone: 'America/Los_Angeles',
        settings: { working_hours: { start: '10:00', end: '16:00' } },
      })
    ).body.id;
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await temporal?.connection.close();
  });

  it('POST events/generate: a generated event with content and a documented estimate, metered', async () => {
    const at = inHours(30);
    const r = await alice.post(`/calendars/${calendarId}/events/generate`, {
      topic: 'Email newsletter growth',
      content_type: 'thread',
      platform: 'microblog',
      tone: 'friendly',
      audience: 'creators',
      word_count: 80,
      include_hashtags: true,
      include_cta: true,
      scheduled_at: at,
    });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('generated');
    const c = r.body.content;
    expect(c.title).toMatch(/Email Newsletter Growth/);
    // The offline writer says what the brief gives and no more: a post naming the topic (as written) and the
    // audience, and the call to action asked for, made from the topic; nothing padded to the 80 words.
    expect(c.thread_content).toHaveLength(2);
    expect(c.thread_content[0]).toMatch(/^1\/2 .*Email newsletter growth/);
    expect(c.thread_content[0]).toMatch(/creators/);
    expect(c.thread_content[1]).toMatch(/^2\/2 (Follow|Share|Tell|Save|Send|Subscribe) .*Email newsletter growth\.$/);
    expect(c.hashtags).toContain('#EmailNewsletterGrowth');
    expect(c.estimated_performance).toMatchObject({ reach_potential: expect.stringMatching(/low|medium|high/) });
    expect(c.estimated_performance.engagement_rate).toBeGreaterThan(0);
    expect(c.estimated_performance.basis).toMatchObject({
      model: 'timing-model-v1',
      observations: 0,
      prior_weight: 1,
      platform: 'microblog',
    });
    expect(r.body.generation).toMatchObject({ provider: 'local', offline: true, calls: 1 });
    expect(r.body.generation.tokens_out).toBeGreaterThan(0);
    // ...and says so: what the post was built from, and why it is shorter than the 80 words (docs/providers.md).
    expect(r.body.generation.coverage).toMatchObject({ basis: 'brief', key_points: 0, target_words: 80 });
    expect(r.body.generation.coverage.shortfall).toContain('of 80 words');
    conforms('post', `${C}/calendars/{calendar_id}/events/generate`, r);
    const ev = await alice.get(`/calendars/${calendarId}/events/${r.body.event_id}`);
    expect(ev.body).toMatchObject({
      status: 'generated',
      scheduled_at: new Date(at).toISOString(),
      metadata: { ai_generated: true },
    });
    expect(ev.body.content.thread_content).toEqual(c.thread_content);
    // Metered: the call was reserved and settled against the caller's plan.
    const settled = await api.schema.db('quota_reservations').where({ user_id: userId, status: 'settled' });
    expect(settled.length).toBeGreaterThanOrEqual(1);
    const tokens = await api.schema.db('quota_usage').where({ user_id: userId, limit_key: 'tokens' }).first();
    expect(Number(tokens.used)).toBeGreaterThan(0);
  });

  it('POST series/generate: RRULE occurrences in the calendar zone, inside working hours, one post each', async () => {
    const start = local(Date.now() + 2 * 86400_000, 'America/Los_Angeles').toISODate();
    const r = await alice.post(`/calendars/${calendarId}/series/generate`, {
      series_title: 'Launch week',
      description: 'product launch tips',
      content_types: ['social_post', 'story'],
      platforms: ['profnet', 'photonet'],
      schedule: { frequency: 'weekly', start_date: start, posts_per_week: 3, count: 6 },
      tone: 'professional',
    });
    expect([r.status, r.body.error]).toEqual([201, undefined]);
    expect(r.body).toMatchObject({ series_title: 'Launch week', count: 6, timezone: 'America/Los_Angeles' });
    expect(r.body.rrule).toMatch(/RRULE:FREQ=WEEKLY;.*BYDAY=/);
    expect(r.body.events).toHaveLength(6);
    expect(r.body.generation.calls).toBe(6);
    const hours = r.body.events.map((e: { scheduled_at: string }) => local(e.scheduled_at, 'America/Los_Angeles').hour);
    expect(hours.every((h: number) => h >= 10 && h < 16)).toBe(true);
    expect(r.body.events.map((e: { content_type: string }) => e.content_type).slice(0, 2)).toEqual([
      'social_post',
      'story',
    ]);
    expect(r.body.events.map((e: { platform: string }) => e.platform).slice(0, 2)).toEqual(['profnet', 'photonet']);
    expect(r.body.events[1].title).toMatch(/Launch week \(2\/6\)/);
    // Each post of the series is its own: no two say the same, none echoes the description in lower case.
    const texts = r.body.events.map((e: { content: { thread_content: string[] } }) =>
      e.content.thread_content.join(' '),
    );
    expect(new Set(texts).size).toBe(6);
    expect(texts[0]).toBe('Launch week: a six-part series on product launch tips.');
    // Each post's own call, with the offline writer's coverage of that post.
    for (const e of r.body.events)
      expect(e.generation).toMatchObject({ provider: 'local', offline: true, coverage: { basis: 'brief' } });
    conforms('post', `${C}/calendars/{calendar_id}/series/generate`, r);
    const listed = await alice.get(`/calendars/${calendarId}/events?status=generated&limit=200`);
    expect(listed.body.total).toBeGreaterThanOrEqual(6);
  });

  it('refuses a past scheduled_at and a viewer, and 401/404 as usual', async () => {
    const past = await alice.post(`/calendars/${calendarId}/events/generate`, {
      topic: 'x',
      scheduled_at: new Date(Date.now() - 60000).toISOString(),
    });
    expect([past.status, past.body.error.details.field]).toEqual([400, 'scheduled_at']);
    // A viewer of the calendar is a member who may not create events: 403 with the permission it lacks.
    const viewer = await api.user('pro');
    const share = await alice.post(`/calendars/${calendarId}/share`, { user_id: viewer.userId, role: 'viewer' });
    expect(share.status).toBe(200);
    const carol = client(api, viewer.key);
    expect((await carol.get(`/calendars/${calendarId}`)).status).toBe(200);
    const before = (await alice.get(`/calendars/${calendarId}/events?limit=200`)).body.total;
    const denied = [
      await carol.post(`/calendars/${calendarId}/events/generate`, { topic: 'x' }),
      await carol.post(`/calendars/${calendarId}/series/generate`, {
        series_title: 'x',
        content_types: ['story'],
        platforms: ['photonet'],
        schedule: { frequency: 'weekly', start_date: '2031-01-01' },
      }),
    ];
    for (const r of denied)
      expect([r.status, r.body.error.code, r.body.error.details.required_permission]).toEqual([
        403,
        'AUTHORIZATION_ERROR',
        'create_events',
      ]);
    expect((await alice.get(`/calendars/${calendarId}/events?limit=200`)).body.total).toBe(before);
    // Not a member at all: the calendar does not exist for them.
    const bob = client(api, (await api.user('pro')).key);
    expect((await bob.post(`/calendars/${calendarId}/events/generate`, { topic: 'x' })).status).toBe(404);
    expect(
      (
        await bob.post(`/calendars/${calendarId}/series/generate`, {
          series_title: 'x',
          content_types: ['story'],
          platforms: ['photonet'],
          schedule: { frequency: 'weekly', start_date: '2031-01-01' },
        })
      ).status,
    ).toBe(404);
    const anon = client(api, null);
    expect((await anon.post(`/calendars/${calendarId}/events/generate`, { topic: 'x' })).status).toBe(401);
    expect((await anon.post(`/calendars/${calendarId}/series/generate`, {})).status).toBe(401);
  });
});

/** The brief of a request to the vendor (its first user message). */
const briefOf = (req: RecordedRequest) =>
  ((req.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')?.content ??
    '') as string;
const unwritable = (req: RecordedRequest) => /Topic: Unwritable|part 2 of 3 /.test(briefOf(req));

describe('calendar generation (vendor_a on loopback)', () => {
  let api: TestApi;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let worker: Awaited<ReturnType<typeof startCalendarWorker>>;
  let vendor: FakeVendor;
  let conforms: Conforms;
  const taskQueue = uniq('calendar-gen-v');

  beforeAll(async () => {
    temporal = await testTemporal();
    const good = {
      body: completion(
        JSON.stringify({
          title: 'Five habits of calm teams',
          thread_content: ['One.', 'Two.'],
          hashtags: ['teams', '#calm'],
        }),
        { usage: { prompt_tokens: 120, completion_tokens: 40 } },
      ),
    };
    // A model that cannot write some briefs: prose instead of the JSON asked for, every time it is asked.
    const unusable = { body: completion('Sorry, I am not able to write that post.') };
    vendor = await startFakeVendor([{ handler: (req) => (unwritable(req) ? unusable : good) }]);
    api = await startCalendarApi({ deps: { workflows: { client: async () => temporal.client, taskQueue } } });
    conforms = answerSchemas((await call(`${api.url}/openapi.json`)).body);
    worker = await startCalendarWorker(api.schema.db, {
      taskQueue,
      limits: { tokens: 10_000_000, vendor_a_calls: 100 },
      vendors: {
        vendor_a: createOpenAiCompatibleClient({
          provider: 'vendor_a',
          baseUrl: vendor.baseUrl,
          apiKey: 'sk-test',
          model: 'gpt-4o-mini',
          timeoutMs: 5000,
          maxRetries: 0,
        }),
      },
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await vendor?.close();
    await temporal?.connection.close();
  });

  it('asks the vendor for the JSON post and records its answer', async () => {
    const alice = client(api, (await api.user('pro')).key);
    const id = (await alice.post('/calendars', { name: 'V' })).body.id;
    const r = await alice.post(`/calendars/${id}/events/generate`, { topic: 'Calm teams', platform: 'profnet' });
    expect(r.status).toBe(201);
    expect(r.body.content).toMatchObject({
      title: 'Five habits of calm teams',
      thread_content: ['One.', 'Two.'],
      hashtags: ['#teams', '#calm'],
    });
    expect(r.body.generation).toMatchObject({ provider: 'vendor_a', offline: false, tokens_in: 120, tokens_out: 40 });
    // A vendor's post has no coverage: the field is absent, never made up.
    expect(r.body.generation.coverage).toBeUndefined();
    const sent = vendor.requests[0].body as { messages: { content: string }[] };
    expect(sent.messages[1].content).toContain('Topic: Calm teams');
    expect(sent.messages[1].content).toContain('"thread_content"');
  });

  it('a series post the model cannot write is asked once more, then reported failed; the others are kept', async () => {
    const alice = client(api, (await api.user('pro')).key);
    const id = (await alice.post('/calendars', { name: 'S', timezone: 'UTC' })).body.id;
    const start = local(Date.now() + 2 * 86400_000, 'UTC').toISODate();
    const before = vendor.requests.length;
    const r = await alice.post(`/calendars/${id}/series/generate`, {
      series_title: 'Calm teams',
      content_types: ['social_post'],
      platforms: ['profnet'],
      schedule: { frequency: 'weekly', start_date: start, posts_per_week: 3, count: 3 },
    });
    expect([r.status, r.body.error]).toEqual([201, undefined]);
    expect(r.body.count).toBe(3);
    expect(r.body.events.map((e: { title: string }) => e.title)).toEqual([
      'Five habits of calm teams',
      'Five habits of calm teams',
    ]);
    expect(r.body.failed).toEqual([
      {
        series_index: 1,
        scheduled_at: expect.any(String),
        content_type: 'social_post',
        platform: 'profnet',
        error: { code: 'VENDOR_BAD_RESPONSE', message: expect.any(String) },
      },
    ]);
    expect(r.body.generation.calls).toBe(2);
    conforms('post', `${C}/calendars/{calendar_id}/series/generate`, r);
    // Part 2 was asked four times: its call and the gateway's re-ask, then a fresh call and its re-ask.
    const asked = vendor.requests.slice(before).filter((q) => /part 2 of 3 /.test(briefOf(q)));
    expect(asked).toHaveLength(4);
    // Only the written posts became events, each with its place in the series.
    const listed = await alice.get(`/calendars/${id}/events?limit=50`);
    expect(listed.body.total).toBe(2);
    const indexes = listed.body.events.map((e: { metadata: { series_index: number } }) => e.metadata.series_index);
    expect(indexes.sort()).toEqual([0, 2]);
  });

  it('a post the model cannot write at all fails the request with 502 and creates nothing', async () => {
    const alice = client(api, (await api.user('pro')).key);
    const id = (await alice.post('/calendars', { name: 'U' })).body.id;
    const r = await alice.post(`/calendars/${id}/events/generate`, { topic: 'Unwritable', platform: 'profnet' });
    expect(r.status).toBe(502);
    expect(JSON.stringify(r.body)).toContain('VENDOR_BAD_RESPONSE');
    expect((await alice.get(`/calendars/${id}/events?limit=50`)).body.total).toBe(0);
  });
});
