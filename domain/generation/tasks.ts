/**
 * The short-copy AI task (domain/ai/task.ts), declared once: the vendor prompt, the offline writer's task, the
 * shape of a valid answer, the budget and what the in-process model writes over the template writer's copy. The
 * copy activity (activities/copy.ts) calls it through the gateway's `run` and gets the answer typed.
 */
import { defineAiTask } from '../ai/task';
import { shortCopyPrompt } from './copy';
import type { ShortCopy, ShortCopyInput } from './copy';
import { MODEL_PLANS } from './model-plan';

/** One piece of short copy (`copy.<form>`): social post, hook, headline, subject line or caption. */
export const SHORT_COPY = defineAiTask<ShortCopyInput, Pick<ShortCopy, 'text'>>({
  purpose: (c) => `copy.${c.form}`,
  answer: 'json',
  prompt: shortCopyPrompt,
  local: (input) => ({ kind: 'short_copy', input }),
  output: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
  maxTokens: (c) => Math.ceil(c.maxChars / 2) + 50,
  // Without a vendor, the in-process model writes the copy from the brief; the template writer's stays on refusal.
  plan: (c) =>
    MODEL_PLANS.copy(
      'text',
      c.form,
      {
        topic: c.topic,
        audience: c.audience,
        tone: c.tone,
        platform: c.platform,
        keyPoints: c.keyPoints,
        facts: c.facts,
      },
      c.maxChars,
    ),
});
