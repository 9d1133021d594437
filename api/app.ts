/**
 * The Express application. Every request passes the same stages in order
 * (Document 1, "What the service does", point 4): request id and logging,
 * authentication, rate limiting, validation, routing. Dependencies come in
 * through AppDeps so tests can build the app against their own stack.
 */
import express, { Express } from 'express';
import { randomUUID } from 'node:crypto';
import pinoHttp from 'pino-http';
import { Logger } from 'pino';
import { healthRoutes } from './routes/health';
import type { checkAll } from '../infra/health/checks';

export interface AppDeps {
  logger: Logger;
  health: () => ReturnType<typeof checkAll>;
  temporalUiUrl: string;
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);

  // Request id: honour a well-formed incoming one, otherwise make one; echo it on every response.
  app.use((req, res, next) => {
    const incoming = req.header('x-request-id');
    const id = incoming && /^[A-Za-z0-9._-]{8,128}$/.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  });
  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (_req, res) => res.getHeader('X-Request-Id') as string,
      customProps: (_req, res) => ({ user_id: (res as express.Response).locals?.userId }),
    }),
  );

  app.use(healthRoutes(deps));
  return app;
}
