/**
 * The state of one webhook endpoint, folded from its stream
 * (`webhook-<endpoint_id>`). The event store is the source of truth for
 * decisions: commands and the delivery activity read the stream, never the
 * projection, so a delivery sees a disable or delete the moment it is stored.
 */
import type { DomainEvent } from '../events';

export interface EndpointState {
  endpoint_id: string;
  user_id: string;
  url: string;
  events: string[];
  family: string;
  secret_hash: string;
  enabled: boolean;
  deleted: boolean;
  disabled_reason: string | null;
}

export const webhookStream = (endpointId: string) => `webhook-${endpointId}`;
export const deliveryStream = (deliveryId: string) => `delivery-${deliveryId}`;
export const deliveryWorkflowId = (deliveryId: string) => `webhook-delivery-${deliveryId}`;

/** One event of an endpoint's stream folded into the endpoint (events of other kinds are ignored). */
export function evolveEndpoint(s: EndpointState | undefined, e: DomainEvent): EndpointState | undefined {
  switch (e.type) {
    case 'WebhookRegistered':
      return {
        endpoint_id: e.data.endpoint_id,
        user_id: e.data.user_id,
        url: e.data.url,
        events: e.data.events,
        family: e.data.family,
        secret_hash: e.data.secret_hash,
        enabled: true,
        deleted: false,
        disabled_reason: null,
      };
    case 'WebhookUpdated': {
      if (!s) return s;
      const next = { ...s };
      if (e.data.url !== undefined) next.url = e.data.url;
      if (e.data.events !== undefined) next.events = e.data.events;
      if (e.data.enabled !== undefined) {
        next.enabled = e.data.enabled;
        next.disabled_reason = e.data.enabled ? null : 'disabled by user';
      }
      return next;
    }
    case 'WebhookDisabled':
      return s && { ...s, enabled: false, disabled_reason: e.data.reason };
    case 'WebhookDeleted':
      return s && { ...s, enabled: false, deleted: true };
    default:
      return s;
  }
}

/** Folds an endpoint's events; undefined when it was never registered. */
export const foldEndpoint = (events: readonly DomainEvent[]): EndpointState | undefined =>
  events.reduce(evolveEndpoint, undefined);

/** An endpoint that may receive deliveries. */
export const endpointActive = (s: EndpointState | undefined): boolean => !!s && s.enabled && !s.deleted;
