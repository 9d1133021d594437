/**
 * How activities make one AI call through the gateway and read its answer:
 * heartbeating while the vendor works, with the activity's cancellation
 * signal. A typed task's answer (`ask`) is checked by the gateway's `run`
 * against the task's schema (a vendor may answer anything; an unusable answer
 * is VENDOR_BAD_RESPONSE, which is not retried: the call was paid for and the
 * same prompt would most likely be answered the same way). Plan limits,
 * missing vendors and refused requests carry their failure codes
 * (activities/failures.ts).
 */
import { Context } from '@temporalio/activity';
import type { AiGateway, CompletionRequest, CompletionResponse, TaskCall } from '../infra/ai/gateway';
import type { AiTask } from '../domain/ai/task';
import type { Source } from '../domain/blog/types';
import type { Coverage, GenerationMetadata } from '../domain/generation';
import { withHeartbeat } from './heartbeat';

/**
 * One metered call, heartbeating while the vendor or the in-process model works. The activity's
 * cancellation signal goes with it, so cancelling the task stops a generation mid-way.
 */
export const guarded = (gateway: AiGateway, req: CompletionRequest): Promise<CompletionResponse> =>
  withHeartbeat(() => gateway.complete({ ...req, signal: req.signal ?? Context.current().cancellationSignal }));

/**
 * One call of a typed task (domain/ai/task.ts), heartbeating while it runs, with the activity's cancellation
 * signal: the answer typed as the task's output, and the call behind it.
 */
export const ask = <I, O>(gateway: AiGateway, task: AiTask<I, O>, input: I, call: Omit<TaskCall, 'signal'>) =>
  withHeartbeat(() => gateway.run(task, input, { ...call, signal: Context.current().cancellationSignal }));

/** The response's metadata as clients see it: provider, model, tokens and, for llama, who wrote what. */
export function generationInfo(resp: CompletionResponse): GenerationMetadata {
  const m = resp.metadata;
  return {
    provider: resp.provider,
    model: resp.model,
    offline: m.offline,
    tokens_in: resp.tokens_in,
    tokens_out: resp.tokens_out,
    ...(m.model_size_bytes !== undefined ? { model_size_bytes: m.model_size_bytes } : {}),
    ...(m.writer ? { writer: m.writer } : {}),
    ...(m.model_writing ? { model_writing: m.model_writing } : {}),
    ...(m.fallback_reason ? { fallback_reason: m.fallback_reason } : {}),
    ...(m.first_token_at !== undefined ? { first_token_at: m.first_token_at } : {}),
    ...(m.time_to_first_token_ms !== undefined ? { time_to_first_token_ms: m.time_to_first_token_ms } : {}),
    ...(m.generation_ms !== undefined ? { generation_ms: m.generation_ms } : {}),
    ...(m.coverage ? { coverage: m.coverage } : {}),
  };
}

/**
 * The offline writer's `coverage` (compose.ts) of a JSON answer, taken out of the parsed draft: the JSON writers
 * (platform post, calendar post, podcast script, video plan, Document 2 article) return it inside their draft.
 * It is kept only when the template writer wrote the answer (`local`, or `llama` where its gate kept the template
 * writer's text): a vendor's or a model's own JSON never supplies it. The gateway's `metadata.coverage` (Markdown
 * tasks) comes first. The draft loses the field either way, so it never reaches a stored or answered text.
 */
export function takeCoverage(resp: CompletionResponse, draft: unknown): Coverage | undefined {
  let found: unknown;
  if (draft && typeof draft === 'object' && !Array.isArray(draft) && 'coverage' in draft) {
    found = (draft as { coverage?: unknown }).coverage;
    delete (draft as { coverage?: unknown }).coverage;
  }
  if (resp.metadata.coverage) return resp.metadata.coverage;
  const template = resp.provider === 'local' || (resp.provider === 'llama' && resp.metadata.writer !== 'model');
  const c = found as Partial<Coverage> | undefined;
  if (!template || !c || typeof c !== 'object' || (c.basis !== 'brief' && c.basis !== 'brief_and_sources'))
    return undefined;
  return c as Coverage;
}

/** Sources numbered 1..n, the numbers `[n]` citations refer to. */
export const numbered = <S extends Source>(sources: S[]): S[] => sources.map((s, i) => ({ ...s, index: i + 1 }));
