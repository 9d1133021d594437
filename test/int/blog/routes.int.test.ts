/**
 * The asynchronous blog writer over HTTP: start answers at once with a task
 * id, status reads the task projection (also after the API restarts), other
 * users' and unknown tasks are 404, limits refuse with 429, and cancel works.
 */
import { randomUUID } from 'node:crypto';
import { startTestApi, TestApi, bearer } from '../../support/api';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { startBlogWorker } from '../../support/blog-worker';
import { testTemporal } from '../../support/env';
import { call } from '../../support/http';
import { taskStatusProjection } from '../../../projections/task-status';
import { createCorpusProvider, DEFAULT_CORPUS_DIR } from '../../../infra/research';
import { createOpenAiCompatibleClient } from '../../../infra/ai';
import { billingPeriod } from '../../../infra/quota/meter';
import { startFakeVendor, completion, FakeVendor } from '../../support/fake-vendor';
import { clearOfMonthEnd } from '../../support/clock';
import { waitFor } from '../../support/wait';

jest.setTimeout(180000);

// These tests start many tasks with one Free key; the tiers themselves are tested in test/int/api/rate-limits.
const RATES = { rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, status: { minute: 10000 } } } } };

describe('blog writer routes', () => {
  let api: TestApi;
  let schema: IsolatedSchema;
  let worker: Awaited<ReturnType<typeof startBlogWorker>>;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let alice: { userId: string; key: string };
  let bob: { userId: string; key: string };
  const corpus = createCorpusProvider({ dir: DEFAULT_CORPUS_DIR, publicBaseUrl: 'http://127.0.0.1:8000' });

  const appDeps = (taskQueue = worker.taskQueue) => ({
    workflows: { client: async () => temporal.client, taskQueue },
    corpus,
    aiProvider: 'local',
  });

  beforeAll(async () => {
    temporal = await testTemporal();
    schema = await isolatedSchema();
    worker = await startBlogWorker(schema.db, { limits: { tokens: 100000 } });
    api = await startTestApi({ schema, projections: [taskStatusProjection], deps: appDeps(), settings: RATES });
    alice = await api.user('free');
    bob = await api.user('free');
  });

  afterAll(async () => {
    await worker.stop();
    await api.stop();
    await temporal.connection.close();
    await schema.drop();
  });

  const poll = (path: string, key: string, until = (s: string) => ['completed', 'failed', 'cancelled'].includes(s)) =>
    // A deadline, not a number of polls: on a loaded machine a task (and each poll) takes longer.
    waitFor(
      `${path} to finish`,
      async () => {
        const r = await call(`${api.url}${path}`, { headers: bearer(key) });
        return r.status === 200 && until(r.body.status) && r;
      },
      60000,
      50,
    );

  it('research: start answers at once, status is readable right away and completes with the result', async () => {
    const start = await call(`${api.url}/api/blog/research/start`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: { topic: 'Email outreach for backlinks', keywords: ['link building'] },
    });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ task_id: expect.stringMatching(/^blog-research-[0-9a-f-]{36}$/), status: 'started' });
    const first = await call(`${api.url}/api/blog/research/status/${start.body.task_id}`, {
      headers: bearer(alice.key),
    });
    expect(first.status).toBe(200);
    expect(['started', 'in_progress', 'completed']).toContain(first.body.status);
    const done = await poll(`/api/blog/research/status/${start.body.task_id}`, alice.key);
    expect(done.body).toMatchObject({
      task_id: start.body.task_id,
      status: 'completed',
      created_at: expect.any(String),
    });
    expect(done.body.progress_messages.length).toBeGreaterThanOrEqual(3);
    // The spec's Research result: the workflow's domain result with `success`, added by the route.
    expect(done.body.result.success).toBe(true);
    expect(done.body.result.sources.length).toBeGreaterThan(0);
    // A cited source can be followed: the corpus route serves it.
    const url = new URL(done.body.result.sources[0].url);
    const doc = await fetch(`${api.url}${url.pathname}`);
    expect(doc.status).toBe(200);
    expect(await doc.text()).toContain(`# ${done.body.result.sources[0].title}`);
  });

  it("unknown task ids and other users' tasks are 404; the wrong kind of status route is 404", async () => {
    const start = await call(`${api.url}/api/blog/research/start`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: { keywords: ['seo'] },
    });
    const id = start.body.task_id;
    const other = await call(`${api.url}/api/blog/research/status/${id}`, { headers: bearer(bob.key) });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect(
      (await call(`${api.url}/api/blog/research/status/blog-research-${randomUUID()}`, { headers: bearer(alice.key) }))
        .status,
    ).toBe(404);
    expect(
      (await call(`${api.url}/api/blog/generate/medium/status/${id}`, { headers: bearer(alice.key) })).status,
    ).toBe(404);
    expect((await call(`${api.url}/api/blog/research/status/${id}`)).status).toBe(401);
  });

  it('status survives an API restart (a new API process on the same database)', async () => {
    const start = await call(`${api.url}/api/blog/research/start`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: { topic: 'Podcast show notes' },
    });
    await poll(`/api/blog/research/status/${start.body.task_id}`, alice.key);
    await api.stop();
    api = await startTestApi({
      schema: api.schema,
      projections: [taskStatusProjection],
      deps: appDeps(),
      settings: RATES,
    });
    const again = await call(`${api.url}/api/blog/research/status/${start.body.task_id}`, {
      headers: bearer(alice.key),
    });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('completed');
  });

  it('refuses bad requests naming the field, including medium blogs over 1000 words', async () => {
    const none = await call(`${api.url}/api/blog/research/start`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: { tone: 'friendly' },
    });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('INVALID_REQUEST');
    expect(JSON.stringify(none.body.error.details)).toContain('topic');
    const big = await call(`${api.url}/api/blog/generate/medium/start`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: { title: 'T', globalTargetWords: 1001, sections: [{ id: 'a', heading: 'A' }] },
    });
    expect(big.status).toBe(400);
    expect(JSON.stringify(big.body.error.details)).toContain('globalTargetWords');
    const sum = await call(`${api.url}/api/blog/generate/medium/start`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: {
        title: 'T',
        sections: [
          { id: 'a', heading: 'A', targetWords: 600 },
          { id: 'b', heading: 'B', targetWords: 500 },
        ],
      },
    });
    expect(sum.status).toBe(400);
    expect(sum.body.error.message).toContain('1000');
    const type = await call(`${api.url}/api/blog/outline/start`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: { research: { sources: 'none' } },
    });
    expect(type.status).toBe(400);
    expect(JSON.stringify(type.body.error.details)).toContain('research.sources');
  });

  it('medium generation within 1000 words completes with sections', async () => {
    const start = await call(`${api.url}/api/blog/generate/medium/start`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: {
        title: 'Repurposing content',
        globalTargetWords: 400,
        sections: [
          { id: 'one', heading: 'Why repurpose', keyPoints: ['reach'] },
          { id: 'two', heading: 'How to start', keyPoints: ['audit'] },
        ],
      },
    });
    const done = await poll(`/api/blog/generate/medium/status/${start.body.task_id}`, alice.key);
    expect(done.body.status).toBe('completed');
    expect(done.body.result).toMatchObject({
      success: true,
      title: 'Repurposing content',
      total_words: expect.any(Number),
    });
    expect(done.body.result.sections.map((s: { id: string }) => s.id)).toEqual(['one', 'two']);
  });

  it('a plan limit already used up refuses the start with 429 UsageLimitExceededException', async () => {
    await clearOfMonthEnd(); // the used-up limit is this billing period's: the start must not fall in the next one
    const carol = await api.user('free');
    await api.schema.db('quota_usage').insert({
      user_id: carol.userId,
      billing_period: billingPeriod(),
      limit_key: 'tokens',
      used: 100000,
      reserved: 0,
    });
    const r = await call(`${api.url}/api/blog/research/start`, {
      method: 'POST',
      headers: bearer(carol.key),
      json: { topic: 'x' },
    });
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({
      success: false,
      error: 'UsageLimitExceededException',
      user_id: carol.userId,
      details: { provider: 'local', limit_type: 'tokens', current_usage: 100000, limit_value: 100000 },
    });
    expect(typeof r.body.message).toBe('string');
  });

  describe('cancel', () => {
    let vendor: FakeVendor;
    let slow: Awaited<ReturnType<typeof startBlogWorker>>;
    beforeAll(async () => {
      vendor = await startFakeVendor([{ delayMs: 4000, body: completion('A slow answer [1].') }]);
      slow = await startBlogWorker(api.schema.db, {
        vendors: {
          vendor_a: createOpenAiCompatibleClient({
            provider: 'vendor_a',
            baseUrl: vendor.baseUrl,
            apiKey: 'k',
            model: 'm',
            timeoutMs: 30000,
            maxRetries: 0,
          }),
        },
      });
      await api.stop();
      api = await startTestApi({
        schema: api.schema,
        projections: [taskStatusProjection],
        deps: { ...appDeps(slow.taskQueue), aiProvider: 'vendor_a' },
        // The cancel route answers once the task reads cancelled, waiting at most cancelWaitMs (10 s by default):
        // on a loaded machine the cancel's way through Temporal, the worker and the projection can take longer.
        // It answers as soon as the task is cancelled, so the larger bound costs nothing when all is well.
        settings: { ...RATES, cancelWaitMs: 60000 },
      });
    });
    afterAll(async () => {
      await slow.stop();
      await vendor.close();
    });

    it('cancels a running task; cancelling again is 409; another user cannot cancel', async () => {
      const start = await call(`${api.url}/api/blog/generate/medium/start`, {
        method: 'POST',
        headers: bearer(alice.key),
        json: {
          title: 'Slow',
          sections: [
            { id: 'a', heading: 'A', targetWords: 100 },
            { id: 'b', heading: 'B', targetWords: 100 },
          ],
        },
      });
      await poll(`/api/blog/generate/medium/status/${start.body.task_id}`, alice.key, (s) => s === 'in_progress');
      expect(
        (
          await call(`${api.url}/api/blog/tasks/${start.body.task_id}/cancel`, {
            method: 'POST',
            headers: bearer(bob.key),
          })
        ).status,
      ).toBe(404);
      const c = await call(`${api.url}/api/blog/tasks/${start.body.task_id}/cancel`, {
        method: 'POST',
        headers: bearer(alice.key),
      });
      expect(c.status).toBe(200);
      expect(c.body).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED' } });
      const again = await call(`${api.url}/api/blog/tasks/${start.body.task_id}/cancel`, {
        method: 'POST',
        headers: bearer(alice.key),
      });
      expect(again.status).toBe(409);
    });
  });
});
