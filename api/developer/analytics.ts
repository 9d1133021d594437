/**
 * GET /v1/analytics/usage (developer API): the caller's usage in the current
 * billing period (the subscription API's Usage body, from the usage
 * projection) and the remaining quota per limit key of the plan that applies
 * now. `quota` is read from the meter's counters (the atomic ones that refuse
 * calls), so it includes calls in flight (`reserved`); remaining = limit −
 * used − reserved, never below 0. A key the plan does not limit is absent
 * from `quota` (unlimited), like in `limits`.
 */
import { clock, userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, int, num } from '../kernel/schema';
import { usageOut } from '../subscription/views';
import { usageSchema } from '../subscription/schemas';

const quotaEntry = allRequired({ limit: num, used: num, reserved: num, remaining: num, percent_used: num });

export const developerAnalyticsRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/v1/analytics/usage',
    auth: 'user',
    tags: ['developer analytics'],
    summary: 'Usage of the current billing period and the remaining quota per limit key',
    description:
      "`usage` is the subscription API's Usage of the current period (GET /api/subscription/usage/{user_id}). `quota` has one entry per limit key of the plan that applies now, read from the meter's counters that refuse calls: calls in flight count as `reserved`, and remaining = max(0, limit − used − reserved). A key the plan does not limit is absent (unlimited). A brand-new user whose subscription record is not readable yet gets 404 (retry).",
    responses: {
      200: {
        description: 'Usage and remaining quota',
        data: allRequired({
          billing_period: { type: 'string' },
          plan: allRequired({ id: int, name: { type: 'string' } }),
          usage: { ...usageSchema, description: 'The Usage resource of the subscription API' },
          quota: { type: 'object', additionalProperties: quotaEntry },
        }),
      },
    },
    errors: { 404: "The caller's subscription record is not readable yet (a brand-new user: retry)" },
    handler: async (ctx) => {
      const userId = userIdOf(ctx);
      const { usage, view } = await usageOut(ctx.deps.db, userId, clock(ctx.deps));
      const counters = (await ctx.deps.quota?.current(userId)) ?? {};
      const quota: Record<string, unknown> = {};
      for (const [key, limit] of Object.entries(usage.limits)) {
        if (typeof limit !== 'number') continue;
        const used = counters[key]?.used ?? 0;
        const reserved = counters[key]?.reserved ?? 0;
        quota[key] = {
          limit,
          used,
          reserved,
          remaining: Math.max(0, Math.round((limit - used - reserved) * 1e6) / 1e6),
          percent_used: Math.round(((used + reserved) / limit) * 10000) / 100,
        };
      }
      return {
        data: {
          billing_period: usage.billing_period,
          plan: { id: view.effective.id, name: view.effective.name },
          usage,
          quota,
        },
      };
    },
  }),
];
