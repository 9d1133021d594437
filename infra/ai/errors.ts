/**
 * The one error hierarchy of outside AI and search vendors.
 *
 * Every error carries a stable `code` (what routes map to an error body) and
 * `retryable` (what an activity tells Temporal: a retryable failure is tried
 * again by the activity retry policy, a non-retryable one fails the workflow
 * step at once). The HTTP client has already spent its own retries when one of
 * these reaches an activity, so `retryable` means "worth trying later".
 */

export type VendorErrorCode =
  | 'VENDOR_NOT_CONFIGURED'
  | 'VENDOR_RATE_LIMITED'
  | 'VENDOR_UNAVAILABLE'
  | 'VENDOR_TIMEOUT'
  | 'VENDOR_BAD_RESPONSE'
  | 'VENDOR_REQUEST_REJECTED';

export abstract class VendorError extends Error {
  abstract readonly code: VendorErrorCode;
  abstract readonly retryable: boolean;
  /** Provider token (`vendor_a`, `vendor_b`, `tavily`, ...). */
  readonly vendor: string;

  protected constructor(vendor: string, message: string) {
    super(message);
    this.vendor = vendor;
    this.name = new.target.name;
  }
}

/** The caller asked for a vendor whose base URL (or key) is not set. */
export class VendorNotConfiguredError extends VendorError {
  readonly code = 'VENDOR_NOT_CONFIGURED';
  readonly retryable = false;
  constructor(
    vendor: string,
    readonly variables: string[],
  ) {
    super(vendor, `${vendor} is not configured: set ${variables.join(', ')} (see docs/providers.md)`);
  }
}

/** 429 after all retries, or a Retry-After longer than the client is willing to wait in-process. */
export class VendorRateLimitedError extends VendorError {
  readonly code = 'VENDOR_RATE_LIMITED';
  readonly retryable = true;
  constructor(
    vendor: string,
    readonly retryAfterMs?: number,
    readonly attempts = 1,
  ) {
    super(
      vendor,
      `${vendor} rate-limited the request (429) after ${attempts} attempt(s)${retryAfterMs !== undefined ? `; retry after ${retryAfterMs} ms` : ''}`,
    );
  }
}

/** 5xx or a network failure after all retries. */
export class VendorUnavailableError extends VendorError {
  readonly code = 'VENDOR_UNAVAILABLE';
  readonly retryable = true;
  constructor(
    vendor: string,
    readonly status: number | undefined,
    detail: string,
    readonly attempts = 1,
  ) {
    super(
      vendor,
      `${vendor} unavailable after ${attempts} attempt(s): ${status !== undefined ? `HTTP ${status} ` : ''}${detail}`,
    );
  }
}

/** The last attempt did not answer within the per-attempt time-out. */
export class VendorTimeoutError extends VendorError {
  readonly code = 'VENDOR_TIMEOUT';
  readonly retryable = true;
  constructor(
    vendor: string,
    readonly timeoutMs: number,
    readonly attempts = 1,
  ) {
    super(vendor, `${vendor} did not answer within ${timeoutMs} ms (${attempts} attempt(s))`);
  }
}

/** What the calls behind a refused answer used (each was metered as it answered). */
export interface Spent {
  tokens_in: number;
  tokens_out: number;
  cost: number;
}

/**
 * A 2xx whose body is not what the protocol promises (not JSON, no choices, no text), or an answer the task cannot
 * use; `spent`: what the calls that gave it used, when the gateway knows.
 */
export class VendorBadResponseError extends VendorError {
  readonly code = 'VENDOR_BAD_RESPONSE';
  readonly retryable = false;
  constructor(
    vendor: string,
    readonly detail: string,
    readonly spent?: Spent,
  ) {
    super(vendor, `${vendor} returned an unusable response: ${detail}`);
  }
}

/**
 * A 4xx other than 429 (bad key, unknown model, invalid request): retrying
 * the same request cannot help, so it is never retried.
 */
export class VendorRequestRejectedError extends VendorError {
  readonly code = 'VENDOR_REQUEST_REJECTED';
  readonly retryable = false;
  constructor(
    vendor: string,
    readonly status: number,
    detail: string,
  ) {
    super(
      vendor,
      `${vendor} rejected the request: HTTP ${status}${status === 401 || status === 403 ? ' (check the API key)' : ''}: ${detail}`,
    );
  }
}

export const isVendorError = (e: unknown): e is VendorError => e instanceof VendorError;

/** A prompt that leaves no room for an answer in the model's context: refused before the vendor is called. */
export class VendorContextExceededError extends VendorError {
  readonly code = 'VENDOR_REQUEST_REJECTED';
  readonly retryable = false;
  constructor(vendor: string, detail: string) {
    super(vendor, detail);
  }
}
