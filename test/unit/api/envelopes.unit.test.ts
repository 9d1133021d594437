/** The six envelope mappers produce exactly the bodies of the spec, and the typed errors map to the documented statuses. */
import {
  AuthenticationError,
  CalendarFullError,
  ConflictError,
  InternalError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionError,
  PolicyError,
  QuotaExceededError,
  RateLimitError,
  ServiceUnavailableError,
  UpstreamError,
  UsageLimitExceededError,
  ValidationError,
} from '../../../domain/errors';
import { ENVELOPES } from '../../../api/kernel/envelopes';
import type { EnvelopeCtx } from '../../../api/kernel/envelopes/common';
import { toAppError } from '../../../api/kernel/errors';
import { familyOf } from '../../../api/kernel/families';
import { ConcurrencyError } from '../../../infra/eventstore/errors';

const rate = {
  allowed: true,
  windows: [],
  binding: { name: 'hour', seconds: 3600, limit: 100, remaining: 42, reset: 1800000000 },
};
const ctx: EnvelopeCtx = {
  requestId: 'req-12345678',
  timestamp: '2026-11-22T10:00:00.000Z',
  userId: 'u-1',
  rate,
  operation: 'create',
};
const invalid = new ValidationError([
  {
    location: 'body',
    path: 'word_count',
    kind: 'type',
    message: 'word_count must be integer',
    expected_type: 'integer',
    provided_value: '500',
  },
  { location: 'body', path: 'topic', kind: 'missing', message: 'topic is required' },
]);
const usage = new UsageLimitExceededError({
  provider: 'vendor_a',
  limit_type: 'vendor_a_calls',
  current_usage: 100,
  limit_value: 100,
});

describe('general envelope', () => {
  const g = ENVELOPES.general;
  it('success: {success, data, timestamp}', () => {
    expect(g.success({ data: { a: 1 } }, ctx)).toEqual({ success: true, data: { a: 1 }, timestamp: ctx.timestamp });
  });
  it('errors: {success:false, error:{code, message, details}, timestamp} with the documented status per code', () => {
    expect(g.error(invalid, ctx)).toEqual({
      status: 400,
      body: {
        success: false,
        error: {
          code: 'INVALID_REQUEST',
          message: 'word_count must be integer; topic is required',
          details: {
            parameter: 'word_count',
            location: 'body',
            expected_type: 'integer',
            issues: [
              {
                parameter: 'word_count',
                location: 'body',
                kind: 'type',
                message: 'word_count must be integer',
                expected_type: 'integer',
              },
              { parameter: 'topic', location: 'body', kind: 'missing', message: 'topic is required' },
            ],
          },
        },
        timestamp: ctx.timestamp,
      },
    });
    const table: [Error, number, string][] = [
      [new AuthenticationError('no key'), 401, 'INVALID_API_KEY'],
      [new RateLimitError(12), 429, 'RATE_LIMIT_EXCEEDED'],
      [new PayloadTooLargeError(1024), 413, 'CONTENT_TOO_LONG'],
      [new QuotaExceededError('daily quota'), 429, 'QUOTA_EXCEEDED'],
      [usage, 429, 'QUOTA_EXCEEDED'],
      [new ServiceUnavailableError('kafka down'), 503, 'SERVICE_UNAVAILABLE'],
      [new PermissionError('no'), 403, 'PERMISSION_DENIED'],
      [new NotFoundError(), 404, 'NOT_FOUND'],
      [new ConflictError('changed'), 409, 'CONFLICT'],
      [new UpstreamError('vendor'), 502, 'UPSTREAM_ERROR'],
      [new InternalError('req-1'), 500, 'INTERNAL_ERROR'],
    ];
    for (const [e, status, code] of table) {
      const out = g.error(e as never, ctx) as { status: number; body: { error: { code: string } } };
      expect([e.name, out.status, out.body.error.code]).toEqual([e.name, status, code]);
    }
    expect((g.error(new RateLimitError(12), ctx).body as { error: { details: unknown } }).error.details).toEqual({
      retry_after: 12,
    });
  });
});

describe('developer envelope', () => {
  const d = ENVELOPES.developer;
  it('success: {success, data, meta{request_id, timestamp, rate_limit}}', () => {
    expect(d.success({ data: [1] }, ctx)).toEqual({
      success: true,
      data: [1],
      meta: {
        request_id: 'req-12345678',
        timestamp: ctx.timestamp,
        rate_limit: { limit: 100, remaining: 42, reset: 1800000000 },
      },
    });
  });
  it('errors: the general error object plus meta', () => {
    expect(d.error(new AuthenticationError('bad key'), { ...ctx, rate: undefined })).toEqual({
      status: 401,
      body: {
        success: false,
        error: { code: 'INVALID_API_KEY', message: 'bad key', details: {} },
        meta: { request_id: 'req-12345678', timestamp: ctx.timestamp },
      },
    });
  });
});

describe('subscription envelope', () => {
  const s = ENVELOPES.subscription;
  it('success: {success, data} and {success, message} without data', () => {
    expect(s.success({ data: { plan: 'Free' } }, ctx)).toEqual({ success: true, data: { plan: 'Free' } });
    expect(s.success({ message: 'Alert marked as read' }, ctx)).toEqual({
      success: true,
      message: 'Alert marked as read',
    });
  });
  it('usage limit: 429 UsageLimitExceededException with provider, limit_type, current_usage, limit_value', () => {
    expect(s.error(usage, ctx)).toEqual({
      status: 429,
      body: {
        success: false,
        error: 'UsageLimitExceededException',
        message: 'Usage limit exceeded for vendor_a_calls',
        details: { provider: 'vendor_a', limit_type: 'vendor_a_calls', current_usage: 100, limit_value: 100 },
        user_id: 'u-1',
        timestamp: ctx.timestamp,
      },
    });
  });
  it('statuses 400, 401, 404, 429, 500 of the spec', () => {
    const pairs: [Error, number, string][] = [
      [invalid, 400, 'ValidationError'],
      [new AuthenticationError('x'), 401, 'AuthenticationError'],
      [new NotFoundError(), 404, 'NotFoundError'],
      [new RateLimitError(1), 429, 'RateLimitExceeded'],
      [new InternalError('r'), 500, 'InternalServerError'],
    ];
    for (const [e, status, type] of pairs) {
      const out = s.error(e as never, { ...ctx, userId: null }) as {
        status: number;
        body: { error: string; user_id: null };
      };
      expect([out.status, out.body.error, out.body.user_id]).toEqual([status, type, null]);
    }
  });
});

