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
 */
import { randomUUID } from 'node:crypto';
import { requireActive } from '../../domain/calendar/calendar';
import { invalid, pastSchedule } from '../../domain/calendar/errors';
import { expandSeries, MAX_SERIES, SeriesSchedule } from '../../domain/calendar/series';
import { CalendarFullError } from '../../domain/errors';
import type { GeneratedPost, SocialPostInput } from '../../domain/generation/calendar-post';
import { currentEvents } from '../../infra/calendar/capacity';
import { getEventRow } from '../../projections/calendar-queries';
import { calendarGenerateWorkflow } from '../../workflows';
import { clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, HandlerCtx, RouteDef } from '../kernel/registry';
import { coverageSchema } from '../kernel/schema';
import { executeWorkflow } from '../kernel/workflows';
import { calendarFor, CalendarAccess } from './access';
import { BASE, tags } from './calendars';
import { createEvents, limitOf } from './commands';
import { calendarModel, estimatedPerformance } from './model';
import {
  arr,
  bool,
  calendarParams,
  contentType,
  dateOnly,
  estimatedOut,
  eventOut,
  int,
  iso,
  num,
  obj,
  platform,
  str,
  text,
} from './schemas';
import { eventView } from './views';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ctx = HandlerCtx<any, any, any>;

