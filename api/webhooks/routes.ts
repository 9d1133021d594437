/**
 * Webhook endpoints of the signed-in user (general family, Document 1
 * "Events"): register (secret shown once), list, get, update, delete, test
 * ping, deliveries and redeliver. Every route is user-scoped: another user's
 * endpoint or delivery is 404. Writes append events (api/webhooks/commands.ts)
 * and wait, bounded, for the `webhook-deliveries` projection that serves the
 * next read. Test pings and redeliveries are started by the dispatcher from
 * the appended request (202 + delivery id); their progress is at .../deliveries.
 */
import { NotFoundError } from '../../domain/errors';
import { subscribableNames } from '../../domain/webhooks/catalogue';
import { EndpointRecord, getEndpoint, listDeliveries, listEndpoints } from '../../projections/webhook-deliveries';
import type { AppDeps } from '../kernel/types';
import { requestMeta, settle, userIdOf } from '../kernel/handler';
import { httpUrl, iso, uuid } from '../kernel/schema';
import { defineRoute, HandlerCtx, RouteDef } from '../kernel/registry';
import {
  deleteWebhook,
  redeliverWebhook,
  registerWebhook,
  testWebhook,
  updateWebhook,
  WebhookCommandDeps,
} from './commands';

const BASE = '/api/webhooks';
const tags = ['webhooks'];
const idParams = { type: 'object', properties: { id: uuid }, required: ['id'] };
const url = httpUrl({ description: 'http(s) URL that resolves to a public address (SSRF-checked)' });
const events = {
  type: 'array',
  items: { type: 'string', enum: subscribableNames('general') },
  minItems: 1,
  uniqueItems: true,
};

const endpointSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    enabled: { type: 'boolean' },
    disabled_reason: {
      type: ['string', 'null'],
      description: 'why it is disabled (410 Gone from the endpoint, disabled by user)',
    },
    created_at: iso,
    updated_at: iso,
  },
  required: ['id', 'url', 'events', 'enabled', 'disabled_reason', 'created_at', 'updated_at'],
};
const deliverySchema = {
  type: 'object',
  properties: {
    delivery_id: { type: 'string', description: 'also the webhook-id header and the payload id' },
    event_type: { type: 'string' },
    status: { enum: ['pending', 'retrying', 'succeeded', 'failed', 'endpoint_disabled'] },
    attempts: { type: 'integer' },
    last_status_code: { type: ['integer', 'null'] },
    last_error: { type: ['string', 'null'] },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: iso,
    updated_at: iso,
  },
  required: [
    'delivery_id',
    'event_type',
    'status',
    'attempts',
    'last_status_code',
    'last_error',
    'next_attempt_at',
    'created_at',
    'updated_at',
  ],
};
const requestedSchema = {
  type: 'object',
  properties: {
    delivery_id: { type: 'string' },
    endpoint_id: { type: 'string' },
    event_type: { type: 'string' },
    status: { const: 'pending' },
  },
  required: ['delivery_id', 'endpoint_id', 'event_type', 'status'],
};

/** The webhook commands' dependencies: the store and the adapters built at start-up. */
export const webhookCommandDeps = (deps: AppDeps): WebhookCommandDeps => ({ store: deps.store, ...deps.webhooks });
const me = userIdOf;
const meta = requestMeta;

const view = (e: EndpointRecord) => ({
  id: e.endpoint_id,
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  disabled_reason: e.disabled_reason,
  created_at: e.created_at,
  updated_at: e.updated_at,
});

async function own(ctx: HandlerCtx<unknown, unknown, unknown>, id: string): Promise<EndpointRecord> {
  const e = await getEndpoint(ctx.deps.db, me(ctx), id);
  if (!e || e.family !== 'general') throw new NotFoundError('Webhook not found');
  return e;
}

