/**
 * The billing adapter's pure parts: price ids from configuration, signature checks (time window, several v1
 * values, malformed headers) and what a verified event means. The HTTP path is in
 * test/int/subscription/billing.int.test.ts.
 */
import { createHmac } from 'node:crypto';
import { BillingSignatureError, parsePriceIds, readEvent, stripeBilling } from '../../../infra/billing';

const secret = 'whsec_unit';
const provider = stripeBilling({ apiKey: 'sk', webhookSecret: secret, prices: { pro: 'price_pro' } });
const body = Buffer.from(JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: { object: {} } }));
const sig = (t: number, key = secret, b: Buffer = body) =>
  createHmac('sha256', key).update(`${t}.`).update(b).digest('hex');
const now = 1_800_000_000_000;
const t = now / 1000;

describe('billing adapter', () => {
  it('reads BILLING_PRICE_IDS and sells only the priced plans', () => {
    expect(parsePriceIds(' basic = price_1 ,pro=price_2,gold=x,enterprise=')).toEqual({
      basic: 'price_1',
      pro: 'price_2',
    });
    expect(provider.plans).toEqual(['pro']);
  });

  it('accepts a delivery signed with the secret within 300 s, among several v1 values', () => {
    expect(provider.verifyEvent(body, `t=${t},v1=${sig(t)}`, now)).toMatchObject({ id: 'evt_1', kind: 'ignored' });
    expect(provider.verifyEvent(body, `t=${t - 299},v1=${'0'.repeat(64)},v1=${sig(t - 299)}`, now).id).toBe('evt_1');
  });

  it.each([
    ['no header', undefined],
    ['no timestamp', `v1=${sig(t)}`],
    ['no v1', `t=${t}`],
    ['another secret', `t=${t},v1=${sig(t, 'whsec_other')}`],
    ['too old', `t=${t - 301},v1=${sig(t - 301)}`],
    ['from the future', `t=${t + 301},v1=${sig(t + 301)}`],
    ['not hex', `t=${t},v1=zz${sig(t).slice(2)}`],
    ['truncated', `t=${t},v1=${sig(t).slice(0, 40)}`],
    ['signed over another body', `t=${t},v1=${sig(t, secret, Buffer.from('{}'))}`],
  ])('refuses a delivery with %s', (_why, header) => {
    expect(() => provider.verifyEvent(body, header, now)).toThrow(BillingSignatureError);
  });

  it('reads what an event means: paid checkout, unpaid, missing metadata, ended subscription, anything else', () => {
    const session = (o: Record<string, unknown>) => ({
      id: 'evt_c',
      type: 'checkout.session.completed',
      data: { object: { client_reference_id: 'u1', metadata: { plan: 'pro' }, payment_status: 'paid', ...o } },
    });
    expect(readEvent(session({}))).toEqual({ id: 'evt_c', kind: 'plan_paid', userId: 'u1', plan: 'pro' });
    expect(readEvent(session({ payment_status: 'unpaid' }))).toMatchObject({ kind: 'ignored' });
    expect(readEvent(session({ metadata: { plan: 'gold' } }))).toMatchObject({ kind: 'ignored' });
    expect(readEvent(session({ client_reference_id: undefined }))).toMatchObject({ kind: 'ignored' });
    expect(
      readEvent({
        id: 'evt_d',
        type: 'customer.subscription.deleted',
        data: { object: { metadata: { user_id: 'u2' } } },
      }),
    ).toEqual({ id: 'evt_d', kind: 'subscription_ended', userId: 'u2' });
    expect(readEvent({ id: 'evt_e', type: 'charge.refunded' })).toMatchObject({
      kind: 'ignored',
      type: 'charge.refunded',
    });
  });
});
