/**
 * The completion budget of one call, cut to what the model's context leaves beside the prompt (the context size
 * comes from infra/ai/context-size.ts).
 */
import { VendorContextExceededError } from './errors';

/** Tokens kept free beside the prompt: the platform counts with a tokenizer that may not be the model's. */
const CONTEXT_MARGIN = 1.15;

/**
 * The completion budget of one call: the task's, cut to what the model's context leaves beside the prompt. A
 * prompt that leaves too little room for a useful answer is refused before anything is paid for.
 */
export function completionBudget(
  wanted: number,
  promptTokens: number,
  contextTokens: number | undefined,
  call: { provider: string; purpose: string },
): number {
  if (contextTokens === undefined) return wanted;
  const room = Math.floor(contextTokens - promptTokens * CONTEXT_MARGIN - 16);
  if (room < Math.min(wanted, 128))
    throw new VendorContextExceededError(
      call.provider,
      `${call.purpose}: the prompt (about ${promptTokens} tokens) leaves no room for an answer in the model's context of ${contextTokens} tokens; configure a model with a larger context (${call.provider.toUpperCase()}_CONTEXT_TOKENS or the server's context size)`,
    );
  return Math.min(wanted, room);
}
