/**
 * Plan changes and usage alerts through the real paths: the PostgresUsageMeter
 * (limits from the user's plan as the worker reads them) reserves and settles
 * calls, its settle raises the threshold alerts, the projections serve the
 * API. Upgrade and downgrade apply at once; cancel keeps the plan until the
 * end of the period, then Free applies; a full replay changes nothing.
 */
import { alertStream } from '../../../domain/events/alerts';
import { PLANS, isPlanName } from '../../../domain/plans';
import { PostgresUsageMeter, UsageLimitExceeded } from '../../../infra/quota/meter';
import { alertsProjection } from '../../../projections/alerts';
import { waitForProjection } from '../../../projections/consistency';
import { getUser, identityProjection } from '../../../projections/identity';
import { replay } from '../../../projections/replay';
import { usageProjection } from '../../../projections/usage';
import { call } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { expectSpec } from './spec-schemas';

const P = '/api/subscription';

describe('plan changes and usage alerts', () => {
  let api: TestApi;
  let clock = new Date('2026-04-10T00:00:00.000Z');
  let meter: PostgresUsageMeter;
  let seq = 0;
  let admin: { userId: string; key: string };
  beforeAll(async () => {
    api = await startTestApi({
      projections: [usageProjection, alertsProjection],
      deps: { now: () => clock },
      settings: { rate: { overrides: { '*': { general: { minute: 100000, day: 1000000 } } } } },
    });
    // The worker's wiring (workers/temporal-worker.ts): limits of the plan getUser reports, at the meter's clock.
    meter = new PostgresUsageMeter(
      api.schema.db,
      api.store,
      async (userId) => {
        const plan = (await getUser(api.schema.db, userId, clock.getTime()))?.plan;
        return PLANS[plan && isPlanName(plan) ? plan : 'free'].limits;
      },
      () => clock,
    );
    admin = await api.user('free', { role: 'admin' });
  });
  afterAll(async () => {
    await api?.stop();
  });

  const get = (path: string, key: string) => call(`${api.url}${path}`, { headers: bearer(key) });
  const post = (path: string, key: string, json: unknown = {}) =>
    call(`${api.url}${path}`, { method: 'POST', headers: bearer(key), json });

  /** One metered call through reserve + settle (as the AI gateway does); waits for the usage projection. */
  async function use(userId: string, tokens: number, cost = 0) {
    const key = `call-${++seq}`;
    const res = await meter.reserve({
      userId,
      provider: 'vendor_a',
      estimatedTokens: tokens,
      estimatedCost: cost,
      idempotencyKey: key,
    });
    await meter.settle(res, {
      provider: 'vendor_a',
      model: 'gpt-4o-mini',
      tokens_in: tokens - Math.floor(tokens / 4),
      tokens_out: Math.floor(tokens / 4),
      cost,
    });
    await meter.settle(res, {
      provider: 'vendor_a',
      model: 'gpt-4o-mini',
      tokens_in: tokens - Math.floor(tokens / 4),
      tokens_out: Math.floor(tokens / 4),
      cost,
    }); // a retried settle
    const events = await api.store.readStream(`usage-${userId}`);
    expect(await waitForProjection(api.schema.db, 'usage', events[events.length - 1], { timeoutMs: 20000 })).toBe(true);
  }

  async function alertsApplied(userId: string) {
    const events = await api.store.readStream(alertStream(userId));
    if (events.length)
      expect(await waitForProjection(api.schema.db, 'alerts', events[events.length - 1], { timeoutMs: 20000 })).toBe(
        true,
      );
    return events;
  }

  it('upgrade applies at once; downgrade too, with the usage of the period kept (limit_reached); a plan already held is 409', async () => {
    clock = new Date('2026-04-10T00:00:00.000Z');
    const u = await api.user('free');
    await use(u.userId, 90000); // 90 % of Free's 100,000 tokens
    let usage = await get(`${P}/usage/${u.userId}`, u.key);
    expect(usage.body.data).toMatchObject({
      usage_status: 'approaching_limit',
      usage_percentages: { vendor_a_calls: 1, tokens: 90 },
    });
    await expect(
      meter.reserve({
        userId: u.userId,
        provider: 'vendor_a',
        estimatedTokens: 20000,
        estimatedCost: 0,
        idempotencyKey: `x-${++seq}`,
      }),
    ).rejects.toBeInstanceOf(UsageLimitExceeded);

    clock = new Date('2026-04-12T08:30:00.000Z');
    // The user cannot raise their own plan (402, how to upgrade: billing/admin.int.test.ts); an administrator can.
    const own = await post(`${P}/user/${u.userId}/subscription`, u.key, { plan: 'basic' });
    expect([own.status, own.body.error]).toEqual([402, 'PaymentRequiredError']);
    expectSpec('error', own.body);
    const up = await post(`${P}/user/${u.userId}/subscription`, admin.key, { plan: 'basic' });
    expect(up.status).toBe(200);
    expectSpec('subscriptionChange', up.body);
    expect(up.body.message).toMatch(/^Upgraded to the Basic plan \(from Free\)/);
    expect(up.body.data).toEqual({
      user_id: u.userId,
      plan_name: 'Basic',
      plan_id: 2,
      status: 'active',
      started_at: '2026-04-12T08:30:00.000Z',
      expires_at: '2026-05-01T00:00:00.000Z',
      limits: PLANS.basic.limits,
    });
    usage = await get(`${P}/usage/${u.userId}`, u.key);
    expect(usage.body.data).toMatchObject({
      usage_status: 'active',
      limits: PLANS.basic.limits,
      usage_percentages: { tokens: 6 },
    });
    await use(u.userId, 20000); // fits under Basic now: 110,000 tokens

    const again = await post(`${P}/user/${u.userId}/subscription`, u.key, { plan: 'basic' });
    expect([again.status, again.body.error]).toEqual([409, 'ConflictError']);
    expectSpec('error', again.body);
    const bad = await post(`${P}/user/${u.userId}/subscription`, u.key, { plan: 'gold' });
    expect([bad.status, bad.body.error]).toEqual([400, 'ValidationError']);

    const down = await post(`${P}/user/${u.userId}/subscription`, u.key, { plan: 'free' });
    expect(down.status).toBe(200);
    expectSpec('subscriptionChange', down.body);
    expect(down.body.message).toMatch(/^Downgraded to the Free plan \(from Basic\)/);
    expect(down.body.data).toMatchObject({
      plan_name: 'Free',
      plan_id: 1,
      status: 'active',
      limits: PLANS.free.limits,
    });
    usage = await get(`${P}/usage/${u.userId}`, u.key);
    expectSpec('usage', usage.body);
    expect(usage.body.data).toMatchObject({
      total_tokens: 110000,
      usage_status: 'limit_reached',
      limits: PLANS.free.limits,
      usage_percentages: { vendor_a_calls: 2, tokens: 110 },
    });
    await expect(
      meter.reserve({
        userId: u.userId,
        provider: 'vendor_a',
        estimatedTokens: 10,
        estimatedCost: 0,
        idempotencyKey: `x-${++seq}`,
      }),
    ).rejects.toMatchObject({
      details: { limit_type: 'tokens', current_usage: 110000, limit_value: 100000 },
    });
  });

  it('cancel keeps the plan until the end of the period, then Free applies (expired); subscribing again reactivates', async () => {
    clock = new Date('2026-04-10T00:00:00.000Z');
    const u = await api.user('pro');
    const cancelled = await post(`${P}/user/${u.userId}/subscription/cancel`, u.key);
    expect(cancelled.status).toBe(200);
    expectSpec('subscriptionChange', cancelled.body);
    expect(cancelled.body.data).toMatchObject({
      plan_name: 'Pro',
      plan_id: 3,
      status: 'cancelled',
      expires_at: '2026-05-01T00:00:00.000Z',
      limits: PLANS.pro.limits,
    });
    expect(cancelled.body.message).toContain('2026-05-01T00:00:00.000Z');
    const twice = await post(`${P}/user/${u.userId}/subscription/cancel`, u.key);
    expect([twice.status, twice.body.error]).toEqual([409, 'ConflictError']);
    expect((await getUser(api.schema.db, u.userId, clock.getTime()))?.plan).toBe('pro'); // the meter still applies Pro

    clock = new Date('2026-04-30T23:59:59.000Z');
    expect((await get(`${P}/user/${u.userId}/subscription`, u.key)).body.data.status).toBe('cancelled');

    clock = new Date('2026-05-01T00:00:00.000Z');
    const expired = await get(`${P}/user/${u.userId}/subscription`, u.key);
    expectSpec('subscription', expired.body);
    expect(expired.body.data).toMatchObject({
      plan_name: 'Pro',
      plan_id: 3,
      status: 'expired',
      expires_at: '2026-05-01T00:00:00.000Z',
      limits: PLANS.free.limits,
    });
    expect((await getUser(api.schema.db, u.userId, clock.getTime()))?.plan).toBe('free'); // what the meter enforces from now on
    const usage = await get(`${P}/usage/${u.userId}`, u.key);
    expect(usage.body.data).toMatchObject({
      billing_period: '2026-05',
      limits: PLANS.free.limits,
      usage_status: 'active',
    });
    expect((await get(`${P}/dashboard/${u.userId}`, u.key)).body.data.limits).toEqual({
      plan_name: 'Free',
      limits: PLANS.free.limits,
    });
    expect((await post(`${P}/user/${u.userId}/subscription/cancel`, u.key)).status).toBe(409);

    // The paid period is over: subscribing again is an upgrade from Free, so it needs a payment (or an administrator).
    expect((await post(`${P}/user/${u.userId}/subscription`, u.key, { plan: 'basic' })).status).toBe(402);
    const back = await post(`${P}/user/${u.userId}/subscription`, admin.key, { plan: 'basic' });
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({
      plan_name: 'Basic',
      status: 'active',
      started_at: '2026-05-01T00:00:00.000Z',
      expires_at: '2026-06-01T00:00:00.000Z',
      limits: PLANS.basic.limits,
    });

    // Resume before the end: cancelling and subscribing to the same plan again clears the cancellation.
    const c2 = await post(`${P}/user/${u.userId}/subscription/cancel`, u.key);
    expect(c2.body.data.status).toBe('cancelled');
    const resumed = await post(`${P}/user/${u.userId}/subscription`, u.key, { plan: 'basic' });
    expect([resumed.status, resumed.body.data.status, resumed.body.message]).toEqual([
      200,
      'active',
      expect.stringMatching(/^Resumed the Basic plan/),
    ]);

    const free = await api.user('free');
    const refused = await post(`${P}/user/${free.userId}/subscription/cancel`, free.key);
    expect([refused.status, refused.body.error]).toEqual([409, 'ConflictError']);
  });

  it('crossing 80/95/100 % raises three alerts once each; unread_only, mark-read by the owner only, and a full replay changes nothing', async () => {
    clock = new Date('2026-04-10T00:00:00.000Z');
    const u = await api.user('free');
    const other = await api.user('free');
    await use(u.userId, 40000); // 40 %
    await use(u.userId, 40000); // 80 % → info
    await use(u.userId, 15000); // 95 % → warning
    await use(u.userId, 5000); // 100 % → critical
    await expect(
      meter.reserve({
        userId: u.userId,
        provider: 'vendor_a',
        estimatedTokens: 1,
        estimatedCost: 0,
        idempotencyKey: `x-${++seq}`,
      }),
    ).rejects.toBeInstanceOf(UsageLimitExceeded);
    const raised = await alertsApplied(u.userId);
    expect(raised).toHaveLength(3);

    const all = await get(`${P}/alerts/${u.userId}`, u.key);
    expect(all.status).toBe(200);
    expectSpec('alerts', all.body);
    const alerts = all.body.data as {
      id: number;
      severity: string;
      alert_type: string;
      read: boolean;
      user_id: string;
      title: string;
    }[];
    expect(alerts.map((a) => a.severity).sort()).toEqual(['critical', 'info', 'warning']);
    expect(new Set(alerts.map((a) => a.id)).size).toBe(3);
    expect(alerts.every((a) => a.alert_type === 'usage_threshold' && a.user_id === u.userId && !a.read)).toBe(true);
    expect(alerts.map((a) => a.title).sort()).toEqual([
      '80% of tokens used',
      '95% of tokens used',
      'tokens limit reached',
    ]);
    expect((await get(`${P}/usage/${u.userId}`, u.key)).body.data.usage_status).toBe('limit_reached');

    const info = alerts.find((a) => a.severity === 'info')!;
    const foreign = await post(`${P}/alerts/${info.id}/mark-read`, other.key);
    expect([foreign.status, foreign.body.error]).toEqual([404, 'NotFoundError']);
    expectSpec('error', foreign.body);
    expect((await post(`${P}/alerts/999999999/mark-read`, u.key)).status).toBe(404);
    expect((await post(`${P}/alerts/abc/mark-read`, u.key)).status).toBe(400);

    const marked = await post(`${P}/alerts/${info.id}/mark-read`, u.key);
    expect(marked.status).toBe(200);
    expectSpec('markRead', marked.body);
    expect(marked.body).toEqual({ success: true, message: `Alert ${info.id} marked as read` });
    expect((await post(`${P}/alerts/${info.id}/mark-read`, u.key)).status).toBe(200); // again: still read, no new event

    const unread = await get(`${P}/alerts/${u.userId}?unread_only=true`, u.key);
    expectSpec('alerts', unread.body);
    expect(unread.body.data.map((a: { severity: string }) => a.severity).sort()).toEqual(['critical', 'warning']);
    expect(unread.body.data.every((a: { read: boolean }) => !a.read)).toBe(true);
    const everything = await get(`${P}/alerts/${u.userId}?unread_only=false`, u.key);
    expect(everything.body.data.find((a: { id: number }) => a.id === info.id).read).toBe(true);

    const dash = await get(`${P}/dashboard/${u.userId}`, u.key);
    expectSpec('dashboard', dash.body);
    expect(dash.body.data.summary).toMatchObject({ usage_status: 'limit_reached', unread_alerts: 2 });
    expect(dash.body.data.alerts).toEqual(everything.body.data);
    // Dashboard projection: 100,000 tokens of 100,000 after 0.3 of the month → 333.3 %
    expect(dash.body.data.projections).toEqual({ projected_monthly_cost: 0, projected_usage_percentage: 333.3 });

    // Full replays rebuild the read models from zero: no alert twice, the read flag kept, subscriptions intact.
    await replay(api.schema.db, api.store, alertsProjection);
    await replay(api.schema.db, api.store, alertsProjection);
    await replay(api.schema.db, api.store, usageProjection);
    await replay(api.schema.db, api.store, identityProjection);
    const after = await get(`${P}/alerts/${u.userId}`, u.key);
    expect(after.body.data).toEqual(everything.body.data);
    expect((await api.store.readStream(alertStream(u.userId))).filter((e) => e.type === 'AlertRaised')).toHaveLength(3);
    expect((await get(`${P}/usage/${u.userId}`, u.key)).body.data).toMatchObject({
      total_tokens: 100000,
      usage_status: 'limit_reached',
    });
    expect((await get(`${P}/user/${u.userId}/subscription`, u.key)).body.data).toMatchObject({
      plan_name: 'Free',
      status: 'active',
    });
    expect((await get(`${P}/alerts/${other.userId}`, other.key)).body.data).toEqual([]);
  });
});
