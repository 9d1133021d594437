/**
 * Plan changes belong to billing (issue "Security of the business", item 1; docs/security.md API6): a user cannot
 * raise their own plan (402, saying how); an administrator can (admin route, and the user route as an admin); a
 * paid checkout at a Stripe-compatible provider (scripted on loopback: test/support/billing-provider.ts) raises it
 * when the provider's signed event arrives, once per event; forged, tampered and stale deliveries change nothing.
 * Every change is an event naming its actor.
 */
import { PLANS } from '../../../domain/plans';
import { stripeBilling } from '../../../infra/billing';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { startBillingProvider, ScriptedBillingProvider } from '../../support/billing-provider';
import { call } from '../../support/http';
import { expectSpec } from './spec-schemas';

const P = '/api/subscription';
const SECRET = 'whsec_test_0123456789abcdef';
const KEY = 'sk_test_scripted';

describe('plan changes belong to billing', () => {
  let provider: ScriptedBillingProvider;
  let api: TestApi;
  let bare: TestApi; // a deployment without billing
  beforeAll(async () => {
    provider = await startBillingProvider({ apiKey: KEY, webhookSecret: SECRET, prices: ['price_basic', 'price_pro'] });
    api = await startTestApi({
      deps: {
        billing: {
          provider: stripeBilling({
            apiKey: KEY,
            webhookSecret: SECRET,
            prices: { basic: 'price_basic', pro: 'price_pro' },
            baseUrl: provider.baseUrl,
          }),
          returnUrl: 'https://app.example.test/account',
        },
      },
    });
    bare = await startTestApi({ schema: api.schema });
  });
  afterAll(async () => {
    await bare?.stop();
    await api?.stop();
    await provider?.close();
  });

  const get = (t: TestApi, path: string, key: string) => call(`${t.url}${path}`, { headers: bearer(key) });
  const post = (t: TestApi, path: string, key: string, json: unknown = {}) =>
    call(`${t.url}${path}`, { method: 'POST', headers: bearer(key), json });
  const planOf = async (userId: string, key: string) =>
    (await get(api, `${P}/user/${userId}/subscription`, key)).body.data.plan_name;
  const planEvents = async (userId: string) =>
    (await api.store.readStream(`user-${userId}`)).filter((e) => e.type === 'PlanChanged');

  it("a Free user's own upgrade is 402 with how to upgrade, and changes nothing; downgrade and cancel stay theirs", async () => {
    const u = await api.user('free');
    for (const plan of ['basic', 'pro', 'enterprise']) {
      const r = await post(api, `${P}/user/${u.userId}/subscription`, u.key, { plan });
      expect([plan, r.status, r.body.error]).toEqual([plan, 402, 'PaymentRequiredError']);
      expectSpec('error', r.body);
      expect(r.body.message).toContain(`Raising the plan from Free to ${PLANS[plan as 'pro'].name} needs a payment`);
      expect(r.body.user_id).toBe(u.userId);
    }
    // Sold here: the answer names the checkout route; not sold (no enterprise price): an administrator.
    const pro = await post(api, `${P}/user/${u.userId}/subscription`, u.key, { plan: 'pro' });
    expect(pro.body.message).toContain(`POST ${P}/user/${u.userId}/checkout with {"plan":"pro"}`);
    expect(pro.body.details).toMatchObject({ plan: 'pro', current_plan: 'free', checkout: true });
    const ent = await post(api, `${P}/user/${u.userId}/subscription`, u.key, { plan: 'enterprise' });
    expect(ent.body.message).toContain('ask an administrator');
    // A deployment without billing says so.
    const noBilling = await post(bare, `${P}/user/${u.userId}/subscription`, u.key, { plan: 'pro' });
    expect([noBilling.status, noBilling.body.details.checkout]).toEqual([402, false]);
    expect(noBilling.body.message).toContain('ask an administrator');
    expect(await planOf(u.userId, u.key)).toBe('Free');
    expect(await planEvents(u.userId)).toEqual([]);

    const p = await api.user('pro');
    const down = await post(api, `${P}/user/${p.userId}/subscription`, p.key, { plan: 'basic' });
    expect([down.status, down.body.data.plan_name]).toEqual([200, 'Basic']);
    const back = await post(api, `${P}/user/${p.userId}/subscription`, p.key, { plan: 'pro' });
    expect(back.status).toBe(402); // once down, up again is paid for
    const cancel = await post(api, `${P}/user/${p.userId}/subscription/cancel`, p.key);
    expect(cancel.status).toBe(200);
    const stream = await api.store.readStream(`user-${p.userId}`);
    const changes = stream.flatMap((e) =>
      e.type === 'PlanChanged' || e.type === 'SubscriptionCancelled' ? [[e.type, e.data.changed_by]] : [],
    );
    expect(changes).toEqual([
      ['PlanChanged', { kind: 'user', id: p.userId }],
      ['SubscriptionCancelled', { kind: 'user', id: p.userId }],
    ]);
  });

  it('an administrator can raise a plan (admin route, or the user route); a non-administrator gets 403 there', async () => {
    const u = await api.user('free');
    const other = await api.user('enterprise');
    const admin = await api.user('free', { role: 'admin' });
    for (const caller of [u, other]) {
      const r = await post(api, `${P}/admin/user/${u.userId}/plan`, caller.key, { plan: 'enterprise' });
      expect([r.status, r.body.error]).toEqual([403, 'PermissionError']);
      expect(r.body.message).toBe('This operation is for administrators only');
    }
    const anon = await call(`${api.url}${P}/admin/user/${u.userId}/plan`, { method: 'POST', json: { plan: 'pro' } });
    expect(anon.status).toBe(401);
    expect(await planOf(u.userId, u.key)).toBe('Free');

    const set = await post(api, `${P}/admin/user/${u.userId}/plan`, admin.key, { plan: 'enterprise' });
    expect(set.status).toBe(200);
    expectSpec('subscriptionChange', set.body);
    expect(set.body.data).toMatchObject({ user_id: u.userId, plan_name: 'Enterprise', status: 'active' });
    expect(set.body.message).toBe('The Enterprise plan applies now (from Free), set by an administrator');
    expect(await planOf(u.userId, u.key)).toBe('Enterprise');
    const again = await post(api, `${P}/admin/user/${u.userId}/plan`, admin.key, { plan: 'enterprise' });
    expect(again.status).toBe(409);
    const missing = await post(api, `${P}/admin/user/00000000-0000-4000-8000-000000000000/plan`, admin.key, {
      plan: 'pro',
    });
    expect(missing.status).toBe(404);
    const viaUserRoute = await post(api, `${P}/user/${other.userId}/subscription`, admin.key, { plan: 'free' });
    expect(viaUserRoute.status).toBe(200);
    expect((await planEvents(u.userId)).map((e) => e.data.changed_by)).toEqual([{ kind: 'admin', id: admin.userId }]);
    expect((await planEvents(other.userId)).map((e) => e.data.changed_by)).toEqual([
      { kind: 'admin', id: admin.userId },
    ]);
  });

  it("a paid checkout raises the plan when the provider's signed event arrives, once; forged, tampered, stale and unpaid events change nothing", async () => {
    const u = await api.user('free');
    const c = await post(api, `${P}/user/${u.userId}/checkout`, u.key, { plan: 'pro' });
    expect(c.status).toBe(200);
    expect(c.body.data).toMatchObject({ plan: 'pro', provider: 'stripe' });
    expect(c.body.data.checkout_url).toBe(`${provider.baseUrl}/c/pay/${c.body.data.session_id}`);
    const session = provider.sessions.get(c.body.data.session_id)!;
    expect(Object.fromEntries(session.form)).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_pro',
      'line_items[0][quantity]': '1',
      client_reference_id: u.userId,
      'metadata[user_id]': u.userId,
      'metadata[plan]': 'pro',
      success_url: 'https://app.example.test/account?checkout=success',
      cancel_url: 'https://app.example.test/account?checkout=cancelled',
    });
    expect(provider.vendor.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(await planOf(u.userId, u.key)).toBe('Free'); // nothing changes before the payment

    const events = `${api.url}${P}/billing/events`;
    const paid = provider.paidEvent(session.id);
    const forged = await provider.deliver(events, paid, { secret: 'whsec_not_the_secret' });
    expect([forged.status, forged.body.error]).toEqual([401, 'AuthenticationError']);
    expect(forged.body.message).toBe('Not a delivery of the billing provider: no signature matches');
    const stale = await provider.deliver(events, paid, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(401);
    const tampered = await provider.deliver(events, paid, {
      raw: JSON.stringify(paid).replace('"plan":"pro"', '"plan":"enterprise"'),
    });
    expect(tampered.status).toBe(401);
    const unsigned = await call(events, { method: 'POST', json: paid });
    expect(unsigned.status).toBe(401);
    const unpaid = await provider.deliver(events, provider.paidEvent(session.id, 'unpaid'));
    expect([unpaid.status, unpaid.body.message]).toEqual([200, expect.stringContaining('not acted on')]);
    expect(await planOf(u.userId, u.key)).toBe('Free');
    expect(await planEvents(u.userId)).toEqual([]);

    const ok = await provider.deliver(events, paid);
    expect([ok.status, ok.body.success, ok.body.message]).toEqual([
      200,
      true,
      `Event ${paid.id}: the Pro plan applies now (from Free)`,
    ]);
    expect(await planOf(u.userId, u.key)).toBe('Pro');
    const redelivered = await provider.deliver(events, paid);
    expect([redelivered.status, redelivered.body.message]).toEqual([200, expect.stringContaining('nothing to change')]);
    expect((await planEvents(u.userId)).map((e) => e.data)).toEqual([
      expect.objectContaining({
        plan: 'pro',
        previous_plan: 'free',
        changed_by: { kind: 'billing', id: paid.id },
        billing_event_id: paid.id,
      }),
    ]);

    // The provider ends the subscription: Free applies.
    const ended = {
      id: `evt_end_${u.userId}`,
      object: 'event',
      type: 'customer.subscription.deleted',
      data: { object: { id: 'sub_1', object: 'subscription', metadata: { user_id: u.userId } } },
    };
    expect((await provider.deliver(events, ended)).status).toBe(200);
    expect(await planOf(u.userId, u.key)).toBe('Free');
    const other = { ...ended, id: 'evt_other', type: 'invoice.paid' };
    expect((await provider.deliver(events, other)).body.message).toContain('not acted on');
  });

  it('checkout refuses what it cannot sell: not a raise (409), no price (409), no billing (503), a provider error (502)', async () => {
    const u = await api.user('pro');
    const down = await post(api, `${P}/user/${u.userId}/checkout`, u.key, { plan: 'basic' });
    expect([down.status, down.body.error]).toEqual([409, 'ConflictError']);
    expect(down.body.message).toContain(`POST ${P}/user/${u.userId}/subscription`);
    const ent = await post(api, `${P}/user/${u.userId}/checkout`, u.key, { plan: 'enterprise' });
    expect([ent.status, ent.body.message]).toEqual([409, expect.stringContaining('not sold here')]);
    const free = await api.user('free');
    const none = await post(bare, `${P}/user/${free.userId}/checkout`, free.key, { plan: 'pro' });
    expect([none.status, none.body.error]).toEqual([503, 'ServiceUnavailableError']);
    expect(none.body.message).toContain('BILLING_API_KEY, BILLING_WEBHOOK_SECRET and BILLING_PRICE_IDS');
    const noEvents = await call(`${bare.url}${P}/billing/events`, { method: 'POST', json: { id: 'evt', type: 'x' } });
    expect(noEvents.status).toBe(503);
    const other = await api.user('free');
    const foreign = await post(api, `${P}/user/${other.userId}/checkout`, free.key, { plan: 'pro' });
    expect(foreign.status).toBe(404);

    // The provider refuses (a price it does not sell): 502 with its message.
    const wrong = await startTestApi({
      schema: api.schema,
      deps: {
        billing: {
          provider: stripeBilling({
            apiKey: KEY,
            webhookSecret: SECRET,
            prices: { pro: 'price_gone' },
            baseUrl: provider.baseUrl,
          }),
          returnUrl: 'https://app.example.test/',
        },
      },
    });
    try {
      const r = await post(wrong, `${P}/user/${free.userId}/checkout`, free.key, { plan: 'pro' });
      expect([r.status, r.body.error, r.body.message]).toEqual([
        502,
        'UpstreamError',
        "The billing provider refused the checkout: No such price: 'price_gone'",
      ]);
    } finally {
      await wrong.stop();
    }
  });
});
