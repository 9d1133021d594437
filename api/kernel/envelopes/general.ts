/**
 * General family (`/api/...`, and the writers of Document 2 whose errors are
 * "not shown"): `{success, data, timestamp}` and
 * `{success:false, error:{code, message, details}, timestamp}`.
 */
import { detailsOf, Envelope, GENERAL_CODE, JsonSchema, statusOf } from './common';
import { iso } from '../schema';

export const generalErrorObject: JsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'string', enum: [...new Set(Object.values(GENERAL_CODE))] },
    message: { type: 'string' },
    details: {
      type: 'object',
      additionalProperties: {},
      description: 'What the error is about (e.g. the field issues, the limit), by name',
    },
  },
  required: ['code', 'message', 'details'],
};

export const generalEnvelope: Envelope = {
  error(e, ctx) {
    return {
      status: statusOf(e),
      body: {
        success: false,
        error: { code: GENERAL_CODE[e.kind] ?? 'INTERNAL_ERROR', message: e.message, details: detailsOf(e) },
        timestamp: ctx.timestamp,
      },
    };
  },
  success(r, ctx) {
    return {
      success: true,
      data: r.data ?? null,
      ...(r.message ? { message: r.message } : {}),
      timestamp: ctx.timestamp,
    };
  },
  errorSchema: {
    type: 'object',
    properties: { success: { const: false }, error: generalErrorObject, timestamp: iso },
    required: ['success', 'error', 'timestamp'],
  },
  successSchema(data, hasMessage) {
    return {
      type: 'object',
      properties: {
        success: { const: true },
        data: data ?? {},
        ...(hasMessage ? { message: { type: 'string' } } : {}),
        timestamp: iso,
      },
      required: ['success', 'data', 'timestamp'],
    };
  },
};
