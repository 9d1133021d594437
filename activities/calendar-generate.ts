/**
 * Metered AI generation of calendar posts: one gateway call per post (vendor
 * when configured, else the offline `local` writer, which says so in
 * `offline`), its idempotency key the workflow + activity id, so a retry is
 * never charged twice. The answer must be JSON {title, thread_content,
 * hashtags}; anything else is VENDOR_BAD_RESPONSE. The offline writer's `coverage` (in its JSON) is
 * returned beside the post.
 */
import type { GeneratedPost, SocialPostInput } from '../domain/generation/calendar-post';
import { CALENDAR_POST } from '../domain/calendar/tasks';
import type { AiGateway } from '../infra/ai/completion';
import { ask, takeCoverage } from './ai-call';
import { activityKey } from './tasks';

export function createCalendarGenerateActivities(deps: { gateway?: AiGateway }) {
  return {
    async generateCalendarPost(a: { userId: string; post: SocialPostInput }): Promise<GeneratedPost> {
      if (!deps.gateway) throw new Error('calendar generation needs the AI gateway (worker wiring)');
      const { output: p, response: resp } = await ask(deps.gateway, CALENDAR_POST, a.post, {
        userId: a.userId,
        idempotencyKey: activityKey(),
      });
      // The offline writer says what the post was built from and why it is short (absent for a vendor's post).
      const coverage = takeCoverage(resp, p);
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
        ...(coverage ? { coverage } : {}),
      };
    },
  };
}

export type CalendarGenerateActivities = ReturnType<typeof createCalendarGenerateActivities>;
