/**
 * What the six envelopes share: the context they are built with, the default
 * HTTP status of each error kind, and the general family's codes (reused by
 * the developer family). docs/api.md lists the resulting tables.
 */
import { type AppError, type FieldIssue, RateLimitError, ValidationError } from '../../../domain/errors';
import type { RateDecision } from '../../../infra/ratelimit/postgres';
import type { JsonSchema } from '../../../domain/schema';

export type { JsonSchema };

export interface EnvelopeCtx {
  requestId: string;
  /** ISO 8601 UTC time of the response. */
  timestamp: string;
  /** Rate-limit state, once the request passed the rate-limit stage. */
  rate?: RateDecision;
  /** The authenticated caller, when there is one. */
  userId?: string | null;
  /** Short name of the route's operation (image studio error texts name it). */
  operation?: string;
}

export interface ErrorOut {
  status: number;
  body: unknown;
}

export interface SuccessIn {
  data?: unknown;
  message?: string;
}

export interface Envelope {
  error(e: AppError, ctx: EnvelopeCtx): ErrorOut;
  /** Body of a successful response (undefined for 204). */
  success(r: SuccessIn, ctx: EnvelopeCtx): unknown;
  /** The success body depends on `r` alone, not on the request's context (routes with RouteDef.constant). */
  contextFree?: boolean;
  /** JSON Schema of the error body (OpenAPI). */
  errorSchema: JsonSchema;
  /** JSON Schema of a success body carrying `data` of the given schema. */
  successSchema(data: JsonSchema | undefined, hasMessage: boolean): JsonSchema;
}

/** HTTP status per error kind, before family-specific exceptions. */
export const STATUS: Record<string, number> = {
  validation: 400,
  authentication: 401,
  permission: 403,
  policy: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  rate_limit: 429,
  usage_limit: 429,
  quota: 429,
  calendar_full: 402,
  payment_required: 402,
  upstream: 502,
  unavailable: 503,
  range_not_satisfiable: 416,
  internal: 500,
};

export const statusOf = (e: AppError): number => STATUS[e.kind] ?? 500;

/** General-family code per error kind (the six codes of Document 1 plus documented extensions). */
export const GENERAL_CODE: Record<string, string> = {
  validation: 'INVALID_REQUEST',
  authentication: 'INVALID_API_KEY',
  permission: 'PERMISSION_DENIED',
  policy: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  method_not_allowed: 'METHOD_NOT_ALLOWED',
  conflict: 'CONFLICT',
  payload_too_large: 'CONTENT_TOO_LONG',
  rate_limit: 'RATE_LIMIT_EXCEEDED',
  usage_limit: 'QUOTA_EXCEEDED',
  quota: 'QUOTA_EXCEEDED',
  calendar_full: 'CALENDAR_FULL',
  payment_required: 'PAYMENT_REQUIRED',
  upstream: 'UPSTREAM_ERROR',
  unavailable: 'SERVICE_UNAVAILABLE',
  range_not_satisfiable: 'RANGE_NOT_SATISFIABLE',
  internal: 'INTERNAL_ERROR',
};

/** `details` of a validation error in the general, developer and subscription families. */
export function validationDetails(issues: FieldIssue[]): Record<string, unknown> {
  const first = issues[0];
  return {
    parameter: first?.path,
    location: first?.location,
    ...(first?.expected_type ? { expected_type: first.expected_type } : {}),
    issues: issues.map((i) => ({
      parameter: i.path,
      location: i.location,
      kind: i.kind,
      message: i.message,
      ...(i.expected_type ? { expected_type: i.expected_type } : {}),
    })),
  };
}

/** `details` for any error: validation issues, or the error's own details. */
export function detailsOf(e: AppError): Record<string, unknown> {
  if (e instanceof ValidationError) return validationDetails(e.issues);
  if (e instanceof RateLimitError) return { ...e.details, retry_after: e.retryAfter };
  return e.details;
}

export const rateLimitMeta = (r?: RateDecision) =>
  r ? { limit: r.binding.limit, remaining: r.binding.remaining, reset: r.binding.reset } : undefined;

export const rateLimitSchema: JsonSchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer' },
    remaining: { type: 'integer' },
    reset: { type: 'integer', description: 'Unix epoch seconds' },
  },
  required: ['limit', 'remaining', 'reset'],
  // Named in the OpenAPI document (api/kernel/schema.ts `named`).
  'x-component': 'RateLimit',
};
