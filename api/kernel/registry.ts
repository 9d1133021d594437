/**
 * The route registry. Every route of the platform is declared once with
 * defineRoute — method, OpenAPI-style path, family, auth, JSON Schemas of
 * body/query/path and of each response, handler — and both the Express
 * routes and the OpenAPI document (api/kernel/openapi.ts) are generated from it.
 *
 * Stages of every route, in order: request id (app-wide), authentication,
 * rate limiting, body parsing (size limit), validation, owner check, handler;
 * the result is wrapped in the family's success envelope and any error in its
 * error envelope (api/kernel/errors.ts).
 */
import express, { Express, Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PostgresRateLimiter } from '../../infra/ratelimit/postgres';
import { ENVELOPES } from './envelopes';
import { Family, familyOf, RATE_SCHEME } from './families';
import { compileRequest } from './validation';
import type { AppDeps, HandlerCtx, RequestState, RouteDef } from './types';
import { authStage, ownerCheck } from './auth';
import { CALENDAR_ANONYMOUS_PER_HOUR, countRefusedCredentials, rateLimitStage } from './rate-limit';
import { createIdempotencyStage, isIdempotentRoute } from './idempotency';
import { sendConditional } from './conditional';

export type { AppDeps, HandlerCtx, HandlerResult, Method, RequestState, RouteDef, RouteResponse } from './types';

export function defineRoute<B = unknown, Q = Record<string, unknown>, P = Record<string, string>>(
  r: RouteDef<B, Q, P>,
): RouteDef<B, Q, P> {
  return r;
}

export const familyOfRoute = (r: RouteDef): Family => r.family ?? familyOf(r.path);
export const expressPath = (p: string) => p.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
export const operationIdOf = (r: RouteDef) =>
  r.operationId ??
  `${r.method}${r.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;

/** Streams a file body; a client that goes away mid-download is not an error of ours. */
async function pipeStream(body: Readable, res: Response): Promise<void> {
  try {
    await pipeline(body, res);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw e;
  }
}

/** Adds every route to `app` with its stages. */
export function mountRoutes(app: Express, routes: RouteDef[], deps: AppDeps): void {
  const limiter = deps.rateLimiter ?? new PostgresRateLimiter(deps.db);
  const idempotent = createIdempotencyStage(deps);
  // Calls of the calendar family without a valid credential are counted too (api/kernel/rate-limit.ts).
  const anonymous = { perHour: deps.settings.calendarAnonymousPerHour ?? CALENDAR_ANONYMOUS_PER_HOUR };
  const seen = new Set<string>();
  for (const route of routes) {
    const id = `${route.method} ${route.path}`;
    if (seen.has(id)) throw new Error(`route declared twice: ${id}`);
    seen.add(id);
    const family = familyOfRoute(route);
    const validate = compileRequest(route.request);
    const limit =
      route.bodyLimitBytes ??
      (family === 'image_studio' ? deps.settings.imageBodyLimitBytes : deps.settings.bodyLimitBytes);
    const envelope = ENVELOPES[family];
    const named = { ...route, operationId: operationIdOf(route) };
    const parseBody =
      route.bodyContentType === 'application/x-www-form-urlencoded'
        ? express.urlencoded({ limit, extended: false, parameterLimit: 100 })
        : express.json({ limit, type: ['application/json', 'application/*+json'] });
    app[route.method](
      expressPath(route.path),
      (_req, res, next) => {
        const st = res.locals as RequestState;
        st.family = family;
        st.route = named;
        next();
      },
      family === 'calendar'
        ? countRefusedCredentials(authStage(deps, route), limiter, anonymous)
        : authStage(deps, route),
      rateLimitStage(
        limiter,
        route.rateScheme ?? RATE_SCHEME[family],
        deps.settings.rate,
        family === 'calendar' ? { ...anonymous, parseBody } : undefined,
      ),
      parseBody,
      async (req, res) => {
        const st = res.locals as RequestState;
        const fromBody =
          route.queryFromBody && req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
        const input = validate({
          body: route.queryFromBody ? undefined : req.body,
          query: { ...fromBody, ...req.query },
          params: req.params,
        });
        ownerCheck(route, st, input.params);
        // Developer POSTs: Idempotency-Key (a replay answers here; api/kernel/idempotency.ts).
        if (isIdempotentRoute(route, family) && (await idempotent(req, res, route, input.body))) return;
        const result = await route.handler({
          ...input,
          caller: st.caller,
          requestId: st.requestId,
          deps,
          req,
          res,
        } as HandlerCtx);
        if ('raw' in result) {
          for (const [k, v] of Object.entries(result.raw.headers ?? {})) res.setHeader(k, v);
          res.status(result.raw.status ?? 200).type(result.raw.contentType);
          const body = result.raw.body;
          if (body instanceof Readable) await pipeStream(body, res);
          else res.send(body);
          return;
        }
        for (const [k, v] of Object.entries(result.headers ?? {})) res.setHeader(k, v);
        const status = result.status ?? 200;
        if (status === 204) {
          res.status(204).end();
          return;
        }
        const ctx = {
          requestId: st.requestId,
          timestamp: new Date().toISOString(),
          rate: st.rate,
          userId: st.caller?.userId ?? null,
          operation: named.operationId,
        };
        if (route.etag && status === 200) {
          sendConditional(req, res, result.data, (data) =>
            route.successBody === 'bare' ? data : envelope.success({ data, message: result.message }, ctx),
          );
          return;
        }
        res
          .status(status)
          .json(
            route.successBody === 'bare'
              ? result.data
              : envelope.success({ data: result.data, message: result.message }, ctx),
          );
      },
    );
  }
}
