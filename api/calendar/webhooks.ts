/**
 * Calendar webhooks (Document 3 "Events"): `POST /v1/calendar/webhooks`
 * registers an endpoint of the `calendar` family on the platform's shared
 * delivery mechanism (signed Standard Webhooks deliveries with retries,
 * docs/webhooks.md); list and delete are ours. The five names and the payload
 * `{event, id, timestamp, data {calendar_id, event_id, platform, published_at,
 * performance_initial}}` are in domain/webhooks/catalogue.ts. Endpoints receive
 * the events of calendars their owner owns.
 */
import { NotFoundError } from '../../domain/errors';
import { subscribableNames } from '../../domain/webhooks/catalogue';
import { EndpointRecord, getEndpoint, listEndpoints } from '../../projections/webhook-deliveries';
import { deleteWebhook, registerWebhook } from '../webhooks/commands';
import { webhookCommandDeps } from '../webhooks/routes';
import { requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { requireScope } from './access';
import { BASE, tags } from './calendars';
import { allRequired, arr, bool, httpUrl, iso, uuid, withRequired } from '../kernel/schema';

const names = subscribableNames('calendar');
const endpointOut = allRequired({
  id: { type: 'string' },
  url: { type: 'string' },
  events: arr({ type: 'string' }),
  enabled: bool,
  disabled_reason: { type: ['string', 'null'] },
  created_at: iso,
});
const view = (e: EndpointRecord) => ({
  id: e.endpoint_id,
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  disabled_reason: e.disabled_reason,
  created_at: e.created_at,
});

export const calendarWebhookRoutes: RouteDef[] = [
  defineRoute<{ url: string; events: string[]; secret?: string }>({
    method: 'post',
    path: `${BASE}/webhooks`,
    auth: 'user',
    scope: 'calendar:manage',
    tags,
    summary:
      'Register a calendar webhook (event.created, event.updated, event.published, event.performance_updated, calendar.analytics_ready); the secret is generated unless given and shown only here',
    description:
      "Registers an endpoint of the calendar family on the platform's webhook delivery (Standard Webhooks signatures, retries; docs/webhooks.md). It receives the listed events of the calendars the caller owns, not of calendars shared with them. The URL must resolve to a public address (else 400); a secret given must be whsec_<base64> or at least 16 characters.",
    request: {
      body: withRequired(
        {
          url: httpUrl({ description: 'http(s) URL that resolves to a public address (SSRF-checked)' }),
          events: arr({ type: 'string', enum: names }, { minItems: 1, maxItems: names.length, uniqueItems: true }),
          secret: {
            type: 'string',
            minLength: 16,
            maxLength: 256,
            description: 'whsec_<base64> or any text of 16+ characters',
          },
        },
        ['url', 'events'],
      ),
    },
    responses: {
      201: {
        description:
          'Registered; store the secret now (deliveries are signed with it: webhook-signature / X-SERVICE-Signature)',
        data: allRequired({ ...endpointOut.properties, secret: { type: 'string' } }),
      },
    },
    handler: async (ctx) => {
      await requireScope(ctx);
      const r = await registerWebhook(
        webhookCommandDeps(ctx.deps),
        userIdOf(ctx),
        { ...ctx.body, family: 'calendar' },
        requestMeta(ctx),
      );
      await settle(ctx, 'webhook-deliveries', r.events);
      return {
        status: 201,
        data: {
          id: r.value.endpoint_id,
          url: r.value.url,
          events: r.value.events,
          enabled: true,
          disabled_reason: null,
          created_at: r.events[0].recordedAt,
          secret: r.value.secret,
        },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: `${BASE}/webhooks`,
    auth: 'user',
    scope: 'calendar:manage',
    tags,
    summary: "The caller's calendar webhooks (secrets are never shown again)",
    description:
      "Only the caller's endpoints of the calendar family; endpoints registered for other families are not listed. enabled and disabled_reason show whether delivery has disabled an endpoint.",
    responses: { 200: { description: 'Endpoints, oldest first', data: allRequired({ webhooks: arr(endpointOut) }) } },
    handler: async (ctx) => {
      await requireScope(ctx);
      return { data: { webhooks: (await listEndpoints(ctx.deps.db, userIdOf(ctx), 'calendar')).map(view) } };
    },
  }),
  defineRoute<unknown, unknown, { webhook_id: string }>({
    method: 'delete',
    path: `${BASE}/webhooks/{webhook_id}`,
    auth: 'user',
    scope: 'calendar:manage',
    tags,
    summary: 'Delete a calendar webhook (deliveries in flight stop before their next attempt)',
    description:
      "Deletes the endpoint and its secret. An unknown id, another user's endpoint or an endpoint of another family is 404.",
    request: { params: allRequired({ webhook_id: uuid }) },
    responses: {
      200: { description: 'Deletion result', data: allRequired({ id: { type: 'string' }, deleted: { const: true } }) },
    },
    handler: async (ctx) => {
      await requireScope(ctx);
      const e = await getEndpoint(ctx.deps.db, userIdOf(ctx), ctx.params.webhook_id);
      if (!e || e.family !== 'calendar') throw new NotFoundError('Webhook not found');
      const r = await deleteWebhook(webhookCommandDeps(ctx.deps), userIdOf(ctx), e.endpoint_id, requestMeta(ctx));
      await settle(ctx, 'webhook-deliveries', r.events);
      return { data: { id: e.endpoint_id, deleted: true } };
    },
  }),
];
