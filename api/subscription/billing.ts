/**
 * Plan changes that raise a plan (docs/subscription.md "Billing", docs/security.md API6). A user may downgrade,
 * cancel or resume a plan still paid for (routes.ts); raising it happens only
 *   - by paying: POST /user/{user_id}/checkout opens the billing provider's checkout (infra/billing/), and the
 *     provider's signed `checkout.session.completed` event, delivered to POST /billing/events, changes the plan;
 *   - by an administrator: POST /admin/user/{user_id}/plan (auth `admin`), or an operator with the CLI.
 * Every change is a PlanChanged event naming its actor (`changed_by`).
 */
import {
  AuthenticationError,
  ConflictError,
  PaymentRequiredError,
  ServiceUnavailableError,
  UpstreamError,
} from '../../domain/errors';
import type { PlanActor } from '../../domain/events/identity';
import { PLAN_NAMES, PlanName, PLANS } from '../../domain/plans';
import { BillingProviderError, BillingSignatureError } from '../../infra/billing';
import { getUser } from '../../projections/identity';
import { callerOf, clock, requestMeta, settle } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import type { AppDeps, HandlerCtx } from '../kernel/types';
import { applyBillingChange, changeSubscription } from './commands';
import { P, subscriptionSchema, tags, userParams, UserParams } from './schemas';
import { loadSubscription, subscriptionOut } from './views';

const PAID_PLANS = PLAN_NAMES.filter((p) => PLANS[p].price > 0);

const NOT_CONFIGURED =
  'Billing is not configured on this deployment: set BILLING_API_KEY, BILLING_WEBHOOK_SECRET and BILLING_PRICE_IDS ' +
  '(docs/subscription.md, "Billing"); until then an administrator changes plans';

/** The actor of a plan change asked for by the caller: an administrator, or the user themselves. */
export function actorOf(ctx: HandlerCtx<unknown, unknown, unknown>): PlanActor {
  const c = callerOf(ctx);
  return { kind: c.role === 'admin' ? 'admin' : 'user', id: c.userId };
}

/** The 402 of a user's own upgrade, saying how to upgrade on this deployment. */
export function howToUpgrade(deps: AppDeps, userId: string, e: PaymentRequiredError): PaymentRequiredError {
  const plan = String(e.details.plan);
  const how = deps.billing?.provider.plans.includes(plan as PlanName)
    ? `pay for it: POST ${P}/user/${userId}/checkout with {"plan":"${plan}"} answers the billing provider's checkout page; ` +
      'the plan changes when the provider confirms the payment. An administrator can also change it'
    : 'this deployment takes no payment for it, so ask an administrator to change the plan';
  return new PaymentRequiredError(
    `${e.message}: ${how}. Downgrading, cancelling and resuming a cancelled plan need no payment.`,
    { ...e.details, checkout: deps.billing?.provider.plans.includes(plan as PlanName) ?? false },
  );
}

/**
 * Changes the plan of the path's user to the body's plan as the caller (a user's own upgrade: the 402 of
 * howToUpgrade), waits for the identity projection, and answers the change and the subscription after it.
 */
export async function changePlanAsCaller(ctx: HandlerCtx<{ plan: PlanName }, unknown, UserParams>) {
  const now = clock(ctx.deps);
  const r = await changeSubscription(
    ctx.deps,
    ctx.params.user_id,
    ctx.body.plan,
    now,
    actorOf(ctx),
    requestMeta(ctx),
  ).catch((e: unknown) => {
    throw e instanceof PaymentRequiredError ? howToUpgrade(ctx.deps, ctx.params.user_id, e) : e;
  });
  await settle(ctx, 'identity', r.events);
  const data = subscriptionOut(ctx.params.user_id, await loadSubscription(ctx.deps.db, ctx.params.user_id, now));
  return { change: r.value, data };
}

