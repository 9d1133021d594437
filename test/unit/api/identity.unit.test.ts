/** Plans and rate tiers as the spec states them, credential formats, and the fold of identity events. */
import { PLANS, rateWindows } from '../../../domain/plans';
import { credentialUsable, foldCredential, foldUser } from '../../../domain/identity';
import { newApiKey, newSessionToken, parseCredential, sha256 } from '../../../api/identity/tokens';
import { compileRequest } from '../../../api/kernel/validation';
import { parseRateOverrides } from '../../../api/kernel/deps';
import { ValidationError } from '../../../domain/errors';

describe('plans (Document 1 "Limits", Document 3 "Limits")', () => {
  it('carries the stated prices and usage limits', () => {
    expect(PLANS.free).toMatchObject({
      price: 0.0,
      billing_cycle: 'monthly',
      limits: { vendor_a_calls: 100, tokens: 100000 },
    });
    expect(PLANS.basic).toMatchObject({
      price: 29.0,
      limits: { vendor_a_calls: 1000, vendor_b_calls: 500, tokens: 1500000, monthly_cost: 50.0 },
    });
    expect(PLANS.pro.limits).toMatchObject({ vendor_a_calls: 5000, vendor_b_calls: 2500, monthly_cost: 150.0 });
  });
  it('gives each tier its windows', () => {
    const w = (plan: keyof typeof PLANS, scheme: 'general' | 'developer' | 'calendar' | 'integration') =>
      rateWindows(plan, scheme, 'production').map((x) => [x.name, x.limit]);
    expect(w('free', 'general')).toEqual([
      ['minute', 10],
      ['day', 100],
    ]);
    expect(w('basic', 'general')).toEqual([
      ['minute', 60],
      ['day', 1000],
    ]);
    expect(w('pro', 'general')).toEqual([
      ['minute', 300],
      ['day', 10000],
    ]);
    expect(w('enterprise', 'general')).toEqual([
      ['minute', 1000],
      ['day', 100000],
    ]);
    expect(w('free', 'developer')).toEqual([['hour', 100]]);
    expect(w('pro', 'developer')).toEqual([['hour', 1000]]);
    expect(w('free', 'calendar')).toEqual([['hour', 1000]]);
    expect(w('pro', 'calendar')).toEqual([['hour', 10000]]);
    expect(w('enterprise', 'calendar')).toEqual([['hour', 100000]]);
    expect(w('basic', 'integration')).toEqual([
      ['minute', 20],
      ['hour', 100],
    ]);
  });
  it('development keys get a share of the limits; overrides apply per plan or to all', () => {
    expect(rateWindows('free', 'general', 'development').map((x) => x.limit)).toEqual([5, 50]);
    expect(rateWindows('free', 'general', 'development', { developmentPercent: 10 }).map((x) => x.limit)).toEqual([
      1, 10,
    ]);
    const o = parseRateOverrides('{"*":{"general":{"minute":7}},"enterprise":{"developer":{"hour":50000}}}');
    expect(rateWindows('pro', 'general', 'production', { overrides: o }).map((x) => x.limit)).toEqual([7, 10000]);
    expect(rateWindows('enterprise', 'developer', 'production', { overrides: o }).map((x) => x.limit)).toEqual([50000]);
    expect(() => parseRateOverrides('{"gold":{}}')).toThrow(/RATE_LIMIT_OVERRIDES/);
    expect(() => parseRateOverrides('{"free":{"general":{"week":1}}}')).toThrow(/RATE_LIMIT_OVERRIDES/);
  });
});

