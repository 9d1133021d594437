/**
 * Subscription state and usage status (pure; documented in docs/subscription.md).
 *
 * Billing periods are UTC calendar months (YYYY-MM), the same periods the
 * usage meter counts in. A subscription renews with every period; its
 * `expires_at` is the end of the current period (the first instant of the
 * next month).
 *
 * Subscription status:
 *   active    the plan applies and renews at expires_at;
 *   cancelled cancel was asked: the plan still applies until expires_at (the
 *             end of the period in which it was cancelled), then it does not renew;
 *   expired   expires_at of a cancelled subscription has passed: the Free
 *             plan's limits apply. Expiry is not an event: it is the passing
 *             of the time recorded in SubscriptionCancelled, so every reader
 *             (API, meter, rate limiter) computes it with its clock.
 *
 * Plan changes (subscribe, upgrade, downgrade) take effect immediately, in
 * the current period: usage already recorded in the period stays, so after a
 * downgrade a user above a new limit is `limit_reached` and further calls are
 * refused until the next period or an upgrade. Subscribing again (any plan)
 * clears a cancellation.
 *
 * Usage status, from the percentages of the plan's limit keys:
 *   limit_reached     some key is at or above 100 %;
 *   approaching_limit some key is at or above 80 % (the first alert threshold);
 *   active            otherwise.
 */
import { ConflictError, PaymentRequiredError } from '../errors';
import type { PlanActorKind } from '../events/identity';
import { effectivePlan } from '../identity/state';
import { Plan, PlanName, PLANS, UsageLimitKey } from '../plans';

export type SubscriptionStatus = 'active' | 'cancelled' | 'expired';
export type UsageStatus = 'active' | 'approaching_limit' | 'limit_reached';

export const SUBSCRIPTION_STATUSES: SubscriptionStatus[] = ['active', 'cancelled', 'expired'];
export const USAGE_STATUSES: UsageStatus[] = ['active', 'approaching_limit', 'limit_reached'];

/** Percent of a limit from which usage_status is `approaching_limit`. */
export const APPROACHING_PERCENT = 80;

/** A user's subscription as stored by the identity projection (or folded from the user stream). */
export interface SubscriptionRecord {
  user_id: string;
  /** The plan subscribed to (kept after a cancellation until it is replaced). */
  plan: PlanName;
  /** When this plan started (creation or the last plan change). */
  started_at: string;
  /** Set by a cancellation: the end of the period in which it was cancelled. */
  ends_at: string | null;
}

export interface SubscriptionView {
  /** The plan subscribed to (for `expired`: the plan that expired). */
  plan: Plan;
  /** The plan whose limits apply now (Free once expired). */
  effective: Plan;
  status: SubscriptionStatus;
  started_at: string;
  expires_at: string;
}

/** YYYY-MM of a date in UTC. */
export const periodOf = (d: Date): string => d.toISOString().slice(0, 7);

/** End of the billing period of `d`: the first instant of the next UTC month. */
export function periodEnd(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

export function subscriptionAt(rec: SubscriptionRecord, now: Date): SubscriptionView {
  const plan = PLANS[rec.plan];
  const effective = PLANS[effectivePlan(rec, now.getTime())];
  if (rec.ends_at) {
    const status: SubscriptionStatus = now.getTime() >= Date.parse(rec.ends_at) ? 'expired' : 'cancelled';
    return { plan, effective, status, started_at: rec.started_at, expires_at: new Date(rec.ends_at).toISOString() };
  }
  return { plan, effective, status: 'active', started_at: rec.started_at, expires_at: periodEnd(now).toISOString() };
}

export type PlanChangeKind = 'subscribe' | 'upgrade' | 'downgrade' | 'resume';

/**
 * Who may raise a plan (to one that costs more than the plan that applies now): an administrator, an operator at
 * the console, or the billing provider once it confirmed the payment. A user may downgrade, cancel, or resume a
 * cancelled plan that is still paid for; raising their own plan is refused with 402 (docs/security.md, API6).
 */
export const MAY_RAISE: readonly PlanActorKind[] = ['admin', 'operator', 'billing'];

/**
 * Decides a change to `target` by `actor`: refused (409) when it is the plan that applies and the subscription is
 * active, and (402) when a user asks for a plan that costs more than the one that applies. Otherwise the kind of
 * change, by price against the plan that applies now.
 */
export function decidePlanChange(view: SubscriptionView, target: PlanName, actor: PlanActorKind): PlanChangeKind {
  const to = PLANS[target];
  if (view.status === 'active' && view.effective.key === target)
    throw new ConflictError(`Already subscribed to the ${to.name} plan`, { plan: target });
  if (view.status === 'cancelled' && view.plan.key === target) return 'resume';
  const kind: PlanChangeKind =
    to.price > view.effective.price ? 'upgrade' : to.price < view.effective.price ? 'downgrade' : 'subscribe';
  if (kind === 'upgrade' && !MAY_RAISE.includes(actor))
    throw new PaymentRequiredError(`Raising the plan from ${view.effective.name} to ${to.name} needs a payment`, {
      plan: target,
      current_plan: view.effective.key,
    });
  return kind;
}

/** Decides a cancellation at `now`: the plan ends at the end of the current period. Free, cancelled or expired → 409. */
export function decideCancel(view: SubscriptionView, now: Date): { expires_at: string } {
  if (view.status !== 'active')
    throw new ConflictError(`The subscription is already ${view.status}`, { status: view.status });
  if (view.plan.key === 'free') throw new ConflictError('The Free plan cannot be cancelled', { plan: 'free' });
  return { expires_at: periodEnd(now).toISOString() };
}

export interface ProviderTotals {
  provider: string;
  calls: number;
  tokens: number;
  cost: number;
}

/** What usage counts against each limit key (the meter's rule): `<provider>_calls`, tokens, monthly_cost. */
export function usageByLimitKey(providers: ProviderTotals[]): Record<string, number> {
  const out: Record<string, number> = { tokens: 0, monthly_cost: 0 };
  for (const p of providers) {
    out[`${p.provider}_calls`] = (out[`${p.provider}_calls`] ?? 0) + p.calls;
    out.tokens += p.tokens;
    out.monthly_cost += p.cost;
  }
  out.monthly_cost = Math.round(out.monthly_cost * 1e6) / 1e6;
  return out;
}

/**
 * Percent of each limit key of the plan used (two decimals). The spec's name
 * `cost` (Document 1, rule 2) is given beside `monthly_cost`, with the same value.
 */
export function usagePercentages(limits: Plan['limits'], used: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, limit] of Object.entries(limits) as [UsageLimitKey, number | undefined][]) {
    if (!limit) continue;
    out[key] = Math.round(((used[key] ?? 0) / limit) * 10000) / 100;
  }
  if (out.monthly_cost !== undefined) out.cost = out.monthly_cost;
  return out;
}

/** Usage status from the unrounded ratios of used to limit over the plan's limit keys. */
export function usageStatusOf(limits: Plan['limits'], used: Record<string, number>): UsageStatus {
  let max = 0;
  for (const [key, limit] of Object.entries(limits)) if (limit) max = Math.max(max, ((used[key] ?? 0) / limit) * 100);
  return max >= 100 ? 'limit_reached' : max >= APPROACHING_PERCENT ? 'approaching_limit' : 'active';
}