export const webhookRoutes: RouteDef[] = [
  defineRoute<{ url: string; events: string[]; secret?: string }>({
    method: 'post',
    path: BASE,
    auth: 'user',
    tags,
    summary:
      'Register a webhook endpoint; the signing secret is generated unless given, and shown only in this response',
    description:
      'The URL must be http(s) and resolve only to public addresses (SSRF check; 400 on `url` otherwise), and `events` must name subscribable events of this family (400 naming the unknown ones; duplicates are dropped). The secret (`whsec_` + 32 random bytes unless given) signs every delivery (Standard Webhooks headers; docs/webhooks.md) and is stored encrypted. Only events recorded after the registration are sent.',
    request: {
      body: {
        type: 'object',
        properties: {
          url,
          events,
          secret: {
            type: 'string',
            minLength: 16,
            maxLength: 256,
            description: 'whsec_<base64 of 24-64 bytes>, or any text of 16+ characters (used as UTF-8 bytes)',
          },
        },
        required: ['url', 'events'],
      },
    },
    responses: {
      201: {
        description: 'Registered; store the secret now',
        data: {
          ...endpointSchema,
          properties: { ...endpointSchema.properties, secret: { type: 'string' } },
          required: [...endpointSchema.required, 'secret'],
        },
      },
    },
    handler: async (ctx) => {
      const r = await registerWebhook(webhookCommandDeps(ctx.deps), me(ctx), ctx.body, meta(ctx));
      await settle(ctx, 'webhook-deliveries', r.events);
      const e = await getEndpoint(ctx.deps.db, me(ctx), r.value.endpoint_id);
      const at = r.events[0].recordedAt;
      return {
        status: 201,
        data: {
          ...(e
            ? view(e)
            : {
                id: r.value.endpoint_id,
                url: r.value.url,
                events: r.value.events,
                enabled: true,
                disabled_reason: null,
                created_at: at,
                updated_at: at,
              }),
          secret: r.value.secret,
        },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: BASE,
    auth: 'user',
    tags,
    summary: "List the caller's webhook endpoints",
    description:
      'Every endpoint of the caller (enabled or not), oldest first, without secrets. Endpoints registered through the calendar (POST /v1/calendar/webhooks) are not listed here.',
    responses: {
      200: {
        description: 'Endpoints, oldest first (secrets are never shown again)',
        data: { type: 'array', items: endpointSchema },
      },
    },
    handler: async (ctx) => ({ data: (await listEndpoints(ctx.deps.db, me(ctx), 'general')).map(view) }),
  }),
  defineRoute<unknown, unknown, { id: string }>({
    method: 'get',
    path: `${BASE}/{id}`,
    auth: 'user',
    tags,
    summary: 'One webhook endpoint',
    description:
      "The endpoint without its secret; `enabled` false with `disabled_reason` when the user disabled it or it answered 410 Gone. Another user's, a deleted or a calendar endpoint is 404.",
    request: { params: idParams },
    responses: { 200: { description: 'The endpoint', data: endpointSchema } },
    handler: async (ctx) => ({ data: view(await own(ctx, ctx.params.id)) }),
  }),
  defineRoute<{ url?: string; events?: string[]; enabled?: boolean }, unknown, { id: string }>({
    method: 'patch',
    path: `${BASE}/{id}`,
    auth: 'user',
    tags,
    summary: 'Change the URL, the events, or enable/disable the endpoint (re-enable after a 410)',
    description:
      'Changes only the fields given (at least one). A new URL passes the same SSRF check as at registration and `events` the same name check (400). Re-enabling applies to new messages: deliveries that ended as `endpoint_disabled` are not resent (use redeliver). The secret cannot be changed; register a new endpoint for a new secret.',
    request: {
      params: idParams,
      body: { type: 'object', properties: { url, events, enabled: { type: 'boolean' } }, minProperties: 1 },
    },
    responses: { 200: { description: 'The changed endpoint', data: endpointSchema } },
    handler: async (ctx) => {
      await own(ctx, ctx.params.id);
      const r = await updateWebhook(webhookCommandDeps(ctx.deps), me(ctx), ctx.params.id, ctx.body, meta(ctx));
      await settle(ctx, 'webhook-deliveries', r.events);
      return { data: view(await own(ctx, ctx.params.id)) };
    },
  }),
  defineRoute<unknown, unknown, { id: string }>({
    method: 'delete',
    path: `${BASE}/{id}`,
    auth: 'user',
    tags,
    summary: 'Delete the endpoint and its secret; deliveries in flight stop before their next attempt',
    description:
      "The endpoint is 404 from then on and receives nothing more: a delivery waiting for a retry ends as `endpoint_disabled` without sending. Another user's or an already deleted endpoint is 404.",
    request: { params: idParams },
    responses: {
      200: {
        description: 'Deleted',
        data: {
          type: 'object',
          properties: { id: { type: 'string' }, deleted: { const: true } },
          required: ['id', 'deleted'],
        },
      },
    },
    handler: async (ctx) => {
      await own(ctx, ctx.params.id);
      const r = await deleteWebhook(webhookCommandDeps(ctx.deps), me(ctx), ctx.params.id, meta(ctx));
      await settle(ctx, 'webhook-deliveries', r.events);
      return { data: { id: ctx.params.id, deleted: true } };
    },
  }),
  defineRoute<unknown, unknown, { id: string }>({
    method: 'post',
    path: `${BASE}/{id}/test`,
    auth: 'user',
    tags,
    summary: 'Send a signed `webhook.test` message to the endpoint',
    description:
      'Queues a `webhook.test` message (`data: {endpoint_id, message}`), sent whatever events the endpoint subscribed to, with the same signing, retries and delivery log as real messages; follow it at GET /api/webhooks/{id}/deliveries. A disabled endpoint is refused with 409 (enable it first).',
    request: { params: idParams },
    responses: { 202: { description: 'Queued; follow it at .../deliveries', data: requestedSchema } },
    handler: async (ctx) => {
      await own(ctx, ctx.params.id);
      const r = await testWebhook(webhookCommandDeps(ctx.deps), me(ctx), ctx.params.id, meta(ctx));
      await settle(ctx, 'webhook-deliveries', r.events);
      return { status: 202, data: r.value };
    },
  }),
  defineRoute<unknown, { status?: string; limit: number }, { id: string }>({
    method: 'get',
    path: `${BASE}/{id}/deliveries`,
    auth: 'user',
    tags,
    summary: "The endpoint's deliveries: status, attempts, last response code, next attempt",
    description:
      'Newest first, at most `limit` (default 100, at most 500), optionally only those of one `status`: `pending`, `retrying` (waiting for `next_attempt_at`), `succeeded`, `failed` (attempts exhausted or address refused) or `endpoint_disabled`. Test pings and redeliveries are listed too.',
    request: {
      params: idParams,
      query: {
        type: 'object',
        properties: {
          status: deliverySchema.properties.status,
          limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
        },
      },
    },
    responses: { 200: { description: 'Deliveries, newest first', data: { type: 'array', items: deliverySchema } } },
    handler: async (ctx) => {
      await own(ctx, ctx.params.id);
      const rows = await listDeliveries(ctx.deps.db, me(ctx), ctx.params.id, {
        status: ctx.query.status,
        limit: ctx.query.limit,
      });
      return { data: rows.map(({ endpoint_id: _e, ...d }) => d) };
    },
  }),
  defineRoute<unknown, unknown, { id: string; delivery_id: string }>({
    method: 'post',
    path: `${BASE}/{id}/deliveries/{delivery_id}/redeliver`,
    auth: 'user',
    tags,
    summary: 'Send an earlier delivery again: the same body under a new delivery id',
    description:
      "Queues a new delivery of the original message's body (event type and data unchanged; only `id` and the `webhook-id` header are the new delivery id), whatever the original's outcome. A delivery of another endpoint or user is 404; a disabled endpoint is refused with 409 (enable it first).",
    request: {
      params: { type: 'object', properties: { id: uuid, delivery_id: uuid }, required: ['id', 'delivery_id'] },
    },
    responses: { 202: { description: 'Queued; follow it at .../deliveries', data: requestedSchema } },
    handler: async (ctx) => {
      await own(ctx, ctx.params.id);
      const r = await redeliverWebhook(
        webhookCommandDeps(ctx.deps),
        me(ctx),
        ctx.params.id,
        ctx.params.delivery_id,
        meta(ctx),
      );
      await settle(ctx, 'webhook-deliveries', r.events);
      return { status: 202, data: r.value };
    },
  }),
];
