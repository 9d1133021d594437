/**
 * Follow-ups of one first send (workflow id `outreach-followup-<attempt_id>`):
 * durable timers until each day of the campaign's schedule (default day 3 and
 * day 7 after the send); before each step the lead is checked, and the
 * follow-ups stop when it is no longer `contacted` (a reply, a bounce, a
 * manual change), its campaign is gone or its address is suppressed. Each step
 * is written through the AI gateway and sent through the same policy and SMTP
 * path as a first send, in the thread of the first message. Cancelling the
 * workflow (a manual status change, a reply found by the poller) stops it at
 * once and records why; a send already decided is finished first.
 */
import { CancellationScope, isCancellation, proxyActivities, sleep, uuid4 } from '@temporalio/workflow';
import type { OutreachSendActivities, SendInput } from '../activities/outreach-send';
import type { OutreachWritingActivities } from '../activities/outreach-writing';
import type { Tone } from '../domain/outreach/writer';
import { PAID_CALL_RETRY, READ_RETRY, RECORD_RETRY } from './retry';
import { sendOnce } from './outreach-send-once';

const records = proxyActivities<OutreachSendActivities>({ startToCloseTimeout: '1m', retry: RECORD_RETRY });
const reads = proxyActivities<OutreachSendActivities>({ startToCloseTimeout: '1m', retry: READ_RETRY });
const paid = proxyActivities<OutreachWritingActivities>({
  startToCloseTimeout: '3m',
  heartbeatTimeout: '2m',
  retry: PAID_CALL_RETRY,
});

const DAY_MS = 86_400_000;

export interface FollowUpRequest extends SendInput {
  /** The first send's attempt id. */
  followUpId: string;
  /** Message-ID and time of the first send. */
  messageId: string;
  sentAt: string;
  /** Days after the first send, ascending. */
  days: number[];
  tone?: Tone;
}

export async function outreachFollowUpWorkflow(f: FollowUpRequest): Promise<{ sent: number; stopped?: string }> {
  const start = new Date(f.sentAt).getTime();
  const steps = f.days.map((d, i) => ({ step: i + 1, due_at: new Date(start + d * DAY_MS).toISOString() }));
  const who = { userId: f.userId, campaignId: f.campaignId };
  await records.outreachFollowUpsScheduled({ ...who, followUpId: f.followUpId, leadId: f.leadId, steps });
  const gateArgs = {
    userId: f.userId,
    workspaceId: f.workspaceId,
    campaignId: f.campaignId,
    leadId: f.leadId,
    recipient: f.recipient,
  };
  let pending = steps.map((s) => s.step);
  let sent = 0;
  const stop = async (reason: string) => {
    await records.outreachFollowUpsStopped({ ...who, followUpId: f.followUpId, steps: pending, reason });
    return { sent, stopped: reason };
  };
  let waited = 0;
  try {
    for (const [i, s] of steps.entries()) {
      const wait = f.days[i] * DAY_MS - waited;
      if (wait > 0) await sleep(wait);
      waited += Math.max(0, wait);
      const gate = await reads.outreachFollowUpGate(gateArgs);
      if (!gate.ok) return await stop(gate.reason);
      // Once the step is decided it is finished, even if a stop arrives meanwhile.
      const out = await CancellationScope.nonCancellable(async () => {
        const draft = await paid.outreachFollowUpEmail({
          userId: f.userId,
          original_subject: f.subject,
          original_body: f.body,
          tone: f.tone,
        });
        const attemptId = uuid4();
        const r = await sendOnce({
          ...f,
          attemptId,
          subject: draft.subject,
          body: draft.body,
          kind: 'follow_up',
          followUpOf: f.followUpId,
          step: s.step,
          inReplyTo: f.messageId,
        });
        await records.outreachFollowUpStepDone({
          ...who,
          followUpId: f.followUpId,
          step: s.step,
          outcome: r.status,
          attemptId,
          reason: r.status === 'refused' ? r.reason : r.status === 'failed' ? r.error : null,
        });
        return r;
      });
      pending = pending.filter((p) => p !== s.step);
      if (out.status === 'sent') sent++;
      if (out.status === 'refused' && /suppression/.test(out.reason) && pending.length)
        return await stop('recipient is on the suppression list');
    }
    return { sent };
  } catch (e) {
    if (!isCancellation(e)) throw e;
    return CancellationScope.nonCancellable(async () => {
      const gate = await reads.outreachFollowUpGate(gateArgs);
      return stop(gate.ok ? 'stopped on request' : gate.reason);
    });
  }
}
