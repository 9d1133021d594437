/**
 * One publishing timer: workflow `calendar-publish-<schedule_id>`, started by
 * the calendar scheduler when an event's timer is armed
 * (CalendarEventScheduled). It sleeps on a durable timer until scheduled_at
 * and then asks publishDueEvent to publish. Rescheduling or cancelling an
 * event disarms the timer (CalendarEventUnscheduled): the scheduler cancels
 * this workflow and, for a new time, starts another under a new schedule id
 * (cancel + restart, not signals: each time has its own id, so a stale
 * timer can never publish even if its cancel were lost).
 *
 * A worker that is down when the timer fires runs it when it comes back: the
 * timer is Temporal's, not the worker's, so the event is published late, once.
 */
import { ActivityFailure, ApplicationFailure, isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { CalendarActivities, PublishInput, PublishOutcome } from '../activities/calendar';
import { NON_RETRYABLE_CODES } from '../domain/failures';
import { RECORD_RETRY } from './retry';

/**
 * The publication (platform send + decision) retries about two minutes with backoff (8 attempts, 123 s of waits:
 * test/int/foundation/timers.int.test.ts runs them in skipped time): the decision is idempotent (it checks the schedule id) and an adapter sends with the schedule id as idempotency key.
 * When the last attempt fails, or the platform refuses the post (a non-retryable code), the event moves to
 * `failed` with code PLATFORM_ERROR instead of staying `scheduled`.
 */
const publisher = proxyActivities<CalendarActivities>({
  startToCloseTimeout: '60s',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '60s',
    maximumAttempts: 8,
    nonRetryableErrorTypes: NON_RETRYABLE_CODES,
  },
});
// Recording the failure is a plain event-store write: it retries patiently.
const recorder = proxyActivities<CalendarActivities>({ startToCloseTimeout: '60s', retry: RECORD_RETRY });

export const publishWorkflowId = (scheduleId: string) => `calendar-publish-${scheduleId}`;

/** The event's failure code for a publication that failed for good. */
export const PUBLISH_FAILURE_CODE = 'PLATFORM_ERROR';

export async function calendarPublishWorkflow(input: PublishInput): Promise<PublishOutcome> {
  const wait = new Date(input.scheduledAt).getTime() - new Date().getTime();
  try {
    if (wait > 0) await sleep(wait);
  } catch (e) {
    if (isCancellation(e)) return { outcome: 'skipped', reason: 'timer cancelled' };
    throw e;
  }
  try {
    return await publisher.publishDueEvent(input);
  } catch (e) {
    if (isCancellation(e) || !(e instanceof ActivityFailure)) throw e;
    const cause = e.cause instanceof ApplicationFailure ? e.cause : undefined;
    const reason = `publishing failed: ${cause?.type ?? 'INTERNAL_ERROR'}: ${cause?.message ?? e.message}`;
    return recorder.recordPublishFailure({ ...input, code: PUBLISH_FAILURE_CODE, reason: reason.slice(0, 500) });
  }
}
