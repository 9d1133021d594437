/**
 * The subscription API's response bodies, assembled from projections (users
 * of identity, usage_totals of usage, alerts) and the pure rules of
 * domain/subscription. `now` is the API clock (AppDeps.now).
 */
import type { Knex } from 'knex';
import { NotFoundError } from '../../domain/errors';
import { Plan, PLANS } from '../../domain/plans';
import { roundCost } from '../../domain/pricing';
import {
  periodOf,
  subscriptionAt,
  SubscriptionView,
  usageByLimitKey,
  usagePercentages,
  usageStatusOf,
  UsageStatus,
} from '../../domain/subscription/state';
import { buildTrends, lastPeriods, projectMonth } from '../../domain/subscription/trends';
import { Alert, countUnread, listAlerts } from '../../projections/alerts';
import { getSubscriptionRecord } from '../../projections/identity';
import { usageByPeriods, usageByProvider } from '../../projections/usage';

/** How many of the newest alerts the dashboard lists (read and unread). */
export const DASHBOARD_ALERTS = 10;

export const planOut = (p: Plan) => ({
  id: p.id,
  name: p.name,
  price: p.price,
  billing_cycle: p.billing_cycle,
  limits: { ...p.limits },
});

export async function loadSubscription(db: Knex, userId: string, now: Date): Promise<SubscriptionView> {
  const rec = await getSubscriptionRecord(db, userId);
  if (!rec) throw new NotFoundError('User not found');
  return subscriptionAt(rec, now);
}

/** User subscription (Document 1): limits are the ones that apply now (Free's once expired). */
export function subscriptionOut(userId: string, v: SubscriptionView) {
  return {
    user_id: userId,
    plan_name: v.plan.name,
    plan_id: v.plan.id,
    status: v.status,
    started_at: v.started_at,
    expires_at: v.expires_at,
    limits: { ...v.effective.limits },
  };
}

export interface UsageOut {
  billing_period: string;
  total_calls: number;
  total_tokens: number;
  total_cost: number;
  usage_status: UsageStatus;
  limits: Plan['limits'];
  provider_breakdown: Record<string, { calls: number; tokens: number; cost: number }>;
  usage_percentages: Record<string, number>;
}

/** Usage of the current billing period against the limits that apply now, plus what projections need. */
export async function usageOut(
  db: Knex,
  userId: string,
  now: Date,
): Promise<{ usage: UsageOut; view: SubscriptionView; byKey: Record<string, number> }> {
  const view = await loadSubscription(db, userId, now);
  const period = periodOf(now);
  const providers = await usageByProvider(db, userId, period);
  const byKey = usageByLimitKey(providers);
  const limits = { ...view.effective.limits };
  const provider_breakdown: UsageOut['provider_breakdown'] = {};
  for (const p of providers)
    provider_breakdown[p.provider] = { calls: p.calls, tokens: p.tokens, cost: roundCost(p.cost) };
  return {
    view,
    byKey,
    usage: {
      billing_period: period,
      total_calls: providers.reduce((a, p) => a + p.calls, 0),
      total_tokens: providers.reduce((a, p) => a + p.tokens, 0),
      total_cost: roundCost(providers.reduce((a, p) => a + p.cost, 0)),
      usage_status: usageStatusOf(limits, byKey),
      limits,
      provider_breakdown,
      usage_percentages: usagePercentages(limits, byKey),
    },
  };
}

export async function trendsOut(db: Knex, userId: string, months: number, now: Date) {
  await loadSubscription(db, userId, now); // 404 for a user that does not exist
  const periods = lastPeriods(periodOf(now), months);
  return buildTrends(periods, await usageByPeriods(db, userId, periods));
}

export async function dashboardOut(db: Knex, userId: string, now: Date) {
  const { usage, view, byKey } = await usageOut(db, userId, now);
  const [unread, alerts] = await Promise.all([countUnread(db, userId), listAlerts(db, userId, false)]);
  return {
    summary: {
      total_api_calls_this_month: usage.total_calls,
      total_cost_this_month: usage.total_cost,
      usage_status: usage.usage_status,
      unread_alerts: unread,
    },
    current_usage: usage,
    limits: { plan_name: view.effective.name, limits: usage.limits },
    projections: projectMonth(now, usage.total_cost, byKey, usage.limits),
    alerts: alerts.slice(0, DASHBOARD_ALERTS) as Alert[],
  };
}

export const plansOut = () => Object.values(PLANS).map(planOut);
