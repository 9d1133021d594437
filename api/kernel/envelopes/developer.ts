/**
 * Developer family (`/v1`, except `/v1/calendar`): the general shape with
 * `meta {request_id, timestamp, rate_limit}` instead of the top-level
 * timestamp. `rate_limit` is present once the request passed the rate-limit
 * stage (not on 401s and on public routes called without a key).
 * A plan limit keeps this envelope (the spec wants `meta` on every developer
 * answer): 429 with `error.code` `UsageLimitExceededException`, the name
 * Document 1 gives it, and `details` provider, limit_type, current_usage,
 * limit_value.
 */
import { Envelope, EnvelopeCtx, GENERAL_CODE, rateLimitMeta, rateLimitSchema } from './common';
import { iso } from '../schema';
import { generalEnvelope, generalErrorObject } from './general';

/** The code of a plan limit in this family (the other kinds use the general codes). */
export const DEVELOPER_USAGE_LIMIT_CODE = 'UsageLimitExceededException';

const developerErrorObject = {
  ...generalErrorObject,
  properties: {
    ...(generalErrorObject.properties as object),
    code: { type: 'string', enum: [...new Set([...Object.values(GENERAL_CODE), DEVELOPER_USAGE_LIMIT_CODE])] },
  },
};

/** `meta` of a developer answer: this response's request id, time and rate-limit state (also of a replay). */
export function developerMeta(ctx: EnvelopeCtx) {
  const rate = rateLimitMeta(ctx.rate);
  return { request_id: ctx.requestId, timestamp: ctx.timestamp, ...(rate ? { rate_limit: rate } : {}) };
}

const metaSchema = {
  type: 'object',
  properties: { request_id: { type: 'string' }, timestamp: iso, rate_limit: rateLimitSchema },
  required: ['request_id', 'timestamp'],
  // The document's name for it (api/kernel/schema.ts `named`; envelopes stay free of the kernel's helpers).
  'x-component': 'ResponseMeta',
};

export const developerEnvelope: Envelope = {
  error(e, ctx) {
    const { status, body } = generalEnvelope.error(e, ctx);
    const { error } = body as { error: { code: string } };
    const code = e.kind === 'usage_limit' ? DEVELOPER_USAGE_LIMIT_CODE : error.code;
    return { status, body: { success: false, error: { ...error, code }, meta: developerMeta(ctx) } };
  },
  success(r, ctx) {
    return {
      success: true,
      data: r.data ?? null,
      ...(r.message ? { message: r.message } : {}),
      meta: developerMeta(ctx),
    };
  },
  errorSchema: {
    type: 'object',
    properties: { success: { const: false }, error: developerErrorObject, meta: metaSchema },
    required: ['success', 'error', 'meta'],
  },
  successSchema(data, hasMessage) {
    return {
      type: 'object',
      properties: {
        success: { const: true },
        data: data ?? {},
        ...(hasMessage ? { message: { type: 'string' } } : {}),
        meta: metaSchema,
      },
      required: ['success', 'data', 'meta'],
    };
  },
};
