/**
 * Keyword research over HTTP: corpus term statistics always, the DataForSEO
 * adapter against a scripted server on loopback (its real request and answer
 * shapes), each number with its source, one usage record per vendor request
 * and per AI call, and a vendor error refused without charging.
 */
import { createDataForSeoVendor, DATAFORSEO_PATH } from '../../../infra/keywords';
import { billingPeriod } from '../../../infra/quota/meter';
import { taskStatusProjection } from '../../../projections/task-status';
import { usageByProvider, usageProjection } from '../../../projections/usage';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { startContentWorker } from '../../support/content-worker';
import { testTemporal } from '../../support/env';
import { FakeVendor, startFakeVendor } from '../../support/fake-vendor';
import { call } from '../../support/http';
import { metered } from '../../support/metering';
import { clearOfMonthEnd } from '../../support/clock';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';

jest.setTimeout(240000);

const RATES = { rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, status: { minute: 10000 } } } } };

const idea = (keyword: string, search_volume: number, competition: string, cpc: number) => ({
  keyword,
  location_code: 2840,
  language_code: 'en',
  search_partners: false,
  competition,
  competition_index: competition === 'HIGH' ? 80 : competition === 'MEDIUM' ? 50 : 10,
  search_volume,
  low_top_of_page_bid: cpc / 2,
  high_top_of_page_bid: cpc * 2,
  cpc,
  monthly_searches: [{ year: 2025, month: 5, search_volume }],
});
const answer = (result: unknown[], status_code = 20000) => ({
  version: '0.1.20250101',
  status_code,
  status_message: status_code === 20000 ? 'Ok.' : 'Error.',
  cost: 0.075,
  tasks_count: 1,
  tasks_error: 0,
  tasks: [{ id: 't1', status_code, status_message: 'Ok.', cost: 0.075, result_count: result.length, result }],
});

