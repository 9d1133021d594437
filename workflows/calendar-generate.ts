/**
 * Calendar generation: the posts of one generate request (one post) or series
 * request (one per occurrence), each a metered AI call. Runs synchronously for
 * the API (executeWorkflow), which records the events from the result.
 *
 * A post whose answer stays unusable (VENDOR_BAD_RESPONSE: the gateway already
 * asked again and made a fresh attempt) is reported failed, with its code and
 * message, and the others are kept: one bad answer does not throw away a series already paid for. A
 * failure of another kind (a plan limit reached, a vendor that stays down)
 * stops the series there: the posts after it are reported failed with it, not
 * asked for. Only when no post at all could be written does the workflow fail,
 * with the error that stopped it.
 */
import { isCancellation, proxyActivities } from '@temporalio/workflow';
import type { CalendarGenerateActivities } from '../activities/calendar-generate';
import type { GeneratedPost, SocialPostInput } from '../domain/generation/calendar-post';
import type { FailureCode } from '../domain/failures';
import { PAID_CALL_RETRY } from './retry';
import { failureCodeOf } from './task-runner';

// Paid calls: metered under the activity's idempotency key, a few retries only.
const ai = proxyActivities<CalendarGenerateActivities>({ startToCloseTimeout: '120s', retry: PAID_CALL_RETRY });

/** One post of the request: written, or failed with its failure code. */
export type PostOutcome = { post: GeneratedPost } | { failed: { code: FailureCode; message: string } };

export async function calendarGenerateWorkflow(input: {
  userId: string;
  posts: SocialPostInput[];
}): Promise<PostOutcome[]> {
  const out: PostOutcome[] = [];
  let first: unknown; // the first post's failure
  let stop: unknown; // a failure that is not about one answer (a plan limit, a vendor that stays down)
  for (const post of input.posts) {
    // Such a failure would fail every post after it too: those are reported with it, not asked for.
    if (stop !== undefined) {
      const { code, message } = failureCodeOf(stop);
      out.push({ failed: { code, message: `Not written: an earlier post failed (${message})` } });
      continue;
    }
    try {
      out.push({ post: await ai.generateCalendarPost({ userId: input.userId, post }) });
    } catch (err) {
      if (isCancellation(err)) throw err;
      const f = failureCodeOf(err);
      first ??= err;
      if (f.code !== 'VENDOR_BAD_RESPONSE') stop = err;
      out.push({ failed: f });
    }
  }
  // No post written: the request fails with the failure that stopped it, else the first.
  if (first !== undefined && !out.some((o) => 'post' in o)) throw stop ?? first;
  return out;
}
