/**
 * How activities make one AI call through the gateway and read its answer:
 * heartbeating while the vendor works, and checking a JSON answer's shape (a
 * vendor may answer anything; an unusable answer is VENDOR_BAD_RESPONSE,
 * which is not retried: the call was paid for and the same prompt would most
 * likely be answered the same way). Plan limits, missing vendors and refused
 * requests carry their failure codes (activities/failures.ts).
 */
import Ajv, { ValidateFunction } from 'ajv';
import { Context } from '@temporalio/activity';
import type { AiGateway, CompletionRequest, CompletionResponse } from '../infra/ai/gateway';
import { VendorBadResponseError } from '../infra/ai/errors';
import { parseJsonAnswer } from '../domain/blog/prompts';
import type { Source } from '../domain/blog/types';
import type { GenerationMetadata } from '../domain/generation';
import { withHeartbeat } from './heartbeat';

export const ajv = new Ajv({ allErrors: true, strict: false });
export const strings = { type: 'array', items: { type: 'string' } };

/**
 * One metered call, heartbeating while the vendor or the in-process model works. The activity's
 * cancellation signal goes with it, so cancelling the task stops a generation mid-way.
 */
export const guarded = (gateway: AiGateway, req: CompletionRequest): Promise<CompletionResponse> =>
  withHeartbeat(() => gateway.complete({ ...req, signal: req.signal ?? Context.current().cancellationSignal }));

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
  };
}

/** The answer's JSON object, checked against `check`; an unreadable or misshapen answer is VENDOR_BAD_RESPONSE. */
export function parsed<T>(resp: CompletionResponse, check: ValidateFunction, what: string): T {
  let value: unknown;
  try {
    value = parseJsonAnswer(resp.text);
  } catch (e) {
    throw new VendorBadResponseError(resp.provider, `unreadable ${what}: ${(e as Error).message}`);
  }
  if (!check(value))
    throw new VendorBadResponseError(resp.provider, `${what} of the wrong shape: ${ajv.errorsText(check.errors)}`);
  return value as T;
}

/** Sources numbered 1..n, the numbers `[n]` citations refer to. */
export const numbered = <S extends Source>(sources: S[]): S[] => sources.map((s, i) => ({ ...s, index: i + 1 }));