describe('calendar envelope', () => {
  const c = ENVELOPES.calendar;
  it('success is the bare body', () => {
    expect(c.success({ data: { id: 'cal_1' } }, ctx)).toEqual({ id: 'cal_1' });
  });
  it('errors: {error:{code, message, details, request_id, timestamp}} with the status table of Document 3', () => {
    expect(c.error(invalid, ctx).body).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'word_count must be integer; topic is required',
        details: {
          field: 'word_count',
          location: 'body',
          provided_value: '500',
          expected_type: 'integer',
          issues: [
            { field: 'word_count', location: 'body', kind: 'type', message: 'word_count must be integer' },
            { field: 'topic', location: 'body', kind: 'missing', message: 'topic is required' },
          ],
        },
        request_id: 'req-12345678',
        timestamp: ctx.timestamp,
      },
    });
    const table: [Error, number, string][] = [
      [invalid, 400, 'VALIDATION_ERROR'],
      [new AuthenticationError('x'), 401, 'AUTHENTICATION_ERROR'],
      [new PermissionError('x'), 403, 'AUTHORIZATION_ERROR'],
      [new NotFoundError(), 404, 'NOT_FOUND_ERROR'],
      [new RateLimitError(5), 429, 'RATE_LIMIT_EXCEEDED'],
      [new CalendarFullError('full'), 402, 'CALENDAR_FULL'],
      [new UpstreamError('profnet 500'), 502, 'PLATFORM_ERROR'],
    ];
    for (const [e, status, code] of table) {
      const out = c.error(e as never, ctx) as { status: number; body: { error: { code: string } } };
      expect([out.status, out.body.error.code]).toEqual([status, code]);
    }
  });
});

describe('outreach envelope', () => {
  const o = ENVELOPES.outreach;
  it('the texts of Document 3 and a 422 list for validation', () => {
    expect(o.error(new AuthenticationError('whatever'), ctx)).toEqual({
      status: 401,
      body: { detail: 'Not authenticated' },
    });
    expect(o.error(new PolicyError('recipient is suppressed'), ctx)).toEqual({
      status: 403,
      body: { detail: 'Policy validation failed', reason: 'recipient is suppressed' },
    });
    expect(o.error(new NotFoundError('Campaign c-1 not found'), ctx)).toEqual({
      status: 404,
      body: { detail: 'Resource not found' },
    });
    expect(o.error(new InternalError('r'), ctx)).toEqual({
      status: 500,
      body: { detail: 'An internal error occurred' },
    });
    expect(o.error(invalid, ctx)).toEqual({
      status: 422,
      body: {
        detail: [
          { loc: ['body', 'word_count'], msg: 'word_count must be integer', type: 'type_error' },
          { loc: ['body', 'topic'], msg: 'topic is required', type: 'missing' },
        ],
      },
    });
    expect(o.success({ data: [{ id: 'c' }] }, ctx)).toEqual([{ id: 'c' }]);
  });
});

describe('image studio envelope', () => {
  const i = ENVELOPES.image_studio;
  it('{detail: <string>} naming fields, the operation of a failure and its request id', () => {
    expect(i.error(invalid, ctx)).toEqual({
      status: 400,
      body: { detail: 'Invalid request: body.word_count: word_count must be integer; body.topic: topic is required' },
    });
    expect(i.error(new AuthenticationError('x'), ctx)).toEqual({
      status: 401,
      body: { detail: 'Authentication required' },
    });
    expect(i.error(new NotFoundError(), ctx)).toEqual({ status: 404, body: { detail: 'Resource not found' } });
    expect(i.error(new InternalError('req-12345678'), ctx)).toEqual({
      status: 500,
      body: { detail: 'create failed: an internal error occurred (request id req-12345678)' },
    });
  });
});

describe('error normalisation and families', () => {
  it('maps the event store conflict to 409 and body-parser errors to size/validation errors', () => {
    expect(toAppError(new ConcurrencyError('s', 1, 2))).toBeInstanceOf(ConflictError);
    expect(toAppError(Object.assign(new Error('too large'), { type: 'entity.too.large', limit: 10 }))).toBeInstanceOf(
      PayloadTooLargeError,
    );
    expect(toAppError(Object.assign(new Error('bad'), { type: 'entity.parse.failed' }))).toBeInstanceOf(
      ValidationError,
    );
    expect(toAppError(new Error('bug'))).toBeUndefined();
  });
  it('chooses the family by path prefix', () => {
    expect(
      [
        '/api/blog-writer',
        '/api/subscription/plans',
        '/v1/content/generate',
        '/v1/calendar/calendars',
        '/api/v1/backlink-outreach/campaigns',
        '/api/image-studio/create',
        '/api/profnet/health',
        '/v1',
        '/v1calendar',
      ].map(familyOf),
    ).toEqual([
      'general',
      'subscription',
      'developer',
      'calendar',
      'outreach',
      'image_studio',
      'general',
      'developer',
      'general',
    ]);
  });
});
