/**
 * Webhook endpoint commands: register, update, delete, test ping, redeliver.
 * Each decides from the endpoint's own stream (`webhook-<id>`) and appends
 * with the expected version, so two concurrent changes cannot both win (409).
 * Test pings and redeliveries append WebhookDeliveryRequested; the dispatcher
 * starts the delivery workflow from it (an outbox: nothing is started from
 * the request path, and a crash after the commit loses nothing).
 * Used by api/routes/webhooks.ts; the calendar's `POST /webhooks` calls
 * registerWebhook with family 'calendar'.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import type { WebhookEvent } from '../../domain/events/webhooks';
import { buildPayload, subscribableNames, TEST_EVENT, WebhookFamily, withDeliveryId } from '../../domain/webhooks/catalogue';
import { deliveryStream, EndpointState, endpointActive, foldEndpoint, webhookStream } from '../../domain/webhooks/endpoint';
import type { EventMetadata, RecordedEvent } from '../../infra/eventstore/port';
import type { PostgresEventStore } from '../../infra/eventstore/postgres';
import type { WebhookSecretStore } from '../../infra/webhooks/secrets';
import { generateSecret, secretFingerprint, secretProblem } from '../../infra/webhooks/sign';
import { resolveWebhookTarget, SsrfOptions, UnsafeWebhookUrlError } from '../../infra/webhooks/ssrf';

export interface WebhookCommandDeps {
  db: Knex;
  store: PostgresEventStore;
  secrets: WebhookSecretStore;
  ssrf: SsrfOptions;
}

export interface Written<T> {
  value: T;
  /** The events written; wait for the last one (projection `webhook-deliveries`) before serving a read. */
  events: RecordedEvent[];
}

export interface RegisteredWebhook {
  endpoint_id: string;
  url: string;
  events: string[];
  family: WebhookFamily;
  enabled: true;
  /** The signing secret: returned by registration only, never again. */
  secret: string;
}

const invalid = (path: string, message: string, provided?: unknown) =>
  new ValidationError([{ location: 'body', path, kind: 'constraint', message, ...(provided !== undefined ? { provided_value: provided } : {}) }]);

/** Refuses a URL that is malformed or resolves to a forbidden address (SSRF), as a validation error on `url`. */
export async function checkWebhookUrl(ssrf: SsrfOptions, url: string): Promise<void> {
  try {
    await resolveWebhookTarget(url, ssrf);
  } catch (e) {
    if (e instanceof UnsafeWebhookUrlError) throw invalid('url', e.reason, url);
    throw e;
  }
}

function checkEvents(events: string[], family: WebhookFamily): string[] {
  const allowed = subscribableNames(family);
  const unique = [...new Set(events)];
  if (unique.length === 0) throw invalid('events', 'events must name at least one event');
  const unknown = unique.filter((n) => !allowed.includes(n));
  if (unknown.length) throw invalid('events', `unknown event name(s): ${unknown.join(', ')}; allowed: ${allowed.join(', ')}`, unknown);
  return unique;
}

/** The caller's endpoint and its stream version; another user's or a deleted endpoint is "not found". */
export async function ownEndpoint(d: Pick<WebhookCommandDeps, 'store'>, userId: string, endpointId: string): Promise<{ endpoint: EndpointState; version: number }> {
  const events = await d.store.readStream(webhookStream(endpointId));
  const endpoint = foldEndpoint(events as unknown as Pick<WebhookEvent, 'type' | 'data'>[]);
  if (!endpoint || endpoint.user_id !== userId || endpoint.deleted) throw new NotFoundError('Webhook not found');
  return { endpoint, version: events.length - 1 };
}

export async function registerWebhook(
  d: WebhookCommandDeps,
  userId: string,
  input: { url: string; events: string[]; secret?: string; family?: WebhookFamily },
  meta: EventMetadata = {},
): Promise<Written<RegisteredWebhook>> {
  const family = input.family ?? 'general';
  const events = checkEvents(input.events, family);
  if (input.secret !== undefined) {
    const problem = secretProblem(input.secret);
    if (problem) throw invalid('secret', problem);
  }
  await checkWebhookUrl(d.ssrf, input.url);
  const secret = input.secret ?? generateSecret();
  const endpoint_id = randomUUID();
  const r = await d.db.transaction(async (trx) => {
    await d.secrets.put(endpoint_id, userId, secret, trx);
    return d.store.append(
      webhookStream(endpoint_id),
      [{ type: 'WebhookRegistered', data: { endpoint_id, user_id: userId, url: input.url, events, secret_hash: secretFingerprint(secret), family } }],
      'no_stream',
      { ...meta, user_id: userId },
      trx,
    );
  });
  return { value: { endpoint_id, url: input.url, events, family, enabled: true, secret }, events: r.events };
}

