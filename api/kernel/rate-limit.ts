/**
 * Rate-limit stage (after authentication, before validation). The caller's
 * plan and key environment pick the windows (domain/plans.ts); the counts are
 * shared by every API process through PostgreSQL. Public routes called
 * without a credential are not limited (health probes).
 *
 * Headers: every family gets the IETF `RateLimit-Policy` / `RateLimit`
 * fields (draft-ietf-httpapi-ratelimit-headers, structured-field form); the
 * calendar family also `X-RateLimit-Limit/Remaining/Reset/Retry-After` on
 * every response; a refused request gets `Retry-After` (api/errors.ts).
 */
import type { RequestHandler, Response } from 'express';
import { DailyQuotaExceededError, RateLimitError } from '../../domain/errors';
import { RateOptions, RateScheme, rateWindows } from '../../domain/plans';
import type { PostgresRateLimiter, RateDecision } from '../../infra/ratelimit/postgres';
import type { Family } from './families';
import type { RequestState } from './types';

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

export function rateLimitStage(limiter: PostgresRateLimiter, scheme: RateScheme, opts: RateOptions): RequestHandler {
  return async (_req, res, next) => {
    const st = res.locals as RequestState;
    const caller = st.caller;
    if (!caller) return next();
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
