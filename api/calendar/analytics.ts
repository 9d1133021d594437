/**
 * Performance and analytics (Document 3): record figures of a published event
 * (POST, as events: `event.performance_updated`, and `calendar.analytics_ready`
 * for an event's first figures), read an event's performance with computed
 * rates and rule-based insights against the calendar's averages, and the
 * calendar's analytics grouped by local day/week/month.
 */
import type { PerformanceMetrics } from '../../domain/events/calendar';
import {
  aggregate,
  baselineOf,
  metricsWithRates,
  performanceScore,
  suggestions,
} from '../../domain/calendar/performance';
import type { GroupBy } from '../../domain/calendar/time';
import { invalid } from '../../domain/calendar/errors';
import { NotFoundError } from '../../domain/errors';
import { eventRowsBetween, EventRow, getEventRow, performanceRows } from '../../projections/calendar-queries';
import { clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteCtx, RouteDef } from '../kernel/registry';
import { calendarFor, CalendarAccess, loadEvent } from './access';
import { BASE, tags } from './calendars';
import { inCalendar, runEventCommand } from './commands';
import { calendarModel } from './model';
import { optimalTimeOut, optimalTimes } from './scheduling';
import { allRequired, arr, bool, int, iso, mapOf, num, withRequired } from '../kernel/schema';
import { calendarParams, contentType, eventParams, performanceIn, platform } from './schemas';

type Ctx = RouteCtx;

const DAY = 86400_000;
const KEYS: (keyof PerformanceMetrics)[] = [
  'impressions',
  'reach',
  'engagements',
  'likes',
  'comments',
  'shares',
  'saves',
  'clicks',
];

/** The figures of a recorded performance (without its measured_at), or null before any were recorded. */
function metricsOf(p: PerformanceMetrics | null): PerformanceMetrics | null {
  if (!p) return null;
  const n = (k: keyof PerformanceMetrics) => Number(p[k] ?? 0);
  return {
    impressions: n('impressions'),
    reach: n('reach'),
    engagements: n('engagements'),
    likes: n('likes'),
    comments: n('comments'),
    shares: n('shares'),
    saves: n('saves'),
    clicks: n('clicks'),
  };
}

const metricsOut = allRequired(
  Object.fromEntries([...KEYS.map((k) => [k, int]), ['engagement_rate', num], ['click_through_rate', num]]),
);

/** Figures of a group of events (analytics: a period, a platform, a content type). */
const bucketOut = allRequired({
  events: int,
  published: int,
  measured: int,
  impressions: int,
  engagements: int,
  clicks: int,
  engagement_rate: num,
});

const performanceOut = allRequired({
  event_id: { type: 'string' },
  platform: { type: 'string' },
  recorded: bool,
  measured_at: { type: ['string', 'null'], format: 'date-time' },
  published_at: { type: ['string', 'null'], format: 'date-time' },
  metrics: metricsOut,
  audience_insights: allRequired({
    demographics: mapOf(num, {
      description: 'Audience shares (0..1) by demographic group, as sent with the latest figures; empty when none were',
    }),
    top_cities: arr(allRequired({ city: { type: 'string' }, share: num })),
    audience_segment: { type: ['string', 'null'] },
  }),
  ai_insights: allRequired({
    performance_score: num,
    optimization_suggestions: arr({ type: 'string' }),
    compared_to: allRequired({
      source: { type: 'string' },
      events: int,
      engagement_rate: num,
      impressions: int,
      click_through_rate: num,
    }),
    method: { type: 'string' },
  }),
});

