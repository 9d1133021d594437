/**
 * One send as workflow code (shared by the send workflow and the follow-up
 * steps): the policy decides (atomically, fail closed), the message goes out
 * over SMTP under the attempt's idempotency key, and the outcome is recorded.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Delivered, OutreachSendActivities, SendInput } from '../activities/outreach-send';
import type { PolicyResult } from '../domain/outreach/policy';
import { NON_RETRYABLE_CODES } from '../domain/failures';
import { RECORD_RETRY } from './retry';

// Policy decisions and event appends are idempotent (keyed by the attempt id): retry patiently.
const records = proxyActivities<OutreachSendActivities>({ startToCloseTimeout: '1m', retry: RECORD_RETRY });

// The SMTP hand-over: idempotent through the send ledger (never sent twice). A worker that dies mid-send is
// noticed by the missing heartbeat; the retry checks the ledger and the sender's mailbox before sending.
const smtp = proxyActivities<OutreachSendActivities>({
  startToCloseTimeout: '2m',
  heartbeatTimeout: '10s',
  retry: {
    initialInterval: '2s',
    backoffCoefficient: 2,
    maximumAttempts: 4,
    nonRetryableErrorTypes: NON_RETRYABLE_CODES,
  },
});

export type SendOutcome =
  | { status: 'sent'; attemptId: string; policy: PolicyResult; delivered: Delivered }
  | { status: 'refused'; attemptId: string; policy: PolicyResult; reason: string }
  | { status: 'failed'; attemptId: string; error: string };

/** Policy, delivery and records of one send (first email or follow-up step). */
export async function sendOnce(input: SendInput): Promise<SendOutcome> {
  const policy = await records.outreachReservePolicy(input);
  if (!policy.allowed) {
    const reason = policy.reason ?? 'refused by policy';
    await records.outreachRecordRefused({ input, reason });
    return { status: 'refused', attemptId: input.attemptId, policy, reason };
  }
  let delivered: Delivered;
  try {
    delivered = await smtp.outreachDeliver(input);
  } catch (e) {
    const error = errorText(e);
    await records.outreachRecordFailed({ input, error });
    return { status: 'failed', attemptId: input.attemptId, error };
  }
  await records.outreachRecordSent({ input, delivered, legalBasis: policy.legal_basis });
  return { status: 'sent', attemptId: input.attemptId, policy, delivered };
}

/** The root cause's message of an activity failure. */
function errorText(e: unknown): string {
  let c = e as { message?: string; cause?: unknown } | undefined;
  let msg = c?.message ?? String(e);
  for (let i = 0; c && i < 5; i++, c = c.cause as typeof c) if (c.message) msg = c.message;
  return msg;
}
