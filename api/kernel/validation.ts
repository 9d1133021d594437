/**
 * Request validation with ajv, compiled once per route from the schemas the
 * route declares (the same schemas the OpenAPI document shows). Bodies are
 * checked as sent (a string where an integer is expected is refused); query
 * and path values arrive as text and are coerced to the declared types.
 * Defaults are applied; fields the schema does not name are ignored (kept,
 * never used) unless the schema closes the object (additionalProperties:
 * false), which refuses each unknown field by its path; every wrong type,
 * missing required field or broken bound is reported with its field path.
 */
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats';
import { FieldIssue, ValidationError } from '../../domain/errors';
import { findAllUnstorableText } from '../../domain/storable-text';
import type { JsonSchema } from './envelopes/common';

const opts = { allErrors: true, useDefaults: true, strict: false, verbose: true } as const;
const bodyAjv = new Ajv({ ...opts, coerceTypes: false });
const textAjv = new Ajv({ ...opts, coerceTypes: 'array' });
addFormats(bodyAjv);
addFormats(textAjv);

/**
 * `date-time` and `date` name an instant every part of the platform can hold: RFC 3339 (ajv-formats' full check)
 * and, on top, a time JavaScript parses (no leap second `:60`) whose UTC year is 0001–9999 (PostgreSQL refuses
 * year 0 and negative years; an offset such as `-21:36` is fine once read as UTC). Anything else is a
 * VALIDATION_ERROR at the edge instead of a database error later.
 */
const YEAR_MIN = new Date('0001-01-01T00:00:00Z').getTime();
const YEAR_MAX = new Date('9999-12-31T23:59:59.999Z').getTime();
const rfc = (name: 'date-time' | 'date') => {
  const f = fullFormats[name] as { validate: (s: string) => boolean };
  return (s: string) => {
    if (!f.validate(s)) return false;
    const t = Date.parse(name === 'date' ? `${s}T00:00:00Z` : s.toUpperCase());
    return Number.isFinite(t) && t >= YEAR_MIN && t <= YEAR_MAX;
  };
};
for (const ajv of [bodyAjv, textAjv]) {
  ajv.addFormat('date-time', { type: 'string', validate: rfc('date-time') });
  ajv.addFormat('date', { type: 'string', validate: rfc('date') });
}

export type Location = FieldIssue['location'];

const dotted = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');

function issueOf(e: ErrorObject, location: Location): FieldIssue {
  const base = dotted(e.instancePath);
  if (e.keyword === 'required') {
    const path = [base, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
    return { location, path, kind: 'missing', message: `${path} is required` };
  }
  if (e.keyword === 'additionalProperties') {
    // A closed object (additionalProperties: false) names the field it does not know, not its parent.
    const field = (e.params as { additionalProperty: string }).additionalProperty;
    const path = [base, field].filter(Boolean).join('.');
    return {
      location,
      path,
      kind: 'constraint',
      message: `${path} is not a field of ${base || `this ${location}`}: unknown fields are refused, not ignored`,
    };
  }
  const path = base;
  const name = path || location;
  if (e.keyword === 'type') {
    const expected = String((e.params as { type: string | string[] }).type);
    return {
      location,
      path,
      kind: 'type',
      message: `${name} must be ${expected}`,
      expected_type: expected,
      provided_value: e.data,
    };
  }
  return {
    location,
    path,
    kind: 'constraint',
    message: `${name} ${e.message ?? 'is invalid'}`,
    provided_value: e.data,
  };
}

/** Keeps the most useful issue per field: a type error or a missing field beats the constraint noise of anyOf/oneOf. */
function issues(errors: ErrorObject[], location: Location): FieldIssue[] {
  const out = new Map<string, FieldIssue>();
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const i = issueOf(e, location);
    const prev = out.get(i.path);
    if (!prev || (prev.kind === 'constraint' && i.kind !== 'constraint')) out.set(i.path, i);
  }
  return [...out.values()];
}

export interface RequestSchemas {
  body?: JsonSchema;
  query?: JsonSchema;
  params?: JsonSchema;
}

export interface ValidatedInput {
  body: unknown;
  query: Record<string, unknown>;
  params: Record<string, unknown>;
}

export type RequestValidator = (raw: { body: unknown; query: unknown; params: unknown }) => ValidatedInput;

/** Compiles a route's schemas; the returned function returns coerced, defaulted copies or throws ValidationError. */
export function compileRequest(schemas: RequestSchemas = {}): RequestValidator {
  const body = schemas.body ? bodyAjv.compile(schemas.body) : undefined;
  const query = schemas.query ? textAjv.compile(schemas.query) : undefined;
  const params = schemas.params ? textAjv.compile(schemas.params) : undefined;
  return (raw) => {
    const found: FieldIssue[] = [];
    const run = (v: ValidateFunction | undefined, data: unknown, location: Location) => {
      if (v && !v(data)) found.push(...issues(v.errors ?? [], location));
      return data;
    };
    // A missing body is an empty object, so the client learns which fields are required.
    const b = run(body, raw.body === undefined ? (schemas.body?.type === 'object' ? {} : undefined) : raw.body, 'body');
    const q = run(query, { ...((raw.query as object) ?? {}) }, 'query') as Record<string, unknown>;
    const p = run(params, { ...((raw.params as object) ?? {}) }, 'path') as Record<string, unknown>;
    // Text the platform cannot store (NUL, unpaired surrogates) is refused here, whatever the schema says.
    for (const [value, location] of [
      [raw.body, 'body'],
      [raw.query, 'query'],
      [raw.params, 'path'],
    ] as const) {
      for (const bad of findAllUnstorableText(value)) {
        found.push({
          location,
          path: bad.path,
          kind: 'constraint',
          message: `${bad.path || location} must not contain a ${bad.problem}`,
        });
      }
    }
    if (found.length) throw new ValidationError(found);
    return { body: b, query: q, params: p };
  };
}
