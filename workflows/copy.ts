/**
 * One piece of short copy (social post, hook, headline, subject line,
 * caption) as a workflow: the call spends vendor budget or model time, so it
 * runs as an activity (rule 1 of ARCHITECTURE.md). Workflow id `copy-<uuid>`.
 * Cancelling the workflow stops the model mid-generation: the activity
 * heartbeats, and its cancellation signal reaches the generation.
 */
import { proxyActivities } from '@temporalio/workflow';
import { PAID_CALL_RETRY } from './retry';
import type { CopyActivities, WrittenCopy } from '../activities/copy';
import type { ShortCopyInput } from '../domain/generation/copy';
import type { ProviderChoiceName } from '../domain/generation/model-plan';

const paid = proxyActivities<CopyActivities>({
  startToCloseTimeout: '3m',
  // Heartbeats every 3 s while generating: a dead worker is noticed, and a cancellation arrives, within seconds.
  heartbeatTimeout: '10s',
  retry: PAID_CALL_RETRY,
});

export interface CopyRequest {
  userId: string;
  copy: ShortCopyInput;
  provider?: ProviderChoiceName;
}

export async function shortCopyWorkflow(input: CopyRequest): Promise<WrittenCopy> {
  return paid.writeCopy(input);
}
