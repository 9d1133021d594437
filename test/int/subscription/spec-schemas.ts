/**
 * JSON Schemas of the subscription API written from Document 1's field tables
 * ("Response envelopes", "Subscription resources", the endpoint table), NOT
 * imported from the routes: a response that passes them has the documented
 * shape whatever the route module declares. Status words are checked against
 * the values docs/subscription.md documents.
 */
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

const num = { type: 'number' };
const int = { type: 'integer' };
const str = { type: 'string' };
const iso = { type: 'string', format: 'date-time' };
const period = { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' };

/** "Plan limits keys: vendor_a_calls, vendor_b_calls, tokens, monthly_cost (numbers; a plan may carry only some of them)". */
const limits = {
  type: 'object',
  properties: { vendor_a_calls: num, vendor_b_calls: num, tokens: num, monthly_cost: num },
  additionalProperties: false,
};

const plan = {
  type: 'object',
  properties: { id: int, name: str, price: num, billing_cycle: { const: 'monthly' }, limits },
  required: ['id', 'name', 'price', 'billing_cycle', 'limits'],
};

const subscription = {
  type: 'object',
  properties: {
    user_id: str,
    plan_name: str,
    plan_id: int,
    status: { enum: ['active', 'cancelled', 'expired'] },
    started_at: iso,
    expires_at: iso,
    limits,
  },
  required: ['user_id', 'plan_name', 'plan_id', 'status', 'started_at', 'expires_at', 'limits'],
};

/** Token-priced providers carry model and the two per-1M prices; request-priced ones cost_per_request. */
const pricing = {
  oneOf: [
    {
      type: 'object',
      properties: { provider: str, model: str, input_cost_per_1m: num, output_cost_per_1m: num },
      required: ['provider', 'model', 'input_cost_per_1m', 'output_cost_per_1m'],
      not: { required: ['cost_per_request'] },
    },
    {
      type: 'object',
      properties: { provider: str, cost_per_request: num },
      required: ['provider', 'cost_per_request'],
      not: { required: ['input_cost_per_1m'] },
    },
  ],
};

const usage = {
  type: 'object',
  properties: {
    billing_period: period,
    total_calls: int,
    total_tokens: int,
    total_cost: num,
    usage_status: { enum: ['active', 'approaching_limit', 'limit_reached'] },
    limits,
    provider_breakdown: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { calls: int, tokens: int, cost: num },
        required: ['calls', 'tokens', 'cost'],
        additionalProperties: false,
      },
    },
    usage_percentages: {
      type: 'object',
      propertyNames: { enum: ['vendor_a_calls', 'vendor_b_calls', 'tokens', 'monthly_cost', 'cost'] },
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
const trends = {
  type: 'object',
  properties: {
    periods: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          period,
          total_calls: int,
          total_cost: num,
          provider_breakdown: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              properties: { calls: int, cost: num },
              required: ['calls', 'cost'],
              additionalProperties: false,
            },
          },
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

const alert = {
  type: 'object',
  properties: {
    id: int,
    user_id: str,
    title: str,
    message: str,
    severity: { enum: ['info', 'warning', 'critical'] },
    alert_type: { enum: ['usage_threshold', 'cost_threshold'] },
    created_at: iso,
    read: { type: 'boolean' },
  },
  required: ['id', 'user_id', 'title', 'message', 'severity', 'alert_type', 'created_at', 'read'],
};

const dashboard = {
  type: 'object',
  properties: {
    summary: {
      type: 'object',
      properties: {
        total_api_calls_this_month: int,
        total_cost_this_month: num,
        usage_status: usage.properties.usage_status,
        unread_alerts: int,
      },
      required: ['total_api_calls_this_month', 'total_cost_this_month', 'usage_status', 'unread_alerts'],
    },
    current_usage: usage,
    limits: { type: 'object', properties: { plan_name: str, limits }, required: ['plan_name', 'limits'] },
    projections: {
      type: 'object',
      properties: { projected_monthly_cost: num, projected_usage_percentage: num },
      required: ['projected_monthly_cost', 'projected_usage_percentage'],
    },
    alerts: { type: 'array', items: alert },
  },
  required: ['summary', 'current_usage', 'limits', 'projections', 'alerts'],
};

/** Success envelope of the subscription family: success true and data (and message where the spec gives one). */
const envelope = (data: object, message = false) => ({
  type: 'object',
  properties: { success: { const: true }, data, ...(message ? { message: { type: 'string', minLength: 1 } } : {}) },
  required: ['success', 'data', ...(message ? ['message'] : [])],
});

export const SPEC = {
  plans: envelope({ type: 'array', items: plan, minItems: 1 }),
  pricing: envelope({ type: 'array', items: pricing, minItems: 1 }),
  subscription: envelope(subscription),
  subscriptionChange: envelope(subscription, true),
  usage: envelope(usage),
  trends: envelope(trends),
  dashboard: envelope(dashboard),
  alerts: envelope({ type: 'array', items: alert }),
  /** mark-read: "envelope with message confirming the alert is marked as read; no data". */
  markRead: {
    type: 'object',
    properties: { success: { const: true }, message: { type: 'string', minLength: 1 } },
    required: ['success', 'message'],
    not: { required: ['data'] },
  },
  /** Subscription error envelope (Document 1 "Errors"). */
  error: {
    type: 'object',
    properties: {
      success: { const: false },
      error: str,
      message: str,
      details: { type: ['string', 'object'] },
      user_id: { type: ['string', 'null'] },
      timestamp: iso,
    },
    required: ['success', 'error', 'message', 'details', 'user_id', 'timestamp'],
  },
};

const compiled = new Map<keyof typeof SPEC, ValidateFunction>();

/** Throws with ajv's text when `body` does not match the spec schema `name`. */
export function expectSpec(name: keyof typeof SPEC, body: unknown): void {
  let v = compiled.get(name);
  if (!v) compiled.set(name, (v = ajv.compile(SPEC[name])));
  if (!v(body)) throw new Error(`${name}: ${ajv.errorsText(v.errors)} in ${JSON.stringify(body).slice(0, 2000)}`);
}
