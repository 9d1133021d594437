/**
 * Developer family (`/v1`, except `/v1/calendar`): the general shape with
 * `meta {request_id, timestamp, rate_limit}` instead of the top-level
 * timestamp. `rate_limit` is present once the request passed the rate-limit
 * stage (not on 401s and on public routes called without a key).
 */
import { Envelope, EnvelopeCtx, isoString, rateLimitMeta, rateLimitSchema } from './common';
import { generalEnvelope, generalErrorObject } from './general';

function meta(ctx: EnvelopeCtx) {
  const rate = rateLimitMeta(ctx.rate);
  return { request_id: ctx.requestId, timestamp: ctx.timestamp, ...(rate ? { rate_limit: rate } : {}) };
}

const metaSchema = {
  type: 'object',
  properties: { request_id: { type: 'string' }, timestamp: isoString, rate_limit: rateLimitSchema },
  required: ['request_id', 'timestamp'],
};

export const developerEnvelope: Envelope = {
  error(e, ctx) {
    const { status, body } = generalEnvelope.error(e, ctx);
    const { error } = body as { error: unknown };
    return { status, body: { success: false, error, meta: meta(ctx) } };
  },
  success(r, ctx) {
    return { success: true, data: r.data ?? null, ...(r.message ? { message: r.message } : {}), meta: meta(ctx) };
  },
  errorSchema: {
    type: 'object',
    properties: { success: { const: false }, error: generalErrorObject, meta: metaSchema },
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
