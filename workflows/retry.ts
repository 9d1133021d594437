/**
 * Retry policy of paid vendor calls, shared by every workflow that makes them:
 * the call is metered under the activity's idempotency key, so a retry is never
 * charged twice; a few retries only, and none for errors a retry cannot fix
 * (a plan limit, a vendor not configured, a request the vendor refused).
 */
import type { RetryPolicy } from '@temporalio/workflow';

export const PAID_CALL_RETRY: RetryPolicy = {
  initialInterval: '2s',
  backoffCoefficient: 2,
  maximumAttempts: 3,
  nonRetryableErrorTypes: ['UsageLimitExceeded', 'VendorNotConfiguredError', 'InvalidRequest'],
};
