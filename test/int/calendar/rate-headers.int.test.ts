/**
 * Rate-limit headers on every response of the calendar family (Document 3), including calls without a valid
 * credential: a 401 and the public OAuth token endpoint are counted in an anonymous bucket (client IP; the token
 * endpoint's client_id when given) with the CALENDAR_ANONYMOUS_RATE_PER_HOUR allowance, and a used-up bucket is the
 * family's 429. Other families are not changed: their 401 carries no rate headers.
 */
import type { TestApi } from '../../support/api';
import { call, JsonResponse } from '../../support/http';
import { awayFromBoundary } from '../../support/clock';
import { C, client, startCalendarApi } from './support';

jest.setTimeout(120000);

const ALLOWANCE = 5;

function expectRateHeaders(r: JsonResponse, limit: number, remaining: number): void {
  expect(r.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(r.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
  expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  expect(r.headers.get('x-ratelimit-retry-after')).not.toBeNull();
}

describe('calendar rate-limit headers without a valid credential', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startCalendarApi({ settings: { calendarAnonymousPerHour: ALLOWANCE } });
  });
  afterAll(async () => api?.stop());

  const token = (form: Record<string, string>) =>
    call(`${api.url}${C}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });

  it('a 401 (no credential, a bad one, an unknown path) carries the headers, counted per IP; past it 429', async () => {
    // Both tests count in this hour's anonymous buckets (the second relies on the IP's being used up by the first):
    // they start with at least two minutes of the hour left, more than the few seconds they take.
    await awayFromBoundary(3600, 120);
    const anon = client(api, null);
    const bad = client(api, 'cp_live_nope_nope');
    const first = await anon.get('/calendars');
    expect(first.status).toBe(401);
    expect(first.body.error.code).toBe('AUTHENTICATION_ERROR');
    expectRateHeaders(first, ALLOWANCE, ALLOWANCE - 1);
    expect(first.headers.get('x-ratelimit-retry-after')).toBe('0');

    const second = await bad.post('/calendars', { name: 'x' });
    expect(second.status).toBe(401);
    expectRateHeaders(second, ALLOWANCE, ALLOWANCE - 2);

    const unknown = await anon.get('/no-such-route');
    expect(unknown.status).toBe(401);
    expectRateHeaders(unknown, ALLOWANCE, ALLOWANCE - 3);

    for (let i = 3; i < ALLOWANCE; i++) expect((await anon.get('/calendars')).status).toBe(401);
    const refused = await anon.get('/calendars');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: { code: 'RATE_LIMIT_EXCEEDED', details: { limit: ALLOWANCE, window: 'hour' } },
    });
    expect(typeof refused.body.error.request_id).toBe('string');
    expectRateHeaders(refused, ALLOWANCE, 0);
    expect(Number(refused.headers.get('x-ratelimit-retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('retry-after')).toBe(refused.headers.get('x-ratelimit-retry-after'));

    // A valid key is the caller's own bucket (its plan's tier), not the used-up anonymous one.
    const { key } = await api.user('free');
    const ok = await client(api, key).get('/calendars');
    expect(ok.status).toBe(200);
    expectRateHeaders(ok, 1000, 999);

    // Other families keep their behaviour: a 401 is not counted and carries no calendar headers.
    const general = await call(`${api.url}/api/settings/api-keys`);
    expect(general.status).toBe(401);
    expect(general.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('the token endpoint is counted per client_id (else per IP) and answers 429 past the allowance', async () => {
    const clientA = 'cpc_ratelimitA';
    const first = await token({ grant_type: 'refresh_token', client_id: clientA, refresh_token: 'cpr_x' });
    expect([400, 401]).toContain(first.status);
    expectRateHeaders(first, ALLOWANCE, ALLOWANCE - 1);
    // Without a client_id the call is the IP's, whose bucket the 401s of the first test used up.
    const noClient = await token({ grant_type: 'refresh_token' });
    expect(noClient.status).toBe(429);
    expect(noClient.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expectRateHeaders(noClient, ALLOWANCE, 0);

    for (let i = 1; i < ALLOWANCE; i++)
      expectRateHeaders(
        await token({ grant_type: 'refresh_token', client_id: clientA, refresh_token: 'cpr_x' }),
        ALLOWANCE,
        ALLOWANCE - 1 - i,
      );
    const refused = await token({ grant_type: 'refresh_token', client_id: clientA, refresh_token: 'cpr_x' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expectRateHeaders(refused, ALLOWANCE, 0);

    const other = await token({ grant_type: 'refresh_token', client_id: 'cpc_ratelimitB', refresh_token: 'cpr_x' });
    expect(other.status).not.toBe(429);
    expectRateHeaders(other, ALLOWANCE, ALLOWANCE - 1);
  });
});
