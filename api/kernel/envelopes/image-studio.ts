/**
 * Image studio family (`/api/image-studio`): bare success bodies and
 * `{detail: <string>}` (Document 2). Validation texts name the field path;
 * a 500 names the failed operation and the request id, never a stack.
 */
import { RateLimitError, ValidationError } from '../../../domain/errors';
import { Envelope, statusOf } from './common';

export const imageStudioEnvelope: Envelope = {
  error(e, ctx) {
    let detail = e.message;
    if (e instanceof ValidationError) {
      detail = `Invalid request: ${e.issues.map((i) => `${i.location}.${i.path}: ${i.message}`).join('; ')}`;
    } else if (e.kind === 'authentication') detail = 'Authentication required';
    else if (e.kind === 'not_found') detail = 'Resource not found';
    else if (e instanceof RateLimitError) detail = `Rate limit exceeded; retry after ${e.retryAfter} s`;
    else if (e.kind === 'internal')
      detail = `${ctx.operation ?? 'Operation'} failed: an internal error occurred (request id ${ctx.requestId})`;
    return { status: statusOf(e), body: { detail } };
  },
  contextFree: true,
  success(r) {
    return r.data;
  },
  errorSchema: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] },
  successSchema(data) {
    return data ?? {};
  },
};
