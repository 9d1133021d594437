/** Typed errors of the event store; the API maps ConcurrencyError to 409. */
export class ConcurrencyError extends Error {
  readonly code = 'CONCURRENCY_CONFLICT';
  constructor(readonly streamId: string, readonly expected: number | string, readonly actual: number | null) {
    super(`stream ${streamId}: expected version ${expected}, actual ${actual ?? 'no stream'}`);
    this.name = 'ConcurrencyError';
  }
}

export class EventValidationError extends Error {
  readonly code = 'INVALID_EVENT';
  constructor(readonly eventType: string, readonly problems: string) {
    super(`event ${eventType} is invalid: ${problems}`);
    this.name = 'EventValidationError';
  }
}
