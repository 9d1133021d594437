/**
 * Webhook endpoint commands: register, update, delete, test ping, redeliver.
 * Each runs the endpoint decider (domain/webhooks/decide.ts) through
 * handleCommand: read the endpoint's stream, decide, append with the expected
 * version, so two concurrent changes cannot both win. I/O the decision needs
 * happens first (SSRF check of the URL); the secret is stored in the same
 * transaction as the registration. Test pings and redeliveries append
 * WebhookDeliveryRequested; the dispatcher starts the delivery workflow from it
 * (an outbox: nothing is started from the request path). Used by
 * api/webhooks/routes.ts; the calendar registers with family 'calendar'.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../domain/errors';
import { buildPayload, TEST_EVENT, WebhookFamily, withDeliveryId } from '../../domain/webhooks/catalogue';
import { endpointDecider, EndpointCommand, invalidField } from '../../domain/webhooks/decide';
import { deliveryStream, webhookStream } from '../../domain/webhooks/endpoint';
import type { EventMetadata, EventStore, RecordedEvent } from '../../infra/eventstore';
import { handleCommand } from '../../infra/eventstore/command';
import { generateSecret, secretFingerprint, secretProblem } from '../../infra/webhooks/sign';
import { resolveWebhookTarget, UnsafeWebhookUrlError } from '../../infra/webhooks/ssrf';
import type { WebhookAdapters } from '../kernel/types';

export interface WebhookCommandDeps extends WebhookAdapters {
  store: EventStore;
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

/** Refuses a URL that is malformed or resolves to a forbidden address (SSRF), as a validation error on `url`. */
export async function checkWebhookUrl(d: Pick<WebhookAdapters, 'ssrf'>, url: string): Promise<void> {
  try {
    await resolveWebhookTarget(url, d.ssrf);
  } catch (e) {
    if (e instanceof UnsafeWebhookUrlError) throw invalidField('url', e.reason, url);
    throw e;
  }
}

const run = (
  d: WebhookCommandDeps,
  endpointId: string,
  command: EndpointCommand,
  meta: EventMetadata,
  appendTo?: string,
) =>
  handleCommand(d.store, webhookStream(endpointId), endpointDecider, command, {
    metadata: meta,
    ...(appendTo ? { appendTo: { streamId: appendTo, expectedVersion: 'no_stream' } } : {}),
  });

export async function registerWebhook(
  d: WebhookCommandDeps,
  userId: string,
  input: { url: string; events: string[]; secret?: string; family?: WebhookFamily },
  meta: EventMetadata = {},
): Promise<Written<RegisteredWebhook>> {
  const family = input.family ?? 'general';
  if (input.secret !== undefined) {
    const problem = secretProblem(input.secret);
    if (problem) throw invalidField('secret', problem);
  }
  await checkWebhookUrl(d, input.url);
  const secret = input.secret ?? generateSecret();
  const endpoint_id = randomUUID();
  const command: EndpointCommand = {
    kind: 'register',
    endpoint_id,
    user_id: userId,
    url: input.url,
    events: input.events,
    secret_hash: secretFingerprint(secret),
    family,
  };
  const r = await d.store.transaction(async (tx) => {
    await d.secrets.put(endpoint_id, userId, secret, tx);
    return handleCommand(tx, webhookStream(endpoint_id), endpointDecider, command, {
      metadata: { ...meta, user_id: userId },
    });
  });
  const registered = r.decided[0];
  const events = registered.type === 'WebhookRegistered' ? registered.data.events : input.events;
  return { value: { endpoint_id, url: input.url, events, family, enabled: true, secret }, events: r.events };
}

export async function updateWebhook(
  d: WebhookCommandDeps,
  userId: string,
  endpointId: string,
  input: { url?: string; events?: string[]; enabled?: boolean },
  meta: EventMetadata = {},
): Promise<Written<null>> {
  if (input.url !== undefined) await checkWebhookUrl(d, input.url);
  const r = await run(d, endpointId, { kind: 'update', user_id: userId, ...input }, { ...meta, user_id: userId });
  return { value: null, events: r.events };
}

/** Deletes the endpoint and its secret; deliveries in flight stop before their next attempt. */
export async function deleteWebhook(
  d: WebhookCommandDeps,
  userId: string,
  endpointId: string,
  meta: EventMetadata = {},
): Promise<Written<null>> {
  const r = await d.store.transaction(async (tx) => {
    const done = await handleCommand(
      tx,
      webhookStream(endpointId),
      endpointDecider,
      { kind: 'delete', user_id: userId },
      { metadata: { ...meta, user_id: userId } },
    );
    await d.secrets.delete(endpointId, tx);
    return done;
  });
  return { value: null, events: r.events };
}

export interface RequestedDelivery {
  delivery_id: string;
  endpoint_id: string;
  event_type: string;
  status: 'pending';
}

async function requestDelivery(
  d: WebhookCommandDeps,
  userId: string,
  endpointId: string,
  deliveryId: string,
  eventType: string,
  payload: Record<string, unknown>,
  extra: { reason: 'test' | 'redeliver'; redelivery_of?: string },
  meta: EventMetadata,
): Promise<Written<RequestedDelivery>> {
  const r = await run(
    d,
    endpointId,
    { kind: 'request_delivery', user_id: userId, delivery_id: deliveryId, event_type: eventType, payload, ...extra },
    { ...meta, user_id: userId },
    deliveryStream(deliveryId),
  );
  return {
    value: { delivery_id: deliveryId, endpoint_id: endpointId, event_type: eventType, status: 'pending' },
    events: r.events,
  };
}

/** Sends a `webhook.test` message to the endpoint (whatever it subscribed to). */
export async function testWebhook(
  d: WebhookCommandDeps,
  userId: string,
  endpointId: string,
  meta: EventMetadata = {},
  now = new Date(),
): Promise<Written<RequestedDelivery>> {
  const deliveryId = randomUUID();
  const payload = buildPayload(
    { name: TEST_EVENT, data: { endpoint_id: endpointId, message: 'This is a test delivery.' } },
    deliveryId,
    now.toISOString(),
  );
  return requestDelivery(d, userId, endpointId, deliveryId, TEST_EVENT, payload, { reason: 'test' }, meta);
}

/** Sends an earlier delivery's body again under a new delivery id. */
export async function redeliverWebhook(
  d: WebhookCommandDeps,
  userId: string,
  endpointId: string,
  deliveryId: string,
  meta: EventMetadata = {},
): Promise<Written<RequestedDelivery>> {
  const events = await d.store.readStream(deliveryStream(deliveryId));
  let orig: { endpoint_id: string; user_id: string; event_type: string; payload: Record<string, unknown> } | undefined;
  for (const e of events)
    if (!orig && (e.type === 'WebhookDeliveryScheduled' || e.type === 'WebhookDeliveryRequested')) orig = e.data;
  if (!orig || orig.endpoint_id !== endpointId || orig.user_id !== userId)
    throw new NotFoundError('Delivery not found');
  const newId = randomUUID();
  return requestDelivery(
    d,
    userId,
    endpointId,
    newId,
    orig.event_type,
    withDeliveryId(orig.payload, newId),
    { reason: 'redeliver', redelivery_of: deliveryId },
    meta,
  );
}
