/**
 * One poll of the outreach mailbox (workflow id `outreach-replies-<uuid>` for
 * POST /replies/poll, `outreach-reply-poll-...` runs of the Temporal Schedule
 * the worker creates, every OUTREACH_REPLY_POLL_SECONDS): the activity reads
 * and records new replies; the workflow then stops the follow-ups of leads
 * that replied, bounced or unsubscribed (cancelling their workflows, which
 * record why).
 */
import { getExternalWorkflowHandle, proxyActivities } from '@temporalio/workflow';
import type { OutreachReplyActivities, PollResult } from '../activities/outreach-replies';
import { NON_RETRYABLE_CODES } from '../domain/failures';

// Talks to the IMAP server: a few retries; every write it makes is idempotent.
const imap = proxyActivities<OutreachReplyActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '1m',
  retry: {
    initialInterval: '2s',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_CODES,
  },
});

export async function outreachReplyPollWorkflow(): Promise<PollResult> {
  const r = await imap.outreachPollMailbox();
  for (const id of r.stopFollowUps) {
    try {
      await getExternalWorkflowHandle(`outreach-followup-${id}`).cancel();
    } catch {
      // No follow-ups for this send (none scheduled, or already finished): nothing to stop.
    }
  }
  return r;
}
