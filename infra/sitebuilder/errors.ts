/**
 * Errors of the site builder, each with a code of the failure table
 * (domain/failures.ts), so activities fail with the right retry behaviour and
 * the task record says what happened in words a client can act on. Messages
 * never contain a token.
 */
import type { FailureCode } from '../../domain/failures';

export class SitebuilderError extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'SitebuilderError';
  }
}

/**
 * The builder (OAuth) refused the grant: the code is wrong, used or expired
 * (the client's request cannot succeed: INVALID_REQUEST, 400), or the refresh
 * token was revoked (the connection is over: VENDOR_REQUEST_REJECTED).
 */
export class InvalidGrantError extends SitebuilderError {
  constructor(message: string, grant: 'authorization_code' | 'refresh_token') {
    super(grant === 'authorization_code' ? 'INVALID_REQUEST' : 'VENDOR_REQUEST_REJECTED', message, {
      oauth_error: 'invalid_grant',
    });
    this.name = 'InvalidGrantError';
  }
}

export const notConfigured = (missing: string[]) =>
  new SitebuilderError(
    'VENDOR_NOT_CONFIGURED',
    `Site publishing is not configured: set ${missing.join(', ')} (see docs/sitebuilder.md)`,
    { variables: missing },
  );
