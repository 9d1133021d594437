/**
 * Retry policies of activities, by risk, all built on the failure table
 * (domain/failures.ts): a code a retry cannot fix is never retried, whatever
 * the policy (activities also mark such failures non-retryable themselves).
 */
import type { RetryPolicy } from '@temporalio/workflow';
import { NON_RETRYABLE_CODES } from '../domain/failures';

/**
 * Paid vendor calls: the call is metered under the activity's idempotency key,
 * so a retry is never charged twice; a few retries only.
 */
export const PAID_CALL_RETRY: RetryPolicy = {
  initialInterval: '2s',
  backoffCoefficient: 2,
  maximumAttempts: 3,
  nonRetryableErrorTypes: NON_RETRYABLE_CODES,
};

/** Reads and computations that are free and safe to repeat. */
export const READ_RETRY: RetryPolicy = {
  initialInterval: '500ms',
  backoffCoefficient: 2,
  maximumAttempts: 5,
  nonRetryableErrorTypes: NON_RETRYABLE_CODES,
};

/** Idempotent appends (appendOnce): retried patiently through a database outage. */
export const RECORD_RETRY: RetryPolicy = {
  initialInterval: '500ms',
  backoffCoefficient: 2,
  maximumInterval: '30s',
  maximumAttempts: 50,
  nonRetryableErrorTypes: NON_RETRYABLE_CODES,
};
