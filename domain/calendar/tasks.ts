/**
 * The calendar's AI task (domain/ai/task.ts), declared once: a calendar post's vendor prompt, the offline writer's
 * task and the shape of a valid answer. The generation activity (activities/calendar-generate.ts) calls it
 * through the gateway's `run` and gets the post typed.
 */
import { defineAiTask } from '../ai/task';
import { anyString, arr } from '../schema';
import type { SocialPost, SocialPostInput } from '../generation/calendar-post';
import { socialPostPrompt } from './prompts';

/** One calendar post: JSON {title, thread_content, hashtags} (the offline writer adds its `coverage`). */
export const CALENDAR_POST = defineAiTask<SocialPostInput, SocialPost>({
  purpose: 'calendar.post',
  answer: 'json',
  prompt: socialPostPrompt,
  local: (input) => ({ kind: 'social_post', input }),
  output: {
    type: 'object',
    required: ['title', 'thread_content', 'hashtags'],
    properties: {
      title: { type: 'string', minLength: 1 },
      thread_content: arr(anyString, { minItems: 1 }),
      hashtags: arr(anyString),
    },
  },
  maxTokens: (p) => Math.min(2000, 200 + 3 * (p.word_count ?? 60)),
});
