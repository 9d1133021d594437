/**
 * Every error an activity throws leaves it as an ApplicationFailure whose type
 * is a code of the failure table (domain/failures.ts), non-retryable when the
 * table says a retry cannot help. The platform's typed errors already carry
 * their code (`code` of VendorError, UsageLimitExceeded, the event store's
 * errors); anything else is INTERNAL_ERROR and retryable.
 */
import { ApplicationFailure, CancelledFailure } from '@temporalio/activity';
import { FAILURES, FailureCode, isFailureCode } from '../domain/failures';

/** The ApplicationFailure for `e` (cancellations and existing ApplicationFailures pass unchanged). */
export function toActivityFailure(e: unknown): unknown {
  if (e instanceof ApplicationFailure || e instanceof CancelledFailure) return e;
  const err = e instanceof Error ? e : new Error(String(e));
  const raw = (err as { code?: unknown }).code;
  const code: FailureCode = isFailureCode(raw) ? raw : 'INTERNAL_ERROR';
  const details = (err as { details?: unknown }).details;
  return ApplicationFailure.create({
    type: code,
    message: err.message,
    nonRetryable: !FAILURES[code].retryable,
    cause: err,
    ...(details !== undefined ? { details: [details] } : {}),
  });
}

type Fn = (...args: never[]) => Promise<unknown>;

/** Wraps each activity so what it throws is tagged with its failure code. */
export function withFailureCodes<T extends Record<string, Fn>>(activities: T): T {
  const out: Record<string, Fn> = {};
  for (const [name, fn] of Object.entries(activities)) {
    out[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        throw toActivityFailure(e);
      }
    };
  }
  return out as T;
}
