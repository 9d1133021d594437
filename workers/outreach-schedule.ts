/**
 * The Temporal Schedule that polls the outreach mailbox for replies every
 * OUTREACH_REPLY_POLL_SECONDS (default 300). The worker creates it at start
 * (or updates its interval) when a mailbox is configured; overlapping runs are
 * skipped (a poll also holds the mailbox's lock in PostgreSQL).
 */
import { Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import { outreachReplyPollWorkflow } from '../workflows';
import { ownerAttributes, PLATFORM_USER, workflowKind } from '../domain/search-attributes';

export async function ensureReplyPollSchedule(
  client: Client,
  opts: { taskQueue: string; intervalSeconds: number; scheduleId?: string },
): Promise<string> {
  const scheduleId = opts.scheduleId ?? `outreach-reply-poll-${opts.taskQueue}`;
  const spec = { intervals: [{ every: opts.intervalSeconds * 1000 }] };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: outreachReplyPollWorkflow,
    workflowId: scheduleId,
    taskQueue: opts.taskQueue,
    args: [] as [],
    // The mailbox of every campaign: the platform's own work.
    typedSearchAttributes: ownerAttributes(PLATFORM_USER, workflowKind(outreachReplyPollWorkflow)),
  };
  try {
    await client.schedule.create({
      scheduleId,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1m' },
    });
  } catch (e) {
    if (!(e instanceof ScheduleAlreadyRunning)) throw e;
    await client.schedule.getHandle(scheduleId).update((prev) => ({ ...prev, spec, action }));
  }
  return scheduleId;
}
