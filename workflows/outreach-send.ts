/**
 * One outreach send (workflow id `outreach-send-<attempt_id>`, executed by
 * POST /outreach/send, which waits for its outcome): the policy decides
 * (atomically, fail closed), the message goes out over SMTP under the
 * attempt's idempotency key, the outcome is recorded, and a first send starts
 * its follow-ups (`outreach-followup-<attempt_id>`, which outlive this
 * workflow). Outcomes are returned as data: a refusal is the API's 403 with
 * its reason, a delivery failure its generic 500.
 */
import { ParentClosePolicy, startChild } from '@temporalio/workflow';
import type { SendInput } from '../activities/outreach-send';
import type { Tone } from '../domain/outreach/writer';
import { outreachFollowUpWorkflow } from './outreach-follow-up';
import { ownerAttributes, workflowKind } from '../domain/search-attributes';
import { sendOnce, SendOutcome } from './outreach-send-once';

export type { SendOutcome };

export interface OutreachSendRequest extends SendInput {
  /** Days after this send when follow-ups go out (the campaign's schedule); [] = none. */
  followUpDays: number[];
  tone?: Tone;
}

export async function outreachSendWorkflow(req: OutreachSendRequest): Promise<SendOutcome> {
  const { followUpDays, tone, ...input } = req;
  const out = await sendOnce(input);
  if (out.status === 'sent' && input.kind === 'initial' && followUpDays.length > 0)
    await startChild(outreachFollowUpWorkflow, {
      workflowId: `outreach-followup-${input.attemptId}`,
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: ownerAttributes(input.userId, workflowKind(outreachFollowUpWorkflow)),
      args: [
        {
          ...input,
          followUpId: input.attemptId,
          messageId: out.delivered.messageId,
          sentAt: out.delivered.sentAt,
          days: followUpDays,
          tone,
        },
      ],
    });
  return out;
}
