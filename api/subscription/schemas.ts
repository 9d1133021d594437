/**
 * JSON Schemas of the subscription API's `data` (Document 1 "Subscription
 * resources"), for the OpenAPI document. Status values and percentage keys
 * are documented in docs/subscription.md.
 */
import type { JsonSchema } from '../kernel/envelopes/common';
import { anyString, int, iso, num } from '../kernel/schema';

/** Path prefix, OpenAPI tag and the `{user_id}` path parameter every subscription route module shares. */
export const P = '/api/subscription';
export const tags = ['subscription'];
export const userParams = {
  type: 'object',
  properties: { user_id: { type: 'string', minLength: 1 } },
  required: ['user_id'],
};
export type UserParams = { user_id: string };

export const limitsSchema: JsonSchema = {
  type: 'object',
  description: 'Plan limits by key; a plan may carry only some keys, a missing key is unlimited',
  properties: { vendor_a_calls: num, vendor_b_calls: num, tokens: num, monthly_cost: num },
  additionalProperties: num,
};

export const planSchema: JsonSchema = {
  type: 'object',
  properties: { id: int, name: anyString, price: num, billing_cycle: { enum: ['monthly'] }, limits: limitsSchema },
  required: ['id', 'name', 'price', 'billing_cycle', 'limits'],
};

export const pricingSchema: JsonSchema = {
  type: 'object',
  properties: {
    provider: anyString,
    model: { ...anyString, description: 'token-priced providers; `*` prices any other model of the provider' },
    input_cost_per_1m: num,
    output_cost_per_1m: num,
    cost_per_request: { ...num, description: 'request-priced providers' },
  },
  required: ['provider'],
};

export const subscriptionSchema: JsonSchema = {
  type: 'object',
  properties: {
    user_id: anyString,
    plan_name: anyString,
    plan_id: int,
    status: {
      enum: ['active', 'cancelled', 'expired'],
      description: 'cancelled: the plan applies until expires_at; expired: Free limits apply',
    },
    started_at: iso,
    expires_at: { ...iso, description: 'end of the current billing period (renewal), or when a cancelled plan ends' },
    limits: { ...limitsSchema, description: 'the limits that apply now' },
  },
  required: ['user_id', 'plan_name', 'plan_id', 'status', 'started_at', 'expires_at', 'limits'],
};

const breakdown = (fields: string[]): JsonSchema => ({
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f, f === 'cost' ? num : int])),
    required: fields,
  },
});

const usageStatus = {
  enum: ['active', 'approaching_limit', 'limit_reached'],
  description: 'approaching_limit: some key at 80 % or more; limit_reached: at 100 % or more',
};

export const usageSchema: JsonSchema = {
  type: 'object',
  properties: {
    billing_period: { type: 'string', pattern: '^\\d{4}-\\d{2}$' },
    total_calls: int,
    total_tokens: int,
    total_cost: num,
    usage_status: usageStatus,
    limits: limitsSchema,
    provider_breakdown: breakdown(['calls', 'tokens', 'cost']),
    usage_percentages: {
      type: 'object',
      description: 'percent per limit key; `cost` repeats `monthly_cost`',
      additionalProperties: num,
    },
  },
  required: [
    'billing_period',
    'total_calls',
    'total_tokens',
    'total_cost',
    'usage_status',
    'limits',
    'provider_breakdown',
    'usage_percentages',
  ],
};

const trendWord = { enum: ['increasing', 'stable', 'decreasing'] };

export const trendsSchema: JsonSchema = {
  type: 'object',
  properties: {
    periods: {
      type: 'array',
      description: 'one per month, oldest first, months without usage as zeros',
      items: {
        type: 'object',
        properties: {
          period: { type: 'string', pattern: '^\\d{4}-\\d{2}$' },
          total_calls: int,
          total_cost: num,
          provider_breakdown: breakdown(['calls', 'cost']),
        },
        required: ['period', 'total_calls', 'total_cost', 'provider_breakdown'],
      },
    },
    trends: {
      type: 'object',
      properties: { calls_trend: trendWord, cost_trend: trendWord },
      required: ['calls_trend', 'cost_trend'],
    },
  },
  required: ['periods', 'trends'],
};

export const alertSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: int,
    user_id: anyString,
    title: anyString,
    message: anyString,
    severity: { enum: ['info', 'warning', 'critical'] },
    alert_type: { enum: ['usage_threshold', 'cost_threshold'] },
    created_at: iso,
    read: { type: 'boolean' },
  },
  required: ['id', 'user_id', 'title', 'message', 'severity', 'alert_type', 'created_at', 'read'],
};

export const dashboardSchema: JsonSchema = {
  type: 'object',
  properties: {
    summary: {
      type: 'object',
      properties: {
        total_api_calls_this_month: int,
        total_cost_this_month: num,
        usage_status: usageStatus,
        unread_alerts: int,
      },
      required: ['total_api_calls_this_month', 'total_cost_this_month', 'usage_status', 'unread_alerts'],
    },
    current_usage: usageSchema,
    limits: {
      type: 'object',
      properties: { plan_name: anyString, limits: limitsSchema },
      required: ['plan_name', 'limits'],
    },
    projections: {
      type: 'object',
      description: 'linear extrapolation of the period so far (docs/subscription.md)',
      properties: { projected_monthly_cost: num, projected_usage_percentage: num },
      required: ['projected_monthly_cost', 'projected_usage_percentage'],
    },
    alerts: { type: 'array', items: alertSchema, description: 'the newest alerts, read and unread' },
  },
  required: ['summary', 'current_usage', 'limits', 'projections', 'alerts'],
};