describe('keyword research', () => {
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let schema: IsolatedSchema;

  beforeAll(async () => {
    temporal = await testTemporal();
    schema = await isolatedSchema();
  });
  afterAll(async () => {
    await temporal.connection.close();
    await schema.drop();
  });

  async function setup(vendor?: FakeVendor) {
    const worker = await startContentWorker(schema.db, {
      keywordVendor: vendor
        ? createDataForSeoVendor({
            login: 'me@example.com',
            password: 'pw',
            baseUrl: vendor.origin,
            timeoutMs: 5000,
            maxRetries: 0,
          })
        : undefined,
    });
    const api = await startTestApi({
      schema,
      projections: [taskStatusProjection, usageProjection],
      deps: { workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue }, aiProvider: 'local' },
      settings: RATES,
    });
    return { worker, api };
  }

  const research = (api: TestApi, key: string, json: unknown) =>
    call(`${api.url}/api/seo-dashboard/keywords/research`, { method: 'POST', headers: bearer(key), json });

  it('without a keyword vendor: corpus statistics with their source, no volumes, and says how to configure one', async () => {
    const { worker, api } = await setup();
    try {
      const u = await api.user('pro');
      // Without a vendor, only the intent call is charged: one record of the AI provider.
      const r = await metered(schema.db, u.userId, { local: 1 }, () =>
        research(api, u.key, { seed_keywords: ['keyword research', 'long-tail keywords'] }),
      );
      expect(r.status).toBe(200);
      const d = r.body.data;
      const seed = d.keywords.find((k: { keyword: string }) => k.keyword === 'keyword research');
      expect(seed.origin).toEqual(['seed']);
      expect(seed.corpus.of).toBe(25);
      expect(seed.corpus.documents).toBeGreaterThan(0);
      expect(seed.corpus.found_in).toContain('keyword-research');
      expect(seed.sources).toEqual({
        search_volume: null,
        competition: null,
        cpc: null,
        corpus: 'research corpus (25 documents)',
        intent: 'local rules (modifier words)',
      });
      expect(seed.search_volume).toBeNull();
      expect(d.keywords.some((k: { origin: string[] }) => k.origin.includes('corpus'))).toBe(true);
      expect(d.data_sources.keyword_vendor).toMatchObject({ configured: false });
      expect(d.data_sources.keyword_vendor.note).toContain('DATAFORSEO_LOGIN');
      expect(d.metadata).toMatchObject({ provider: 'local', keyword_vendor: null });
      // A filter that needs vendor data says it was not applied.
      const f = await research(api, u.key, { seed_keywords: ['email newsletter'], competition_level: 'medium' });
      expect(f.body.data.filters.competition_level).toContain('not applied');
      expect((await research(api, u.key, { seed_keywords: [] })).status).toBe(400);
    } finally {
      await worker.stop();
      await api.stop();
    }
  });

  it('with DataForSEO: sends its request, reports its numbers as its own, filters by competition, meters once', async () => {
    const vendor = await startFakeVendor(
      [
        {
          body: answer([
            idea('keyword research', 40500, 'LOW', 3.1),
            idea('keyword research tool', 9900, 'MEDIUM', 5.2),
            idea('free keyword research', 2400, 'HIGH', 4.4),
          ]),
        },
      ],
      '',
    );
    const { worker, api } = await setup(vendor);
    try {
      await clearOfMonthEnd(); // the vendor's cost is read from this billing period's usage below
      const u = await api.user('pro');
      // One record for the vendor request and one for the intent call, and no more.
      const r = await metered(schema.db, u.userId, { dataforseo: 1, local: 1 }, () =>
        research(api, u.key, {
          seed_keywords: ['keyword research'],
          language: 'en',
          location: 'United States',
          competition_level: 'medium',
        }),
      );
      expect(r.status).toBe(200);
      const req = vendor.requests[0];
      expect(req.path).toBe(DATAFORSEO_PATH);
      expect(req.headers.authorization).toBe(`Basic ${Buffer.from('me@example.com:pw').toString('base64')}`);
      expect(req.body).toEqual([
        {
          keywords: ['keyword research'],
          sort_by: 'search_volume',
          language_code: 'en',
          location_name: 'United States',
        },
      ]);
      const d = r.body.data;
      const by = (k: string) => d.keywords.find((x: { keyword: string }) => x.keyword === k);
      expect(by('keyword research')).toMatchObject({
        origin: ['seed', 'vendor'],
        search_volume: 40500,
        competition: 'low',
        cpc: 3.1,
        top_of_page_bid: { low: 1.55, high: 6.2 },
        sources: { search_volume: 'dataforseo', competition: 'dataforseo', corpus: 'research corpus (25 documents)' },
      });
      expect(by('keyword research tool')).toMatchObject({
        origin: ['vendor'],
        search_volume: 9900,
        intent: 'commercial',
      });
      // HIGH competition is outside the requested level.
      expect(by('free keyword research')).toBeUndefined();
      expect(d.data_sources.keyword_vendor).toMatchObject({ name: 'dataforseo', configured: true, ideas_returned: 3 });
      expect(d.filters.competition_level).toContain('medium');
      const usage = (await usageByProvider(schema.db, u.userId, billingPeriod())).find(
        (x) => x.provider === 'dataforseo',
      );
      expect(usage!.cost).toBeCloseTo(0.075, 6);
    } finally {
      await worker.stop();
      await api.stop();
      await vendor.close();
    }
  });

  it('a vendor error inside a 200 answer is 502 and charges nothing', async () => {
    const vendor = await startFakeVendor([{ body: answer([], 40100) }], '');
    const { worker, api } = await setup(vendor);
    try {
      const u = await api.user('pro');
      // The vendor request fails before the intent call: no record at all.
      const r = await metered(schema.db, u.userId, {}, () => research(api, u.key, { seed_keywords: ['local seo'] }));
      expect(r.status).toBe(502);
      expect(r.body.error.code).toBe('UPSTREAM_ERROR');
      expect(r.body.error.message).toContain('40100');
      expect(vendor.requests).toHaveLength(1);
      expect((await call(`${api.url}/api/seo-dashboard/keywords/research`, { method: 'POST', json: {} })).status).toBe(
        401,
      );
    } finally {
      await worker.stop();
      await api.stop();
      await vendor.close();
    }
  });

  it('a used-up plan limit answers 429 UsageLimitExceededException before the vendor is asked', async () => {
    const vendor = await startFakeVendor([{ body: answer([idea('local seo', 100, 'LOW', 1)]) }], '');
    const { worker, api } = await setup(vendor);
    try {
      await clearOfMonthEnd(); // the used-up limit is this billing period's
      const u = await api.user('free');
      await schema.db('quota_usage').insert({
        user_id: u.userId,
        billing_period: billingPeriod(),
        limit_key: 'tokens',
        used: 100000,
        reserved: 0,
      });
      const r = await metered(schema.db, u.userId, {}, () => research(api, u.key, { seed_keywords: ['local seo'] }));
      expect(r.status).toBe(429);
      expect(r.body).toEqual({
        success: false,
        error: 'UsageLimitExceededException',
        message: expect.stringContaining('tokens'),
        details: { provider: 'local', limit_type: 'tokens', current_usage: 100000, limit_value: 100000 },
        user_id: u.userId,
        timestamp: expect.any(String),
      });
      expect(vendor.requests).toHaveLength(0);
    } finally {
      await worker.stop();
      await api.stop();
      await vendor.close();
    }
  });
});
