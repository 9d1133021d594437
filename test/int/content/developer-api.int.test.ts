/**
 * The developer API (`/v1`) over HTTP with a real worker: generation stored as
 * content records with every version kept and listable, personas CRUD, usage
 * and remaining quota, meta.rate_limit on every answer, Idempotency-Key on
 * POSTs (replay, mismatch, in progress), and a batch whose topics fail one by
 * one when the plan limit is reached mid-batch (scripted vendor on loopback).
 */
import { scoreContent } from '../../../domain/content/scores';
import { createOpenAiCompatibleClient } from '../../../infra/ai';
import { billingPeriod } from '../../../infra/quota/meter';
import { contentRecordsProjection } from '../../../projections/content-records';
import { personasProjection } from '../../../projections/personas';
import { taskStatusProjection } from '../../../projections/task-status';
import { usageProjection } from '../../../projections/usage';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { startContentWorker } from '../../support/content-worker';
import { testTemporal } from '../../support/env';
import { completion, startFakeVendor } from '../../support/fake-vendor';
import { call, JsonResponse } from '../../support/http';
import { metered, settledUsage, usageCalls } from '../../support/metering';
import { clearOfMonthEnd } from '../../support/clock';
import { waitFor } from '../../support/wait';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { answerSchemas, Conforms } from '../../support/conformance';

jest.setTimeout(300000);

const RATES = { rate: { overrides: { '*': { developer: { hour: 100000 }, status: { minute: 10000 } } } } };
const PROJECTIONS = [taskStatusProjection, usageProjection, contentRecordsProjection, personasProjection];

function expectMeta(r: JsonResponse) {
  expect(r.body.meta).toMatchObject({
    request_id: expect.any(String),
    timestamp: expect.any(String),
    rate_limit: { limit: expect.any(Number), remaining: expect.any(Number), reset: expect.any(Number) },
  });
}

/** `remaining` of the binding window as the response's `RateLimit` header gives it (this request's count). */
const remainingOf = (r: JsonResponse) => Number(/;r=(\d+)/.exec(r.headers.get('ratelimit') ?? '')?.[1]);

