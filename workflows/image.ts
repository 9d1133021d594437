/**
 * Image studio work that spends vendor budget or takes long (rule 1 of
 * ARCHITECTURE.md): generation (every variation its own metered activity,
 * run in parallel; a failed variation is reported, not fatal), and edits,
 * control transforms and vendor upscales. The API executes these and waits.
 * Workflow ids: `image-<kind>-<uuid>`. Pixels never enter the workflow: inputs
 * and results are storage keys.
 */
import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import { PAID_CALL_RETRY, RECORD_RETRY } from './retry';
import type { ImageActivities } from '../activities/image';
import type {
  GeneratedImage,
  GenerationOutcome,
  GenerationPlan,
  ProcessJob,
  ProcessOutcome,
  VariationFailure,
} from '../domain/image/jobs';
import type { StoredImageFacts } from '../domain/image/assets';

// Paid vendor calls (and the offline render, which is metered the same way): few retries, never for plan limits;
// vendors that answer with a task id are polled inside the activity, which heartbeats while it waits.
const paid = proxyActivities<ImageActivities>({
  startToCloseTimeout: '6m',
  heartbeatTimeout: '1m',
  retry: PAID_CALL_RETRY,
});
// Idempotent appends (appendOnce by content address).
const records = proxyActivities<ImageActivities>({ startToCloseTimeout: '1m', retry: RECORD_RETRY });

const factsOf = (
  operation: string,
  i: {
    key: string;
    content_type: string;
    width: number;
    height: number;
    bytes: number;
    provider: string;
    model: string;
  },
  userId: string,
): StoredImageFacts => ({
  user_id: userId,
  key: i.key,
  content_type: i.content_type,
  width: i.width,
  height: i.height,
  bytes: i.bytes,
  operation,
  provider: i.provider,
  model: i.model,
});

/** The failure code of a failed activity (domain/failures.ts), for a variation's report. */
function failureOf(variation: number, e: unknown): VariationFailure {
  const cause = e instanceof ActivityFailure ? e.cause : e;
  const code = cause instanceof ApplicationFailure && cause.type ? cause.type : 'INTERNAL_ERROR';
  return { variation, code, message: cause instanceof Error ? cause.message : String(cause) };
}

export async function imageGenerateWorkflow(input: {
  userId: string;
  plan: GenerationPlan;
}): Promise<GenerationOutcome> {
  const { userId, plan } = input;
  const enhancement = plan.enhance ? await paid.enhanceImagePrompt({ userId, input: plan.enrich }) : undefined;
  // A vendor model draws the enhanced prompt; the offline renderer draws the client's prompt (its enhanced prompt
  // only describes that drawing: domain/image/enrich.ts).
  const prompt = plan.provider === 'local' ? plan.prompt : (enhancement?.prompt ?? plan.prompt);
  const { seeds, enhance: _e, enrich: _r, ...common } = plan;
  const settled = await Promise.allSettled(
    seeds.map((seed, i) => paid.generateImage({ ...common, prompt, userId, seed, variation: i + 1 })),
  );
  const results: GeneratedImage[] = [];
  const failures: VariationFailure[] = [];
  settled.forEach((s, i) =>
    s.status === 'fulfilled' ? results.push(s.value) : failures.push(failureOf(i + 1, s.reason)),
  );
  // Nothing to show: the request fails with the first variation's failure (a plan limit is a 429, ...).
  if (!results.length) throw (settled[0] as PromiseRejectedResult).reason;
  const recorded = await records.recordImages({ userId, images: results.map((r) => factsOf('generate', r, userId)) });
  return { enhancement, results, failures, recorded };
}

export async function imageProcessWorkflow(input: { userId: string; job: ProcessJob }): Promise<ProcessOutcome> {
  const { userId, job } = input;
  const image = await paid.processImage({ userId, job });
  const recorded = await records.recordImages({
    userId,
    images: [factsOf(`${job.kind}.${job.operation}`, image, userId)],
  });
  return { image, recorded };
}
