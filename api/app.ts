/**
 * The Express application. Every request passes the same stages in order
 * (Document 1, "What the service does", point 4): request id and logging,
 * authentication, rate limiting, validation, routing — built per route by
 * the registry (api/registry.ts). Dependencies come in through AppDeps so
 * tests can build the app against their own schema and add routes.
 */
import express, { Express } from 'express';
import { createServer, Server } from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { MethodNotAllowedError, NotFoundError } from '../domain/errors';
import type { AppDeps } from './kernel/deps';
import { errorStage, sendError } from './kernel/errors';
import { familyOf, RATE_SCHEME } from './kernel/families';
import { authStage } from './kernel/auth';
import { anonymousRates, countRefusedCredentials, rateLimitStage } from './kernel/rate-limit';
import { PostgresRateLimiter } from '../infra/ratelimit/postgres';
import { mountRoutes, RequestState, RouteDef } from './kernel/registry';
import { PLATFORM_ROUTES } from './routes';
import { docsRoutes } from './docs/routes';
import { setSecurityHeaders } from './kernel/security';
import { requestLogStage } from './kernel/request-log';

export type { AppDeps } from './kernel/deps';

/** A route path (`/v1/content/{content_id}`) as a regular expression over request paths. */
const pathPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[A-Za-z0-9_]+\\?\}/g, '[^/]+')}/?$`);

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** What the stages of an unknown path see: a route that needs a credential of the path's family. */
const UNKNOWN_ROUTE: RouteDef = {
  method: 'get',
  path: '*',
  auth: 'user',
  summary: 'unknown route',
  responses: {},
  handler: () => ({}),
};

const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

export interface App extends Express {
  /** Every route mounted, platform and extra (tests enumerate them). */
  routes: RouteDef[];
}

export function createApp(appDeps: AppDeps): App {
  // One rate limiter per app (its leases of shared quota serve every route).
  const deps: AppDeps = { ...appDeps, rateLimiter: appDeps.rateLimiter ?? new PostgresRateLimiter(appDeps.db) };
  const routes: RouteDef[] = [];
  const app: App = Object.assign(express(), { routes });
  app.disable('x-powered-by');
  // Bodies carry a request id and a timestamp, so Express's own ETag (a hash of every body) could never match;
  // routes whose data can repeat set a validator themselves (RouteDef.etag).
  app.set('etag', false);
  app.set('trust proxy', false);

  // The first stage, one layer for what every request gets: the security headers, a request id (a well-formed
  // incoming one is honoured, otherwise one is made; echoed on every response), the path's family, the log line.
  const logRequest = requestLogStage(app, deps.logger);
  app.use((req, res, next) => {
    setSecurityHeaders(res);
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const st = res.locals as RequestState;
    st.requestId = id;
    st.family = familyOf(req.path);
    res.setHeader('X-Request-Id', id);
    logRequest(req, res, next);
  });

  routes.push(...PLATFORM_ROUTES, ...docsRoutes(() => routes), ...(deps.extraRoutes ?? []));
  mountRoutes(app, routes, deps);
  app.use('/docs/assets', express.static(SWAGGER_UI_DIR, { index: false, fallthrough: true }));

  // Unknown routes under the authenticated families (/api/..., /v1/...): authentication and rate limiting come before
  // routing (Document 1: authentication, rate limiting, validation, routing), so a call without a valid credential is
  // 401 and an authenticated one is counted (meta.rate_limit) before its 404. Other paths are plain 404s.
  const limiter = deps.rateLimiter!;
  const unknownRoute = countRefusedCredentials(authStage(deps, UNKNOWN_ROUTE), limiter, anonymousRates(deps));
  app.use(['/api', '/v1'], unknownRoute, (req, res, next) =>
    rateLimitStage(limiter, RATE_SCHEME[(res.locals as RequestState).family], deps.settings.rate)(req, res, next),
  );
  // A path that exists with other methods: 405 with Allow; anything else: 404, in the family of the path.
  const patterns = routes.map((r) => ({ method: r.method.toUpperCase(), re: pathPattern(r.path) }));
  app.use((req, res) => {
    const path = req.originalUrl.split('?')[0];
    const allow = [...new Set(patterns.filter((p) => p.re.test(path)).map((p) => p.method))];
    if (allow.includes('GET')) allow.push('HEAD');
    sendError(
      req,
      res,
      allow.length ? new MethodNotAllowedError(allow) : new NotFoundError(`No route ${req.method} ${path}`),
    );
  });
  app.use(errorStage);
  return app;
}

/**
 * How long an idle kept-alive connection stays open, ms. Well above what clients and proxies keep one idle (Node's
 * fetch 4 s, load balancers ~60 s), so a client reusing an idle connection never races the server closing it: with
 * Node's default 5 s, a client whose event loop stalled a second past its own 4 s sent on a socket the server had just
 * closed, and got ECONNRESET for a request that was never read. The server answers `Keep-Alive: timeout=65`.
 */
export const KEEP_ALIVE_MS = 65_000;

/** The HTTP server of the app, as every API process (and test app) runs it. */
export function createApiServer(app: App): Server {
  const server = createServer(app);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Above the keep-alive time-out, as Node requires for a kept-alive connection's next request headers.
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  return server;
}
