/**
 * The route registry. Every route of the platform is declared once with
 * defineRoute — method, OpenAPI-style path, family, auth, JSON Schemas of
 * body/query/path and of each response, handler — and both the Express
 * routes and the OpenAPI document (api/openapi.ts) are generated from it.
 *
 * Stages of every route, in order: request id (app-wide), authentication,
 * rate limiting, body parsing (size limit), validation, owner check, handler;
 * the result is wrapped in the family's success envelope and any error in its
 * error envelope (api/errors.ts).
 */
import express, { Express, Request, Response } from 'express';
import type { RateScheme } from '../domain/plans';
import type { RateDecision } from '../infra/ratelimit/postgres';
import { PostgresRateLimiter } from '../infra/ratelimit/postgres';
import type { Caller } from './identity/lookup';
import type { AppDeps } from './deps';
import type { JsonSchema } from './envelopes/common';
import { ENVELOPES } from './envelopes';
import { Family, familyOf, RATE_SCHEME } from './families';
import { compileRequest, RequestSchemas } from './validation';
import { authStage, ownerCheck } from './middleware/auth';
import { rateLimitStage } from './middleware/rate-limit';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteResponse {
  description: string;
  /** Schema of `data` (wrapped in the family's success envelope in the document). */
  data?: JsonSchema;
  /** The success body carries a `message` (subscription family). */
  message?: boolean;
  /** Non-JSON responses (the docs page): content type; `data` is then the raw body schema. */
  contentType?: string;
}

export type HandlerResult =
  | { status?: number; data?: unknown; message?: string; headers?: Record<string, string> }
  | { raw: { status?: number; contentType: string; body: string | Buffer } };

export interface HandlerCtx<B = unknown, Q = Record<string, unknown>, P = Record<string, string>> {
  body: B;
  query: Q;
  params: P;
  /** Set on every route with auth 'user'; on public routes only when a credential was sent. */
  caller?: Caller;
  requestId: string;
  deps: AppDeps;
  req: Request;
  res: Response;
}

export interface RouteDef<B = any, Q = any, P = any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  method: Method;
  /** OpenAPI-style path: `/api/settings/api-keys/{key_id}`. */
  path: string;
  /** Defaults to the family of the path prefix (api/families.ts). */
  family?: Family;
  /** `public`: no credential needed (one sent is still checked); `user`: a credential of the family is required. */
  auth: 'public' | 'user';
  summary: string;
  description?: string;
  operationId?: string;
  tags?: string[];
  /** Rate scheme instead of the family's (e.g. `integration`). */
  rateScheme?: RateScheme;
  /** Largest body in bytes (default: the family's limit from the settings). */
  bodyLimitBytes?: number;
  /**
   * `bare`: the success body is `data` itself, without the family's success envelope (Document 2 routes whose
   * responses list their own fields, e.g. `success, seo_score, ...`). Errors keep the family's envelope.
   */
  successBody?: 'envelope' | 'bare';
  /** Path parameter that must be the caller's user id (or the caller an administrator), else 404. */
  ownerParam?: string;
  request?: RequestSchemas;
  /** Success responses by status. Error responses are added from the family. */
  responses: Record<number, RouteResponse>;
  handler(ctx: HandlerCtx<B, Q, P>): Promise<HandlerResult> | HandlerResult;
}

export function defineRoute<B = unknown, Q = Record<string, unknown>, P = Record<string, string>>(r: RouteDef<B, Q, P>): RouteDef<B, Q, P> {
  return r;
}

/** Per-request state in res.locals. */
export interface RequestState {
  requestId: string;
  family: Family;
  route?: RouteDef & { operationId: string };
  caller?: Caller;
  userId?: string;
  rate?: RateDecision;
}

export const familyOfRoute = (r: RouteDef): Family => r.family ?? familyOf(r.path);
export const expressPath = (p: string) => p.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
export const operationIdOf = (r: RouteDef) => r.operationId ?? `${r.method}${r.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;

/** Adds every route to `app` with its stages. */
export function mountRoutes(app: Express, routes: RouteDef[], deps: AppDeps): void {
  const limiter = new PostgresRateLimiter(deps.db);
  const seen = new Set<string>();
  for (const route of routes) {
    const id = `${route.method} ${route.path}`;
    if (seen.has(id)) throw new Error(`route declared twice: ${id}`);
    seen.add(id);
    const family = familyOfRoute(route);
    const validate = compileRequest(route.request);
    const limit = route.bodyLimitBytes ?? (family === 'image_studio' ? deps.settings.imageBodyLimitBytes : deps.settings.bodyLimitBytes);
    const envelope = ENVELOPES[family];
    const named = { ...route, operationId: operationIdOf(route) };
    app[route.method](
      expressPath(route.path),
      (_req, res, next) => {
        const st = res.locals as RequestState;
        st.family = family;
        st.route = named;
        next();
      },
      authStage(deps, route),
      rateLimitStage(limiter, route.rateScheme ?? RATE_SCHEME[family], deps.settings.rate),
      express.json({ limit, type: ['application/json', 'application/*+json'] }),
      async (req, res) => {
        const st = res.locals as RequestState;
        const input = validate({ body: req.body, query: req.query, params: req.params });
        ownerCheck(route, st, input.params);
        const result = await route.handler({ ...input, caller: st.caller, requestId: st.requestId, deps, req, res } as HandlerCtx);
        if ('raw' in result) {
          res.status(result.raw.status ?? 200).type(result.raw.contentType).send(result.raw.body);
          return;
        }
        for (const [k, v] of Object.entries(result.headers ?? {})) res.setHeader(k, v);
        const status = result.status ?? 200;
        if (status === 204) {
          res.status(204).end();
          return;
        }
        const ctx = { requestId: st.requestId, timestamp: new Date().toISOString(), rate: st.rate, userId: st.caller?.userId ?? null, operation: named.operationId };
        res.status(status).json(route.successBody === 'bare' ? result.data : envelope.success({ data: result.data, message: result.message }, ctx));
      },
    );
  }
}
