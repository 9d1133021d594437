/**
 * Subscription and usage API (Document 1, prefix /api/subscription; the
 * subscription family's envelopes). Every read comes from projections;
 * plan changes and mark-read append events and wait (bounded) for the
 * projection that serves the next read. Choices: docs/subscription.md.
 */
import { PLAN_NAMES, PlanName, PLANS } from '../../domain/plans';
import { pricingTable } from '../../domain/pricing';
import { listAlerts } from '../../projections/alerts';
import { clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { actorOf, billingRoutes, changePlanAsCaller } from './billing';
import { cancelSubscription, markAlertRead } from './commands';
import { dashboardOut, loadSubscription, plansOut, subscriptionOut, trendsOut, usageOut } from './views';
import {
  alertSchema,
  dashboardSchema,
  P,
  planSchema,
  pricingSchema,
  subscriptionSchema,
  tags,
  trendsSchema,
  usageSchema,
  userParams,
  UserParams,
} from './schemas';

const meta = requestMeta;

export const subscriptionRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path: `${P}/plans`,
    auth: 'user',
    tags,
    summary: 'Plans with price, billing cycle and limits',
    description:
      'The fixed plan table (free, basic, pro, enterprise; ids 1–4), the same for every caller: monthly price in US dollars and the limit keys each plan sets (a key a plan lacks is unlimited on it). Plan changes: POST /api/subscription/user/{user_id}/subscription (downgrade, resume) and POST /api/subscription/user/{user_id}/checkout (a higher plan).',
    responses: { 200: { description: 'Every plan', data: { type: 'array', items: planSchema } } },
    constant: true,
    handler: () => ({ data: plansOut() }),
  }),
  defineRoute({
    method: 'get',
    path: `${P}/pricing`,
    auth: 'user',
    tags,
    summary: 'Provider pricing (what each call is charged)',
    description:
      'The table the usage meter charges calls with, the same for every caller: token-priced entries (`input_cost_per_1m`, `output_cost_per_1m`) and request-priced entries (`cost_per_request`), in US dollars; model `*` prices any other model of its provider.',
    responses: { 200: { description: 'Pricing entries', data: { type: 'array', items: pricingSchema } } },
    constant: true,
    handler: () => ({ data: pricingTable() }),
  }),
  defineRoute<unknown, unknown, UserParams>({
    method: 'get',
    path: `${P}/user/{user_id}/subscription`,
    auth: 'user',
    ownerParam: 'user_id',
    tags,
    summary: "The user's subscription: plan, status, dates, limits that apply now",
    description:
      "`status` is `active` (renews at `expires_at`, the end of the current UTC month), `cancelled` (the plan stays until `expires_at`) or `expired` (a cancelled plan past `expires_at`: `limits` are then the Free plan's). `user_id` must be the caller's own (an administrator may name anyone); another user's or an unknown id is 404.",
    request: { params: userParams },
    responses: { 200: { description: 'User subscription', data: subscriptionSchema } },
    handler: async (ctx) => ({
      data: subscriptionOut(
        ctx.params.user_id,
        await loadSubscription(ctx.deps.db, ctx.params.user_id, clock(ctx.deps)),
      ),
    }),
  }),
  defineRoute<{ plan: PlanName }, unknown, UserParams>({
    method: 'post',
    path: `${P}/user/{user_id}/subscription`,
    auth: 'user',
    ownerParam: 'user_id',
    tags,
    summary:
      'Downgrade, or resume a cancelled plan: the new plan and its limits apply at once (usage of the period stays)',
    description:
      'A user may move to a plan that costs less than the one that applies, or resume a cancelled plan before it ' +
      `expires. Raising the plan needs a payment: 402 says how (POST ${P}/user/{user_id}/checkout, or an ` +
      'administrator). An administrator calling this route may set any plan. Every change names its actor.',
    request: {
      params: userParams,
      body: {
        type: 'object',
        properties: { plan: { enum: PLAN_NAMES, description: 'plan key: free, basic, pro, enterprise' } },
        required: ['plan'],
      },
    },
    responses: { 200: { description: 'The subscription after the change', data: subscriptionSchema, message: true } },
    errors: { 402: 'Raising the plan needs a payment (the message says how: checkout or an administrator)' },
    handler: async (ctx) => {
      const { change, data } = await changePlanAsCaller(ctx);
      const verb = {
        subscribe: 'Subscribed to',
        upgrade: 'Upgraded to',
        downgrade: 'Downgraded to',
        resume: 'Resumed',
      }[change.kind];
      return {
        data,
        message: `${verb} the ${PLANS[ctx.body.plan].name} plan (from ${change.from}); its limits apply now`,
      };
    },
  }),
  defineRoute<unknown, unknown, UserParams>({
    method: 'post',
    path: `${P}/user/{user_id}/subscription/cancel`,
    auth: 'user',
    ownerParam: 'user_id',
    tags,
    summary: 'Cancel: the plan stays until the end of the billing period (expires_at), then the Free plan applies',
    description:
      "Records the cancellation naming its actor; the plan's limits apply until `expires_at` (the first instant of the next UTC month), and the plan can be resumed before then with POST /api/subscription/user/{user_id}/subscription. Cancelling the Free plan, or a subscription already cancelled or expired, is 409; another user's or an unknown id is 404.",
    request: { params: userParams },
    responses: { 200: { description: 'The cancelled subscription', data: subscriptionSchema, message: true } },
    handler: async (ctx) => {
      const now = clock(ctx.deps);
      const r = await cancelSubscription(ctx.deps, ctx.params.user_id, now, actorOf(ctx), meta(ctx));
      await settle(ctx, 'identity', r.events);
      return {
        data: subscriptionOut(ctx.params.user_id, await loadSubscription(ctx.deps.db, ctx.params.user_id, now)),
        message: `The ${r.value.plan} plan is cancelled; it stays active until ${r.value.expires_at}, then the Free plan applies`,
      };
    },
  }),
  defineRoute<unknown, unknown, UserParams>({
    method: 'get',
    path: `${P}/usage/{user_id}`,
    auth: 'user',
    ownerParam: 'user_id',
    tags,
    summary: 'Usage of the current billing period against the plan limits',
    description:
      "Sums of the current UTC month (calls, tokens, cost in US dollars, by provider), the limits that apply now, `usage_percentages` per limit key (above 100 possible after a downgrade; no entry for an unlimited key) and `usage_status`: `active`, `approaching_limit` (some key at 80 % or more) or `limit_reached` (some key at 100 %: calls needing it are refused with 429). Another user's or an unknown id is 404.",
    request: { params: userParams },
    responses: { 200: { description: 'Usage', data: usageSchema } },
    handler: async (ctx) => ({ data: (await usageOut(ctx.deps.db, ctx.params.user_id, clock(ctx.deps))).usage }),
  }),
  defineRoute<unknown, { months: number }, UserParams>({
    method: 'get',
    path: `${P}/usage/{user_id}/trends`,
    auth: 'user',
    ownerParam: 'user_id',
    tags,
    summary: 'Monthly usage, oldest first (empty months as zeros), and the calls and cost trends',
    description:
      "The last `months` UTC months (1\u201324, default 6) ending with the current one. `calls_trend` and `cost_trend` come from a least-squares line through the monthly values: a relative slope above +5 % a month is `increasing`, below \u22125 % `decreasing`, else `stable` (also for fewer than two months or all zeros). Another user's or an unknown id is 404.",
    request: {
      params: userParams,
      query: { type: 'object', properties: { months: { type: 'integer', minimum: 1, maximum: 24, default: 6 } } },
    },
    responses: { 200: { description: 'Periods and trends', data: trendsSchema } },
    handler: async (ctx) => ({
      data: await trendsOut(ctx.deps.db, ctx.params.user_id, ctx.query.months, clock(ctx.deps)),
    }),
  }),
  defineRoute<unknown, unknown, UserParams>({
    method: 'get',
    path: `${P}/dashboard/{user_id}`,
    auth: 'user',
    ownerParam: 'user_id',
    tags,
    summary: 'Summary, current usage, limits, month-end projections and the newest alerts',
    description:
      "One read for a dashboard: the summary (calls and cost this month, `usage_status`, unread alert count), the usage body of GET /api/subscription/usage/{user_id}, the limits of the plan that applies now, month-end projections extrapolated linearly from the elapsed part of the month, and the 10 newest alerts (read or not). Another user's or an unknown id is 404.",
    request: { params: userParams },
    responses: { 200: { description: 'Dashboard', data: dashboardSchema } },
    handler: async (ctx) => ({ data: await dashboardOut(ctx.deps.db, ctx.params.user_id, clock(ctx.deps)) }),
  }),
  defineRoute<unknown, { unread_only: boolean }, UserParams>({
    method: 'get',
    path: `${P}/alerts/{user_id}`,
    auth: 'user',
    ownerParam: 'user_id',
    tags,
    summary: "The user's alerts, newest first",
    description:
      "Threshold alerts raised by the usage meter the first time in a month a limit key reaches 80 % (`info`), 95 % (`warning`) and 100 % (`critical`); `alert_type` is `cost_threshold` for the cost limit, `usage_threshold` otherwise. `unread_only=true` keeps those not marked read. Another user's or an unknown id is 404.",
    request: {
      params: userParams,
      query: { type: 'object', properties: { unread_only: { type: 'boolean', default: false } } },
    },
    responses: { 200: { description: 'Alerts', data: { type: 'array', items: alertSchema } } },
    handler: async (ctx) => {
      await loadSubscription(ctx.deps.db, ctx.params.user_id, clock(ctx.deps)); // 404 for a user that does not exist
      return { data: await listAlerts(ctx.deps.db, ctx.params.user_id, ctx.query.unread_only) };
    },
  }),
  defineRoute<unknown, unknown, { alert_id: number }>({
    method: 'post',
    path: `${P}/alerts/{alert_id}/mark-read`,
    auth: 'user',
    tags,
    summary: "Mark an alert as read (only its owner may; another user's alert is not found)",
    description:
      "Answers no `data`, only a message. An alert that is not the caller's (another user's, or an unknown id) is 404, for administrators too; marking an alert already read succeeds and changes nothing. GET /api/subscription/alerts/{user_id}?unread_only=true no longer lists it.",
    request: {
      params: { type: 'object', properties: { alert_id: { type: 'integer', minimum: 1 } }, required: ['alert_id'] },
    },
    responses: { 200: { description: 'Marked as read; no data', message: true } },
    handler: async (ctx) => {
      // Decided on the caller's alert stream: another user's alert is not in it, so it is not found.
      const r = await markAlertRead(ctx.deps, userIdOf(ctx), ctx.params.alert_id, meta(ctx));
      if (r.events.length) await settle(ctx, 'alerts', r.events);
      return { message: `Alert ${ctx.params.alert_id} marked as read` };
    },
  }),
  ...billingRoutes,
];
