/**
 * POST /v1/calendar/calendars/{calendar_id}/series/generate: a series of events from an RRULE in the calendar's
 * zone, one AI post each (what the calendar's generation routes share: generation.ts).
 */
import { randomUUID } from 'node:crypto';
import { requireActive } from '../../domain/calendar/calendar';
import { invalid } from '../../domain/calendar/errors';
import { expandSeries, MAX_SERIES, SeriesSchedule } from '../../domain/calendar/series';
import type { GeneratedPost } from '../../domain/generation/calendar-post';
import { clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { calendarFor } from './access';
import { BASE, tags } from './calendars';
import { createEvents } from './commands';
import { calendarModel, estimatedPerformance } from './model';
import { allRequired, arr, int, iso, str, text, withRequired } from '../kernel/schema';
import { calendarParams, contentType, dateOnly, platform } from './schemas';
import {
  checkRoom,
  contentOf,
  generate,
  generatedContent,
  generationOut,
  generationSummary,
  postGeneration,
  postGenerationOut,
} from './generation';

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

export const seriesGenerationRoutes: RouteDef[] = [
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
      body: withRequired(
        {
          series_title: text(200),
          description: str(2000),
          content_types: arr(contentType, { minItems: 1, maxItems: 10 }),
          platforms: arr(platform, { minItems: 1, maxItems: 7 }),
          schedule: withRequired(
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
        data: allRequired({
          series_id: { type: 'string' },
          series_title: { type: 'string' },
          rrule: { type: 'string' },
          timezone: { type: 'string' },
          posting_hour: int,
          weekdays: arr(int),
          count: int,
          skipped_past: int,
          events: arr(
            allRequired({
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
              withRequired(
                {
                  series_index: int,
                  scheduled_at: iso,
                  content_type: { type: 'string' },
                  platform: { type: 'string' },
                  error: withRequired({ code: { type: 'string' }, message: { type: 'string' } }, ['code', 'message']),
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
