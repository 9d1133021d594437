/**
 * Activities of webhook deliveries. Appends are idempotent (event id from
 * workflow id + activity id, as in tasks.ts), so a retried activity never
 * records twice. The send re-reads the endpoint from its stream, re-checks
 * the URL against SSRF rules, signs and POSTs to the checked address.
 */
import type { Logger } from 'pino';
import type { EventStore, NewEvent } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import { signedHeaders } from '../infra/webhooks/sign';
import { resolveWebhookTarget, AllowEntry, Resolver, UnsafeWebhookUrlError } from '../infra/webhooks/ssrf';
import { postPinned } from '../infra/webhooks/http';
import type { WebhookSecretStore } from '../infra/webhooks/secrets';
import { deliveryStream, endpointActive, foldEndpoint, webhookStream } from '../domain/webhooks/endpoint';
import { parseRetryAfter } from '../domain/webhooks/schedule';
import type { AttemptOutcome, DeliveryInput, DeliveryStatus } from '../domain/webhooks/delivery';
import { activityKey, currentWorkflowId } from './tasks';

export interface WebhookActivityDeps {
  store: EventStore;
  secrets: WebhookSecretStore;
  /** SSRF allow-list. */
  allow: AllowEntry[];
  /** Seconds before each attempt. */
  schedule: number[];
  attemptTimeoutMs: number;
  /** DNS resolver (tests); default dns.lookup all. */
  resolve?: Resolver;
  logger?: Logger;
  now?: () => Date;
}

interface DeliveryRef {
  deliveryId: string;
  endpointId: string;
}

export function createWebhookActivities(deps: WebhookActivityDeps) {
  const now = deps.now ?? (() => new Date());
  const appendOnce = async (stream: string, event: NewEvent, userId?: string) => {
    const key = activityKey();
    await deps.store.appendOnce(
      stream,
      { ...event, eventId: uuidFromKey(`webhook:${key}`) },
      { ...(userId ? { user_id: userId } : {}), workflow_id: currentWorkflowId(), causation_id: key },
    );
  };
  return {
    /** Records WebhookDeliveryScheduled once and returns the retry schedule this worker uses. */
    async openDelivery(d: DeliveryInput): Promise<{ schedule: number[] }> {
      await appendOnce(
        deliveryStream(d.deliveryId),
        {
          type: 'WebhookDeliveryScheduled',
          data: {
            delivery_id: d.deliveryId,
            endpoint_id: d.endpointId,
            user_id: d.userId,
            event_type: d.eventType,
            payload: d.payload,
          },
        },
        d.userId,
      );
      return { schedule: [...deps.schedule] };
    },

    /** One attempt: endpoint re-read, SSRF re-check, sign, POST. HTTP failures are results, not exceptions. */
    async attemptDelivery(
      a: DeliveryRef & { attempt: number; payload: Record<string, unknown> },
    ): Promise<AttemptOutcome> {
      const endpoint = foldEndpoint(await deps.store.readStream(webhookStream(a.endpointId)));
      if (!endpoint || !endpointActive(endpoint))
        return { outcome: 'endpoint_inactive', statusCode: null, error: null };
      let target;
      try {
        target = await resolveWebhookTarget(endpoint.url, { allow: deps.allow, resolve: deps.resolve });
      } catch (e) {
        if (e instanceof UnsafeWebhookUrlError) {
          // Does not resolve: may be transient, retry. Resolves to a forbidden address: refuse for good.
          const transient = /does not resolve/.test(e.reason);
          return { outcome: transient ? 'failed' : 'blocked', statusCode: null, error: e.reason };
        }
        throw e;
      }
      const secret = await deps.secrets.get(a.endpointId);
      if (!secret) return { outcome: 'blocked', statusCode: null, error: 'no signing secret stored for the endpoint' };
      const body = JSON.stringify(a.payload);
      const headers = signedHeaders(secret, a.deliveryId, Math.floor(now().getTime() / 1000), body);
      const r = await postPinned(target, headers, body, deps.attemptTimeoutMs);
      deps.logger?.debug(
        { delivery_id: a.deliveryId, endpoint_id: a.endpointId, attempt: a.attempt, status_code: r.statusCode },
        'webhook attempt',
      );
      const code = r.statusCode;
      const outcome = code !== null && code >= 200 && code < 300 ? 'succeeded' : code === 410 ? 'gone' : 'failed';
      const retryAfterSeconds = parseRetryAfter(r.retryAfter, now());
      return {
        outcome,
        statusCode: code,
        error: r.error,
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      };
    },

    /** Records WebhookDeliveryAttempted once; next_attempt_at = now + nextDelayMs (null when no attempt follows). */
    async recordAttempt(
      a: DeliveryRef & {
        userId: string;
        attempt: number;
        outcome: 'succeeded' | 'failed' | 'gone';
        statusCode: number | null;
        error: string | null;
        nextDelayMs: number | null;
      },
    ): Promise<void> {
      const next = a.nextDelayMs === null ? null : new Date(now().getTime() + a.nextDelayMs).toISOString();
      await appendOnce(
        deliveryStream(a.deliveryId),
        {
          type: 'WebhookDeliveryAttempted',
          data: {
            delivery_id: a.deliveryId,
            endpoint_id: a.endpointId,
            attempt: a.attempt,
            status_code: a.statusCode,
            outcome: a.outcome,
            error: a.error,
            next_attempt_at: next,
          },
        },
        a.userId,
      );
    },

    /** 410 Gone: the endpoint is disabled (WebhookDisabled on its stream), once. */
    async disableEndpoint(a: { endpointId: string; userId: string; reason: string }): Promise<void> {
      await appendOnce(
        webhookStream(a.endpointId),
        { type: 'WebhookDisabled', data: { endpoint_id: a.endpointId, user_id: a.userId, reason: a.reason } },
        a.userId,
      );
    },

    async finishDelivery(a: DeliveryRef & { userId: string; status: DeliveryStatus }): Promise<void> {
      await appendOnce(
        deliveryStream(a.deliveryId),
        {
          type: 'WebhookDeliveryFinished',
          data: { delivery_id: a.deliveryId, endpoint_id: a.endpointId, status: a.status },
        },
        a.userId,
      );
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
