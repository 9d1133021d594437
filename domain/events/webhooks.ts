/**
 * Webhook endpoints and deliveries. Endpoint stream `webhook-<endpoint_id>`;
 * each delivery's attempts go to `delivery-<delivery_id>`.
 */
import { EventDefinitions, openAllRequired, openWithRequired } from './types';
import { anyString, bool, int, nonEmptyString } from '../schema';

export type WebhookEvent =
  | {
      type: 'WebhookRegistered';
      data: {
        endpoint_id: string;
        user_id: string;
        url: string;
        events: string[];
        secret_hash: string;
        family: string;
      };
    }
  | {
      type: 'WebhookUpdated';
      data: { endpoint_id: string; user_id: string; url?: string; events?: string[]; enabled?: boolean };
    }
  | { type: 'WebhookDeleted'; data: { endpoint_id: string; user_id: string } }
  | { type: 'WebhookDisabled'; data: { endpoint_id: string; user_id: string; reason: string } }
  | {
      type: 'WebhookDeliveryScheduled';
      data: {
        delivery_id: string;
        endpoint_id: string;
        user_id: string;
        event_type: string;
        payload: Record<string, unknown>;
      };
    }
  /** A delivery asked for by the API (test ping, redeliver); the dispatcher starts its workflow (an outbox, never a start from the request path). */
  | {
      type: 'WebhookDeliveryRequested';
      data: {
        delivery_id: string;
        endpoint_id: string;
        user_id: string;
        event_type: string;
        payload: Record<string, unknown>;
        reason: 'test' | 'redeliver';
        redelivery_of?: string;
      };
    }
  | {
      type: 'WebhookDeliveryAttempted';
      data: {
        delivery_id: string;
        endpoint_id: string;
        attempt: number;
        status_code: number | null;
        outcome: 'succeeded' | 'failed' | 'gone';
        error: string | null;
        next_attempt_at: string | null;
      };
    }
  | {
      type: 'WebhookDeliveryFinished';
      data: { delivery_id: string; endpoint_id: string; status: 'succeeded' | 'failed' | 'endpoint_disabled' };
    };

const events = { type: 'array', items: nonEmptyString, minItems: 1 };

export const webhookEvents: EventDefinitions<WebhookEvent['type']> = {
  WebhookRegistered: {
    area: 'webhooks',
    version: 1,
    schema: openAllRequired({
      endpoint_id: nonEmptyString,
      user_id: nonEmptyString,
      url: nonEmptyString,
      events,
      secret_hash: nonEmptyString,
      family: nonEmptyString,
    }),
  },
  WebhookUpdated: {
    area: 'webhooks',
    version: 1,
    schema: openWithRequired(
      { endpoint_id: nonEmptyString, user_id: nonEmptyString, url: nonEmptyString, events, enabled: bool },
      ['endpoint_id', 'user_id'],
    ),
  },
  WebhookDeleted: {
    area: 'webhooks',
    version: 1,
    schema: openAllRequired({ endpoint_id: nonEmptyString, user_id: nonEmptyString }),
  },
  WebhookDisabled: {
    area: 'webhooks',
    version: 1,
    schema: openAllRequired({ endpoint_id: nonEmptyString, user_id: nonEmptyString, reason: anyString }),
  },
  WebhookDeliveryScheduled: {
    area: 'webhooks',
    version: 1,
    schema: openAllRequired({
      delivery_id: nonEmptyString,
      endpoint_id: nonEmptyString,
      user_id: nonEmptyString,
      event_type: nonEmptyString,
      payload: { type: 'object' },
    }),
  },
  WebhookDeliveryRequested: {
    area: 'webhooks',
    version: 1,
    schema: openWithRequired(
      {
        delivery_id: nonEmptyString,
        endpoint_id: nonEmptyString,
        user_id: nonEmptyString,
        event_type: nonEmptyString,
        payload: { type: 'object' },
        reason: { enum: ['test', 'redeliver'] },
        redelivery_of: nonEmptyString,
      },
      ['delivery_id', 'endpoint_id', 'user_id', 'event_type', 'payload', 'reason'],
    ),
  },
  WebhookDeliveryAttempted: {
    area: 'webhooks',
    version: 1,
    schema: openAllRequired({
      delivery_id: nonEmptyString,
      endpoint_id: nonEmptyString,
      attempt: { ...int, minimum: 1 },
      status_code: { type: ['integer', 'null'] },
      outcome: { enum: ['succeeded', 'failed', 'gone'] },
      error: { type: ['string', 'null'] },
      next_attempt_at: { type: ['string', 'null'] },
    }),
  },
  WebhookDeliveryFinished: {
    area: 'webhooks',
    version: 1,
    schema: openAllRequired({
      delivery_id: nonEmptyString,
      endpoint_id: nonEmptyString,
      status: { enum: ['succeeded', 'failed', 'endpoint_disabled'] },
    }),
  },
};
