/**
 * Rate-limit stage (after authentication, before validation). The caller's
 * plan and key environment pick the windows (domain/plans.ts); the counts are
 * shared by every API process through PostgreSQL. Public routes called
 * without a credential are not limited (health probes) — except in the
 * calendar family, whose every response carries the rate headers (Document
 * 3), and the developer family, whose every `meta` holds `rate_limit`
 * (Document 1): there a call without a valid credential (a 401, a public
 * route) is counted in an anonymous bucket keyed by the client's IP address
 * (the calendar token endpoint: by the form's `client_id` when given), with
 * the hourly allowance `CALENDAR_ANONYMOUS_RATE_PER_HOUR` (docs/calendar.md)
 * or `DEVELOPER_ANONYMOUS_RATE_PER_HOUR` (docs/api.md).
 *
 * Headers: every family gets the IETF `RateLimit-Policy` / `RateLimit`
 * fields (draft-ietf-httpapi-ratelimit-headers, structured-field form); the
 * calendar family also `X-RateLimit-Limit/Remaining/Reset/Retry-After` on
 * every response; a refused request gets `Retry-After` (api/errors.ts).
 */
import type { Request, RequestHandler, Response } from 'express';
import { AuthenticationError, DailyQuotaExceededError, RateLimitError } from '../../domain/errors';
import { RateOptions, RateScheme, rateWindows } from '../../domain/plans';
import type { PostgresRateLimiter, RateDecision } from '../../infra/ratelimit/postgres';
import type { Family } from './families';
import type { AppDeps, RequestState } from './types';

export function applyRateHeaders(res: Response, family: Family, rate: RateDecision): void {
  if (res.headersSent) return;
  const now = Math.floor(Date.now() / 1000);
  res.setHeader('RateLimit-Policy', rate.windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', '));
  const b = rate.binding;
  res.setHeader('RateLimit', `"${b.name}";r=${b.remaining};t=${Math.max(0, b.reset - now)}`);
  if (family === 'calendar') {
    res.setHeader('X-RateLimit-Limit', String(b.limit));
    res.setHeader('X-RateLimit-Remaining', String(b.remaining));
    res.setHeader('X-RateLimit-Reset', String(b.reset));
    res.setHeader('X-RateLimit-Retry-After', String(b.remaining > 0 ? 0 : Math.max(0, b.reset - now)));
  }
}

/** Default hourly allowance of calls without a valid credential in the calendar family: the Free tier's calendar rate. */
export const CALENDAR_ANONYMOUS_PER_HOUR = 1000;

/** Default hourly allowance of calls without a valid credential in the developer family: ten a second. */
export const DEVELOPER_ANONYMOUS_PER_HOUR = 36_000;

/** How calls without a valid credential are counted (the calendar and developer families). */
export interface AnonymousRate {
  /** Calls per hour and bucket. */
  perHour: number;
  /** Parses the body before counting, so the bucket can be the form's `client_id` (the OAuth token endpoint). */
  parseBody?: RequestHandler;
}

/** The anonymous allowance of each family that counts calls without a valid credential. */
export function anonymousRates(deps: Pick<AppDeps, 'settings'>): Partial<Record<Family, AnonymousRate>> {
  return {
    calendar: { perHour: deps.settings.calendarAnonymousPerHour ?? CALENDAR_ANONYMOUS_PER_HOUR },
    developer: { perHour: deps.settings.developerAnonymousPerHour ?? DEVELOPER_ANONYMOUS_PER_HOUR },
  };
}

const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Runs a body parser as a promise; resolves with its error instead of passing it on. */
function parse(parser: RequestHandler, req: Request, res: Response): Promise<unknown> {
  return new Promise((resolve) => {
    void parser(req, res, (err?: unknown) => resolve(err));
  });
}

/**
 * Counts a call without a valid credential (calendar and developer families) in its anonymous bucket (client IP, or the token
 * endpoint's `client_id`), sets the rate headers, and throws the family's 429 when the bucket is used up. A body
 * parse error found on the way is thrown after the count (with the headers).
 */
async function countAnonymous(
  limiter: PostgresRateLimiter,
  req: Request,
  res: Response,
  anonymous: AnonymousRate,
): Promise<void> {
  const st = res.locals as RequestState;
  let bucket = `ip:${req.socket.remoteAddress ?? 'unknown'}`;
  let bodyError: unknown;
  if (anonymous.parseBody) {
    bodyError = await parse(anonymous.parseBody, req, res);
    const id = (req.body as Record<string, unknown> | undefined)?.client_id;
    if (!bodyError && typeof id === 'string' && CLIENT_ID.test(id)) bucket = `client:${id}`;
  }
  const decision = await limiter.hit(`anonymous:${st.family}:${bucket}`, [
    { name: 'hour', seconds: 3600, limit: Math.max(1, anonymous.perHour) },
  ]);
  st.rate = decision;
  applyRateHeaders(res, st.family, decision);
  if (!decision.allowed) {
    const b = decision.binding;
    throw new RateLimitError(decision.retryAfter!, `Rate limit exceeded: ${b.limit} requests per ${b.name}`, {
      limit: b.limit,
      window: b.name,
      reset: b.reset,
    });
  }
  if (bodyError) throw bodyError;
}

/**
 * Wraps the authentication stage: in a family with an anonymous allowance (calendar, developer) a call refused for
 * its credential (401) is counted in the anonymous bucket first, so the 401 carries the rate headers and
 * `meta.rate_limit` (and a flood of them gets 429). Other families and calls with a valid credential are untouched.
 */
export function countRefusedCredentials(
  auth: RequestHandler,
  limiter: PostgresRateLimiter,
  anonymous: Partial<Record<Family, AnonymousRate>>,
): RequestHandler {
  return async (req, res, next) => {
    const st = res.locals as RequestState;
    const rate = anonymous[st.family];
    if (!rate) return auth(req, res, next);
    let passed = false;
    try {
      await auth(req, res, () => {
        passed = true;
      });
    } catch (e) {
      if (!(e instanceof AuthenticationError)) throw e;
      await countAnonymous(limiter, req, res, { perHour: rate.perHour });
      throw e;
    }
    if (passed) next();
  };
}

export function rateLimitStage(
  limiter: PostgresRateLimiter,
  scheme: RateScheme,
  opts: RateOptions,
  anonymous?: AnonymousRate,
): RequestHandler {
  return async (req, res, next) => {
    const st = res.locals as RequestState;
    const caller = st.caller;
    if (!caller) {
      if (anonymous) await countAnonymous(limiter, req, res, anonymous);
      return next();
    }
    const windows = rateWindows(caller.plan, scheme, caller.environment, opts);
    const decision = await limiter.hit(`${scheme}:${caller.userId}:${caller.environment}`, windows, {
      credentialId: `${caller.credential}:${caller.credentialId}`,
    });
    st.rate = decision;
    applyRateHeaders(res, st.family, decision);
    if (!decision.allowed) {
      const b = decision.binding;
      // A used-up day is the spec's daily quota (QUOTA_EXCEEDED); shorter windows are its rate limit.
      if (b.name === 'day')
        throw new DailyQuotaExceededError(decision.retryAfter!, `Daily quota exceeded: ${b.limit} requests per day`, {
          limit: b.limit,
          window: b.name,
          reset: b.reset,
        });
      throw new RateLimitError(decision.retryAfter!, `Rate limit exceeded: ${b.limit} requests per ${b.name}`, {
        limit: b.limit,
        window: b.name,
        reset: b.reset,
      });
    }
    next();
  };
}
