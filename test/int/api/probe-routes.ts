/**
 * Test-only routes, one set per family that has no real routes yet, so the
 * registry's stages (validation, envelopes, errors) can be exercised for
 * every family. Registered with createApp({ extraRoutes }) in tests only.
 */
import { ConcurrencyError } from '../../../infra/eventstore/errors';
import { defineRoute, RouteDef } from '../../../api/kernel/registry';
import { CalendarFullError, PolicyError, UpstreamError, UsageLimitExceededError } from '../../../domain/errors';

const echo =
  (status = 200) =>
  (ctx: { body: unknown; query: unknown; params: unknown }) => ({
    status,
    data: { body: ctx.body, query: ctx.query, params: ctx.params },
  });
const ok = { 200: { description: 'echo', data: { type: 'object' } } };

export const PROBE_ROUTES: RouteDef[] = [
  defineRoute({
    method: 'post',
    path: '/api/probe/blog-writer',
    auth: 'user',
    summary: 'probe (general)',
    request: {
      body: {
        type: 'object',
        properties: {
          topic: { type: 'string', minLength: 1 },
          word_count: { type: 'integer', minimum: 100, maximum: 10000 },
          target_demographics: {
            type: 'object',
            properties: { age_range: { type: 'string' }, pain_points: { type: 'array', items: { type: 'string' } } },
            required: ['age_range'],
          },
        },
        required: ['topic'],
      },
    },
    responses: ok,
    handler: echo(),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/probe/content/generate',
    auth: 'user',
    summary: 'probe (developer)',
    request: {
      body: {
        type: 'object',
        properties: {
          type: { enum: ['blog_post', 'social_media'] },
          topic: { type: 'string' },
          key_points: { type: 'array', items: { type: 'string' } },
          seo_optimized: { type: 'boolean', default: false },
        },
        required: ['type', 'topic'],
      },
    },
    responses: ok,
    handler: echo(),
  }),
  defineRoute({
    method: 'get',
    path: '/api/subscription/probe/usage/{user_id}/trends',
    auth: 'user',
    ownerParam: 'user_id',
    summary: 'probe (subscription)',
    request: {
      params: { type: 'object', properties: { user_id: { type: 'string' } }, required: ['user_id'] },
      query: {
        type: 'object',
        properties: {
          months: { type: 'integer', minimum: 1, maximum: 24, default: 6 },
          unread_only: { type: 'boolean', default: false },
        },
      },
    },
    responses: ok,
    handler: echo(),
  }),
  defineRoute({
    method: 'post',
    path: '/api/subscription/probe/alerts',
    auth: 'user',
    summary: 'probe (subscription body)',
    request: {
      body: {
        type: 'object',
        properties: { title: { type: 'string' }, severity: { enum: ['info', 'warning'] } },
        required: ['title'],
      },
    },
    responses: ok,
    handler: echo(),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/calendar/probe/calendars',
    auth: 'user',
    scope: 'calendar:read',
    summary: 'probe (calendar query)',
    request: {
      query: {
        type: 'object',
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          offset: { type: 'integer', minimum: 0, default: 0 },
          status: { enum: ['active', 'archived'] },
        },
      },
    },
    responses: ok,
    handler: echo(),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/calendar/probe/calendars',
    auth: 'user',
    summary: 'probe (calendar body)',
    request: {
      body: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1 },
          timezone: { type: 'string' },
          settings: { type: 'object', properties: { auto_publish: { type: 'boolean' } } },
        },
        required: ['name'],
      },
    },
    responses: { 201: { description: 'echo', data: { type: 'object' } } },
    handler: echo(201),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/backlink-outreach/probe/campaigns/{campaign_id}/leads',
    auth: 'user',
    summary: 'probe (outreach)',
    request: {
      params: { type: 'object', properties: { campaign_id: { type: 'string' } }, required: ['campaign_id'] },
      body: {
        type: 'object',
        properties: { website_url: { type: 'string' }, quality_score: { type: 'number', minimum: 0, maximum: 1 } },
        required: ['website_url'],
      },
    },
    responses: { 201: { description: 'echo', data: { type: 'object' } } },
    handler: echo(201),
  }),
  defineRoute({
    method: 'post',
    path: '/api/image-studio/probe/create',
    auth: 'user',
    summary: 'probe (image studio)',
    operationId: 'create',
    request: {
      body: {
        type: 'object',
        properties: {
          prompt: { type: 'string' },
          num_variations: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
          quality: { enum: ['draft', 'standard', 'premium'], default: 'standard' },
        },
        required: ['prompt'],
      },
    },
    responses: ok,
    handler: echo(),
  }),
  // Errors thrown by handlers, one route per family: ?kind=bug|conflict|policy|upstream|full|usage
  ...(
    [
      '/api/probe',
      '/v1/probe',
      '/api/subscription/probe',
      '/v1/calendar/probe',
      '/api/v1/backlink-outreach/probe',
      '/api/image-studio/probe',
    ] as const
  ).map((prefix) =>
    defineRoute<unknown, { kind: string }>({
      method: 'get',
      path: `${prefix}/fail`,
      auth: 'user',
      summary: 'probe (thrown errors)',
      operationId: `fail${prefix.replace(/[^a-z]/g, '')}`,
      request: { query: { type: 'object', properties: { kind: { type: 'string', default: 'bug' } } } },
      responses: ok,
      handler: (ctx) => {
        switch (ctx.query.kind) {
          case 'conflict':
            throw new ConcurrencyError('s-1', 3, 4);
          case 'policy':
            throw new PolicyError('daily cap of 50 sends reached');
          case 'upstream':
            throw new UpstreamError('profnet answered 500');
          case 'full':
            throw new CalendarFullError('calendar has 500 events');
          case 'usage':
            throw new UsageLimitExceededError({
              provider: 'vendor_a',
              limit_type: 'vendor_a_calls',
              current_usage: 100,
              limit_value: 100,
            });
          default:
            throw new Error('database exploded at /secret/path');
        }
      },
    }),
  ),
];
