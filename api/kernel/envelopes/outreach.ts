/**
 * Backlink outreach family (`/api/v1/backlink-outreach`): bare success bodies
 * and `{detail: ...}` with the texts of Document 3: 401 "Not authenticated",
 * 403 `{detail: "Policy validation failed", reason: "<text>"}` (the reason is a
 * field of its own, so clients read it without parsing the detail), 404
 * "Resource not found", 422 `{detail: [validation errors]}` (each with its
 * location and message), 500 "An internal error occurred".
 * Validation items follow the common `{loc, msg, type}` shape.
 */
import { type FieldIssue, PolicyError, ValidationError } from '../../../domain/errors';
import { Envelope, statusOf } from './common';

const TEXT: Record<string, string> = {
  authentication: 'Not authenticated',
  not_found: 'Resource not found',
  internal: 'An internal error occurred',
};

const TYPE: Record<FieldIssue['kind'], string> = { missing: 'missing', type: 'type_error', constraint: 'value_error' };

export function outreachValidationItems(issues: FieldIssue[]) {
  return issues.map((i) => ({
    loc: [i.location, ...(i.path ? i.path.split('.') : [])],
    msg: i.message,
    type: TYPE[i.kind],
  }));
}

export const outreachEnvelope: Envelope = {
  error(e) {
    if (e instanceof ValidationError) return { status: 422, body: { detail: outreachValidationItems(e.issues) } };
    if (e instanceof PolicyError)
      return { status: 403, body: { detail: 'Policy validation failed', reason: e.reason } };
    return { status: statusOf(e), body: { detail: TEXT[e.kind] ?? e.message } };
  },
  contextFree: true,
  success(r) {
    return r.data;
  },
  errorSchema: {
    type: 'object',
    properties: {
      detail: {
        oneOf: [
          { type: 'string' },
          {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                loc: { type: 'array', items: { type: 'string' } },
                msg: { type: 'string' },
                type: { type: 'string' },
              },
              required: ['loc', 'msg', 'type'],
            },
          },
        ],
      },
      reason: { type: 'string', description: '403 only: why the outreach policy refused the action' },
    },
    required: ['detail'],
  },
  successSchema(data) {
    return data ?? {};
  },
};
