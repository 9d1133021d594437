/** Subscription status, plan-change decisions and usage status (pure rules of domain/subscription/state.ts). */
import { ConflictError, PaymentRequiredError } from '../../../domain/errors';
import { effectivePlan, foldUser } from '../../../domain/identity';
import { PLANS } from '../../../domain/plans';
import {
  decideCancel,
  decidePlanChange,
  MAY_RAISE,
  periodEnd,
  subscriptionAt,
  usageByLimitKey,
  usagePercentages,
  usageStatusOf,
} from '../../../domain/subscription/state';

const rec = (plan: 'free' | 'basic' | 'pro' | 'enterprise', ends_at: string | null = null) => ({
  user_id: 'u',
  plan,
  started_at: '2026-01-15T10:00:00.000Z',
  ends_at,
});

describe('subscription state', () => {
  it('expires_at is the end of the billing period; a cancellation holds until its end, then Free applies', () => {
    expect(periodEnd(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    const now = new Date('2026-04-10T00:00:00Z');
    expect(subscriptionAt(rec('basic'), now)).toMatchObject({
      status: 'active',
      expires_at: '2026-05-01T00:00:00.000Z',
      effective: PLANS.basic,
    });
    const c = rec('pro', '2026-05-01T00:00:00.000Z');
    expect(subscriptionAt(c, now)).toMatchObject({ status: 'cancelled', plan: PLANS.pro, effective: PLANS.pro });
    expect(subscriptionAt(c, new Date('2026-05-01T00:00:00Z'))).toMatchObject({
      status: 'expired',
      plan: PLANS.pro,
      effective: PLANS.free,
      expires_at: '2026-05-01T00:00:00.000Z',
    });
    expect(
      effectivePlan({ plan: 'pro', ends_at: '2026-05-01T00:00:00.000Z' }, Date.parse('2026-04-30T00:00:00Z')),
    ).toBe('pro');
    expect(
      effectivePlan({ plan: 'pro', ends_at: '2026-05-01T00:00:00.000Z' }, Date.parse('2026-05-01T00:00:00Z')),
    ).toBe('free');
  });

  it('plan changes: upgrade (only by an administrator, an operator or billing), downgrade, resume, and 409 for the plan held', () => {
    const now = new Date('2026-04-10T00:00:00Z');
    for (const actor of MAY_RAISE)
      expect(decidePlanChange(subscriptionAt(rec('free'), now), 'pro', actor)).toBe('upgrade');
    expect(() => decidePlanChange(subscriptionAt(rec('free'), now), 'pro', 'user')).toThrow(PaymentRequiredError);
    expect(() => decidePlanChange(subscriptionAt(rec('free'), now), 'pro', 'user')).toThrow(
      'Raising the plan from Free to Pro needs a payment',
    );
    expect(decidePlanChange(subscriptionAt(rec('pro'), now), 'basic', 'user')).toBe('downgrade');
    expect(decidePlanChange(subscriptionAt(rec('pro', '2026-05-01T00:00:00Z'), now), 'pro', 'user')).toBe('resume');
    const expired = subscriptionAt(rec('pro', '2026-05-01T00:00:00Z'), new Date('2026-06-01T00:00:00Z'));
    expect(decidePlanChange(expired, 'pro', 'admin')).toBe('upgrade'); // from Free
    expect(() => decidePlanChange(expired, 'pro', 'user')).toThrow(PaymentRequiredError); // the paid period is over
    expect(() => decidePlanChange(subscriptionAt(rec('basic'), now), 'basic', 'admin')).toThrow(ConflictError);
    expect(decideCancel(subscriptionAt(rec('basic'), now), now)).toEqual({ expires_at: '2026-05-01T00:00:00.000Z' });
    expect(() => decideCancel(subscriptionAt(rec('free'), now), now)).toThrow(ConflictError);
    expect(() => decideCancel(subscriptionAt(rec('pro', '2026-05-01T00:00:00Z'), now), now)).toThrow(
      /already cancelled/,
    );
  });

  it('folds cancellation and a later plan change from the user stream', () => {
    const created = {
      type: 'UserCreated' as const,
      data: { user_id: 'u', plan: 'pro' as const, role: 'user' as const },
    };
    const cancelled = {
      type: 'SubscriptionCancelled' as const,
      data: {
        user_id: 'u',
        plan: 'pro' as const,
        cancelled_at: '2026-04-10T00:00:00.000Z',
        expires_at: '2026-05-01T00:00:00.000Z',
      },
    };
    expect(foldUser([created, cancelled])).toEqual({
      user_id: 'u',
      plan: 'pro',
      role: 'user',
      ends_at: '2026-05-01T00:00:00.000Z',
    });
    expect(
      foldUser([
        created,
        cancelled,
        { type: 'PlanChanged', data: { user_id: 'u', plan: 'basic', previous_plan: 'pro' } },
      ]),
    ).toEqual({ user_id: 'u', plan: 'basic', role: 'user' });
  });

  it('usage per limit key, percentages (with cost beside monthly_cost) and usage status', () => {
    const used = usageByLimitKey([
      { provider: 'vendor_a', calls: 80, tokens: 1000, cost: 10 },
      { provider: 'vendor_b', calls: 5, tokens: 500, cost: 2.5 },
    ]);
    expect(used).toEqual({ vendor_a_calls: 80, vendor_b_calls: 5, tokens: 1500, monthly_cost: 12.5 });
    expect(usagePercentages(PLANS.basic.limits, used)).toEqual({
      vendor_a_calls: 8,
      vendor_b_calls: 1,
      tokens: 0.1,
      monthly_cost: 25,
      cost: 25,
    });
    expect(usagePercentages(PLANS.free.limits, used)).toEqual({ vendor_a_calls: 80, tokens: 1.5 });
    expect(usageStatusOf(PLANS.basic.limits, used)).toBe('active');
    expect(usageStatusOf(PLANS.free.limits, used)).toBe('approaching_limit');
    expect(usageStatusOf(PLANS.free.limits, { ...used, vendor_a_calls: 100 })).toBe('limit_reached');
    expect(usageStatusOf(PLANS.free.limits, { vendor_a_calls: 79.99 })).toBe('active');
  });
});
