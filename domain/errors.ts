/**
 * The platform's one error hierarchy. Code anywhere (domain, api, activities)
 * throws these; one mapper per route family (api/envelopes/) turns them into
 * that family's body and status. Anything that is not an AppError is an
 * unexpected failure: 500 with a generic message, logged with its stack.
 */

/** One problem found by request validation. `path` is dotted (`target_demographics.age_range`, `sections.0.id`). */
export interface FieldIssue {
  location: 'body' | 'query' | 'path' | 'header';
  path: string;
  /** `missing` (required field absent), `type` (wrong JSON type), `constraint` (bounds, enum, format, ...). */
  kind: 'missing' | 'type' | 'constraint';
  message: string;
  expected_type?: string;
  provided_value?: unknown;
}

export abstract class AppError extends Error {
  /** Stable machine-readable kind; envelopes switch on it. */
  abstract readonly kind: string;
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  readonly kind = 'validation';
  constructor(
    readonly issues: FieldIssue[],
    message = issues.map((i) => i.message).join('; ') || 'invalid request',
    /** Extra details a family may show beside the issues (the calendar's `current_time` of a past schedule). */
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
  }
  /** The first issue's field path, e.g. `body.topic` → `topic`. */
  get field(): string | undefined {
    return this.issues[0]?.path;
  }
}

export class AuthenticationError extends AppError {
  readonly kind = 'authentication';
}

export class PermissionError extends AppError {
  readonly kind = 'permission';
}

export class NotFoundError extends AppError {
  readonly kind = 'not_found';
  constructor(message = 'Resource not found', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

export class ConflictError extends AppError {
  readonly kind = 'conflict';
}

/** The path exists, but not with this method (405, with an Allow header naming the methods it has). */
export class MethodNotAllowedError extends AppError {
  readonly kind = 'method_not_allowed';
  constructor(readonly allow: string[]) {
    super(`Method not allowed; this path accepts ${allow.join(', ')}`, { allow });
  }
}

export class RateLimitError extends AppError {
  readonly kind = 'rate_limit';
  /** Seconds until the refusing window resets. */
  constructor(
    readonly retryAfter: number,
    message = 'Rate limit exceeded',
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
  }
}

/** A plan limit (vendor calls, tokens, monthly cost) would be exceeded by this call. */
export class UsageLimitExceededError extends AppError {
  readonly kind = 'usage_limit';
  constructor(
    readonly usage: { provider: string; limit_type: string; current_usage: number; limit_value: number },
    message = `Usage limit exceeded for ${usage.limit_type}`,
  ) {
    super(message, { ...usage });
  }
}

/** A daily or otherwise counted quota is used up (general QUOTA_EXCEEDED). */
export class QuotaExceededError extends AppError {
  readonly kind = 'quota';
}

/** The daily request window is used up (Document 1: QUOTA_EXCEEDED, "daily quota exceeded"); 429 with Retry-After. */
export class DailyQuotaExceededError extends QuotaExceededError {
  constructor(
    readonly retryAfter: number,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, { ...details, retry_after: retryAfter });
  }
}

/**
 * The request needs a payment first (402): raising a plan goes through the billing provider's checkout or an
 * administrator, never the user's own request (docs/security.md, API6). The message says how to upgrade.
 */
export class PaymentRequiredError extends AppError {
  readonly kind = 'payment_required';
}

/** A calendar holds as many events as it may (calendar CALENDAR_FULL, 402). */
export class CalendarFullError extends AppError {
  readonly kind = 'calendar_full';
}

export class PayloadTooLargeError extends AppError {
  readonly kind = 'payload_too_large';
  constructor(
    readonly limitBytes: number,
    message = `Request body exceeds the maximum of ${limitBytes} bytes`,
  ) {
    super(message, { max_bytes: limitBytes });
  }
}

/** An outreach policy check (caps, suppression, idempotency) refused the action; `reason` is shown to the client. */
export class PolicyError extends AppError {
  readonly kind = 'policy';
  constructor(
    readonly reason: string,
    details: Record<string, unknown> = {},
  ) {
    super(`Policy validation failed, reason: ${reason}`, details);
  }
}

/** An external platform or vendor answered with an error (calendar PLATFORM_ERROR, 502). */
export class UpstreamError extends AppError {
  readonly kind = 'upstream';
}

export class ServiceUnavailableError extends AppError {
  readonly kind = 'unavailable';
}

/** A byte range that starts past the end of a file (HTTP 416); details carry the file's size. */
export class RangeNotSatisfiableError extends AppError {
  readonly kind = 'range_not_satisfiable';
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** An unexpected failure, after it was logged: 500 with a generic message and the request id. */
export class InternalError extends AppError {
  readonly kind = 'internal';
  constructor(
    readonly requestId: string,
    message = 'An internal error occurred',
  ) {
    super(message, { request_id: requestId });
  }
}
