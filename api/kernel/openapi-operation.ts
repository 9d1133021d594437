/**
 * The parts of one operation of the OpenAPI document (api/kernel/openapi.ts): its parameters, the family's error
 * responses it can answer, and the response headers the platform sends (`components.headers`).
 */
import { Family } from './families';
import type { JsonSchema } from './envelopes/common';
import { familyOfRoute, RouteDef, RouteResponse } from './registry';
import { IDEMPOTENCY_HEADER, isIdempotentRoute } from './idempotency';
import type { Schema } from './openapi-passes';

const errorRef = (f: Family) => ({ $ref: `#/components/schemas/${f}_error` });

export function parameters(route: RouteDef) {
  const out: unknown[] = [];
  for (const [where, schema] of [
    ['path', route.request?.params],
    ['query', route.request?.query],
  ] as const) {
    const s = schema as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
    for (const [name, prop] of Object.entries(s?.properties ?? {})) {
      out.push({
        name,
        in: where,
        required: where === 'path' || (s?.required ?? []).includes(name),
        schema: prop,
        ...(prop.description ? { description: prop.description } : {}),
      });
    }
  }
  if (route.etag)
    out.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      schema: { type: 'string', maxLength: 1024 },
      description: 'The ETag of the last answer seen: unchanged data is answered 304 without a body',
    });
  if (isIdempotentRoute(route, familyOfRoute(route)))
    out.push({
      name: IDEMPOTENCY_HEADER,
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      description:
        'Same key and same body within 24 h: the first answer again (Idempotent-Replayed: true); same key, different body: 409',
    });
  return out;
}

export function errorResponses(route: RouteDef, family: Family) {
  const e = (description: string) => ({ description, content: { 'application/json': { schema: errorRef(family) } } });
  const r: Record<string, unknown> = {};
  if (route.request?.body || route.request?.query || route.request?.params)
    r[family === 'outreach' ? '422' : '400'] = e(
      'Invalid request: wrong type, missing required field or bound (names the field path)',
    );
  r['401'] = e(route.auth === 'public' ? 'A credential was sent and is invalid' : 'Missing or invalid credential');
  if (route.auth === 'admin') r['403'] = e('The caller is not an administrator');
  if (route.request?.params || route.ownerParam) r['404'] = e("Not found (or not the caller's)");
  if (['post', 'put', 'patch'].includes(route.method)) r['413'] = e('Body over the size limit');
  // Every write is decided on the state it read; a concurrent change, or a state the request conflicts with, is 409.
  if (route.method !== 'get')
    r['409'] = e('Conflict: changed concurrently (retry), or the request conflicts with the current state');
  // A plan limit is refused in the subscription body (UsageLimitExceededException), except in the developer family,
  // which keeps its own envelope (error.code UsageLimitExceededException; api/kernel/errors.ts).
  const ownBody = family === 'subscription' || family === 'developer';
  r['429'] = {
    description: 'Rate limit exceeded (see Retry-After), or a plan limit reached (UsageLimitExceededException)',
    content: {
      'application/json': {
        schema: ownBody ? errorRef(family) : { anyOf: [errorRef(family), errorRef('subscription')] },
      },
    },
  };
  r['500'] = e('Unexpected error: generic message and request id');
  const idem = 'Idempotency-Key already used with a different request, or its first request is still running';
  if (isIdempotentRoute(route, family)) r['409'] = e(idem);
  // What the route itself declares it can answer besides (409 conflicts, 503 without Temporal, ...).
  for (const [status, description] of Object.entries(route.errors ?? {})) {
    // A route's own words for 429 keep the body the kernel answers with (the family's or a plan limit's).
    if (status === '429') r['429'] = { ...(r['429'] as object), description };
    else
      r[status] = e(status === '409' && isIdempotentRoute(route, family) ? `${description}; or: ${idem}` : description);
  }
  return r;
}

/** The response headers the platform sends (api/app.ts, rate-limit.ts, errors.ts, tasks.ts, conditional.ts, idempotency.ts). */
const textHeader = (description: string) => ({ description, schema: { type: 'string' } });
const secondsHeader = (description: string) => ({ description, schema: { type: 'integer' } });
export const RESPONSE_HEADERS: Record<string, Schema> = {
  'X-Request-Id': textHeader(
    'The id of this request (a well-formed incoming X-Request-Id is kept); logs and support use it',
  ),
  'RateLimit-Policy': textHeader(
    'The rate windows of the caller\'s plan for this route\'s scheme: `"<window>";q=<limit>;w=<seconds>`, …',
  ),
  RateLimit: textHeader('The binding window now: `"<window>";r=<remaining>;t=<seconds until it resets>`'),
  'X-RateLimit-Limit': secondsHeader('Calendar family: calls allowed in the binding window'),
  'X-RateLimit-Remaining': secondsHeader('Calendar family: calls left in it'),
  'X-RateLimit-Reset': secondsHeader('Calendar family: when it resets (Unix seconds)'),
  'X-RateLimit-Retry-After': secondsHeader(
    'Calendar family: seconds until a call is allowed again (0 while calls remain)',
  ),
  'Retry-After': secondsHeader('Seconds to wait before trying again (or polling again)'),
  Location: textHeader("The task's status URL, to poll"),
  ETag: textHeader('Weak tag of the record; send it as If-None-Match for a 304 while unchanged'),
  'Idempotent-Replayed': {
    description: 'Present (true) when this is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { const: 'true' },
  },
  'WWW-Authenticate': textHeader('The credential scheme: Bearer'),
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Documents on one response the headers the platform sends with it. */
export function withResponseHeaders(route: RouteDef, family: Family, status: string, resp: Schema): void {
  const names = ['X-Request-Id'];
  // Rate limiting follows authentication: a 401 is answered before it, a public route's call by no plan.
  if (route.auth !== 'public' && status !== '401') {
    names.push('RateLimit-Policy', 'RateLimit');
    if (family === 'calendar')
      names.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-RateLimit-Retry-After');
  }
  if (status === '429') names.push('Retry-After');
  if (status === '401') names.push('WWW-Authenticate');
  const data: RouteResponse | undefined = route.responses[Number(status)];
  if (status === '202' && (data?.data?.properties as Record<string, unknown> | undefined)?.status_url)
    names.push('Location', 'Retry-After');
  if (route.etag && (status === '200' || status === '304')) names.push('ETag');
  if (route.etag && status === '200') names.push('Retry-After');
  if (status.startsWith('2') && isIdempotentRoute(route, family)) names.push('Idempotent-Replayed');
  resp.headers = {
    ...((resp.headers as Schema | undefined) ?? {}),
    ...Object.fromEntries(names.map((n) => [n, header(n)])),
  };
}
