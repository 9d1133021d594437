/**
 * A vendor's Markdown answer made whole: continued when it stopped at the output limit (never a text cut
 * mid-sentence), and judged off-task when it writes its instructions back or talks about editing instead.
 */
import { echoedInstruction, editingTalk, endAtSentence, joinContinuation } from '../../domain/ai/repair';
import type { CompletionRequest, CompletionResponse } from './completion';
import { combined } from './spent';

/** Follow-up calls a Markdown answer cut at the output limit gets before it is ended at its last sentence. */
export const MAX_CONTINUATIONS = 2;

/**
 * An answer the vendor did not say it finished: stopped at the output limit (`length`), or ended without any
 * finish reason (`unknown`) — llama-cpp-python's server, for one, ends a stream with [DONE] and no reason when
 * another request interrupts it. Either may stop mid-sentence; `stop`, `content_filter` and the rest are final.
 */
const wasCut = (reason: string) => reason === 'length' || reason === 'unknown';

/**
 * A vendor's Markdown answer that stopped at the output limit (or without saying why: `wasCut`), continued: up to
 * MAX_CONTINUATIONS follow-up calls (each metered, with its own idempotency key) give the text so far and ask for
 * the rest; a text that was continued, or is still cut short after them, ends at its last complete sentence. Never
 * a text cut mid-sentence.
 */
export async function continueAnswer(
  complete: (r: CompletionRequest) => Promise<CompletionResponse>,
  request: CompletionRequest,
  first: CompletionResponse,
): Promise<CompletionResponse> {
  let response = first;
  let text = first.text;
  let continuations = 0;
  while (wasCut(response.metadata.finish_reason) && continuations < MAX_CONTINUATIONS) {
    continuations++;
    const next = await complete({
      ...request,
      idempotencyKey: `${request.idempotencyKey}:continue-${continuations}`,
      messages: [
        ...request.messages,
        { role: 'assistant', content: text },
        {
          role: 'user',
          content:
            'Your answer stopped at the length limit. Continue it exactly where it stopped: no preface, nothing repeated, and finish within this answer.',
        },
      ],
    });
    text = joinContinuation(text, next.text);
    response = combined(response, next, text);
  }
  // A text that had to be continued ends at a whole sentence even when its last piece claims a stop: a model asked
  // to go on sometimes writes a few words and stops.
  if (continuations > 0 || wasCut(response.metadata.finish_reason)) text = endAtSentence(text);
  return { ...response, text, metadata: { ...response.metadata, continuations } };
}

/**
 * What makes a vendor's Markdown answer something other than the text asked for — its instructions written back, or
 * talk about editing a draft nobody sent — told to the model (`ask`) and in the refusal (`refuse`); undefined when
 * nothing. Read on the answer as written, chat around it included (that chat is part of the evidence).
 */
export function offTask(
  text: string,
  prompt: ReadonlyArray<{ role: string; content: string }>,
): { ask: string; refuse: string } | undefined {
  const echoed = echoedInstruction(text, prompt)?.slice(0, 120);
  if (echoed)
    return {
      ask: `That answer repeats your instructions ("${echoed}") instead of following them.`,
      refuse: `repeats its instructions ("${echoed}") instead of following them`,
    };
  const talk = editingTalk(text)?.slice(0, 120);
  if (talk)
    return {
      ask: `That answer talks about editing a text ("${talk}") instead of being the text.`,
      refuse: `talks about editing a text ("${talk}") instead of being the text`,
    };
  return undefined;
}