/** The performance body of an event row (zeros and `recorded: false` before any figures). */
async function performanceView(ctx: Ctx, cal: CalendarAccess, e: EventRow) {
  const m = metricsOf(e.performance) ?? {
    impressions: 0,
    reach: 0,
    engagements: 0,
    likes: 0,
    comments: 0,
    shares: 0,
    saves: 0,
    clicks: 0,
  };
  const others = (await performanceRows(ctx.deps.db, cal.calendar.calendar_id))
    .filter((r) => r.event_id !== e.event_id)
    .map((r) => metricsOf(r.performance)!);
  const baseline = baselineOf(others, e.platform);
  const model = await calendarModel(ctx.deps.db, cal.calendar.calendar_id, cal.calendar.timezone, {
    platform: e.platform,
  });
  const audience = (e.audience ?? {}) as {
    demographics?: Record<string, number>;
    top_cities?: { city: string; share: number }[];
  };
  const hashtags = Array.isArray(e.content.hashtags) ? e.content.hashtags.length : 0;
  return {
    event_id: e.event_id,
    platform: e.platform,
    recorded: e.performance !== null,
    measured_at: e.performance?.measured_at ?? null,
    published_at: e.published_at,
    metrics: metricsWithRates(m),
    audience_insights: {
      demographics: audience.demographics ?? {},
      top_cities: audience.top_cities ?? [],
      audience_segment: e.audience_segment,
    },
    ai_insights: {
      performance_score: e.performance ? performanceScore(m, baseline) : 0,
      optimization_suggestions: e.performance
        ? suggestions(m, baseline, { published_at: e.published_at, hashtags, model })
        : ['No figures recorded yet: POST them to .../performance once the post has been out for a while.'],
      compared_to: {
        source: baseline.source,
        events: baseline.events,
        engagement_rate: baseline.engagement_rate,
        impressions: baseline.impressions,
        click_through_rate: baseline.click_through_rate,
      },
      method: 'rules over the comparison with the calendar averages and the timing model (no AI call)',
    },
  };
}

interface PerformanceBody {
  impressions: number;
  reach?: number;
  engagements?: number;
  likes?: number;
  comments?: number;
  shares?: number;
  saves?: number;
  clicks?: number;
  measured_at?: string;
  audience_segment?: string;
  audience?: {
    demographics?: Record<string, number>;
    top_cities?: { city: string; share: number }[];
    timezones?: Record<string, number>;
  };
}

