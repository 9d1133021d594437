/**
 * The billing port and its adapter to a Stripe-compatible provider (Stripe's
 * REST API, or anything that speaks it). Raising a plan is paid for here; the
 * platform changes the plan only when the provider's signed event says the
 * checkout was paid (docs/security.md, API6; docs/subscription.md "Billing").
 *
 *   Checkout: POST {base}/v1/checkout/sessions   (form-encoded, Authorization: Bearer <BILLING_API_KEY>)
 *     mode=subscription, line_items[0][price]=<price id of the plan>, line_items[0][quantity]=1,
 *     client_reference_id=<user id>, metadata[user_id], metadata[plan], success_url, cancel_url
 *     → {id: "cs_...", url: "https://checkout.../..."}
 *   Events: POST to the platform's /api/subscription/billing/events, header
 *     Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>[,v1=...]
 *     body {id: "evt_...", type, created, data: {object: {...}}}
 *
 * A signature is accepted when one of its v1 values matches and `t` is within
 * the tolerance of now (a replayed old delivery is refused); the comparison
 * is constant-time. Only the raw bytes are signed, so the route keeps them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PlanName } from '../../domain/plans';
import type { Config } from '../config';

export interface CheckoutRequest {
  userId: string;
  plan: PlanName;
  email?: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSession {
  session_id: string;
  url: string;
}

/** What a verified provider event means to the platform. */
export type BillingEvent =
  /** A checkout was paid: the user's plan becomes `plan`. */
  | { id: string; kind: 'plan_paid'; userId: string; plan: PlanName }
  /** The provider ended the subscription (cancelled or unpaid): the Free plan applies. */
  | { id: string; kind: 'subscription_ended'; userId: string }
  /** A verified event the platform does not act on (acknowledged, so the provider stops retrying). */
  | { id: string; kind: 'ignored'; type: string; reason: string };

export class BillingSignatureError extends Error {}

/** The port. */
export interface BillingProvider {
  /** Names the provider in answers. */
  readonly name: string;
  /** Plans that can be bought (those with a price id). */
  readonly plans: readonly PlanName[];
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  /** Verifies the signature of a delivery and reads it; throws BillingSignatureError when it is not the provider's. */
  verifyEvent(rawBody: Buffer, signatureHeader: string | undefined, nowMs: number): BillingEvent;
}

/** The provider refused or failed a call (answered to the client as 502, with the provider's message). */
export class BillingProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface StripeSettings {
  apiKey: string;
  webhookSecret: string;
  /** Price id of each plan that can be bought. */
  prices: Partial<Record<PlanName, string>>;
  /** Default https://api.stripe.com. */
  baseUrl?: string;
  /** Seconds a signed delivery stays acceptable (Stripe's libraries use 300). */
  toleranceSeconds?: number;
  timeoutMs?: number;
}

const PLAN_KEYS: readonly PlanName[] = ['free', 'basic', 'pro', 'enterprise'];
const isPlan = (v: unknown): v is PlanName => typeof v === 'string' && (PLAN_KEYS as string[]).includes(v);