describe('credentials', () => {
  it('API keys: cp_live_/cp_test_, random, parsed back to kind, id and environment; only the hash is kept', () => {
    const a = newApiKey('production');
    const b = newApiKey('development');
    expect(a.text).toMatch(/^cp_live_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(b.text).toMatch(/^cp_test_/);
    expect(a.text).not.toBe(newApiKey('production').text);
    expect(parseCredential(a.text)).toEqual({
      kind: 'api_key',
      id: a.id,
      hash: sha256(a.text),
      environment: 'production',
    });
    expect(parseCredential(b.text)?.environment).toBe('development');
    const s = newSessionToken();
    expect(parseCredential(s.text)).toEqual({ kind: 'session', id: s.id, hash: s.hash });
    for (const bad of ['', 'cp_live_short_x', `${a.text}x`, a.text.replace('cp_live', 'cp_prod')])
      expect(parseCredential(bad)).toBeUndefined();
  });

  it('folds a key through rotation and revocation', () => {
    const created = {
      type: 'ApiKeyCreated' as const,
      data: { key_id: 'k', user_id: 'u', name: 'n', environment: 'production' as const, prefix: 'k', key_hash: 'h' },
    };
    const key = foldCredential([created])!;
    expect(credentialUsable(key, Date.now())).toBe(true);
    const rotated = foldCredential([
      created,
      {
        type: 'ApiKeyRotated',
        data: { old_key_id: 'k', new_key_id: 'k2', user_id: 'u', grace_until: '2030-01-01T00:00:00.000Z' },
      },
    ])!;
    expect(credentialUsable(rotated, Date.parse('2029-12-31T23:59:59Z'))).toBe(true);
    expect(credentialUsable(rotated, Date.parse('2030-01-01T00:00:01Z'))).toBe(false);
    expect(
      credentialUsable(
        foldCredential([created, { type: 'ApiKeyRevoked', data: { key_id: 'k', user_id: 'u' } }])!,
        Date.now(),
      ),
    ).toBe(false);
    expect(
      foldUser([
        { type: 'UserCreated', data: { user_id: 'u', plan: 'free', role: 'user' } },
        { type: 'PlanChanged', data: { user_id: 'u', plan: 'pro', previous_plan: 'free' } },
      ]),
    ).toEqual({ user_id: 'u', plan: 'pro', role: 'user' });
  });
});

describe('request validation', () => {
  const v = compileRequest({
    body: {
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
        nested: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] },
      },
      required: ['nested'],
    },
    query: {
      type: 'object',
      properties: { months: { type: 'integer', default: 6 }, unread_only: { type: 'boolean', default: false } },
    },
  });
  it('applies defaults, coerces query text, ignores unknown query parameters', () => {
    expect(v({ body: { nested: { s: 'x' } }, query: { unread_only: 'true', _: '17' }, params: {} })).toEqual({
      body: { n: 1, nested: { s: 'x' } },
      query: { months: 6, unread_only: true, _: '17' },
      params: {},
    });
  });
  it('refuses a body field the schema does not name, at any depth, by its path', () => {
    const issuesOf = (body: unknown) => {
      try {
        v({ body, query: {}, params: {} });
        return [];
      } catch (e) {
        return (e as ValidationError).issues.map((i) => [i.path, i.message]);
      }
    };
    expect(issuesOf({ nested: { s: 'x', t: 1 }, extra: true })).toEqual([
      ['extra', 'extra is not a field of this body: unknown fields are refused, not ignored'],
      ['nested.t', 'nested.t is not a field of nested: unknown fields are refused, not ignored'],
    ]);
  });
  it('closes typed objects per type, keeps free-form maps and declared-open objects open', () => {
    const typed = compileRequest({
      body: {
        type: 'object',
        properties: {
          type: { enum: ['post', 'carousel'] },
          state: { type: 'object', maxProperties: 5 },
          provider_event: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: true },
        },
        required: ['type'],
        allOf: [
          { if: { properties: { type: { const: 'post' } } }, then: { properties: { topic: { type: 'string' } } } },
          {
            if: { properties: { type: { const: 'carousel' } } },
            then: { properties: { topic: { type: 'string' }, slides: { type: 'integer' } } },
          },
        ],
      },
    });
    const paths = (body: unknown) => {
      try {
        typed({ body, query: {}, params: {} });
        return [];
      } catch (e) {
        return (e as ValidationError).issues.map((i) => i.path);
      }
    };
    expect(paths({ type: 'carousel', topic: 't', slides: 3, state: { step: 2, any: 'x' } })).toEqual([]);
    expect(paths({ type: 'post', topic: 't', provider_event: { id: 'e', livemode: false } })).toEqual([]);
    // A carousel's field on a post is refused: each type accepts the common fields and its own.
    expect(paths({ type: 'post', topic: 't', slides: 3 })).toEqual(['slides']);
    expect(paths({ type: 'post', topic: 't', sildes: 3 })).toEqual(['sildes']);
  });
  it('refuses wrong types (no coercion in bodies) and missing fields with their paths', () => {
    try {
      v({ body: { n: '3', nested: {} }, query: { months: 'x' }, params: {} });
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).issues.map((i) => [i.location, i.path, i.kind])).toEqual([
        ['body', 'n', 'type'],
        ['body', 'nested.s', 'missing'],
        ['query', 'months', 'type'],
      ]);
    }
  });
});
