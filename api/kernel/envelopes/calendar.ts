/**
 * Calendar family (`/v1/calendar`): bare success bodies and
 * `{error:{code, message, details, request_id, timestamp}}` with the status
 * table of Document 3. Kinds the table does not name get the nearest code
 * (documented in docs/api.md): a body over the size limit is VALIDATION_ERROR
 * with 413. A plan limit (AI generation) never reaches this envelope: the error
 * stage answers it in the subscription body, 429 UsageLimitExceededException
 * (api/kernel/errors.ts) — Document 3 names no plan limit, and its
 * RATE_LIMIT_EXCEEDED is the request rate, which backing off would cure.
 */
import { ValidationError } from '../../../domain/errors';
import { detailsOf, Envelope, statusOf } from './common';
import { iso } from '../schema';

export const CALENDAR_CODE: Record<string, string> = {
  validation: 'VALIDATION_ERROR',
  payload_too_large: 'VALIDATION_ERROR',
  authentication: 'AUTHENTICATION_ERROR',
  permission: 'AUTHORIZATION_ERROR',
  policy: 'AUTHORIZATION_ERROR',
  not_found: 'NOT_FOUND_ERROR',
  method_not_allowed: 'METHOD_NOT_ALLOWED',
  conflict: 'CONFLICT_ERROR',
  rate_limit: 'RATE_LIMIT_EXCEEDED',
  quota: 'RATE_LIMIT_EXCEEDED',
  calendar_full: 'CALENDAR_FULL',
  payment_required: 'PAYMENT_REQUIRED',
  upstream: 'PLATFORM_ERROR',
  unavailable: 'SERVICE_UNAVAILABLE',
  internal: 'INTERNAL_ERROR',
};

export const calendarEnvelope: Envelope = {
  error(e, ctx) {
    let details = detailsOf(e);
    if (e instanceof ValidationError) {
      const issues = e.issues;
      const first = issues[0];
      details = {
        ...e.details,
        field: first?.path,
        location: first?.location,
        ...(first && 'provided_value' in first ? { provided_value: first.provided_value } : {}),
        ...(first?.expected_type ? { expected_type: first.expected_type } : {}),
        issues: issues.map((i) => ({ field: i.path, location: i.location, kind: i.kind, message: i.message })),
      };
    }
    return {
      status: statusOf(e),
      body: {
        error: {
          code: CALENDAR_CODE[e.kind] ?? 'INTERNAL_ERROR',
          message: e.message,
          details,
          request_id: ctx.requestId,
          timestamp: ctx.timestamp,
        },
      },
    };
  },
  contextFree: true,
  success(r) {
    return r.data;
  },
  errorSchema: {
    type: 'object',
    properties: {
      error: {
        type: 'object',
        properties: {
          code: { type: 'string', enum: [...new Set(Object.values(CALENDAR_CODE))] },
          message: { type: 'string' },
          details: { type: 'object', additionalProperties: {}, description: 'What the error is about, by name' },
          request_id: { type: 'string' },
          timestamp: iso,
        },
        required: ['code', 'message', 'details', 'request_id', 'timestamp'],
      },
    },
    required: ['error'],
  },
  successSchema(data) {
    return data ?? {};
  },
};
