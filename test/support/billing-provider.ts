/**
 * A scripted Stripe-compatible billing provider on 127.0.0.1: it answers
 * `POST /v1/checkout/sessions` (form-encoded, Bearer key) with a session whose
 * price must be one it sells, records every request, and plays the provider's
 * side of a payment: `pay(session)` delivers `checkout.session.completed` to
 * the platform's event route, signed the way Stripe documents it
 * (`Stripe-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`).
 * The signature is computed here, not with the platform's own code, so a
 * mistake in the platform's verification cannot hide behind a shared one.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { call, JsonResponse } from './http';
import { FakeVendor, startFakeVendor } from './fake-vendor';

export interface BillingProviderOptions {
  apiKey: string;
  webhookSecret: string;
  /** Price ids the provider sells. */
  prices: string[];
}

export interface Session {
  id: string;
  url: string;
  form: URLSearchParams;
}

export interface ScriptedBillingProvider {
  baseUrl: string;
  vendor: FakeVendor;
  sessions: Map<string, Session>;
  /** Sends an event to `eventsUrl` as the provider does: JSON body, signed (override the time or secret to forge). */
  deliver(
    eventsUrl: string,
    event: unknown,
    o?: { timestamp?: number; secret?: string; raw?: string },
  ): Promise<JsonResponse>;
  /** The provider's event for a paid session (what it sends after the customer paid). */
  paidEvent(sessionId: string, paymentStatus?: string): Record<string, unknown>;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export async function startBillingProvider(o: BillingProviderOptions): Promise<ScriptedBillingProvider> {
  const sessions = new Map<string, Session>();
  let origin = '';
  const vendor = await startFakeVendor(
    [
      {
        handler: (req) => {
          if (req.headers.authorization !== `Bearer ${o.apiKey}`)
            return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key' } } };
          if (req.method !== 'POST' || req.path !== '/v1/checkout/sessions')
            return { status: 404, body: { error: { message: 'Unrecognized request URL' } } };
          const form = new URLSearchParams(req.rawBody?.toString('utf8') ?? '');
          const price = form.get('line_items[0][price]');
          if (!price || !o.prices.includes(price))
            return {
              status: 400,
              body: { error: { type: 'invalid_request_error', message: `No such price: '${price}'` } },
            };
          for (const field of ['success_url', 'cancel_url', 'mode'])
            if (!form.get(field))
              return { status: 400, body: { error: { type: 'invalid_request_error', message: `Missing ${field}` } } };
          const s = { id: id('cs_test'), form, url: '' };
          s.url = `${origin}/c/pay/${s.id}`;
          sessions.set(s.id, s);
          return { body: { id: s.id, object: 'checkout.session', url: s.url, mode: form.get('mode') } };
        },
      },
    ],
    '',
  );
  origin = vendor.origin;
  const sign = (secret: string, t: number, body: string) =>
    createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return {
    baseUrl: vendor.origin,
    vendor,
    sessions,
    paidEvent(sessionId, paymentStatus = 'paid') {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`no session ${sessionId}`);
      return {
        id: id('evt'),
        object: 'event',
        type: 'checkout.session.completed',
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            id: s.id,
            object: 'checkout.session',
            client_reference_id: s.form.get('client_reference_id'),
            metadata: { user_id: s.form.get('metadata[user_id]'), plan: s.form.get('metadata[plan]') },
            mode: 'subscription',
            payment_status: paymentStatus,
            subscription: id('sub'),
          },
        },
      };
    },
    async deliver(eventsUrl, event, d = {}) {
      const body = d.raw ?? JSON.stringify(event);
      const t = d.timestamp ?? Math.floor(Date.now() / 1000);
      return call(eventsUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': `t=${t},v1=${sign(d.secret ?? o.webhookSecret, t, JSON.stringify(event))}`,
        },
        body,
      });
    },
    close: () => vendor.close(),
  };
}