export const analyticsRoutes: RouteDef[] = [
  defineRoute<PerformanceBody, unknown, { calendar_id: string; event_id: string }>({
    method: 'post',
    path: `${BASE}/calendars/{calendar_id}/events/{event_id}/performance`,
    auth: 'user',
    scope: 'calendar:publish',
    tags,
    summary:
      'Record performance figures of a published event (a cumulative snapshot; the latest one is current); engagements default to likes+comments+shares+saves',
    description:
      "Needs publish_content; only a published event takes figures (else 400). reach defaults to impressions and measured_at to now (it must not be in the future); audience.timezones feed the timing model's hour prior. Fires event.performance_updated, and for the event's first figures also calendar.analytics_ready.",
    request: { params: eventParams, body: performanceIn },
    responses: { 201: { description: 'The event performance after the snapshot', data: performanceOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'publish_content');
      const b = ctx.body;
      const now = clock(ctx.deps);
      const parts = (b.likes ?? 0) + (b.comments ?? 0) + (b.shares ?? 0) + (b.saves ?? 0);
      const metrics: PerformanceMetrics = {
        impressions: b.impressions,
        reach: b.reach ?? b.impressions,
        engagements: b.engagements ?? parts,
        likes: b.likes ?? 0,
        comments: b.comments ?? 0,
        shares: b.shares ?? 0,
        saves: b.saves ?? 0,
        clicks: b.clicks ?? 0,
      };
      const r = await runEventCommand(
        ctx.deps,
        cal,
        ctx.params.event_id,
        {
          kind: 'record_performance',
          actor: userIdOf(ctx),
          now,
          metrics,
          measured_at: b.measured_at ? new Date(b.measured_at).toISOString() : now.toISOString(),
          audience: b.audience ?? {},
          audience_segment: b.audience_segment ?? null,
        },
        requestMeta(ctx),
      );
      await settle(ctx, 'calendars', r.events);
      const row = await getEventRow(ctx.deps.db, cal.calendar.calendar_id, ctx.params.event_id);
      return { status: 201, data: await performanceView(ctx, cal, row!) };
    },
  }),
  defineRoute<unknown, unknown, { calendar_id: string; event_id: string }>({
    method: 'get',
    path: `${BASE}/calendars/{calendar_id}/events/{event_id}/performance`,
    auth: 'user',
    scope: 'calendar:analytics',
    tags,
    summary: 'Performance of an event: metrics with rates, audience insights, insights against the calendar averages',
    description:
      "Needs view_analytics; an unknown event or one of another calendar is 404. Answers the latest figures with engagement_rate and click_through_rate, the audience as recorded, and ai_insights derived by rules (no AI call) against the calendar's other measured events, or the platform prior when there are none. Before any figures: recorded false and zeros.",
    request: { params: eventParams },
    responses: { 200: { description: 'The event performance', data: performanceOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view_analytics');
      const row = await getEventRow(ctx.deps.db, cal.calendar.calendar_id, ctx.params.event_id);
      if (!row) {
        inCalendar(await loadEvent(ctx.deps.store, ctx.params.event_id), cal.calendar.calendar_id);
        throw new NotFoundError('Event not found');
      }
      return { data: await performanceView(ctx, cal, row) };
    },
  }),
  defineRoute<
    unknown,
    { start_date?: string; end_date?: string; platform?: string; content_type?: string; group_by: GroupBy },
    { calendar_id: string }
  >({
    method: 'get',
    path: `${BASE}/calendars/{calendar_id}/analytics`,
    auth: 'user',
    scope: 'calendar:analytics',
    tags,
    summary:
      'Calendar analytics for a range (default the last 30 days): summary, trends by local day/week/month, platform breakdown, best and worst content type, optimal posting times',
    description:
      "Needs view_analytics. Covers the events whose published_at (else scheduled_at) falls from start_date up to end_date (start_date after or at end_date is 400), optionally filtered by platform and content_type; trends group by local day, week (starting Monday) or month in the calendar's time zone. Best and worst content type are ranked by engagement rate among measured types (worst is null with fewer than two); optimal_posting_times are the timing model's 3 best slots.",
    request: {
      params: calendarParams,
      query: withRequired(
        {
          start_date: iso,
          end_date: iso,
          platform,
          content_type: contentType,
          group_by: { type: 'string', enum: ['day', 'week', 'month'], default: 'week' },
        },
        [],
      ),
    },
    responses: {
      200: {
        description: 'Analytics of the events in the range (by published_at, else scheduled_at)',
        data: allRequired({
          period: allRequired({ start: iso, end: iso, timezone: { type: 'string' }, group_by: { type: 'string' } }),
          summary: allRequired({
            total_events: int,
            published_events: int,
            measured_events: int,
            total_impressions: int,
            total_engagements: int,
            total_clicks: int,
            average_engagement_rate: num,
          }),
          performance_trends: arr(allRequired({ period: { type: 'string' }, ...bucketOut.properties })),
          platform_breakdown: mapOf(bucketOut, {
            description: 'Figures by platform (the platforms of the events in the range)',
          }),
          content_performance: allRequired({
            best_performing_type: { type: ['string', 'null'] },
            worst_performing_type: { type: ['string', 'null'] },
            by_content_type: mapOf(bucketOut, {
              description: 'Figures by content type (the content types of the events in the range)',
            }),
            optimal_posting_times: arr(optimalTimeOut),
          }),
        }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view_analytics');
      const now = clock(ctx.deps);
      const end = ctx.query.end_date ? new Date(ctx.query.end_date) : now;
      const start = ctx.query.start_date ? new Date(ctx.query.start_date) : new Date(end.getTime() - 30 * DAY);
      if (start >= end) throw invalid('start_date', 'start_date must be before end_date', ctx.query.start_date);
      const tz = cal.calendar.timezone;
      const rows = await eventRowsBetween(ctx.deps.db, cal.calendar.calendar_id, {
        from: start.toISOString(),
        to: end.toISOString(),
        platform: ctx.query.platform,
        content_type: ctx.query.content_type,
      });
      const a = aggregate(
        rows.map((r) => ({
          platform: r.platform,
          content_type: r.content_type,
          status: r.status,
          at: r.published_at ?? r.scheduled_at,
          metrics: metricsOf(r.performance),
        })),
        tz,
        ctx.query.group_by,
      );
      const model = await calendarModel(ctx.deps.db, cal.calendar.calendar_id, tz, {
        platform: ctx.query.platform,
        content_type: ctx.query.content_type,
      });
      return {
        data: {
          period: { start: start.toISOString(), end: end.toISOString(), timezone: tz, group_by: ctx.query.group_by },
          summary: a.summary,
          performance_trends: a.performance_trends,
          platform_breakdown: a.platform_breakdown,
          content_performance: {
            best_performing_type: a.best_performing_type,
            worst_performing_type: a.worst_performing_type,
            by_content_type: a.by_content_type,
            optimal_posting_times: optimalTimes(model, 3),
          },
        },
      };
    },
  }),
];
