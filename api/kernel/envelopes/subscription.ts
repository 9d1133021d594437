/**
 * Subscription and usage family (`/api/subscription`):
 * `{success, data, message?}` and
 * `{success:false, error:<type>, message, details, user_id, timestamp}`.
 * A plan limit exceeded is 429 `UsageLimitExceededException` with details
 * provider, limit_type, current_usage, limit_value (Document 1 "Errors").
 * user_id is the authenticated caller, null when there is none (401).
 */
import { detailsOf, Envelope, statusOf } from './common';
import { iso } from '../schema';

export const SUBSCRIPTION_TYPE: Record<string, string> = {
  validation: 'ValidationError',
  authentication: 'AuthenticationError',
  permission: 'PermissionError',
  policy: 'PermissionError',
  not_found: 'NotFoundError',
  method_not_allowed: 'MethodNotAllowedError',
  conflict: 'ConflictError',
  payload_too_large: 'PayloadTooLargeError',
  rate_limit: 'RateLimitExceeded',
  usage_limit: 'UsageLimitExceededException',
  quota: 'QuotaExceededError',
  calendar_full: 'QuotaExceededError',
  payment_required: 'PaymentRequiredError',
  upstream: 'UpstreamError',
  unavailable: 'ServiceUnavailableError',
  internal: 'InternalServerError',
};

export const subscriptionEnvelope: Envelope = {
  error(e, ctx) {
    return {
      status: statusOf(e),
      body: {
        success: false,
        error: SUBSCRIPTION_TYPE[e.kind] ?? 'InternalServerError',
        message: e.message,
        details: detailsOf(e),
        user_id: ctx.userId ?? null,
        timestamp: ctx.timestamp,
      },
    };
  },
  contextFree: true,
  success(r) {
    return {
      success: true,
      ...(r.data !== undefined ? { data: r.data } : {}),
      ...(r.message ? { message: r.message } : {}),
    };
  },
  errorSchema: {
    type: 'object',
    properties: {
      success: { const: false },
      error: { type: 'string', enum: [...new Set(Object.values(SUBSCRIPTION_TYPE))] },
      message: { type: 'string' },
      details: {
        type: ['object', 'string'],
        additionalProperties: {},
        description: 'What the error is about (the limit reached, the field issues), or a message',
      },
      user_id: { type: ['string', 'null'] },
      timestamp: iso,
    },
    required: ['success', 'error', 'message', 'details', 'user_id', 'timestamp'],
  },
  successSchema(data, hasMessage) {
    return {
      type: 'object',
      properties: {
        success: { const: true },
        ...(data ? { data } : {}),
        ...(hasMessage ? { message: { type: 'string' } } : {}),
      },
      required: ['success', ...(data ? ['data'] : []), ...(hasMessage ? ['message'] : [])],
    };
  },
};
