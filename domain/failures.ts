/**
 * The failure codes of work that runs in workflows, in one table shared by
 * the activities (which tag every error they throw with its code), the
 * workflows' retry policies (which never retry a non-retryable code) and the
 * API (which answers each code with its error kind). A failed task exposes one
 * of these codes in `error.code`; docs/architecture.md lists them.
 */
export interface FailureInfo {
  /** Whether trying the same work again can succeed. */
  retryable: boolean;
  /** The API's error kind when a request waits on such a failure (domain/errors.ts kinds). */
  kind: 'usage_limit' | 'unavailable' | 'validation' | 'upstream' | 'conflict' | 'internal';
  description: string;
}

export const FAILURES = {
  USAGE_LIMIT_EXCEEDED: {
    retryable: false,
    kind: 'usage_limit',
    description: 'a plan limit (vendor calls, tokens, monthly cost) would be exceeded',
  },
  VENDOR_NOT_CONFIGURED: {
    retryable: false,
    kind: 'unavailable',
    description: 'the provider asked for is not configured',
  },
  VENDOR_REQUEST_REJECTED: {
    retryable: false,
    kind: 'upstream',
    description: 'the vendor refused the request (HTTP 400, 401, 403, 404, ...): a retry would be refused too',
  },
  VENDOR_BAD_RESPONSE: {
    retryable: false,
    kind: 'upstream',
    description: 'the vendor answered with something unusable (not JSON, wrong shape)',
  },
  VENDOR_RATE_LIMITED: { retryable: true, kind: 'upstream', description: 'the vendor rate-limited the request (429)' },
  VENDOR_UNAVAILABLE: {
    retryable: true,
    kind: 'upstream',
    description: 'the vendor failed (5xx) or could not be reached',
  },
  VENDOR_TIMEOUT: { retryable: true, kind: 'upstream', description: 'the vendor did not answer in time' },
  INVALID_REQUEST: { retryable: false, kind: 'validation', description: 'the request cannot be carried out as given' },
  INVALID_EVENT: { retryable: false, kind: 'internal', description: 'an event did not match its schema (a bug)' },
  DATA_REJECTED: {
    retryable: false,
    kind: 'validation',
    description: 'the data cannot be stored (a NUL character, an unpaired surrogate, a value PostgreSQL refuses)',
  },
  CONCURRENCY_CONFLICT: { retryable: true, kind: 'conflict', description: 'another writer changed the stream first' },
  CANCELLED: { retryable: false, kind: 'conflict', description: 'the task was cancelled on request' },
  INTERNAL_ERROR: {
    retryable: true,
    kind: 'internal',
    description: 'an unexpected failure (logged with its stack by the worker)',
  },
} as const satisfies Record<string, FailureInfo>;

export type FailureCode = keyof typeof FAILURES;

export const isFailureCode = (c: unknown): c is FailureCode =>
  typeof c === 'string' && Object.prototype.hasOwnProperty.call(FAILURES, c);

/** Codes a retry cannot fix: Temporal retry policies list them as nonRetryableErrorTypes. */
export const NON_RETRYABLE_CODES: FailureCode[] = (Object.keys(FAILURES) as FailureCode[]).filter(
  (c) => !FAILURES[c].retryable,
);
