/**
 * Rate limits at the boundary of each tier: N requests pass, request N+1 is
 * refused with 429 in the family's envelope, Retry-After and the rate-limit
 * headers. Small real tiers are tested as they are (Free general 10/min,
 * developer 100/h, integration burst 20, development keys); the large ones
 * with per-plan overrides (RATE_LIMIT_OVERRIDES), whose numbers the unit test
 * of domain/plans.ts checks against the spec.
 */
import pino from 'pino';
import { call, JsonResponse } from '../../support/http';
import { bearer, startTestApi, TestApi } from '../../support/api';
import { inOneWindow } from '../../support/clock';
import { PROBE_ROUTES } from './probe-routes';

// Every burst below is made by a user of its own inside one window of the tier it tests (inOneWindow runs it again,
// with a new user, when it crossed into the next window): a window that ended mid-burst would start a fresh count.
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

async function burst(n: number, send: () => Promise<JsonResponse>): Promise<JsonResponse[]> {
  const out: JsonResponse[] = [];
  for (let i = 0; i < n; i++) out.push(await send());
  return out;
}

describe('rate limits', () => {
  let real: TestApi;
  let small: TestApi;
  beforeAll(async () => {
    const logger = pino({ level: 'silent' });
    real = await startTestApi({
      pipeline: false,
      logger,
      extraRoutes: PROBE_ROUTES,
      settings: { consistencyTimeoutMs: 0 },
    });
    small = await startTestApi({
      pipeline: false,
      logger,
      extraRoutes: PROBE_ROUTES,
      settings: {
        consistencyTimeoutMs: 0,
        rate: {
          developmentPercent: 50,
          overrides: {
            free: { general: { minute: 1000, day: 6 }, calendar: { hour: 2 } },
            basic: { general: { minute: 3 } },
            pro: { general: { minute: 4 }, developer: { hour: 3 }, calendar: { hour: 3 } },
            enterprise: { general: { minute: 5 }, developer: { hour: 4 }, calendar: { hour: 4 } },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await real?.stop();
    await small?.stop();
  });

  it('general family, Free: 10 per minute, the 11th is refused with 429, Retry-After and RateLimit headers', async () => {
    const { u, rs } = await inOneWindow(MINUTE, async () => {
      const u = await real.user('free');
      return { u, rs: await burst(11, () => call(`${real.url}/api/settings/api-keys`, { headers: bearer(u.key) })) };
    });
    expect(rs.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(rs[0].headers.get('ratelimit-policy')).toBe('"minute";q=10;w=60, "day";q=100;w=86400');
    expect(rs[0].headers.get('ratelimit')).toMatch(/^"minute";r=9;t=\d+$/);
    expect(rs[9].headers.get('ratelimit')).toMatch(/^"minute";r=0;t=\d+$/);
    const refused = rs[10];
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMIT_EXCEEDED', details: { limit: 10, window: 'minute' } },
    });
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    // a refused request consumes nothing: once this process gives its unused leased units back, the day window
    // still shows 10 used
    await real.limiter.returnUnused();
    const day = await real.schema
      .db('rate_limit_counters')
      .where('bucket', `general:${u.userId}:production:day`)
      .first();
    expect(day.count).toBe(10);
  });

  it('general family, day window: N per day, N+1 refused until the next UTC day', async () => {
    const { rs, t0, t1 } = await inOneWindow(DAY, async () => {
      const u = await small.user('free');
      const t0 = Date.now();
      const rs = await burst(7, () => call(`${small.url}/api/settings/api-keys`, { headers: bearer(u.key) }));
      return { rs, t0, t1: Date.now() };
    });
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 429]);
    // A used-up day is the spec's daily quota: QUOTA_EXCEEDED (shorter windows stay RATE_LIMIT_EXCEEDED).
    expect(rs[6].body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { window: 'day', limit: 6 } });
    // Retry-After: the seconds from when the 7th request was counted (during the burst) to the next UTC midnight.
    const untilMidnight = (ms: number) => DAY - (Math.floor(ms / 1000) % DAY);
    const retry = Number(rs[6].headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(untilMidnight(t1));
    expect(retry).toBeLessThanOrEqual(untilMidnight(t0));
  });

  it('general family per plan: Basic, Pro and Enterprise each at their boundary', async () => {
    for (const [plan, n] of [
      ['basic', 3],
      ['pro', 4],
      ['enterprise', 5],
    ] as const) {
      const rs = await inOneWindow(MINUTE, async () => {
        const u = await small.user(plan);
        return burst(n + 1, () => call(`${small.url}/api/settings/api-keys`, { headers: bearer(u.key) }));
      });
      expect([plan, rs.map((r) => r.status)]).toEqual([plan, [...Array(n).fill(200), 429]]);
    }
  });

  it('development keys get half the production limits', async () => {
    const rs = await inOneWindow(MINUTE, async () => {
      const u = await real.user('free', { environment: 'development' });
      return burst(6, () => call(`${real.url}/api/settings/api-keys`, { headers: bearer(u.key) }));
    });
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(rs[0].headers.get('ratelimit-policy')).toBe('"minute";q=5;w=60, "day";q=50;w=86400');
  });

  it('developer family, Free: 100 per hour reported in meta.rate_limit; Pro and Enterprise at their boundary', async () => {
    const rs = await inOneWindow(HOUR, async () => {
      const u = await real.user('free');
      return burst(101, () => call(`${real.url}/v1/me`, { headers: bearer(u.key) }));
    });
    expect(rs.filter((r) => r.status === 200)).toHaveLength(100);
    expect(rs[0].body.meta.rate_limit).toEqual({ limit: 100, remaining: 99, reset: expect.any(Number) });
    expect(rs[99].body.meta.rate_limit.remaining).toBe(0);
    const refused = rs[100];
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMIT_EXCEEDED' },
      meta: { rate_limit: { limit: 100, remaining: 0 } },
    });
    expect(refused.body.meta.rate_limit.reset - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(3600);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    for (const [plan, n] of [
      ['pro', 3],
      ['enterprise', 4],
    ] as const) {
      const ps = await inOneWindow(HOUR, async () => {
        const p = await small.user(plan);
        return burst(n + 1, () => call(`${small.url}/v1/me`, { headers: bearer(p.key) }));
      });
      expect([plan, ps.map((r) => r.status)]).toEqual([plan, [...Array(n).fill(200), 429]]);
    }
  });

  it('calendar family: per-hour tiers with X-RateLimit-* headers on every response', async () => {
    for (const [plan, n] of [
      ['free', 2],
      ['pro', 3],
      ['enterprise', 4],
    ] as const) {
      const { rs, t0 } = await inOneWindow(HOUR, async () => {
        const u = await small.user(plan);
        const t0 = Date.now();
        const rs = await burst(n + 1, () =>
          call(`${small.url}/v1/calendar/probe/calendars`, { headers: bearer(u.key) }),
        );
        return { rs, t0 };
      });
      expect([plan, rs.map((r) => r.status)]).toEqual([plan, [...Array(n).fill(200), 429]]);
      expect(rs[0].headers.get('x-ratelimit-limit')).toBe(String(n));
      expect(rs[0].headers.get('x-ratelimit-remaining')).toBe(String(n - 1));
      // The reset is the end of the window the burst ran in: after the burst began.
      expect(Number(rs[0].headers.get('x-ratelimit-reset'))).toBeGreaterThan(t0 / 1000);
      expect(rs[0].headers.get('x-ratelimit-retry-after')).toBe('0');
      const refused = rs[n];
      expect(refused.body.error).toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
        request_id: refused.headers.get('x-request-id'),
      });
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(refused.headers.get('x-ratelimit-retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('retry-after')).toBe(refused.headers.get('x-ratelimit-retry-after'));
      expect(refused.headers.get('ratelimit-policy')).toBe(`"hour";q=${n};w=3600`);
    }
  });

  it('integration route (GET /api/health with a key): burst of 20 per minute; without a key it is not limited', async () => {
    const { u, rs } = await inOneWindow(MINUTE, async () => {
      const u = await real.user('enterprise');
      return { u, rs: await burst(21, () => call(`${real.url}/api/health`, { headers: bearer(u.key) })) };
    });
    expect(rs.slice(0, 20).every((r) => r.status === 200)).toBe(true);
    expect(rs[0].headers.get('ratelimit-policy')).toBe('"minute";q=20;w=60, "hour";q=100;w=3600');
    expect(rs[0].body.data.caller.user_id).toBe(u.userId);
    expect([rs[20].status, rs[20].body.error.code]).toEqual([429, 'RATE_LIMIT_EXCEEDED']);
    const anonymous = await burst(25, () => call(`${real.url}/api/health`));
    expect(anonymous.every((r) => r.status === 200 && !r.headers.get('ratelimit'))).toBe(true);
  });

  it('the other families answer 429 in their own envelopes', async () => {
    // All in one UTC day: the general day window of 6 in this app, used up by the session and the first five calls.
    const { u, rs, image, sub } = await inOneWindow(DAY, async () => {
      const u = await small.user('free');
      const session = (await call(`${small.url}/api/settings/sessions`, { method: 'POST', headers: bearer(u.key) }))
        .body.data.token;
      const outreach = () =>
        call(`${small.url}/api/v1/backlink-outreach/probe/fail?kind=policy`, { headers: bearer(session) });
      const rs = await burst(6, outreach);
      const image = await call(`${small.url}/api/image-studio/probe/create`, {
        method: 'POST',
        headers: bearer(u.key),
        json: { prompt: 'x' },
      });
      const sub = await call(`${small.url}/api/subscription/probe/usage/${u.userId}/trends`, {
        headers: bearer(u.key),
      });
      return { u, rs, image, sub };
    });
    expect(rs[4].status).toBe(403);
    expect([rs[5].status, rs[5].body]).toEqual([429, { detail: 'Daily quota exceeded: 6 requests per day' }]);
    expect(image.status).toBe(429);
    expect(image.body.detail).toBe('Daily quota exceeded: 6 requests per day');
    expect(Number(image.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sub.body).toMatchObject({ success: false, error: 'QuotaExceededError', user_id: u.userId });
  });
});
