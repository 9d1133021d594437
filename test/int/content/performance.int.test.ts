/**
 * SEO dashboard performance over HTTP: a domain without data is a 404 naming
 * how to import or connect; imported rows (JSON and CSV) give exact metrics
 * per date range, with changes against the previous period; Search Console
 * is read through its real protocol (OAuth token, paged searchAnalytics.query)
 * from a scripted server on loopback; every integration call is a user_action.
 */
import { randomBytes } from 'node:crypto';
import { IntegrationCredentialStore, createSearchConsole } from '../../../infra/seo';
import { SecretBox } from '../../../infra/webhooks/secrets';
import { seoPerformanceProjection } from '../../../projections/seo-performance';
import { taskStatusProjection } from '../../../projections/task-status';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { startContentWorker } from '../../support/content-worker';
import { testTemporal } from '../../support/env';
import { FakeVendor, startFakeVendor } from '../../support/fake-vendor';
import { call, rawRequest } from '../../support/http';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';

jest.setTimeout(240000);

const RATES = { rate: { overrides: { '*': { general: { minute: 10000, day: 100000 }, status: { minute: 10000 } } } } };
const TODAY = new Date('2025-06-30T12:00:00Z');

/** GET with a JSON body (fetch refuses one): the spec lists this route's fields as body fields. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function getWithBody(url: string, key: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await rawRequest(
    url,
    'GET',
    { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    JSON.stringify(body),
  );
  return { status: r.status, body: JSON.parse(r.body) };
}

describe('SEO dashboard performance', () => {
  let api: TestApi;
  let schema: IsolatedSchema;
  let temporal: Awaited<ReturnType<typeof testTemporal>>;
  let worker: Awaited<ReturnType<typeof startContentWorker>>;
  let gsc: FakeVendor;
  let alice: { userId: string; key: string };
  let bob: { userId: string; key: string };

  beforeAll(async () => {
    temporal = await testTemporal();
    schema = await isolatedSchema();
    const credentials = new IntegrationCredentialStore(schema.db, new SecretBox(randomBytes(32)));
    gsc = await startFakeVendor(
      [
        { body: { access_token: 'ya29.token', expires_in: 3599, token_type: 'Bearer' } },
        {
          body: {
            rows: [
              {
                keys: ['2025-06-20', 'https://www.example.org/a', 'seo tips'],
                clicks: 10,
                impressions: 100,
                ctr: 0.1,
                position: 2,
              },
              {
                keys: ['2025-06-21', 'https://www.example.org/b', 'seo tools'],
                clicks: 5,
                impressions: 50,
                ctr: 0.1,
                position: 8.5,
              },
            ],
            responseAggregationType: 'byPage',
          },
        },
        {
          body: {
            rows: [
              {
                keys: ['2025-06-22', 'https://www.example.org/a', 'seo tips'],
                clicks: 1,
                impressions: 30,
                ctr: 0.03,
                position: 4,
              },
            ],
          },
        },
      ],
      '',
    );
    worker = await startContentWorker(schema.db, {
      performance: {
        credentials,
        searchConsole: createSearchConsole({
          clientId: 'client-1.apps.googleusercontent.com',
          clientSecret: 'shh',
          tokenUrl: `${gsc.origin}/token`,
          apiBaseUrl: gsc.origin,
          timeoutMs: 5000,
          maxRetries: 0,
          pageSize: 2,
        }),
      },
    });
    api = await startTestApi({
      schema,
      projections: [taskStatusProjection, seoPerformanceProjection],
      deps: {
        workflows: { client: async () => temporal.client, taskQueue: worker.taskQueue },
        integrations: { credentials, searchConsole: true },
        now: () => TODAY,
        aiProvider: 'local',
      },
      settings: RATES,
    });
    alice = await api.user('pro');
    bob = await api.user('pro');
  });

  afterAll(async () => {
    await worker.stop();
    await api.stop();
    await gsc.close();
    await temporal.connection.close();
    await schema.drop();
  });

  const perf = (key: string, qs: string) =>
    call(`${api.url}/api/seo-dashboard/performance?${qs}`, { headers: bearer(key) });
  const importRows = (key: string, json: unknown) =>
    call(`${api.url}/api/seo-dashboard/performance/import`, { method: 'POST', headers: bearer(key), json });

  it('a domain without data answers zero counts, a note and how to import or connect', async () => {
    const r = await perf(alice.key, 'domain=example.com');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      domain: 'example.com',
      data_sources: [],
      days_with_data: 0,
      traffic: { clicks: 0, impressions: 0, ctr: null },
      rankings: { average_position: null, queries_ranked: 0 },
    });
    expect(r.body.data.notes[0]).toContain('POST /api/seo-dashboard/performance/import');
    expect(r.body.data.notes[0]).toContain('PUT /api/seo-dashboard/search-console');
    expect(r.body.data.how_to_add_data).toHaveLength(2);
    expect((await call(`${api.url}/api/seo-dashboard/performance?domain=example.com`)).status).toBe(401);
  });

  it('computes traffic, rankings and conversions from imported rows, per date range, against the previous period', async () => {
    const imp = await importRows(alice.key, {
      domain: 'Example.com',
      rows: [
        // Inside 30d (2025-06-01..2025-06-30)
        {
          date: '2025-06-10',
          page: '/pricing',
          query: 'crm pricing',
          clicks: 20,
          impressions: 400,
          position: 3,
          conversions: 4,
        },
        {
          date: '2025-06-10',
          page: 'https://example.com/blog',
          query: 'crm tips',
          clicks: 10,
          impressions: 100,
          position: 12,
          conversions: 0,
        },
        {
          date: '2025-06-11',
          page: '/pricing',
          query: 'crm pricing',
          clicks: 30,
          impressions: 500,
          position: 2,
          conversions: 6,
        },
        // Previous period (2025-05-02..2025-05-31)
        {
          date: '2025-05-15',
          page: '/pricing',
          query: 'crm pricing',
          clicks: 40,
          impressions: 800,
          position: 5,
          conversions: 5,
        },
      ],
    });
    expect(imp.status).toBe(201);
    expect(imp.body.data).toMatchObject({
      domain: 'example.com',
      rows_imported: 4,
      date_range: { start: '2025-05-15', end: '2025-06-11' },
    });
    const r = await perf(alice.key, 'domain=example.com&date_range=30d');
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.date_range).toEqual({ value: '30d', start: '2025-06-01', end: '2025-06-30', days: 30 });
    expect(d.previous_period).toEqual({ start: '2025-05-02', end: '2025-05-31' });
    expect(d.traffic).toMatchObject({
      clicks: 60,
      impressions: 1000,
      ctr: 6,
      change_percent: { clicks: 50, impressions: 25 },
    });
    expect(d.traffic.daily).toEqual([
      { date: '2025-06-10', clicks: 30, impressions: 500 },
      { date: '2025-06-11', clicks: 30, impressions: 500 },
    ]);
    expect(d.traffic.top_pages[0]).toMatchObject({ page: '/pricing', clicks: 50, impressions: 900 });
    // (3·400 + 12·100 + 2·500) / 1000 = 3.4
    expect(d.rankings).toMatchObject({ average_position: 3.4, previous_average_position: 5, queries_ranked: 2 });
    expect(d.rankings.distribution).toEqual({ top_3: 1, '4_10': 0, '11_20': 1, beyond_20: 0 });
    expect(d.conversions).toMatchObject({ conversions: 10, conversion_rate: 16.67, change_percent: 100 });
    expect(d.data_sources).toEqual([
      expect.objectContaining({ source: 'import', rows: 4, first_date: '2025-05-15', last_date: '2025-06-11' }),
    ]);
    // Only the metrics asked for; comma-separated or repeated.
    const only = await perf(alice.key, 'domain=example.com&date_range=7d&metrics=traffic,rankings');
    expect(only.body.data.metrics).toEqual(['traffic', 'rankings']);
    expect(only.body.data.conversions).toBeUndefined();
    expect(only.body.data.traffic.clicks).toBe(0);
    expect(only.body.data.notes.join(' ')).toContain('No rows between 2025-06-24 and 2025-06-30');
    // The same fields as a JSON body.
    const viaBody = await getWithBody(`${api.url}/api/seo-dashboard/performance`, alice.key, {
      domain: 'example.com',
      date_range: '2025-06-10..2025-06-10',
      metrics: ['traffic'],
    });
    expect(viaBody.status).toBe(200);
    expect(viaBody.body.data.traffic).toMatchObject({ clicks: 30, impressions: 500 });
    // Another user has no data for the domain (none of alice's).
    const bobs = await perf(bob.key, 'domain=example.com');
    expect([bobs.status, bobs.body.data.data_sources, bobs.body.data.traffic.clicks]).toEqual([200, [], 0]);
  });

  it('imports CSV; a row with the same date, page and query replaces the stored one', async () => {
    const csv =
      'Date,Page,Query,Clicks,Impressions,Position,Conversions\r\n2025-06-11,/pricing,"crm pricing",35,500,2,7\r\n2025-06-12,"/blog/a, b",,3,30,,\r\n';
    const r = await importRows(alice.key, { domain: 'example.com', csv });
    expect(r.status).toBe(201);
    expect(r.body.data.rows_imported).toBe(2);
    const d = (await perf(alice.key, 'domain=example.com&date_range=2025-06-01..2025-06-30')).body.data;
    expect(d.traffic).toMatchObject({ clicks: 20 + 10 + 35 + 3, impressions: 400 + 100 + 500 + 30 });
    expect(d.conversions.conversions).toBe(4 + 0 + 7);
    expect(d.traffic.top_pages.map((p: { page: string }) => p.page)).toContain('/blog/a, b');
  });

  it('refuses bad rows naming each one', async () => {
    const bad = await importRows(alice.key, {
      domain: 'example.com',
      rows: [
        { date: '2025-02-30', page: '/a', clicks: 1, impressions: 2 },
        { date: '2025-06-01', page: 'https://other.com/x', clicks: 5, impressions: 2 },
      ],
    });
    expect(bad.status).toBe(400);
    const paths = bad.body.error.details.issues.map((i: { parameter: string }) => i.parameter);
    expect(paths).toEqual(expect.arrayContaining(['rows.0.date', 'rows.1.page', 'rows.1.clicks']));
    const header = await importRows(alice.key, { domain: 'example.com', csv: 'day,url\n2025-01-01,/a\n' });
    expect(header.status).toBe(400);
    expect(header.body.error.message).toContain('date, page, clicks, impressions');
    expect((await importRows(alice.key, { domain: 'example.com' })).status).toBe(400);
    expect((await perf(alice.key, 'domain=example.com&date_range=yesterday')).status).toBe(400);
  });

  it('Search Console: connect, sync through OAuth and paged queries, and read the rows', async () => {
    expect(
      (
        await call(`${api.url}/api/seo-dashboard/performance/sync`, {
          method: 'POST',
          headers: bearer(alice.key),
          json: { domain: 'example.org' },
        })
      ).status,
    ).toBe(409);
    const put = await call(`${api.url}/api/seo-dashboard/search-console`, {
      method: 'PUT',
      headers: bearer(alice.key),
      json: { refresh_token: '1//refresh-token-of-alice' },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      connected: true,
      configured: true,
      token_fingerprint: expect.stringMatching(/^sha256:/),
    });
    expect(JSON.stringify(put.body)).not.toContain('refresh-token-of-alice');
    const sync = await call(`${api.url}/api/seo-dashboard/performance/sync`, {
      method: 'POST',
      headers: bearer(alice.key),
      json: { domain: 'example.org', date_range: '30d' },
    });
    expect(sync.status).toBe(200);
    expect(sync.body.data).toMatchObject({
      site_url: 'sc-domain:example.org',
      rows_imported: 3,
      source: 'search_console',
    });
    const [token, page1, page2] = gsc.requests;
    expect(token.path).toBe('/token');
    const form = new URLSearchParams(String(token.body));
    expect(Object.fromEntries(form)).toEqual({
      client_id: 'client-1.apps.googleusercontent.com',
      client_secret: 'shh',
      refresh_token: '1//refresh-token-of-alice',
      grant_type: 'refresh_token',
    });
    expect(page1.path).toBe('/webmasters/v3/sites/sc-domain%3Aexample.org/searchAnalytics/query');
    expect(page1.headers.authorization).toBe('Bearer ya29.token');
    expect(page1.body).toEqual({
      startDate: '2025-06-01',
      endDate: '2025-06-30',
      dimensions: ['date', 'page', 'query'],
      rowLimit: 2,
      startRow: 0,
      dataState: 'final',
    });
    expect((page2.body as { startRow: number }).startRow).toBe(2);
    const d = (await perf(alice.key, 'domain=example.org')).body.data;
    expect(d.traffic).toMatchObject({ clicks: 16, impressions: 180 });
    expect(d.data_sources[0]).toMatchObject({ source: 'search_console', rows: 3 });
    expect(d.conversions.conversions).toBeNull();
    expect(d.notes.join(' ')).toContain('Search Console does not');
    // Disconnect deletes the token; the synced data stays.
    expect(
      (await call(`${api.url}/api/seo-dashboard/search-console`, { method: 'DELETE', headers: bearer(alice.key) }))
        .status,
    ).toBe(200);
    expect(
      (await call(`${api.url}/api/seo-dashboard/search-console`, { method: 'DELETE', headers: bearer(alice.key) }))
        .status,
    ).toBe(404);
    expect((await perf(alice.key, 'domain=example.org')).status).toBe(200);
    // Each interaction is a user_action source event.
    const actions = await schema
      .db('es_events')
      .where({ type: 'IntegrationActionRecorded' })
      .whereRaw("data->>'user_id' = ?", [alice.userId])
      .orderBy('global_position')
      .select(schema.db.raw("data->>'integration' AS integration, data->>'action' AS action"));
    expect(actions.map((a: { integration: string; action: string }) => `${a.integration}:${a.action}`)).toEqual([
      'performance_import:imported',
      'performance_import:imported',
      'search_console:connected',
      'search_console:synced',
      'search_console:disconnected',
    ]);
  });
});
