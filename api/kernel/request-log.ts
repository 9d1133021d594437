/**
 * The request log stage: one line per finished request (docs/api.md, "Logs").
 *
 * A line carries what an operator searches by and nothing a client sent that
 * could hold a secret: `req {id, method, url}`, `res {statusCode}`, `user_id`
 * (set by authentication) and `responseTime` (ms). Headers are not logged, so
 * no credential can reach the line whatever the redaction paths say; the URL
 * is logged through `redactUrl` (domain/redaction.ts), so a client that puts
 * its key in the query string (`?api_key=cp_live_...`; keys are read from the
 * Authorization header only) does not write it to the log either. The line's
 * shape is fixed, so it is written by a child logger without the redaction pass
 * (which cost about 25 µs a line, most of the line's price); the logger's
 * redaction still applies to everything else, `req.log` included.
 *
 * Cheaper than a general-purpose HTTP logger by design (a quarter of an API
 * process's busy time went to per-request child loggers and header
 * serialisation, docs/benchmarks.md): no logger is made per request unless a
 * handler asks for `req.log` (a lazy child carrying `req_id`).
 */
import type { Express, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { redactUrl } from '../../domain/redaction';
import type { RequestState } from './types';

declare module 'http' {
  interface IncomingMessage {
    /** The request's logger (a child of the app's logger with `req_id`), made on first use. */
    log: Logger;
  }
}

const CHILD = Symbol('request logger');

/** Gives every request of `app` a lazy `req.log`, and returns the stage that logs each finished request. */
export function requestLogStage(app: Express, logger: Logger) {
  // Per app (Express gives each app its own request prototype), so apps with different loggers do not mix.
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request & { [CHILD]?: Logger }): Logger {
      return (this[CHILD] ??= logger.child({ req_id: (this.res?.locals as RequestState | undefined)?.requestId }));
    },
  });
  const lines = logger.child({}, { redact: [] });
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const status = res.statusCode;
      if (!logger.isLevelEnabled(status >= 500 ? 'error' : 'info')) return;
      const line = {
        req: { id: (res.locals as RequestState).requestId, method: req.method, url: redactUrl(req.originalUrl) },
        res: { statusCode: status },
        user_id: (res.locals as RequestState).userId,
        responseTime: Number(process.hrtime.bigint() - start) / 1e6,
      };
      if (status >= 500) lines.error(line, 'request errored');
      else lines.info(line, 'request completed');
    });
    next();
  };
}
