/**
 * Subscription and usage API over HTTP with a fixed clock: every route's
 * response against the spec's field tables (schemas written in
 * spec-schemas.ts, not imported from the routes), 8 months of trends with an
 * empty month in the middle and the dashboard projections against values
 * computed by hand, 401 without a key, another user's user_id → 404.
 */
import { usageStream } from '../../../domain/events/usage';
import { PLANS } from '../../../domain/plans';
import { pricingTable } from '../../../domain/pricing';
import { alertsProjection } from '../../../projections/alerts';
import { waitForProjection } from '../../../projections/consistency';
import { usageProjection } from '../../../projections/usage';
import { call } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { expectSpec } from './spec-schemas';

// 2026-04-10T00:00Z: 9 of April's 30 days have elapsed, so the elapsed fraction is exactly 0.3.
const NOW = new Date('2026-04-10T00:00:00.000Z');
const P = '/api/subscription';

describe('subscription and usage API', () => {
  let api: TestApi;
  let seq = 0;
  beforeAll(async () => {
    api = await startTestApi({
      projections: [usageProjection, alertsProjection],
      deps: { now: () => NOW },
      settings: { rate: { overrides: { '*': { general: { minute: 100000, day: 1000000 } } } } },
    });
  });
  afterAll(async () => {
    await api?.stop();
  });

  const get = (path: string, key?: string) => call(`${api.url}${path}`, { headers: key ? bearer(key) : {} });
  const post = (path: string, key?: string, json: unknown = {}) =>
    call(`${api.url}${path}`, { method: 'POST', headers: key ? bearer(key) : {}, json });

  /** Appends one UsageRecorded (as the meter does) for a billing period and waits for the usage projection. */
  async function record(
    userId: string,
    billing_period: string,
    provider: string,
    calls: number,
    tokens_in: number,
    tokens_out: number,
    cost: number,
  ) {
    const r = await api.store.append(
      usageStream(userId),
      [
        {
          type: 'UsageRecorded',
          data: {
            user_id: userId,
            provider,
            model: 'm',
            calls,
            tokens_in,
            tokens_out,
            cost,
            billing_period,
            idempotency_key: `test-${++seq}`,
          },
        },
      ],
      'any',
      { user_id: userId },
    );
    expect(await waitForProjection(api.schema.db, 'usage', r.events[0], { timeoutMs: 20000 })).toBe(true);
  }

  it('plans, pricing and a new subscription match the spec tables', async () => {
    const u = await api.user('free');
    const plans = await get(`${P}/plans`, u.key);
    expect(plans.status).toBe(200);
    expectSpec('plans', plans.body);
    expect(plans.body.data.map((p: { id: number; name: string; price: number }) => [p.id, p.name, p.price])).toEqual([
      [1, 'Free', 0],
      [2, 'Basic', 29],
      [3, 'Pro', 99],
      [4, 'Enterprise', 499],
    ]);
    expect(plans.body.data[0].limits).toEqual({ vendor_a_calls: 100, tokens: 100000 });
    expect(plans.body.data[1].limits).toEqual({
      vendor_a_calls: 1000,
      vendor_b_calls: 500,
      tokens: 1500000,
      monthly_cost: 50,
    });
    // Pro carries exactly the keys Document 1 gives it.
    expect(plans.body.data[2].limits).toEqual({ vendor_a_calls: 5000, vendor_b_calls: 2500, monthly_cost: 150 });

    const pricing = await get(`${P}/pricing`, u.key);
    expect(pricing.status).toBe(200);
    expectSpec('pricing', pricing.body);
    expect(pricing.body.data).toEqual(pricingTable());

    const sub = await get(`${P}/user/${u.userId}/subscription`, u.key);
    expect(sub.status).toBe(200);
    expectSpec('subscription', sub.body);
    expect(sub.body.data).toMatchObject({
      user_id: u.userId,
      plan_name: 'Free',
      plan_id: 1,
      status: 'active',
      expires_at: '2026-05-01T00:00:00.000Z',
      limits: PLANS.free.limits,
    });
  });

  it('usage, trends and dashboard of a user without usage: zeros, every month listed, active', async () => {
    const u = await api.user('basic');
    const usage = await get(`${P}/usage/${u.userId}`, u.key);
    expect(usage.status).toBe(200);
    expectSpec('usage', usage.body);
    expect(usage.body.data).toEqual({
      billing_period: '2026-04',
      total_calls: 0,
      total_tokens: 0,
      total_cost: 0,
      usage_status: 'active',
      limits: PLANS.basic.limits,
      provider_breakdown: {},
      usage_percentages: { vendor_a_calls: 0, vendor_b_calls: 0, tokens: 0, monthly_cost: 0, cost: 0 },
    });
    const trends = await get(`${P}/usage/${u.userId}/trends`, u.key);
    expectSpec('trends', trends.body);
    expect(trends.body.data.periods.map((p: { period: string }) => p.period)).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
    ]); // default 6
    expect(trends.body.data.trends).toEqual({ calls_trend: 'stable', cost_trend: 'stable' });
    const dash = await get(`${P}/dashboard/${u.userId}`, u.key);
    expectSpec('dashboard', dash.body);
    expect(dash.body.data.projections).toEqual({ projected_monthly_cost: 0, projected_usage_percentage: 0 });
    const alerts = await get(`${P}/alerts/${u.userId}`, u.key);
    expectSpec('alerts', alerts.body);
    expect(alerts.body.data).toEqual([]);
  });

  it('trends over 8 months with an empty month in the middle, and the dashboard projections, as computed by hand', async () => {
    const u = await api.user('basic');
    await record(u.userId, '2025-09', 'vendor_a', 10, 1000, 0, 2.0);
    await record(u.userId, '2025-10', 'vendor_a', 12, 1200, 0, 2.4);
    await record(u.userId, '2025-11', 'vendor_a', 14, 1400, 0, 1.4);
    await record(u.userId, '2025-11', 'vendor_b', 2, 200, 0, 0.6);
    // 2025-12: nothing
    await record(u.userId, '2026-01', 'vendor_a', 18, 1800, 0, 1.6);
    await record(u.userId, '2026-02', 'vendor_a', 20, 2000, 0, 1.8);
    await record(u.userId, '2026-03', 'vendor_a', 22, 2200, 0, 2.0);
    // current period 2026-04: two events of vendor_a and one of vendor_b
    await record(u.userId, '2026-04', 'vendor_a', 100, 50000, 10000, 1.0);
    await record(u.userId, '2026-04', 'vendor_a', 20, 10000, 5000, 0.2);
    await record(u.userId, '2026-04', 'vendor_b', 30, 10000, 5000, 0.3);
    // another user's usage never shows
    const other = await api.user('basic');
    await record(other.userId, '2026-04', 'vendor_a', 999, 1, 1, 9);

    const r = await get(`${P}/usage/${u.userId}/trends?months=8`, u.key);
    expect(r.status).toBe(200);
    expectSpec('trends', r.body);
    const periods = r.body.data.periods;
    expect(periods.map((p: { period: string }) => p.period)).toEqual([
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
    ]);
    expect(periods[2]).toEqual({
      period: '2025-11',
      total_calls: 16,
      total_cost: 2,
      provider_breakdown: { vendor_a: { calls: 14, cost: 1.4 }, vendor_b: { calls: 2, cost: 0.6 } },
    });
    expect(periods[3]).toEqual({ period: '2025-12', total_calls: 0, total_cost: 0, provider_breakdown: {} });
    expect(periods[7]).toEqual({
      period: '2026-04',
      total_calls: 150,
      total_cost: 1.5,
      provider_breakdown: { vendor_a: { calls: 120, cost: 1.2 }, vendor_b: { calls: 30, cost: 0.3 } },
    });
    expect(periods.map((p: { total_calls: number }) => p.total_calls)).toEqual([10, 12, 16, 0, 18, 20, 22, 150]);
    expect(periods.map((p: { total_cost: number }) => p.total_cost)).toEqual([2, 2.4, 2, 0, 1.6, 1.8, 2, 1.5]);
    // Least squares over x = 0..7 (x̄ = 3.5, Σ(x−x̄)² = 42):
    // calls: ȳ = 248/8 = 31, Σ(x−x̄)(y−ȳ) = 530, slope 12.62, relative 12.62/31 = +0.407 > +0.05 → increasing
    // cost:  ȳ = 13.3/8 = 1.6625, Σ(x−x̄)(y−ȳ) = −2.25, slope −0.0536, relative −0.0322 within ±0.05 → stable
    expect(r.body.data.trends).toEqual({ calls_trend: 'increasing', cost_trend: 'stable' });

    // Last 3 months: cost 1.8, 2.0, 1.5 → slope (1.5−1.8)/2 = −0.15, ȳ = 1.7667, relative −0.085 < −0.05 → decreasing
    const three = await get(`${P}/usage/${u.userId}/trends?months=3`, u.key);
    expect(three.body.data.periods.map((p: { period: string }) => p.period)).toEqual(['2026-02', '2026-03', '2026-04']);
    expect(three.body.data.trends).toEqual({ calls_trend: 'increasing', cost_trend: 'decreasing' });
    for (const bad of ['0', '25', 'abc', '2.5']) {
      const b = await get(`${P}/usage/${u.userId}/trends?months=${bad}`, u.key);
      expect([bad, b.status, b.body.error]).toEqual([bad, 400, 'ValidationError']);
      expectSpec('error', b.body);
    }

    const usage = await get(`${P}/usage/${u.userId}`, u.key);
    expectSpec('usage', usage.body);
    // 150 calls, 90,000 tokens, $1.50 on Basic (1000 / 500 / 1,500,000 / $50)
    expect(usage.body.data).toEqual({
      billing_period: '2026-04',
      total_calls: 150,
      total_tokens: 90000,
      total_cost: 1.5,
      usage_status: 'active',
      limits: PLANS.basic.limits,
      provider_breakdown: {
        vendor_a: { calls: 120, tokens: 75000, cost: 1.2 },
        vendor_b: { calls: 30, tokens: 15000, cost: 0.3 },
      },
      usage_percentages: { vendor_a_calls: 12, vendor_b_calls: 6, tokens: 6, monthly_cost: 3, cost: 3 },
    });

    const dash = await get(`${P}/dashboard/${u.userId}`, u.key);
    expect(dash.status).toBe(200);
    expectSpec('dashboard', dash.body);
    expect(dash.body.data.summary).toEqual({
      total_api_calls_this_month: 150,
      total_cost_this_month: 1.5,
      usage_status: 'active',
      unread_alerts: 0,
    });
    expect(dash.body.data.current_usage).toEqual(usage.body.data);
    expect(dash.body.data.limits).toEqual({ plan_name: 'Basic', limits: PLANS.basic.limits });
    // Elapsed fraction 9/30 = 0.3. Cost: 1.50 / 0.3 = 5.00.
    // Usage: vendor_a 120/0.3 = 400 of 1000 = 40 %; vendor_b 30/0.3 = 100 of 500 = 20 %;
    // tokens 90,000/0.3 = 300,000 of 1,500,000 = 20 %; cost 5.00 of 50 = 10 % → the largest, 40.0.
    expect(dash.body.data.projections).toEqual({ projected_monthly_cost: 5, projected_usage_percentage: 40 });
    expect(dash.body.data.alerts).toEqual([]);
  });

  it('401 without a credential on every subscription route, in the subscription envelope', async () => {
    const u = await api.user('free');
    const paths: [string, string][] = [
      ['GET', `${P}/plans`],
      ['GET', `${P}/pricing`],
      ['GET', `${P}/user/${u.userId}/subscription`],
      ['POST', `${P}/user/${u.userId}/subscription`],
      ['POST', `${P}/user/${u.userId}/subscription/cancel`],
      ['GET', `${P}/usage/${u.userId}`],
      ['GET', `${P}/usage/${u.userId}/trends`],
      ['GET', `${P}/dashboard/${u.userId}`],
      ['GET', `${P}/alerts/${u.userId}`],
      ['POST', `${P}/alerts/1/mark-read`],
    ];
    for (const [method, path] of paths) {
      const r = method === 'GET' ? await get(path) : await post(path);
      expect([method, path, r.status, r.body.error]).toEqual([method, path, 401, 'AuthenticationError']);
      expectSpec('error', r.body);
      expect(r.body.user_id).toBeNull();
      const bad = await call(`${api.url}${path}`, {
        method,
        headers: bearer('cp_live_AAAAAAAAAAAA_' + 'x'.repeat(43)),
        ...(method === 'POST' ? { json: {} } : {}),
      });
      expect([path, bad.status]).toEqual([path, 401]);
    }
  });

  it("another user's user_id is 404 (as an unknown user); an administrator may read it", async () => {
    const a = await api.user('basic');
    const b = await api.user('free');
    const admin = await api.user('free', { role: 'admin' });
    const reads = [
      `${P}/user/${a.userId}/subscription`,
      `${P}/usage/${a.userId}`,
      `${P}/usage/${a.userId}/trends`,
      `${P}/dashboard/${a.userId}`,
      `${P}/alerts/${a.userId}`,
    ];
    for (const path of reads) {
      const r = await get(path, b.key);
      expect([path, r.status, r.body.error, r.body.user_id]).toEqual([path, 404, 'NotFoundError', b.userId]);
      expectSpec('error', r.body);
      expect([path, (await get(path, admin.key)).status]).toEqual([path, 200]);
      const unknown = await get(path.replace(a.userId, '00000000-0000-4000-8000-000000000000'), admin.key);
      expect([path, unknown.status]).toEqual([path, 404]);
    }
    for (const path of [`${P}/user/${a.userId}/subscription`, `${P}/user/${a.userId}/subscription/cancel`]) {
      const r = await post(path, b.key, { plan: 'free' });
      expect([path, r.status, r.body.error]).toEqual([path, 404, 'NotFoundError']);
    }
    expect((await get(`${P}/user/${a.userId}/subscription`, a.key)).body.data.plan_name).toBe('Basic'); // unchanged
  });
});
