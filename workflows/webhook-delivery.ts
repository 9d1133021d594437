/**
 * One webhook message, delivered durably: workflow id
 * `webhook-delivery-<delivery_id>` (started with REJECT_DUPLICATE, so a
 * message is never delivered by two workflows). Attempts follow the retry
 * schedule with deterministic jitter; waits are durable timers, so a delivery
 * survives worker restarts across its 24 h tail. Any 2xx ends it; 410 Gone
 * disables the endpoint; Retry-After raises the next wait; a disabled or
 * deleted endpoint stops it before the next attempt.
 */
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks';
import type { DeliveryInput, DeliveryStatus } from '../domain/webhooks/delivery';
import { delayBeforeAttempt, nextDelay } from '../domain/webhooks/schedule';
import { NON_RETRYABLE_CODES } from '../domain/failures';
import { RECORD_RETRY } from './retry';

// Appends and reads are idempotent: retry freely.
const records = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30s',
  retry: RECORD_RETRY,
});

// The send: HTTP failures come back as results (the schedule retries them);
// only infrastructure failures (worker lost, DB down) retry the activity, a few
// times. A receiver may then see a message twice: it deduplicates by webhook-id.
const send = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '60s',
  retry: {
    initialInterval: '2s',
    backoffCoefficient: 2,
    maximumInterval: '30s',
    maximumAttempts: 5,
    nonRetryableErrorTypes: NON_RETRYABLE_CODES,
  },
});

export async function webhookDeliveryWorkflow(input: DeliveryInput): Promise<DeliveryStatus> {
  const ref = { deliveryId: input.deliveryId, endpointId: input.endpointId };
  const finish = async (status: DeliveryStatus) => {
    await records.finishDelivery({ ...ref, userId: input.userId, status });
    return status;
  };
  const { schedule } = await records.openDelivery(input);
  let wait = delayBeforeAttempt(schedule, input.deliveryId, 1) ?? 0;
  for (let attempt = 1; attempt <= schedule.length; attempt++) {
    if (wait > 0) await sleep(wait);
    const r = await send.attemptDelivery({ ...ref, attempt, payload: input.payload });
    if (r.outcome === 'endpoint_inactive') return finish('endpoint_disabled');
    const base = { ...ref, userId: input.userId, attempt, statusCode: r.statusCode, error: r.error };
    if (r.outcome === 'succeeded') {
      await records.recordAttempt({ ...base, outcome: 'succeeded', nextDelayMs: null });
      return finish('succeeded');
    }
    if (r.outcome === 'gone') {
      await records.recordAttempt({ ...base, outcome: 'gone', nextDelayMs: null });
      await records.disableEndpoint({
        endpointId: input.endpointId,
        userId: input.userId,
        reason: `410 Gone from the endpoint (delivery ${input.deliveryId})`,
      });
      return finish('endpoint_disabled');
    }
    const next =
      r.outcome === 'blocked' ? undefined : nextDelay(schedule, input.deliveryId, attempt + 1, r.retryAfterSeconds);
    await records.recordAttempt({ ...base, outcome: 'failed', nextDelayMs: next ?? null });
    if (next === undefined) break;
    wait = next;
  }
  return finish('failed');
}
