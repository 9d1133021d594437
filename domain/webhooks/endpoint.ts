/**
 * The state of one webhook endpoint, folded from its stream
 * (`webhook-<endpoint_id>`). The event store is the source of truth for
 * decisions: commands and the delivery activity read the stream, never the
 * projection, so a delivery sees a disable or delete the moment it is stored.
 */
import type { WebhookEvent } from '../events/webhooks';

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

/** Folds an endpoint's events; undefined when it was never registered. */
export function foldEndpoint(events: readonly Pick<WebhookEvent, 'type' | 'data'>[]): EndpointState | undefined {
  let s: EndpointState | undefined;
  for (const e of events as WebhookEvent[]) {
    switch (e.type) {
      case 'WebhookRegistered':
        s = { endpoint_id: e.data.endpoint_id, user_id: e.data.user_id, url: e.data.url, events: e.data.events, family: e.data.family, secret_hash: e.data.secret_hash, enabled: true, deleted: false, disabled_reason: null };
        break;
      case 'WebhookUpdated':
        if (!s) break;
        if (e.data.url !== undefined) s.url = e.data.url;
        if (e.data.events !== undefined) s.events = e.data.events;
        if (e.data.enabled !== undefined) {
          s.enabled = e.data.enabled;
          s.disabled_reason = e.data.enabled ? null : 'disabled by user';
        }
        break;
      case 'WebhookDisabled':
        if (s) Object.assign(s, { enabled: false, disabled_reason: e.data.reason });
        break;
      case 'WebhookDeleted':
        if (s) Object.assign(s, { enabled: false, deleted: true });
        break;
      default:
        break;
    }
  }
  return s;
}

/** An endpoint that may receive deliveries. */
export const endpointActive = (s: EndpointState | undefined): boolean => !!s && s.enabled && !s.deleted;
