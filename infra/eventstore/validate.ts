/** Validates event payloads against their registered JSON Schemas (compiled once). */
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { EVENT_DEFINITIONS, isEventType } from '../../domain/events';
import { EventValidationError } from './errors';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const compiled = new Map<string, ValidateFunction>();

export function validateEvent(type: string, data: unknown): number {
  if (!isEventType(type)) throw new EventValidationError(type, 'unknown event type');
  let v = compiled.get(type);
  if (!v) {
    v = ajv.compile(EVENT_DEFINITIONS[type].schema);
    compiled.set(type, v);
  }
  if (!v(data)) throw new EventValidationError(type, ajv.errorsText(v.errors, { dataVar: 'data' }));
  return EVENT_DEFINITIONS[type].version;
}
