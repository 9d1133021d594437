/**
 * The `Idempotency-Key` header of the developer family (docs/content.md
 * "Idempotency-Key"), honoured on every POST of `/v1` (the calendar family,
 * `/v1/calendar`, is another family). Runs after authentication, rate
 * limiting and validation (a request refused there holds no key), before the
 * handler:
 *
 * - a new key is claimed atomically in PostgreSQL and the answer, once sent,
 *   is stored with it (status, body and the headers a client needs:
 *   Location, Retry-After, Preference-Applied);
 * - the same key with the same request (method, route and JSON body, key
 *   order ignored) replays the stored answer with `Idempotent-Replayed: true`
 *   (its `meta` is this response's: request id, time and rate-limit state as
 *   counted for the replaying request; `data` is the stored one);
 * - the same key with a different request is 409 CONFLICT; a key whose first
 *   request is still running is 409 too (retry after it answered);
 * - an answer that must not be repeated — a 5xx, or a 429 the client should
 *   retry after — releases the key instead of storing it.
 * Keys are kept IDEMPOTENCY_KEY_TTL_SECONDS (default 24 h) after first use.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { ConflictError, ValidationError } from '../../domain/errors';
import { PostgresIdempotencyStore } from '../../infra/idempotency/postgres';
import { developerMeta } from './envelopes/developer';
import { beforeJsonAnswer, sendJson } from './respond';
import type { AppDeps, RequestState, RouteDef } from './types';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Keys are 1–255 visible ASCII characters (a UUID is the usual choice). */
const KEY = /^[\x21-\x7e]{1,255}$/;
const DEFAULT_TTL_SECONDS = 86_400;
/** A first request "in progress" longer than this (its process died) frees the key: longer than any wait bound. */
const ABANDON_AFTER_SECONDS = 600;
const KEPT_HEADERS = ['location', 'retry-after', 'preference-applied'];

/** Whether a route honours the header: every POST of the developer family. */
export const isIdempotentRoute = (route: RouteDef, family: string) => family === 'developer' && route.method === 'post';

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same request. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

/** The stored body with the `meta` of this response (the stored one names the first request's id and rate state). */
function replayBody(body: unknown, st: RequestState): unknown {
  if (!body || typeof body !== 'object' || !('meta' in body)) return body;
  return {
    ...body,
    meta: developerMeta({ requestId: st.requestId, timestamp: new Date().toISOString(), rate: st.rate }),
  };
}

export function createIdempotencyStage(deps: AppDeps) {
  const store = new PostgresIdempotencyStore(deps.db);
  const opts = {
    ttlSeconds: deps.settings.idempotencyTtlSeconds ?? DEFAULT_TTL_SECONDS,
    abandonAfterSeconds: ABANDON_AFTER_SECONDS,
  };
  /**
   * Claims the request's key, or answers it: returns true when the response was sent here (a replay); throws
   * ConflictError on a mismatch or a request in progress; returns false when the handler should run.
   */
  return async function idempotent(req: Request, res: Response, route: RouteDef, body: unknown): Promise<boolean> {
    const key = req.header(IDEMPOTENCY_HEADER);
    const st = res.locals as RequestState;
    if (key === undefined || !st.caller) return false;
    if (!KEY.test(key))
      throw new ValidationError([
        {
          location: 'header',
          path: IDEMPOTENCY_HEADER,
          kind: 'constraint',
          message: `${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters`,
        },
      ]);
    const userId = st.caller.userId;
    const target = `${route.method.toUpperCase()} ${route.path}`;
    const fingerprint = createHash('sha256')
      .update(`${target}\n${req.path}\n${canonicalJson(body)}`)
      .digest('hex');
    const outcome = await store.claim(userId, key, fingerprint, target, opts);
    if (outcome.kind === 'mismatch')
      throw new ConflictError(`${IDEMPOTENCY_HEADER} was already used with a different request`, {
        idempotency_key: key,
      });
    if (outcome.kind === 'in_progress')
      throw new ConflictError(
        `A request with this ${IDEMPOTENCY_HEADER} is still in progress; retry when it answered`,
        {
          idempotency_key: key,
        },
      );
    if (outcome.kind === 'answered') {
      for (const [h, v] of Object.entries(outcome.answer.headers)) res.setHeader(h, v);
      res.setHeader('Idempotent-Replayed', 'true');
      sendJson(res, outcome.answer.status, replayBody(outcome.answer.body, st));
      return true;
    }
    // Claimed: store the answer before it leaves, so a retry that follows it finds it.
    beforeJsonAnswer(res, async (status, payload) => {
      const keep = status < 500 && status !== 429;
      const headers = Object.fromEntries(
        KEPT_HEADERS.filter((h) => res.getHeader(h) !== undefined).map((h) => [h, String(res.getHeader(h))]),
      );
      await (keep ? store.answer(userId, key, { status, body: payload, headers }) : store.release(userId, key)).catch(
        (e) => req.log?.error({ err: e }, 'idempotency key not updated'),
      );
    });
    return false;
  };
}
