/**
 * Calendar generation: the posts of one generate request (one post) or series
 * request (one per occurrence), each a metered AI call. Runs synchronously for
 * the API (executeWorkflow), which records the events from the result.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { CalendarGenerateActivities } from '../activities/calendar-generate';
import type { GeneratedPost, SocialPostInput } from '../domain/generation/calendar-post';
import { PAID_CALL_RETRY } from './retry';

// Paid calls: metered under the activity's idempotency key, a few retries only.
const ai = proxyActivities<CalendarGenerateActivities>({ startToCloseTimeout: '120s', retry: PAID_CALL_RETRY });

export async function calendarGenerateWorkflow(input: {
  userId: string;
  posts: SocialPostInput[];
}): Promise<GeneratedPost[]> {
  const out: GeneratedPost[] = [];
  for (const post of input.posts) out.push(await ai.generateCalendarPost({ userId: input.userId, post }));
  return out;
}
