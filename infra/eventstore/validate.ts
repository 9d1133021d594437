/**
 * Validates event payloads before they are appended: the registered JSON
 * Schema of the type (compiled once), then text PostgreSQL cannot store
 * (domain/storable-text.ts) — a second line of defence behind the API's edge
 * check, so such data fails at once with a non-retryable error instead of
 * failing inside PostgreSQL on every retry.
 */
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { EVENT_DEFINITIONS, isEventType } from '../../domain/events';
import { findUnstorableText } from '../../domain/storable-text';
import { EventDataRejectedError, EventValidationError } from './errors';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const compiled = new Map<string, ValidateFunction>();

/** Returns the schema version of `type`; throws EventValidationError or EventDataRejectedError. */
export function validateEvent(type: string, data: unknown, metadata?: unknown): number {
  if (!isEventType(type)) throw new EventValidationError(type, 'unknown event type');
  let v = compiled.get(type);
  if (!v) {
    v = ajv.compile(EVENT_DEFINITIONS[type].schema);
    compiled.set(type, v);
  }
  if (!v(data)) throw new EventValidationError(type, ajv.errorsText(v.errors, { dataVar: 'data' }));
  const bad =
    findUnstorableText(data, 'data') ?? (metadata === undefined ? undefined : findUnstorableText(metadata, 'metadata'));
  if (bad) throw new EventDataRejectedError(`${type} holds a ${bad.problem}`, bad.path);
  return EVENT_DEFINITIONS[type].version;
}
