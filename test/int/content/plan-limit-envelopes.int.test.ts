/**
 * The body of a plan limit (429) in each family, through the real error stage
 * (test-only routes that throw UsageLimitExceededError): the developer family
 * keeps its envelope with meta.rate_limit and `error.code`
 * UsageLimitExceededException; every other family answers the subscription
 * body UsageLimitExceededException (docs/api.md, "General codes"). Each body
 * matches the schema the OpenAPI document gives for that 429.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import pino from 'pino';
import { ENVELOPES } from '../../../api/kernel/envelopes';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { call } from '../../support/http';
import { PROBE_ROUTES } from '../api/probe-routes';

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const details = { provider: 'vendor_a', limit_type: 'vendor_a_calls', current_usage: 100, limit_value: 100 };

describe('a plan limit in each family', () => {
  let api: TestApi;
  let user: { userId: string; key: string };
  beforeAll(async () => {
    api = await startTestApi({ pipeline: false, logger: pino({ level: 'silent' }), extraRoutes: PROBE_ROUTES });
    user = await api.user('enterprise');
  });
  afterAll(async () => {
    await api?.stop();
  });

  const fail = (prefix: string) => call(`${api.url}${prefix}/fail?kind=usage`, { headers: bearer(user.key) });

  it('/v1: the developer envelope, error.code UsageLimitExceededException, meta with this request rate_limit', async () => {
    const r = await fail('/v1/probe');
    expect(r.status).toBe(429);
    const remaining = Number(/;r=(\d+)/.exec(r.headers.get('ratelimit') ?? '')?.[1]);
    expect(r.body).toEqual({
      success: false,
      error: { code: 'UsageLimitExceededException', message: 'Usage limit exceeded for vendor_a_calls', details },
      meta: {
        request_id: r.headers.get('x-request-id'),
        timestamp: expect.any(String),
        rate_limit: { limit: expect.any(Number), remaining, reset: expect.any(Number) },
      },
    });
    expect(ajv.validate(ENVELOPES.developer.errorSchema, r.body)).toBe(true);
  });

  it('general, subscription and calendar: the subscription body UsageLimitExceededException', async () => {
    for (const prefix of ['/api/probe', '/api/subscription/probe', '/v1/calendar/probe']) {
      const r = await fail(prefix);
      expect([prefix, r.status]).toEqual([prefix, 429]);
      expect(r.body).toEqual({
        success: false,
        error: 'UsageLimitExceededException',
        message: 'Usage limit exceeded for vendor_a_calls',
        details,
        user_id: user.userId,
        timestamp: expect.any(String),
      });
      expect(ajv.validate(ENVELOPES.subscription.errorSchema, r.body)).toBe(true);
    }
    // The calendar family's rate headers stay on its plan-limit answer (Document 3: on every call).
    const cal = await fail('/v1/calendar/probe');
    expect(cal.headers.get('x-ratelimit-limit')).toEqual(expect.any(String));
  });
});