export const billingRoutes: RouteDef[] = [
  defineRoute<{ plan: PlanName }, unknown, UserParams>({
    method: 'post',
    path: `${P}/user/{user_id}/checkout`,
    auth: 'user',
    ownerParam: 'user_id',
    tags,
    summary:
      "Pay for a higher plan: opens the billing provider's checkout; the plan changes when the payment is confirmed",
    description:
      "Answers the provider's checkout URL. Nothing changes until the provider's signed event reports the payment " +
      `(POST ${P}/billing/events); then the plan applies at once. Only a plan that costs more than the one that ` +
      'applies now is bought here (409 otherwise); 503 when the deployment has no billing provider.',
    request: {
      params: userParams,
      body: {
        type: 'object',
        properties: { plan: { enum: PAID_PLANS, description: 'plan key to buy: basic, pro, enterprise' } },
        required: ['plan'],
        additionalProperties: false,
      },
    },
    responses: {
      200: {
        description: "The checkout to open (the provider's page)",
        data: {
          type: 'object',
          properties: {
            checkout_url: { type: 'string' },
            session_id: { type: 'string' },
            plan: { enum: PAID_PLANS },
            provider: { type: 'string' },
          },
          required: ['checkout_url', 'session_id', 'plan', 'provider'],
        },
        message: true,
      },
    },
    errors: { 502: 'The billing provider refused or failed the checkout', 503: 'Billing is not configured' },
    handler: async (ctx) => {
      const { user_id } = ctx.params;
      const plan = ctx.body.plan;
      const view = await loadSubscription(ctx.deps.db, user_id, clock(ctx.deps));
      if (PLANS[plan].price <= view.effective.price)
        throw new ConflictError(
          `The ${PLANS[plan].name} plan does not cost more than the ${view.effective.name} plan that applies: ` +
            `change to it with POST ${P}/user/${user_id}/subscription (no payment needed)`,
          { plan, current_plan: view.effective.key },
        );
      const billing = ctx.deps.billing;
      if (!billing) throw new ServiceUnavailableError(NOT_CONFIGURED, { service: 'billing' });
      if (!billing.provider.plans.includes(plan))
        throw new ConflictError(`The ${PLANS[plan].name} plan is not sold here (no price in BILLING_PRICE_IDS)`, {
          plan,
          sold: billing.provider.plans,
        });
      const email = (await getUser(ctx.deps.db, user_id, Date.now()))?.email;
      const back = (result: string) =>
        `${billing.returnUrl}${billing.returnUrl.includes('?') ? '&' : '?'}checkout=${result}`;
      try {
        const s = await billing.provider.createCheckout({
          userId: user_id,
          plan,
          ...(email ? { email } : {}),
          successUrl: back('success'),
          cancelUrl: back('cancelled'),
        });
        return {
          data: { checkout_url: s.url, session_id: s.session_id, plan, provider: billing.provider.name },
          message: `Open checkout_url to pay for the ${PLANS[plan].name} plan; it applies once the payment is confirmed`,
        };
      } catch (e) {
        if (e instanceof BillingProviderError) throw new UpstreamError(e.message, { provider: billing.provider.name });
        throw e;
      }
    },
  }),
  defineRoute<{ plan: PlanName }, unknown, UserParams>({
    method: 'post',
    path: `${P}/admin/user/{user_id}/plan`,
    auth: 'admin',
    tags,
    summary: "An administrator sets a user's plan (any plan; the change names the administrator)",
    description:
      'Administrators only (403 for anyone else). Sets any plan, higher or lower, with no payment; the plan and its limits apply at once and the usage of the current period stays. Setting the plan that already applies to an active subscription is 409; an unknown user is 404.',
    request: {
      params: userParams,
      body: {
        type: 'object',
        properties: { plan: { enum: PLAN_NAMES, description: 'plan key: free, basic, pro, enterprise' } },
        required: ['plan'],
        additionalProperties: false,
      },
    },
    responses: { 200: { description: 'The subscription after the change', data: subscriptionSchema, message: true } },
    handler: async (ctx) => {
      const { change, data } = await changePlanAsCaller(ctx);
      return {
        data,
        message: `The ${PLANS[ctx.body.plan].name} plan applies now (from ${change.from}), set by an administrator`,
      };
    },
  }),
  defineRoute<{ id: string; type: string }>({
    method: 'post',
    path: `${P}/billing/events`,
    auth: 'public',
    rawBody: true,
    tags,
    summary: "The billing provider's signed events (Stripe-compatible): a paid checkout raises the plan",
    description:
      'Verified by the `Stripe-Signature` header (HMAC-SHA256 of the timestamp and the raw body with ' +
      'BILLING_WEBHOOK_SECRET, at most 300 s old); anything else is 401. `checkout.session.completed` (paid) sets the ' +
      "session's plan, `customer.subscription.deleted` the Free plan; each event id is applied once, so redeliveries " +
      'change nothing. Other event types are acknowledged and not acted on.',
    request: {
      body: {
        type: 'object',
        properties: { id: { type: 'string', minLength: 1, maxLength: 255 }, type: { type: 'string', maxLength: 255 } },
        required: ['id', 'type'],
        // The provider's event carries many more fields (object, created, data, livemode...): read, not refused.
        additionalProperties: true,
      },
    },
    responses: { 200: { description: 'Acknowledged (what was done in message)', message: true } },
    errors: {
      401: 'Not a delivery of the billing provider: Stripe-Signature missing, not matching the raw body, or too old',
      503: 'Billing is not configured',
    },
    handler: async (ctx) => {
      const billing = ctx.deps.billing;
      if (!billing) throw new ServiceUnavailableError(NOT_CONFIGURED, { service: 'billing' });
      let event;
      try {
        event = billing.provider.verifyEvent(ctx.rawBody!, ctx.req.header('stripe-signature'), Date.now());
      } catch (e) {
        if (e instanceof BillingSignatureError)
          throw new AuthenticationError(`Not a delivery of the billing provider: ${e.message}`);
        throw e;
      }
      if (event.kind === 'ignored')
        return { message: `Event ${event.id} (${event.type}) acknowledged and not acted on: ${event.reason}` };
      const plan: PlanName = event.kind === 'plan_paid' ? event.plan : 'free';
      const r = await applyBillingChange(ctx.deps, event.userId, plan, event.id, clock(ctx.deps), requestMeta(ctx));
      if (r.events.length) await settle(ctx, 'identity', r.events);
      return {
        message: r.value.changed
          ? `Event ${event.id}: the ${PLANS[plan].name} plan applies now (from ${r.value.from})`
          : `Event ${event.id}: nothing to change (already applied, or the ${PLANS[plan].name} plan applies)`,
      };
    },
  }),
];
