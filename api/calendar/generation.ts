/**
 * AI generation of calendar content (Document 3): one event
 * (`events/generate`, status `generated`) or a series (`series/generate`,
 * occurrences from an RRULE in the calendar's zone), each post one metered
 * call through the AI gateway in a Temporal workflow (vendor when configured,
 * else the offline `local` writer, reported in `generation`, with the offline
 * writer's `coverage` of the post: `generation.coverage` for one event,
 * `events[].generation.coverage` per post of a series).
 * `estimated_performance` comes from the calendar's timing model and says so
 * in its `basis`. The event limit is checked before anything is spent and
 * taken atomically when the events are written.
 *
 * This file holds what the two routes share (generation-event.ts, generation-series.ts): the answer's
 * `generation` and `content` schemas, the room check and the workflow call.
 */
import { randomUUID } from 'node:crypto';
import { CalendarFullError } from '../../domain/errors';
import type { GeneratedPost, SocialPostInput } from '../../domain/generation/calendar-post';
import { currentEvents } from '../../infra/calendar/capacity';
import { calendarGenerateWorkflow } from '../../workflows';
import { userIdOf } from '../kernel/handler';
import type { RouteCtx } from '../kernel/registry';
import { allRequired, arr, bool, coverageSchema, int, num, withRequired } from '../kernel/schema';
import { executeWorkflow } from '../kernel/workflows';
import type { CalendarAccess } from './access';
import { limitOf } from './commands';
import type { estimatedPerformance } from './model';
import { estimatedOut } from './schemas';

type Ctx = RouteCtx;

/** How the offline writer met the brief (compose.ts `Coverage`): the generated post's, absent for a vendor's. */
const postCoverage = {
  ...coverageSchema,
  description: `${coverageSchema.description as string}; absent when a vendor wrote the post`,
};
export const generationOut = withRequired(
  {
    provider: { type: 'string' },
    model: { type: 'string' },
    offline: bool,
    calls: {
      ...int,
      description:
        'Posts asked for and written (one logical call each); a re-ask or fresh attempt a vendor answer needed is part of its call, and its tokens and cost are counted here',
    },
    tokens_in: int,
    tokens_out: int,
    cost: num,
    coverage: postCoverage,
  },
  ['provider', 'model', 'offline', 'calls', 'tokens_in', 'tokens_out', 'cost'],
);
/** A series post's own call: who wrote it and, for the offline writer, its coverage. */
export const postGenerationOut = withRequired(
  { provider: { type: 'string' }, model: { type: 'string' }, offline: bool, coverage: postCoverage },
  ['provider', 'model', 'offline'],
);
export const generatedContent = allRequired({
  title: { type: 'string' },
  thread_content: arr({ type: 'string' }),
  hashtags: arr({ type: 'string' }),
  estimated_performance: estimatedOut,
});

/** 402 before any budget is spent when `n` more events do not fit. */
export async function checkRoom(ctx: Ctx, cal: CalendarAccess, n: number): Promise<void> {
  const limit = await limitOf(ctx.deps, cal.calendar.owner_id);
  const used = await currentEvents(ctx.deps.db, cal.calendar.calendar_id);
  if (used + n > limit)
    throw new CalendarFullError(`The calendar has reached its event limit (${limit} events)`, {
      limit,
      current_events: used,
      requested: n,
    });
}

export function generationSummary(posts: GeneratedPost[]) {
  return {
    provider: posts[0]?.provider ?? 'local',
    model: posts[0]?.model ?? '',
    offline: posts.every((p) => p.offline),
    calls: posts.length,
    tokens_in: posts.reduce((a, p) => a + p.tokens_in, 0),
    tokens_out: posts.reduce((a, p) => a + p.tokens_out, 0),
    cost: Math.round(posts.reduce((a, p) => a + p.cost, 0) * 1e6) / 1e6,
  };
}

/** The posts' outcomes, in order: written, or failed (the workflow fails only when none was written). */
export const generate = (ctx: Ctx, posts: SocialPostInput[]) =>
  executeWorkflow(ctx.deps, calendarGenerateWorkflow, {
    workflowId: `calendar-generate-${randomUUID()}`,
    userId: userIdOf(ctx),
    args: [{ userId: userIdOf(ctx), posts }],
    timeout: '10m',
  });

/** The one post of a single-event request (its failure made the workflow fail, so it is written). */
export async function generateOne(ctx: Ctx, post: SocialPostInput): Promise<GeneratedPost> {
  const [o] = await generate(ctx, [post]);
  if (!('post' in o)) throw new Error('calendar generation answered no post for a single-event request');
  return o.post;
}

/** The post's own generation (a series reports one per event): provider, model, offline, coverage when present. */
export const postGeneration = (p: GeneratedPost) => ({
  provider: p.provider,
  model: p.model,
  offline: p.offline,
  ...(p.coverage ? { coverage: p.coverage } : {}),
});

export const contentOf = (p: GeneratedPost, estimated: ReturnType<typeof estimatedPerformance>) => ({
  title: p.title,
  thread_content: p.thread_content,
  hashtags: p.hashtags,
  caption: p.thread_content.join('\n\n'),
  estimated_performance: estimated,
});
