/**
 * Adding up what calls used (tokens in and out, cost): a task's re-ask, continuations and fresh attempt are each
 * metered, and its answer reports them all.
 */
import type { Spent } from './errors';
import type { CompletionResponse } from './completion';

/** What calls used together: tokens in and out, and cost. */
export const plus = (a: Spent, b: Spent): Spent => ({
  tokens_in: a.tokens_in + b.tokens_in,
  tokens_out: a.tokens_out + b.tokens_out,
  cost: a.cost + b.cost,
});
export const NOTHING: Spent = { tokens_in: 0, tokens_out: 0, cost: 0 };
export const spentOf = (r: Spent): Spent => plus(r, NOTHING);

/** Two calls of one task answer as one: their tokens and cost added, the later call's text and metadata. */
export function combined(first: CompletionResponse, later: CompletionResponse, text: string): CompletionResponse {
  return { ...later, text, ...plus(first, later) };
}
