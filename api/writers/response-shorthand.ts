/**
 * The shorthand the writers' response schemas are written in (responses.ts, content-schemas.ts,
 * batch-responses.ts): the JSON types, arrays, and `o()`, an object whose properties are all required unless
 * the required ones are listed.
 */
import type { JsonSchema } from '../kernel/envelopes/common';

export const s = { type: 'string' };
export const n = { type: 'number' };
export const i = { type: 'integer' };
export const b = { type: 'boolean' };
export const arr = (items: JsonSchema) => ({ type: 'array', items });
export const o = (properties: Record<string, unknown>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
});
