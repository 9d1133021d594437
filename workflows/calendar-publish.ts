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
import { isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { CalendarActivities, PublishInput, PublishOutcome } from '../activities/calendar';
import { RECORD_RETRY } from './retry';

// The decision is idempotent (it checks the schedule id), so the activity retries patiently; a platform
// adapter sends with the schedule id as idempotency key.
const publisher = proxyActivities<CalendarActivities>({ startToCloseTimeout: '60s', retry: RECORD_RETRY });

export const publishWorkflowId = (scheduleId: string) => `calendar-publish-${scheduleId}`;

export async function calendarPublishWorkflow(input: PublishInput): Promise<PublishOutcome> {
  const wait = new Date(input.scheduledAt).getTime() - new Date().getTime();
  try {
    if (wait > 0) await sleep(wait);
  } catch (e) {
    if (isCancellation(e)) return { outcome: 'skipped', reason: 'timer cancelled' };
    throw e;
  }
  return publisher.publishDueEvent(input);
}
