/**
 * Metered AI generation of calendar posts: one gateway call per post (vendor
 * when configured, else the offline `local` writer, which says so in
 * `offline`), its idempotency key the workflow + activity id, so a retry is
 * never charged twice. The answer must be JSON {title, thread_content,
 * hashtags}; anything else is VENDOR_BAD_RESPONSE.
 */
import type { GeneratedPost, SocialPostInput } from '../domain/generation/calendar-post';
import { socialPostPrompt } from '../domain/calendar/prompts';
import type { AiGateway } from '../infra/ai/gateway';
import { ajv, guarded, parsed, strings } from './ai-call';
import { activityKey } from './tasks';

const checkPost = ajv.compile({
  type: 'object',
  required: ['title', 'thread_content', 'hashtags'],
  properties: {
    title: { type: 'string', minLength: 1 },
    thread_content: { ...strings, minItems: 1 },
    hashtags: strings,
  },
});

export function createCalendarGenerateActivities(deps: { gateway?: AiGateway }) {
  return {
    async generateCalendarPost(a: { userId: string; post: SocialPostInput }): Promise<GeneratedPost> {
      if (!deps.gateway) throw new Error('calendar generation needs the AI gateway (worker wiring)');
      const resp = await guarded(deps.gateway, {
        userId: a.userId,
        purpose: 'calendar.post',
        messages: socialPostPrompt(a.post),
        maxTokens: Math.min(2000, 200 + 3 * (a.post.word_count ?? 60)),
        idempotencyKey: activityKey(),
        localTask: { kind: 'social_post', input: a.post },
      });
      const p = parsed<{ title: string; thread_content: string[]; hashtags: string[] }>(
        resp,
        checkPost,
        'calendar post',
      );
      return {
        title: p.title.slice(0, 300),
        thread_content: p.thread_content.slice(0, 25).map((t) => t.slice(0, 2000)),
        hashtags: p.hashtags.slice(0, 30).map((h) => (h.startsWith('#') ? h : `#${h}`).slice(0, 100)),
        provider: resp.provider,
        model: resp.model,
        offline: resp.metadata.offline,
        tokens_in: resp.tokens_in,
        tokens_out: resp.tokens_out,
        cost: resp.cost,
      };
    },
  };
}

export type CalendarGenerateActivities = ReturnType<typeof createCalendarGenerateActivities>;
