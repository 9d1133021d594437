/**
 * The API's error stage: turns anything thrown on the way (typed AppErrors,
 * the event store's ConcurrencyError, body-parser errors, bugs) into the
 * family's envelope. Unexpected errors are logged with their stack and
 * answered with a generic 500 that carries only the request id.
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
import {
  AppError,
  ConflictError,
  InternalError,
  isAppError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  ValidationError,
} from '../../domain/errors';
import { ConcurrencyError } from '../../infra/eventstore';
import { AnalysisInputError } from '../../domain/analysis/errors';
import { ENVELOPES } from './envelopes';
import { familyOf } from './families';
import { applyRateHeaders } from './rate-limit';
import { sendJson } from './respond';
import type { RequestState } from './types';

interface BodyParserError {
  type?: string;
  limit?: number;
  status?: number;
}

/** Maps a thrown value to the hierarchy; returns undefined for unexpected errors. */
export function toAppError(e: unknown): AppError | undefined {
  if (isAppError(e)) return e;
  // The analysis domain names the offending request field (`sections[0].id`); report it like a validation issue.
  if (e instanceof AnalysisInputError)
    return new ValidationError([
      { location: 'body', path: e.field.replace(/\[(\d+)\]/g, '.$1'), kind: 'constraint', message: e.message },
    ]);
  if (e instanceof ConcurrencyError)
    return new ConflictError('The resource was changed by another request; retry', { stream_id: e.streamId });
  const bp = e as BodyParserError;
  if (bp && typeof bp === 'object' && typeof bp.type === 'string') {
    if (bp.type === 'entity.too.large') return new PayloadTooLargeError(bp.limit ?? 0);
    if (bp.type === 'entity.parse.failed')
      return new ValidationError([
        { location: 'body', path: '', kind: 'type', message: 'body is not valid JSON', expected_type: 'object' },
      ]);
    if (bp.type === 'encoding.unsupported' || bp.type === 'charset.unsupported')
      return new ValidationError([
        { location: 'body', path: '', kind: 'constraint', message: 'unsupported body encoding' },
      ]);
  }
  return undefined;
}

export function state(res: Response): RequestState {
  return res.locals as RequestState;
}

/** Writes `err` in the family's envelope (headers included). */
export function sendError(req: Request, res: Response, err: unknown): void {
  const st = state(res);
  let appErr = toAppError(err);
  if (!appErr) {
    req.log?.error({ err, request_id: st.requestId }, 'unexpected error');
    appErr = new InternalError(st.requestId);
  }
  // A plan limit is refused in the subscription body (UsageLimitExceededException), except in the developer family,
  // whose envelope (with meta.rate_limit) carries it as error.code (Document 1 "Errors"; docs/api.md).
  const own = st.family ?? familyOf(req.path);
  const family = appErr.kind === 'usage_limit' && own !== 'developer' ? 'subscription' : own;
  const out = ENVELOPES[family].error(appErr, {
    requestId: st.requestId,
    timestamp: new Date().toISOString(),
    rate: st.rate,
    userId: st.caller?.userId ?? null,
    operation: st.route?.operationId,
  });
  if (st.rate) applyRateHeaders(res, family, st.rate);
  // Rate limits and the daily quota say when to come back.
  const retryAfter = (appErr as AppError & { retryAfter?: unknown }).retryAfter;
  if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
  if (appErr.kind === 'authentication') res.setHeader('WWW-Authenticate', 'Bearer');
  if (appErr instanceof MethodNotAllowedError) res.setHeader('Allow', appErr.allow.join(', '));
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, out.status, out.body);
}

export const errorStage: ErrorRequestHandler = (err, req, res, _next) => sendError(req, res, err);
