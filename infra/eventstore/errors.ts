/**
 * Typed errors of the event store. Each carries a stable `code` (the failure
 * table in domain/failures.ts says whether a retry can help and how the API
 * answers it); nothing outside infra/eventstore/ looks at database error codes.
 */
export class ConcurrencyError extends Error {
  readonly code = 'CONCURRENCY_CONFLICT';
  constructor(
    readonly streamId: string,
    readonly expected: number | string,
    readonly actual: number | null,
  ) {
    super(`stream ${streamId}: expected version ${expected}, actual ${actual ?? 'no stream'}`);
    this.name = 'ConcurrencyError';
  }
}

/** The payload does not match its event's schema (a bug in the caller: never retried). */
export class EventValidationError extends Error {
  readonly code = 'INVALID_EVENT';
  constructor(
    readonly eventType: string,
    readonly problems: string,
  ) {
    super(`event ${eventType} is invalid: ${problems}`);
    this.name = 'EventValidationError';
  }
}

/**
 * The data can never be stored as it is (a NUL character or an unpaired
 * surrogate in a string, a value PostgreSQL refuses with an SQLSTATE of class
 * 22 "data exception"): retrying the same append cannot succeed.
 */
export class EventDataRejectedError extends Error {
  readonly code = 'DATA_REJECTED';
  constructor(
    readonly detail: string,
    readonly path?: string,
  ) {
    super(`event data cannot be stored: ${detail}${path ? ` (at ${path})` : ''}`);
    this.name = 'EventDataRejectedError';
  }
}
