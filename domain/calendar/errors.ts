/** Validation errors of the calendar area, in the shape the calendar envelope shows (`details.field`, `provided_value`). */
import { ValidationError } from '../errors';

export const invalid = (field: string, message: string, provided?: unknown, details: Record<string, unknown> = {}) =>
  new ValidationError(
    [
      {
        location: 'body',
        path: field,
        kind: 'constraint',
        message,
        ...(provided !== undefined ? { provided_value: provided } : {}),
      },
    ],
    message,
    details,
  );

/** Scheduling before the current time: 400 with details {field, provided_value, current_time}. */
export const pastSchedule = (field: string, provided: string, now: Date) =>
  invalid(field, `${field} must be in the future (current time ${now.toISOString()})`, provided, {
    current_time: now.toISOString(),
  });