/** The expected signature of a delivery: hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint secret. */
export function signBillingPayload(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

export function stripeBilling(s: StripeSettings): BillingProvider {
  const base = (s.baseUrl || 'https://api.stripe.com').replace(/\/+$/, '');
  const tolerance = s.toleranceSeconds ?? 300;
  return {
    name: 'stripe',
    plans: PLAN_KEYS.filter((p) => s.prices[p]),
    async createCheckout(req) {
      const price = s.prices[req.plan];
      if (!price) throw new BillingProviderError(`No price is configured for the ${req.plan} plan`);
      const form = new URLSearchParams({
        mode: 'subscription',
        'line_items[0][price]': price,
        'line_items[0][quantity]': '1',
        client_reference_id: req.userId,
        'metadata[user_id]': req.userId,
        'metadata[plan]': req.plan,
        'subscription_data[metadata][user_id]': req.userId,
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        ...(req.email ? { customer_email: req.email } : {}),
      });
      let res: Response;
      try {
        res = await fetch(`${base}/v1/checkout/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          signal: AbortSignal.timeout(s.timeoutMs ?? 15_000),
        });
      } catch (e) {
        throw new BillingProviderError(`The billing provider could not be reached: ${(e as Error).message}`);
      }
      const body = (await res.json().catch(() => undefined)) as
        { id?: unknown; url?: unknown; error?: { message?: unknown } } | undefined;
      if (!res.ok) {
        const why = typeof body?.error?.message === 'string' ? body.error.message : `HTTP ${res.status}`;
        throw new BillingProviderError(`The billing provider refused the checkout: ${why}`, res.status);
      }
      if (typeof body?.id !== 'string' || typeof body.url !== 'string')
        throw new BillingProviderError('The billing provider answered a checkout without id and url');
      return { session_id: body.id, url: body.url };
    },
    verifyEvent(rawBody, header, nowMs) {
      if (!header) throw new BillingSignatureError('Stripe-Signature header missing');
      let t: number | undefined;
      const v1: string[] = [];
      for (const part of header.split(',')) {
        const [k, v] = part.trim().split('=', 2);
        if (k === 't' && /^\d+$/.test(v ?? '')) t = Number(v);
        else if (k === 'v1' && v) v1.push(v);
      }
      if (t === undefined || !v1.length) throw new BillingSignatureError('Stripe-Signature needs t= and v1=');
      if (Math.abs(nowMs / 1000 - t) > tolerance)
        throw new BillingSignatureError(`the signature's time is more than ${tolerance} s from now`);
      const expected = Buffer.from(signBillingPayload(s.webhookSecret, t, rawBody), 'hex');
      const match = v1.some((sig) => {
        const given = /^[0-9a-f]+$/i.test(sig) ? Buffer.from(sig, 'hex') : Buffer.alloc(0);
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
      if (!match) throw new BillingSignatureError('no signature matches');
      return readEvent(JSON.parse(rawBody.toString('utf8')));
    },
  };
}

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** A verified Stripe event read into what the platform acts on. */
export function readEvent(raw: unknown): BillingEvent {
  const e = asObj(raw);
  const id = typeof e.id === 'string' ? e.id : '';
  const type = typeof e.type === 'string' ? e.type : '';
  const o = asObj(asObj(e.data).object);
  const meta = asObj(o.metadata);
  const userId = typeof meta.user_id === 'string' ? meta.user_id : o.client_reference_id;
  if (type === 'checkout.session.completed') {
    if (o.payment_status !== 'paid' && o.payment_status !== 'no_payment_required')
      return { id, kind: 'ignored', type, reason: `payment_status is ${String(o.payment_status)}` };
    if (typeof userId !== 'string' || !isPlan(meta.plan))
      return { id, kind: 'ignored', type, reason: 'no user_id and plan in the session metadata' };
    return { id, kind: 'plan_paid', userId, plan: meta.plan };
  }
  if (type === 'customer.subscription.deleted') {
    if (typeof userId !== 'string') return { id, kind: 'ignored', type, reason: 'no user_id in the metadata' };
    return { id, kind: 'subscription_ended', userId };
  }
  return { id, kind: 'ignored', type, reason: 'not an event the platform acts on' };
}

/** Reads `basic=price_1,pro=price_2` (BILLING_PRICE_IDS). */
export function parsePriceIds(text: string): Partial<Record<PlanName, string>> {
  const out: Partial<Record<PlanName, string>> = {};
  for (const pair of text.split(',')) {
    const [plan, price] = pair.split('=').map((x) => x.trim());
    if (isPlan(plan) && price) out[plan] = price;
  }
  return out;
}

/** The provider when the deployment configured one (key, webhook secret and at least one price), else undefined. */
export function billingFromConfig(c: Config): BillingProvider | undefined {
  const prices = parsePriceIds(c.BILLING_PRICE_IDS);
  if (!c.BILLING_API_KEY || !c.BILLING_WEBHOOK_SECRET || !Object.keys(prices).length) return undefined;
  return stripeBilling({
    apiKey: c.BILLING_API_KEY,
    webhookSecret: c.BILLING_WEBHOOK_SECRET,
    prices,
    baseUrl: c.BILLING_BASE_URL,
    timeoutMs: c.AI_TIMEOUT_MS,
  });
}
