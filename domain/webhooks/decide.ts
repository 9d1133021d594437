/**
 * Decisions on a webhook endpoint's stream (`webhook-<endpoint_id>`):
 * register, update, delete, and asking for a delivery (test ping, redeliver)
 * — the last one writes to the new delivery's stream. Only the owner may act
 * on an endpoint; another user's or a deleted endpoint is "not found".
 * What needs I/O happens before the decision and arrives in the command: the
 * URL's SSRF check, the secret's fingerprint, new ids, the payload.
 */
import type { Decider } from '../decider';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { DomainEvent } from '../events';
import { subscribableNames, WebhookFamily } from './catalogue';
import { endpointActive, EndpointState, evolveEndpoint } from './endpoint';

export type EndpointCommand =
  | {
      kind: 'register';
      endpoint_id: string;
      user_id: string;
      url: string;
      events: string[];
      secret_hash: string;
      family: WebhookFamily;
    }
  | { kind: 'update'; user_id: string; url?: string; events?: string[]; enabled?: boolean }
  | { kind: 'delete'; user_id: string }
  | {
      kind: 'request_delivery';
      user_id: string;
      delivery_id: string;
      event_type: string;
      payload: Record<string, unknown>;
      reason: 'test' | 'redeliver';
      redelivery_of?: string;
    };

export const invalidField = (path: string, message: string, provided?: unknown) =>
  new ValidationError([
    {
      location: 'body',
      path,
      kind: 'constraint',
      message,
      ...(provided !== undefined ? { provided_value: provided } : {}),
    },
  ]);

/** The names, de-duplicated; refuses an empty list and names a family does not offer. */
export function checkEventNames(events: string[], family: WebhookFamily): string[] {
  const allowed = subscribableNames(family);
  const unique = [...new Set(events)];
  if (unique.length === 0) throw invalidField('events', 'events must name at least one event');
  const unknown = unique.filter((n) => !allowed.includes(n));
  if (unknown.length)
    throw invalidField(
      'events',
      `unknown event name(s): ${unknown.join(', ')}; allowed: ${allowed.join(', ')}`,
      unknown,
    );
  return unique;
}

/** The caller's endpoint, or 404. */
export function ownEndpoint(s: EndpointState | undefined, userId: string): EndpointState {
  if (!s || s.user_id !== userId || s.deleted) throw new NotFoundError('Webhook not found');
  return s;
}

export const endpointDecider: Decider<EndpointCommand, EndpointState | undefined> = {
  initialState: undefined,
  evolve: evolveEndpoint,
  decide(c, s): DomainEvent[] {
    switch (c.kind) {
      case 'register': {
        const events = checkEventNames(c.events, c.family);
        return [
          {
            type: 'WebhookRegistered',
            data: {
              endpoint_id: c.endpoint_id,
              user_id: c.user_id,
              url: c.url,
              events,
              secret_hash: c.secret_hash,
              family: c.family,
            },
          },
        ];
      }
      case 'update': {
        const e = ownEndpoint(s, c.user_id);
        const events = c.events !== undefined ? checkEventNames(c.events, e.family as WebhookFamily) : undefined;
        if (c.url === undefined && events === undefined && c.enabled === undefined)
          throw invalidField('', 'nothing to change: give url, events or enabled');
        return [
          {
            type: 'WebhookUpdated',
            data: {
              endpoint_id: e.endpoint_id,
              user_id: c.user_id,
              ...(c.url !== undefined ? { url: c.url } : {}),
              ...(events ? { events } : {}),
              ...(c.enabled !== undefined ? { enabled: c.enabled } : {}),
            },
          },
        ];
      }
      case 'delete': {
        const e = ownEndpoint(s, c.user_id);
        return [{ type: 'WebhookDeleted', data: { endpoint_id: e.endpoint_id, user_id: c.user_id } }];
      }
      case 'request_delivery': {
        const e = ownEndpoint(s, c.user_id);
        if (!endpointActive(e))
          throw new ConflictError('The webhook is disabled; enable it (PATCH enabled=true) first', {
            endpoint_id: e.endpoint_id,
            reason: e.disabled_reason,
          });
        return [
          {
            type: 'WebhookDeliveryRequested',
            data: {
              delivery_id: c.delivery_id,
              endpoint_id: e.endpoint_id,
              user_id: e.user_id,
              event_type: c.event_type,
              payload: c.payload,
              reason: c.reason,
              ...(c.redelivery_of ? { redelivery_of: c.redelivery_of } : {}),
            },
          },
        ];
      }
    }
  },
};