describe('developer API', () => {
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let schema: IsolatedSchema;
  let api: TestApi;
  let worker: Awaited<ReturnType<typeof startContentWorker>>;
  let alice: { userId: string; key: string };
  let bob: { userId: string; key: string };
  let conforms: Conforms;

  beforeAll(async () => {
    temporal = await testTemporal();
    schema = await isolatedSchema();
    worker = await startContentWorker(schema.db);
    api = await startTestApi({
      schema,
      projections: PROJECTIONS,
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

  const v1 = (method: string, path: string, key?: string, json?: unknown, headers: Record<string, string> = {}) =>
    call(`${api.url}/v1${path}`, { method, headers: { ...(key ? bearer(key) : {}), ...headers }, json });

  const calls = (userId: string, provider = 'local', atLeast = 0) => usageCalls(schema.db, userId, provider, atLeast);

  it('generates a blog post stored as content record version 1; one usage record; meta.rate_limit', async () => {
    const r = await metered(schema.db, alice.userId, 1, () =>
      v1('POST', '/content/generate', alice.key, {
        type: 'blog_post',
        topic: 'Email newsletters for small businesses',
        key_points: ['Why a newsletter', 'Growing the list', 'Measuring results'],
        tone: 'friendly',
        length: 'short',
        seo_optimized: true,
      }),
    );
    expect(r.status).toBe(200);
    expectMeta(r);
    const d = r.body.data;
    expect(d.content).toMatch(/^# /);
    for (const h of ['Why a newsletter', 'Growing the list', 'Measuring results'])
      expect(d.content).toContain(`## ${h}`);
    expect(d.metadata).toMatchObject({
      provider: 'local',
      seo_optimized: true,
      focus_keyword: 'email newsletters small',
    });
    // The spec's metadata, measured by the analysis engine on the text answered, for the focus keyword.
    const { word_count, readability_score, seo_score } = scoreContent(d.content, ['email newsletters small']);
    expect(d.metadata).toMatchObject({ word_count, readability_score, seo_score });
    // At most the length asked for (+10 %): the offline writer never pads, and says why a text is short.
    expect(word_count).toBeLessThanOrEqual(550);
    if (word_count < 450) expect(d.metadata.coverage.shortfall).toMatch(/adds nothing to reach a length/);
    expect(readability_score).toBeGreaterThan(0);
    expect(seo_score).toBeGreaterThan(0);
    expect(d.version).toBe(1);
    const rec = await v1('GET', `/content/${d.content_id}`, alice.key);
    expect(rec.status).toBe(200);
    expectMeta(rec);
    expect(rec.body.data).toMatchObject({ content_id: d.content_id, content: d.content, version: 1, versions: 1 });
    expect((await v1('GET', `/content/${d.content_id}`, bob.key)).status).toBe(404);
    expect((await v1('GET', `/content/${d.content_id}`)).status).toBe(401);
  });

  it('social media posts respect the platform limit and carry hashtags and a CTA when asked', async () => {
    const r = await v1('POST', '/content/generate', alice.key, {
      type: 'social_media',
      topic: 'Content repurposing',
      platform: 'microblog',
      include_hashtags: true,
      include_cta: true,
    });
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect([...d.content].length).toBeLessThanOrEqual(280);
    expect(d.metadata).toMatchObject({ platform: 'microblog', character_limit: 280 });
    expect(d.metadata.hashtags.length).toBeGreaterThan(0);
    expect(d.content).toContain(d.metadata.call_to_action);
    expect(d.metadata).toMatchObject({
      word_count: scoreContent(d.content, []).word_count,
      readability_score: expect.any(Number),
      seo_score: expect.any(Number),
    });
    // The offline writer's account of the post (docs/providers.md), in the documented shape.
    expect(d.metadata.coverage).toMatchObject({ basis: expect.any(String), key_points: 0 });
    conforms('post', '/v1/content/generate', r);
    const none = await v1('POST', '/content/generate', alice.key, { type: 'social_media', topic: 'x' });
    expect(none.status).toBe(400);
    expect(none.body.error.details.parameter).toBe('platform');
    expectMeta(none);
  });

  it('a thin brief is not padded: metadata.coverage says why, in the answer, the record and each batch item', async () => {
    const topic = 'Quarterly zine swap at the Riverside Books back room';
    const r = await v1('POST', '/content/generate', alice.key, { type: 'social_media', platform: 'profnet', topic });
    expect(r.status).toBe(200);
    const c = r.body.data.metadata.coverage;
    expect(c).toMatchObject({ basis: 'brief', key_points: 0, sources_used: 0, shortfall: expect.any(String) });
    conforms('post', '/v1/content/generate', r);
    // Stored with the record, which a client may not overwrite.
    const rec = await v1('GET', `/content/${r.body.data.content_id}`, alice.key);
    expect(rec.body.data.metadata.coverage).toEqual(c);
    conforms('get', '/v1/content/{content_id}', rec);
    const put = await v1('PUT', `/content/${r.body.data.content_id}`, alice.key, { metadata: { coverage: {} } });
    expect(put.status).toBe(400);
    expect(JSON.stringify(put.body.error)).toContain('metadata.coverage');
    const blog = await v1('POST', '/content/generate', alice.key, { type: 'blog_post', topic, length: 'medium' });
    expect(blog.body.data.metadata.coverage).toMatchObject({ basis: 'brief', target_words: 1000 });
    expect(blog.body.data.metadata.coverage.shortfall).toContain('of 1000 words');
    const batch = await v1('POST', '/content/generate/batch', alice.key, {
      type: 'social_media',
      platform: 'microblog',
      topics: [topic],
    });
    expect(batch.status).toBe(200);
    expect(batch.body.data.content[0].metadata.coverage).toMatchObject({
      basis: 'brief',
      shortfall: expect.any(String),
    });
    conforms('post', '/v1/content/generate/batch', batch);
    // The spec's batch fields have no platform: social posts without one are written for profnet, and say so.
    const plain = await v1('POST', '/content/generate/batch', alice.key, { type: 'social_media', topics: [topic] });
    expect([plain.status, plain.body.data.content[0].status]).toEqual([200, 'completed']);
    expect(plain.body.data.content[0].metadata).toMatchObject({ platform: 'profnet', character_limit: 3000 });
    conforms('post', '/v1/content/generate/batch', plain);
  });

  it('include_research adds the research: two AI calls, two usage records', async () => {
    const r = await metered(schema.db, alice.userId, 2, () =>
      v1('POST', '/content/generate', alice.key, {
        type: 'blog_post',
        topic: 'Local SEO',
        length: 'short',
        include_research: true,
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.data.research.keyword_analysis.primary_keywords.length).toBeGreaterThan(0);
  });

  it('keeps every version: revise, list, read an old version, conflicts, delete', async () => {
    const gen = await v1('POST', '/content/generate', alice.key, {
      type: 'blog_post',
      topic: 'Headlines',
      length: 'short',
    });
    const id = gen.body.data.content_id;
    const v1Text = gen.body.data.content;
    const put = await v1('PUT', `/content/${id}`, alice.key, {
      content: '# Better headlines\n\nShort text now.',
      title: 'Better headlines',
      expected_version: 1,
    });
    expect(put.status).toBe(200);
    expectMeta(put);
    expect(put.body.data).toMatchObject({ version: 2, versions: 2, title: 'Better headlines' });
    expect(put.body.data.metadata.word_count).toBe(3);
    const versions = await v1('GET', `/content/${id}/versions`, alice.key);
    expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(versions.body.data[0].content).toBe(v1Text);
    expect(versions.body.data[1].changed).toEqual(['title', 'content', 'metadata']);
    expect((await v1('GET', `/content/${id}/versions/1`, alice.key)).body.data.content).toBe(v1Text);
    expect((await v1('GET', `/content/${id}/versions/3`, alice.key)).status).toBe(404);
    const stale = await v1('PUT', `/content/${id}`, alice.key, { content: 'x', expected_version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.details.current_version).toBe(2);
    const same = await v1('PUT', `/content/${id}`, alice.key, { title: 'Better headlines' });
    expect(same.body.data.version).toBe(2);
    expect((await v1('PUT', `/content/${id}`, bob.key, { title: 'mine' })).status).toBe(404);
    const list = await v1('GET', '/content?limit=2', alice.key);
    expect(list.body.data).toMatchObject({ limit: 2, offset: 0 });
    expect(list.body.data.total).toBeGreaterThanOrEqual(4);
    expect(list.body.data.items).toHaveLength(2);
    // An offset beyond PostgreSQL's bigint was a 500 (found by the fuzzer): now a 400 naming the parameter.
    const far = await v1('GET', '/content?limit=67&offset=173869278810706051072', alice.key);
    expect([far.status, far.body.error?.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(JSON.stringify(far.body.error.details)).toContain('offset');
    expect((await v1('GET', '/content?offset=1000000', alice.key)).body.data).toMatchObject({
      offset: 1000000,
      items: [],
    });
    expect((await v1('DELETE', `/content/${id}`, bob.key)).status).toBe(404);
    const del = await v1('DELETE', `/content/${id}`, alice.key);
    expect(del.body.data).toEqual({ content_id: id, deleted: true });
    expect((await v1('GET', `/content/${id}`, alice.key)).status).toBe(404);
    expect((await v1('GET', `/content/${id}/versions`, alice.key)).status).toBe(404);
    expect((await v1('DELETE', `/content/${id}`, alice.key)).status).toBe(404);
  });

  it('personas CRUD; another user sees none of them', async () => {
    const c = await v1('POST', '/personas', alice.key, {
      name: 'Marketing manager',
      age_range: '25-34',
      pain_points: ['proving ROI'],
      tone: 'direct',
    });
    expect(c.status).toBe(201);
    expectMeta(c);
    const id = c.body.data.persona_id;
    expect(c.body.data).toMatchObject({ name: 'Marketing manager', pain_points: ['proving ROI'], version: 1 });
    const u = await v1('PUT', `/personas/${id}`, alice.key, { tone: null, goals: ['more leads'] });
    expect(u.body.data).toMatchObject({ version: 2, goals: ['more leads'] });
    expect(u.body.data.tone).toBeUndefined();
    expect(
      (await v1('GET', '/personas', alice.key)).body.data.map((p: { persona_id: string }) => p.persona_id),
    ).toContain(id);
    expect((await v1('GET', '/personas', bob.key)).body.data).toEqual([]);
    expect((await v1('GET', `/personas/${id}`, bob.key)).status).toBe(404);
    expect((await v1('PUT', `/personas/${id}`, alice.key, { name: null })).status).toBe(400);
    expect((await v1('POST', '/personas', alice.key, { age_range: '1' })).status).toBe(400);
    expect((await v1('DELETE', `/personas/${id}`, alice.key)).status).toBe(200);
    expect((await v1('GET', `/personas/${id}`, alice.key)).status).toBe(404);
  });

  it('Idempotency-Key: same key and body replays the answer; a different body is 409; a running first request is 409', async () => {
    const body = { name: 'Founder', industry: 'retail' };
    const a = await v1('POST', '/personas', alice.key, body, { 'idempotency-key': 'persona-key-1' });
    const b = await v1(
      'POST',
      '/personas',
      alice.key,
      { industry: 'retail', name: 'Founder' },
      { 'idempotency-key': 'persona-key-1' },
    );
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.data).toEqual(a.body.data);
    // meta is the replay's own: its request id (as X-Request-Id says) and the window as counted for it.
    expectMeta(b);
    expect(b.body.meta.request_id).toBe(b.headers.get('x-request-id'));
    expect(b.body.meta.request_id).not.toBe(a.body.meta.request_id);
    expect(a.body.meta.rate_limit.remaining).toBe(remainingOf(a));
    expect(b.body.meta.rate_limit.remaining).toBe(remainingOf(b));
    expect(remainingOf(b)).not.toBe(remainingOf(a));
    const founders = (await v1('GET', '/personas', alice.key)).body.data.filter(
      (p: { name: string }) => p.name === 'Founder',
    );
    expect(founders).toHaveLength(1);
    const c = await v1('POST', '/personas', alice.key, { name: 'Other' }, { 'idempotency-key': 'persona-key-1' });
    expect(c.status).toBe(409);
    expect(c.body.error).toMatchObject({ code: 'CONFLICT', details: { idempotency_key: 'persona-key-1' } });
    expectMeta(c);
    // Keys are per user: bob's same key is his own.
    expect(
      (await v1('POST', '/personas', bob.key, body, { 'idempotency-key': 'persona-key-1' })).headers.get(
        'idempotent-replayed',
      ),
    ).toBeNull();
    expect((await v1('POST', '/personas', alice.key, body, { 'idempotency-key': 'bad key' })).status).toBe(400);

    // A generation: the replay is the same task and content, and nothing is charged again. The second request goes
    // out once the first has claimed the key (its row exists), not after a fixed pause: on a loaded machine the first
    // may not have claimed it by then, and on a fast one it may already have answered.
    const gen = { type: 'blog_post', topic: 'Podcast show notes', length: 'short' };
    const first = v1('POST', '/content/generate', alice.key, gen, { 'idempotency-key': 'gen-1' });
    await waitFor(
      'the first request to claim the key',
      async () => !!(await schema.db('idempotency_keys').where({ user_id: alice.userId, key: 'gen-1' }).first()),
      60000,
      5,
    );
    const during = await v1('POST', '/content/generate', alice.key, gen, { 'idempotency-key': 'gen-1' });
    const done = await first;
    expect(done.status).toBe(200);
    expect(during.status).toBe(409);
    expect(during.body.error.message).toContain('in progress');
    // Compared once the projection holds every usage record of the event store (the first's may still be on its way).
    const usage = await settledUsage(schema.db, alice.userId);
    const again = await v1('POST', '/content/generate', alice.key, gen, { 'idempotency-key': 'gen-1' });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(done.body.data);
    expect(again.body.meta.request_id).toBe(again.headers.get('x-request-id'));
    expect(again.body.meta.request_id).not.toBe(done.body.meta.request_id);
    await new Promise((r) => setTimeout(r, 500));
    expect(await settledUsage(schema.db, alice.userId)).toEqual(usage);
  });

  it('a plan limit answers 429 in the developer envelope with meta.rate_limit: at the start and inside the task', async () => {
    await clearOfMonthEnd(); // the used-up limit is this billing period's: the test must not run into the next one
    const erin = await api.user('free');
    const period = billingPeriod();
    await schema.db('quota_usage').insert({
      user_id: erin.userId,
      billing_period: period,
      limit_key: 'tokens',
      used: 100000,
      reserved: 0,
    });
    const usedUp = (r: JsonResponse) => {
      expect(r.status).toBe(429);
      expect(r.body).toEqual({
        success: false,
        error: {
          code: 'UsageLimitExceededException',
          message: expect.stringContaining('tokens'),
          details: { provider: 'local', limit_type: 'tokens', current_usage: 100000, limit_value: 100000 },
        },
        meta: {
          request_id: r.headers.get('x-request-id'),
          timestamp: expect.any(String),
          rate_limit: { limit: 100000, remaining: remainingOf(r), reset: expect.any(Number) },
        },
      });
    };
    usedUp(
      await metered(schema.db, erin.userId, 0, () =>
        v1('POST', '/content/generate', erin.key, { type: 'blog_post', topic: 'Local SEO', length: 'short' }),
      ),
    );
    usedUp(
      await metered(schema.db, erin.userId, 0, () =>
        v1('POST', '/content/generate/batch', erin.key, { type: 'blog_post', topics: ['Local SEO', 'Link building'] }),
      ),
    );
    // Room for the precheck but not for the call's reservation: the metered call inside the task refuses.
    await schema
      .db('quota_usage')
      .where({ user_id: erin.userId, billing_period: period, limit_key: 'tokens' })
      .update({ used: 99990 });
    const inside = await metered(schema.db, erin.userId, 0, () =>
      v1('POST', '/content/generate', erin.key, { type: 'social_media', platform: 'microblog', topic: 'Local SEO' }),
    );
    expect(inside.status).toBe(429);
    expect(inside.body).toMatchObject({
      success: false,
      error: { code: 'UsageLimitExceededException', details: { provider: 'local', limit_type: 'tokens' } },
    });
    expectMeta(inside);
    expect(inside.body.meta.rate_limit.remaining).toBe(remainingOf(inside));
  });

  it('202 and /v1/tasks/{id} when asked not to wait', async () => {
    const r = await v1(
      'POST',
      '/content/generate',
      alice.key,
      { type: 'social_media', platform: 'profnet', topic: 'Webinars' },
      { prefer: 'respond-async' },
    );
    expect(r.status).toBe(202);
    expectMeta(r);
    expect(r.body.data.status_url).toBe(`/v1/tasks/${r.body.data.task_id}`);
    let t: JsonResponse | undefined;
    await waitFor(
      'the task to complete',
      async () => {
        t = await v1('GET', `/tasks/${r.body.data.task_id}`, alice.key);
        return t.body.data.status === 'completed';
      },
      30_000,
    ).catch(() => undefined);
    expect(t!.body.data.result.content_id).toEqual(expect.any(String));
    expectMeta(t!);
    expect((await v1('GET', `/tasks/${r.body.data.task_id}`, bob.key)).status).toBe(404);
  });

  it('GET /v1/analytics/usage: usage and remaining quota per limit key', async () => {
    await clearOfMonthEnd(); // the route reports this billing period: the call must be charged in the same one
    const carol = await api.user('free');
    await v1('POST', '/content/generate', carol.key, { type: 'social_media', platform: 'microblog', topic: 'SEO' });
    await calls(carol.userId, 'local', 1);
    const r = await v1('GET', '/analytics/usage', carol.key);
    expect(r.status).toBe(200);
    expectMeta(r);
    const d = r.body.data;
    expect(d.plan).toEqual({ id: 1, name: 'Free' });
    expect(d.usage).toMatchObject({
      billing_period: billingPeriod(),
      total_calls: 1,
      provider_breakdown: { local: { calls: 1 } },
    });
    expect(Object.keys(d.quota).sort()).toEqual(['tokens', 'vendor_a_calls']);
    expect(d.quota.tokens.limit).toBe(100000);
    expect(d.quota.tokens.used).toBe(d.usage.total_tokens);
    expect(d.quota.tokens.remaining).toBe(100000 - d.usage.total_tokens);
    expect(d.quota.vendor_a_calls).toEqual({ limit: 100, used: 0, reserved: 0, remaining: 100, percent_used: 0 });
    expect((await v1('GET', '/analytics/usage')).status).toBe(401);
  });

  it('a batch reports a result per topic; topics past the plan limit fail alone (vendor_a, scripted)', async () => {
    const post = JSON.stringify({ content: 'Batch post #SEO', hashtags: ['#SEO'], call_to_action: null, sources: [] });
    const vendor = await startFakeVendor([{ body: completion(post) }]);
    const w = await startContentWorker(schema.db, {
      vendors: {
        vendor_a: createOpenAiCompatibleClient({
          provider: 'vendor_a',
          baseUrl: vendor.baseUrl,
          apiKey: 'k',
          model: 'gpt-4o-mini',
          timeoutMs: 5000,
          maxRetries: 0,
        }),
      },
    });
    // Same schema: the first API's pipeline keeps every projection of it up to date.
    const vapi = await startTestApi({
      schema,
      pipeline: false,
      deps: { workflows: { client: async () => temporal.client, taskQueue: w.taskQueue }, aiProvider: 'vendor_a' },
      settings: RATES,
    });
    try {
      await clearOfMonthEnd(); // the nearly used-up limit is this billing period's
      const dave = await vapi.user('free');
      await schema.db('quota_usage').insert({
        user_id: dave.userId,
        billing_period: billingPeriod(),
        limit_key: 'vendor_a_calls',
        used: 99,
        reserved: 0,
      });
      // One usage record for the one topic that ran, none for the refused ones.
      const r = await metered(schema.db, dave.userId, { vendor_a: 1 }, () =>
        call(`${vapi.url}/v1/content/generate/batch`, {
          method: 'POST',
          headers: bearer(dave.key),
          json: { type: 'social_media', platform: 'microblog', topics: ['One', 'Two', 'Three'] },
        }),
      );
      expect(r.status).toBe(200);
      expectMeta(r);
      const items = r.body.data.content;
      expect(items.map((i: { status: string }) => i.status)).toEqual(['completed', 'failed', 'failed']);
      expect(items[0]).toMatchObject({
        index: 0,
        topic: 'One',
        content: 'Batch post #SEO',
        metadata: { provider: 'vendor_a' },
      });
      expect(items[1]).toMatchObject({ index: 1, topic: 'Two', error: { code: 'USAGE_LIMIT_EXCEEDED' } });
      expect(r.body.data.summary).toEqual({ total: 3, completed: 1, failed: 2 });
      expect(vendor.requests).toHaveLength(1);
      expect((await call(`${vapi.url}/v1/content/${items[0].content_id}`, { headers: bearer(dave.key) })).status).toBe(
        200,
      );
    } finally {
      await w.stop();
      await vapi.stop();
      await vendor.close();
    }
  });
});