export async function updateWebhook(d: WebhookCommandDeps, userId: string, endpointId: string, input: { url?: string; events?: string[]; enabled?: boolean }, meta: EventMetadata = {}): Promise<Written<null>> {
  const { endpoint, version } = await ownEndpoint(d, userId, endpointId);
  const events = input.events !== undefined ? checkEvents(input.events, endpoint.family as WebhookFamily) : undefined;
  if (input.url !== undefined) await checkWebhookUrl(d.ssrf, input.url);
  if (input.url === undefined && events === undefined && input.enabled === undefined) throw invalid('', 'nothing to change: give url, events or enabled');
  const data = { endpoint_id: endpointId, user_id: userId, ...(input.url !== undefined ? { url: input.url } : {}), ...(events ? { events } : {}), ...(input.enabled !== undefined ? { enabled: input.enabled } : {}) };
  const r = await d.store.append(webhookStream(endpointId), [{ type: 'WebhookUpdated', data }], version, { ...meta, user_id: userId });
  return { value: null, events: r.events };
}

/** Deletes the endpoint and its secret; deliveries in flight stop before their next attempt. */
export async function deleteWebhook(d: WebhookCommandDeps, userId: string, endpointId: string, meta: EventMetadata = {}): Promise<Written<null>> {
  const { version } = await ownEndpoint(d, userId, endpointId);
  const r = await d.db.transaction(async (trx) => {
    await d.secrets.delete(endpointId, trx);
    return d.store.append(webhookStream(endpointId), [{ type: 'WebhookDeleted', data: { endpoint_id: endpointId, user_id: userId } }], version, { ...meta, user_id: userId }, trx);
  });
  return { value: null, events: r.events };
}

export interface RequestedDelivery {
  delivery_id: string;
  endpoint_id: string;
  event_type: string;
  status: 'pending';
}

async function requestDelivery(d: WebhookCommandDeps, endpoint: EndpointState, deliveryId: string, eventType: string, payload: Record<string, unknown>, extra: { reason: 'test' | 'redeliver'; redelivery_of?: string }, meta: EventMetadata): Promise<Written<RequestedDelivery>> {
  if (!endpointActive(endpoint)) throw new ConflictError('The webhook is disabled; enable it (PATCH enabled=true) first', { endpoint_id: endpoint.endpoint_id, reason: endpoint.disabled_reason });
  const r = await d.store.append(
    deliveryStream(deliveryId),
    [{ type: 'WebhookDeliveryRequested', data: { delivery_id: deliveryId, endpoint_id: endpoint.endpoint_id, user_id: endpoint.user_id, event_type: eventType, payload, ...extra } }],
    'no_stream',
    { ...meta, user_id: endpoint.user_id },
  );
  return { value: { delivery_id: deliveryId, endpoint_id: endpoint.endpoint_id, event_type: eventType, status: 'pending' }, events: r.events };
}

/** Sends a `webhook.test` message to the endpoint (whatever it subscribed to). */
export async function testWebhook(d: WebhookCommandDeps, userId: string, endpointId: string, meta: EventMetadata = {}, now = new Date()): Promise<Written<RequestedDelivery>> {
  const { endpoint } = await ownEndpoint(d, userId, endpointId);
  const deliveryId = randomUUID();
  const payload = buildPayload({ name: TEST_EVENT, data: { endpoint_id: endpointId, message: 'This is a test delivery.' } }, deliveryId, now.toISOString());
  return requestDelivery(d, endpoint, deliveryId, TEST_EVENT, payload, { reason: 'test' }, meta);
}

/** Sends an earlier delivery's body again under a new delivery id. */
export async function redeliverWebhook(d: WebhookCommandDeps, userId: string, endpointId: string, deliveryId: string, meta: EventMetadata = {}): Promise<Written<RequestedDelivery>> {
  const { endpoint } = await ownEndpoint(d, userId, endpointId);
  const events = await d.store.readStream(deliveryStream(deliveryId));
  const first = events.find((e) => e.type === 'WebhookDeliveryScheduled' || e.type === 'WebhookDeliveryRequested');
  const orig = first?.data as { endpoint_id: string; user_id: string; event_type: string; payload: Record<string, unknown> } | undefined;
  if (!orig || orig.endpoint_id !== endpointId || orig.user_id !== userId) throw new NotFoundError('Delivery not found');
  const newId = randomUUID();
  return requestDelivery(d, endpoint, newId, orig.event_type, withDeliveryId(orig.payload, newId), { reason: 'redeliver', redelivery_of: deliveryId }, meta);
}
