/** Shapes shared by the delivery workflow, its activities and whoever starts it. */

/** Everything a delivery workflow needs; the body is fixed when the delivery is created. */
export interface DeliveryInput {
  deliveryId: string;
  endpointId: string;
  userId: string;
  /** The webhook event name (content.generated, webhook.test, ...). */
  eventType: string;
  /** The JSON body, sent byte-identical on every attempt. */
  payload: Record<string, unknown>;
}

/** How a delivery ended (WebhookDeliveryFinished.status). */
export type DeliveryStatus = 'succeeded' | 'failed' | 'endpoint_disabled';

/**
 * One attempt's outcome as the send activity reports it:
 * succeeded (2xx), failed (anything else, retried), gone (410: disable the
 * endpoint), blocked (refused before sending: unsafe address or no secret; not
 * retried), endpoint_inactive (disabled or deleted: nothing sent).
 */
export interface AttemptOutcome {
  outcome: 'succeeded' | 'failed' | 'gone' | 'blocked' | 'endpoint_inactive';
  statusCode: number | null;
  error: string | null;
  /** The receiver's Retry-After, seconds. */
  retryAfterSeconds?: number;
}