/** How the offline writer met the brief (compose.ts `Coverage`): the generated post's, absent for a vendor's. */
const postCoverage = {
  ...coverageSchema,
  description: `${coverageSchema.description as string}; absent when a vendor wrote the post`,
};
const generationOut = obj(
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
const postGenerationOut = obj(
  { provider: { type: 'string' }, model: { type: 'string' }, offline: bool, coverage: postCoverage },
  ['provider', 'model', 'offline'],
);
const generatedContent = obj({
  title: { type: 'string' },
  thread_content: arr({ type: 'string' }),
  hashtags: arr({ type: 'string' }),
  estimated_performance: estimatedOut,
});

/** 402 before any budget is spent when `n` more events do not fit. */
async function checkRoom(ctx: Ctx, cal: CalendarAccess, n: number): Promise<void> {
  const limit = await limitOf(ctx.deps, cal.calendar.owner_id);
  const used = await currentEvents(ctx.deps.db, cal.calendar.calendar_id);
  if (used + n > limit)
    throw new CalendarFullError(`The calendar has reached its event limit (${limit} events)`, {
      limit,
      current_events: used,
      requested: n,
    });
}

function generationSummary(posts: GeneratedPost[]) {
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
const generate = (ctx: Ctx, posts: SocialPostInput[]) =>
  executeWorkflow(ctx.deps, calendarGenerateWorkflow, {
    workflowId: `calendar-generate-${randomUUID()}`,
    userId: userIdOf(ctx),
    args: [{ userId: userIdOf(ctx), posts }],
    timeout: '10m',
  });

/** The one post of a single-event request (its failure made the workflow fail, so it is written). */
async function generateOne(ctx: Ctx, post: SocialPostInput): Promise<GeneratedPost> {
  const [o] = await generate(ctx, [post]);
  if (!('post' in o)) throw new Error('calendar generation answered no post for a single-event request');
  return o.post;
}

/** The post's own generation (a series reports one per event): provider, model, offline, coverage when present. */
const postGeneration = (p: GeneratedPost) => ({
  provider: p.provider,
  model: p.model,
  offline: p.offline,
  ...(p.coverage ? { coverage: p.coverage } : {}),
});

const contentOf = (p: GeneratedPost, estimated: ReturnType<typeof estimatedPerformance>) => ({
  title: p.title,
  thread_content: p.thread_content,
  hashtags: p.hashtags,
  caption: p.thread_content.join('\n\n'),
  estimated_performance: estimated,
});

interface GenerateBody {
  topic: string;
  content_type: string;
  platform?: string;
  tone?: string;
  audience?: string;
  word_count: number;
  include_hashtags: boolean;
  include_cta: boolean;
  scheduled_at?: string;
}

interface SeriesBody {
  series_title: string;
  description?: string;
  content_types: string[];
  platforms: string[];
  schedule: SeriesSchedule;
  audience?: string;
  tone?: string;
  word_count: number;
  include_hashtags: boolean;
  include_cta: boolean;
}

export const generationRoutes: RouteDef[] = [
  defineRoute<GenerateBody, unknown, { calendar_id: string }>({
    method: 'post',
    path: `${BASE}/calendars/{calendar_id}/events/generate`,
    auth: 'user',
    scope: 'calendar:generate',
    tags,
    summary: 'Generate one event with AI (status generated): title, thread_content, hashtags, estimated_performance',
    description:
      'Needs create_events on an active calendar. The post is written by one metered AI call in a Temporal workflow (the offline local writer when no vendor is configured; generation says which) and stored as an event with status generated and metadata.ai_generated. Room under the event limit is checked before anything is spent (402 CALENDAR_FULL) and a given scheduled_at must be in the future (400); a used-up plan is 429, no Temporal connection 503, a vendor answer that stays unusable 502 VENDOR_BAD_RESPONSE, and nothing is created then. event is absent when the read model had not caught up within the consistency bound.',
    request: {
      params: calendarParams,
      body: obj(
        {
          topic: text(500),
          content_type: { ...contentType, default: 'social_post' },
          platform,
          tone: str(100),
          audience: str(300),
          word_count: { type: 'integer', minimum: 10, maximum: 1000, default: 60 },
          include_hashtags: { type: 'boolean', default: true },
          include_cta: { type: 'boolean', default: false },
          scheduled_at: iso,
        },
        ['topic'],
      ),
    },
    responses: {
      201: {
        description: 'The generated event',
        data: obj(
          {
            event_id: { type: 'string' },
            status: { const: 'generated' },
            content: generatedContent,
            event: { ...eventOut, description: 'The event as stored; absent when the read model had not caught up' },
            generation: generationOut,
          },
          ['event_id', 'status', 'content', 'generation'],
        ),
      },
    },
    errors: { 503: 'Generation is unavailable (no Temporal connection or worker)' },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'create_events');
      requireActive(cal.calendar);
      const b = ctx.body;
      const now = clock(ctx.deps);
      if (b.scheduled_at && Date.parse(b.scheduled_at) <= now.getTime())
        throw pastSchedule('scheduled_at', b.scheduled_at, now);
      await checkRoom(ctx, cal, 1);
      const plat = b.platform ?? cal.calendar.settings.default_platform;
      const post = await generateOne(ctx, {
        topic: b.topic,
        content_type: b.content_type,
        platform: plat,
        tone: b.tone,
        audience: b.audience,
        word_count: b.word_count,
        include_hashtags: b.include_hashtags,
        include_cta: b.include_cta,
      });
      const model = await calendarModel(ctx.deps.db, cal.calendar.calendar_id, cal.calendar.timezone, {
        platform: plat,
      });
      const estimated = estimatedPerformance(model, b.scheduled_at);
      const gen = generationSummary([post]);
      const r = await createEvents(
        ctx.deps,
        cal,
        userIdOf(ctx),
        [
          {
            status: 'generated',
            fields: {
              title: post.title,
              description: b.topic,
              content_type: b.content_type,
              platform: plat,
              scheduled_at: b.scheduled_at,
              content: contentOf(post, estimated),
              metadata: {
                ai_generated: true,
                generation: { provider: gen.provider, model: gen.model, offline: gen.offline },
              },
            },
          },
        ],
        now,
        requestMeta(ctx),
      );
      await settle(ctx, 'calendars', r.events);
      const row = await getEventRow(ctx.deps.db, cal.calendar.calendar_id, r.ids[0]);
      return {
        status: 201,
        data: {
          event_id: r.ids[0],
          status: 'generated',
          content: {
            title: post.title,
            thread_content: post.thread_content,
            hashtags: post.hashtags,
            estimated_performance: estimated,
          },
          ...(row ? { event: eventView(row) } : {}),
          generation: { ...gen, ...(post.coverage ? { coverage: post.coverage } : {}) },
        },
      };
    },
  }),
  defineRoute<SeriesBody, unknown, { calendar_id: string }>({
    method: 'post',
    path: `${BASE}/calendars/{calendar_id}/series/generate`,
    auth: 'user',
    scope: 'calendar:generate',
    tags,
    summary:
      'Generate a series: occurrences from an RRULE (frequency, start_date, posts_per_week) in the calendar zone and working hours, one AI post each',
    description:
      'Needs create_events on an active calendar. The rule (returned as rrule) uses the weekdays the timing model rates best for the first platform and its best whole hour inside the working hours; occurrences not in the future are skipped (skipped_past), and no future occurrence or an end_date before start_date is 400. Room for every occurrence under the event limit is checked before anything is spent (402); each occurrence gets one AI post and becomes an event with status generated, rotating through content_types and platforms. Occurrences whose post could not be written are listed in failed and the rest are still created; when none could be written the request fails with that error and creates nothing.',
    request: {
      params: calendarParams,
      body: obj(
        {
          series_title: text(200),
          description: str(2000),
          content_types: arr(contentType, { minItems: 1, maxItems: 10 }),
          platforms: arr(platform, { minItems: 1, maxItems: 7 }),
          schedule: obj(
            {
              frequency: { type: 'string', enum: ['daily', 'weekly', 'biweekly', 'monthly'] },
              start_date: dateOnly,
              posts_per_week: { type: 'integer', minimum: 1, maximum: 14, default: 3 },
              end_date: dateOnly,
              count: { type: 'integer', minimum: 1, maximum: MAX_SERIES },
            },
            ['frequency', 'start_date'],
          ),
          audience: str(300),
          tone: str(100),
          word_count: { type: 'integer', minimum: 10, maximum: 1000, default: 60 },
          include_hashtags: { type: 'boolean', default: true },
          include_cta: { type: 'boolean', default: false },
        },
        ['series_title', 'content_types', 'platforms', 'schedule'],
      ),
    },
    responses: {
      201: {
        description: 'The generated series: its rule and its events (status generated)',
        data: obj({
          series_id: { type: 'string' },
          series_title: { type: 'string' },
          rrule: { type: 'string' },
          timezone: { type: 'string' },
          posting_hour: int,
          weekdays: arr(int),
          count: int,
          skipped_past: int,
          events: arr(
            obj({
              event_id: { type: 'string' },
              title: { type: 'string' },
              scheduled_at: iso,
              content_type: { type: 'string' },
              platform: { type: 'string' },
              status: { type: 'string' },
              content: generatedContent,
              generation: postGenerationOut,
            }),
          ),
          failed: {
            ...arr(
              obj(
                {
                  series_index: int,
                  scheduled_at: iso,
                  content_type: { type: 'string' },
                  platform: { type: 'string' },
                  error: obj({ code: { type: 'string' }, message: { type: 'string' } }, ['code', 'message']),
                },
                ['series_index', 'scheduled_at', 'error'],
              ),
            ),
            description:
              "Occurrences whose post could not be written (no event was created for them), with the failure's code: a post whose answer stayed unusable after a re-ask and a fresh call (VENDOR_BAD_RESPONSE), or, after a failure of another kind (a plan limit, a vendor down), every post from there on. Empty when every post was written; when none could be, the request fails with that error instead.",
          },
          generation: generationOut,
        }),
      },
    },
    errors: { 503: 'Generation is unavailable (no Temporal connection or worker)' },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'create_events');
      requireActive(cal.calendar);
      const b = ctx.body;
      if (b.schedule.end_date && b.schedule.end_date < b.schedule.start_date)
        throw invalid('schedule.end_date', 'end_date must not be before start_date', b.schedule.end_date);
      const now = clock(ctx.deps);
      const firstPlatform = b.platforms[0];
      const model = await calendarModel(ctx.deps.db, cal.calendar.calendar_id, cal.calendar.timezone, {
        platform: firstPlatform,
      });
      const x = expandSeries(b.schedule, {
        timezone: cal.calendar.timezone,
        working_hours: cal.calendar.settings.working_hours,
        model,
        now,
      });
      if (!x.occurrences.length) throw invalid('schedule', 'The schedule has no occurrence in the future', b.schedule);
      await checkRoom(ctx, cal, x.occurrences.length);
      const n = x.occurrences.length;
      const plan = x.occurrences.map((at, i) => ({
        at,
        content_type: b.content_types[i % b.content_types.length],
        platform: b.platforms[i % b.platforms.length],
      }));
      const outcomes = await generate(
        ctx,
        plan.map((p, i) => ({
          topic: b.description ? `${b.series_title}: ${b.description}` : b.series_title,
          content_type: p.content_type,
          platform: p.platform,
          tone: b.tone,
          audience: b.audience,
          word_count: b.word_count,
          include_hashtags: b.include_hashtags,
          include_cta: b.include_cta,
          part: { index: i, total: n, series_title: b.series_title },
        })),
      );
      const models = new Map([[firstPlatform, model]]);
      for (const p of new Set(b.platforms))
        if (!models.has(p))
          models.set(
            p,
            await calendarModel(ctx.deps.db, cal.calendar.calendar_id, cal.calendar.timezone, { platform: p }),
          );
      const seriesId = randomUUID();
      // Occurrences whose post was written become events; the others are reported in `failed`.
      const written: Array<(typeof plan)[number] & { index: number; post: GeneratedPost }> = [];
      const failed: Array<{
        series_index: number;
        scheduled_at: string;
        content_type: string;
        platform: string;
        error: { code: string; message: string };
      }> = [];
      plan.forEach((p, i) => {
        const o = outcomes[i];
        if ('post' in o) written.push({ ...p, index: i, post: o.post });
        else
          failed.push({
            series_index: i,
            scheduled_at: p.at,
            content_type: p.content_type,
            platform: p.platform,
            error: o.failed,
          });
      });
      const posts = written.map((w) => w.post);
      const gen = generationSummary(posts);
      const items = written.map((p, i) => {
        const estimated = estimatedPerformance(models.get(p.platform)!, p.at);
        return {
          status: 'generated' as const,
          fields: {
            title: posts[i].title,
            description: b.description ?? b.series_title,
            content_type: p.content_type,
            platform: p.platform,
            scheduled_at: p.at,
            content: contentOf(posts[i], estimated),
            metadata: {
              ai_generated: true,
              series_id: seriesId,
              series_title: b.series_title,
              series_index: p.index,
              generation: { provider: gen.provider, model: gen.model, offline: gen.offline },
            },
          },
        };
      });
      const r = await createEvents(ctx.deps, cal, userIdOf(ctx), items, now, requestMeta(ctx));
      await settle(ctx, 'calendars', r.events);
      return {
        status: 201,
        data: {
          series_id: seriesId,
          series_title: b.series_title,
          rrule: x.rrule,
          timezone: x.timezone,
          posting_hour: x.hour,
          weekdays: x.weekdays,
          count: n,
          skipped_past: x.skipped_past,
          events: items.map((it, i) => ({
            event_id: r.ids[i],
            title: it.fields.title,
            scheduled_at: it.fields.scheduled_at,
            content_type: it.fields.content_type,
            platform: it.fields.platform,
            status: 'generated',
            content: {
              title: posts[i].title,
              thread_content: posts[i].thread_content,
              hashtags: posts[i].hashtags,
              estimated_performance: it.fields.content.estimated_performance,
            },
            generation: postGeneration(posts[i]),
          })),
          failed,
          generation: gen,
        },
      };
    },
  }),
];
