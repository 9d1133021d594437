/**
 * Scheduling intelligence (Document 3): timing analysis (best local weekday
 * and hour from the calendar's own recorded performance blended with the
 * platform prior) and smart scheduling (place events under hard constraints,
 * optionally creating them). Pure computations over projection reads.
 */
import { requireActive } from '../../domain/calendar/calendar';
import { invalid } from '../../domain/calendar/errors';
import { Constraints, Flexibility, Goals, Priority, smartSchedule } from '../../domain/calendar/smart-schedule';
import type { TimingModel } from '../../domain/calendar/timing';
import { weekdayName } from '../../domain/calendar/time';
import { currentEvents } from '../../infra/calendar/capacity';
import { eventRowsBetween } from '../../projections/calendar-queries';
import { clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { calendarFor } from './access';
import { BASE, tags } from './calendars';
import { createEvents, limitOf } from './commands';
import { calendarModel } from './model';
import { allRequired, arr, bool, int, iso, mapOf, num, str, text, withRequired } from '../kernel/schema';
import { calendarParams, contentType, dateOnly, platform } from './schemas';

const DAY = 86400_000;

/** `30d` (last n days up to now) or `YYYY-MM-DD/YYYY-MM-DD` (UTC dates, end inclusive). */
export function parseRange(range: string, now: Date): { from: string; to: string; days: number } {
  const m = /^(\d{1,4})d$/.exec(range);
  if (m) {
    const days = Number(m[1]);
    if (days < 1 || days > 3650) throw invalid('date_range', 'date_range must be 1d..3650d', range);
    return { from: new Date(now.getTime() - days * DAY).toISOString(), to: now.toISOString(), days };
  }
  const r = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/.exec(range);
  const from = r ? Date.parse(`${r[1]}T00:00:00Z`) : NaN;
  const to = r ? Date.parse(`${r[2]}T00:00:00Z`) + DAY : NaN;
  if (!r || Number.isNaN(from) || Number.isNaN(to) || to <= from)
    throw invalid('date_range', 'date_range must be like 30d or 2024-01-01/2024-03-31', range);
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), days: Math.round((to - from) / DAY) };
}

export const optimalTimes = (m: TimingModel, n: number) =>
  m
    .ranked()
    .slice(0, n)
    .map((s) => ({
      day_of_week: weekdayName(s.weekday),
      hour: s.hour,
      timezone: m.timezone,
      performance_score: s.performance_score,
      expected_reach: s.expected_reach,
      expected_engagement_rate: s.engagement_rate,
      confidence: s.confidence,
    }));

export const optimalTimeOut = allRequired({
  day_of_week: { type: 'string' },
  hour: int,
  timezone: { type: 'string' },
  performance_score: num,
  expected_reach: int,
  expected_engagement_rate: num,
  confidence: { type: 'number', minimum: 0, maximum: 1 },
});

const modelOut = allRequired({
  name: { type: 'string' },
  observations: int,
  prior_weight: num,
  platform: { type: 'string' },
  audience_timezones: {
    type: ['object', 'null'],
    additionalProperties: { type: 'number' },
    description: "recorded audience zones the hour prior follows; null: the calendar's zone",
  },
  description: { type: 'string' },
});

const modelInfo = (m: TimingModel) => ({
  name: 'timing-model-v1',
  observations: m.observations,
  prior_weight: m.prior_weight,
  platform: m.platform,
  audience_timezones: m.audience_timezones,
  description:
    "hour and weekday effects learnt from the calendar's recorded performance (published events), blended with the platform prior; the prior's weight falls as observations grow (docs/calendar.md)",
});

const smartOut = withRequired(
  {
    scheduled_events: arr(
      withRequired(
        {
          original_id: { type: 'string' },
          event_id: { type: 'string' },
          title: { type: 'string' },
          content_type: { type: 'string' },
          platform: { type: 'string' },
          priority: { type: 'string' },
          scheduled_at: { type: 'string', format: 'date-time' },
          confidence_score: num,
          expected_performance: allRequired({ reach: int, engagement_rate: num }),
        },
        ['original_id', 'scheduled_at', 'confidence_score', 'expected_performance'],
      ),
    ),
    unscheduled_events: arr(
      allRequired({
        original_id: { type: 'string' },
        title: { type: 'string' },
        reason: { type: 'string' },
        blocked_by: mapOf(int, {
          description:
            'Candidate slots of its flexibility window ruled out, by the first hard constraint each broke: business_hours_only, avoid_dates, max_per_day, min_spacing_hours; capacity: 1 when the event limit left no room',
        }),
      }),
    ),
    optimization_summary: withRequired(
      {
        total_reach_optimized: int,
        content_balance_score: num,
        capacity_utilization: num,
        method: { type: 'string' },
        improving_moves: int,
        period: allRequired({ start: iso, end: iso, timezone: { type: 'string' } }),
      },
      ['total_reach_optimized', 'content_balance_score', 'capacity_utilization'],
    ),
    applied: bool,
  },
  ['scheduled_events', 'unscheduled_events', 'optimization_summary', 'applied'],
);

interface SmartBody {
  events: {
    id?: string;
    title: string;
    content_type: string;
    platform: string;
    priority: Priority;
    flexibility: Flexibility;
  }[];
  constraints: Constraints;
  optimization_goals: Goals;
  period_days: number;
  apply: boolean;
}

export const schedulingRoutes: RouteDef[] = [
  defineRoute<
    unknown,
    { platform?: string; content_type?: string; audience_segment?: string; date_range: string },
    { calendar_id: string }
  >({
    method: 'get',
    path: `${BASE}/calendars/{calendar_id}/timing/analyze`,
    auth: 'user',
    scope: 'calendar:analytics',
    tags,
    summary: "Optimal posting times from the calendar's recorded performance (Bayesian blend with a platform prior)",
    description:
      "Needs view_analytics. Fits the calendar's timing model to its published events with recorded figures in date_range (default the last 30 days; a malformed range is 400), filtered by platform, content_type and audience_segment, and answers the 5 best local weekday and hour slots, the 3 strongest hours and weekdays, and the audience's recorded time zones. With little history the platform prior dominates and confidence stays low; nothing is written.",
    request: {
      params: calendarParams,
      query: withRequired(
        {
          platform,
          content_type: contentType,
          audience_segment: str(100),
          date_range: {
            type: 'string',
            maxLength: 21,
            default: '30d',
            description: '`30d` (last n days) or `YYYY-MM-DD/YYYY-MM-DD`',
          },
        },
        [],
      ),
    },
    responses: {
      200: {
        description: 'Optimal times (best first) and audience insights',
        data: allRequired({
          platform: { type: 'string' },
          analysis_period: allRequired({
            start: { type: 'string' },
            end: { type: 'string' },
            days: int,
            timezone: { type: 'string' },
          }),
          optimal_times: arr(optimalTimeOut),
          audience_insights: allRequired({
            peak_activity: allRequired({
              hours: arr(allRequired({ hour: int, relative_activity: num, observations: int })),
              days: arr(allRequired({ day_of_week: { type: 'string' }, relative_activity: num, observations: int })),
            }),
            timezone_distribution: { type: 'object', additionalProperties: { type: 'number' } },
            timezone_distribution_source: { type: 'string', enum: ['recorded_audience', 'calendar_timezone'] },
          }),
          model: modelOut,
        }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view_analytics');
      const range = parseRange(ctx.query.date_range, clock(ctx.deps));
      const f = {
        platform: ctx.query.platform,
        content_type: ctx.query.content_type,
        audience_segment: ctx.query.audience_segment,
        from: range.from,
        to: range.to,
      };
      const tz = cal.calendar.timezone;
      const m = await calendarModel(ctx.deps.db, cal.calendar.calendar_id, tz, f);
      // Audience zones as recorded with the figures, weighted by impressions (the model's hour prior follows them).
      const recorded = m.audience_timezones !== null;
      const distribution = m.audience_timezones ?? { [tz]: 1 };
      const hours = m.hour_effects
        .map((x, h) => ({ hour: h, relative_activity: x, observations: m.hour_counts[h] }))
        .sort((a, b) => b.relative_activity - a.relative_activity);
      const days = m.weekday_effects
        .map((x, d) => ({ day_of_week: weekdayName(d + 1), relative_activity: x, observations: m.weekday_counts[d] }))
        .sort((a, b) => b.relative_activity - a.relative_activity);
      return {
        data: {
          platform: ctx.query.platform ?? 'multi',
          analysis_period: { start: range.from, end: range.to, days: range.days, timezone: tz },
          optimal_times: optimalTimes(m, 5),
          audience_insights: {
            peak_activity: { hours: hours.slice(0, 3), days: days.slice(0, 3) },
            timezone_distribution: distribution,
            timezone_distribution_source: recorded ? 'recorded_audience' : 'calendar_timezone',
          },
          model: modelInfo(m),
        },
      };
    },
  }),
  defineRoute<SmartBody, unknown, { calendar_id: string }>({
    method: 'post',
    path: `${BASE}/calendars/{calendar_id}/events/smart-schedule`,
    auth: 'user',
    scope: 'calendar:write',
    tags,
    summary:
      'Place events in the coming period for the most expected reach under hard constraints; apply: true creates them (status scheduled)',
    description:
      "Needs create_events. Places the given events (1-50) in whole local hours of the next period_days (default 14), weighting expected reach by priority, and never breaks the hard constraints: working hours (business_hours_only), avoid_dates, max_per_day and min_spacing_hours counting the calendar's scheduled, approved, generated and published events, and with respect_capacity the room left under the event limit. Events that cannot be placed are listed in unscheduled_events with the reason and the slots each constraint ruled out. Without apply, or when nothing could be placed, the answer is 200 and nothing is written; apply: true on an active calendar creates the placed events (status scheduled, metadata.smart_scheduled) in one transaction and answers 201 with their event_id.",
    request: {
      params: calendarParams,
      body: withRequired(
        {
          events: arr(
            withRequired(
              {
                id: str(100),
                title: text(300),
                content_type: contentType,
                platform,
                priority: { type: 'string', enum: ['low', 'medium', 'high', 'urgent'], default: 'medium' },
                flexibility: { type: 'string', enum: ['low', 'medium', 'high'], default: 'medium' },
              },
              ['title', 'content_type', 'platform'],
            ),
            { minItems: 1, maxItems: 50 },
          ),
          constraints: withRequired(
            {
              min_spacing_hours: { type: 'integer', minimum: 0, maximum: 168, default: 4 },
              max_per_day: { type: 'integer', minimum: 1, maximum: 24, default: 3 },
              business_hours_only: { type: 'boolean', default: true },
              avoid_dates: arr(dateOnly, { maxItems: 60, default: [] }),
            },
            [],
            { default: {} },
          ),
          optimization_goals: withRequired(
            {
              maximize_reach: { type: 'boolean', default: true },
              balance_content_types: { type: 'boolean', default: true },
              respect_capacity: { type: 'boolean', default: true },
            },
            [],
            { default: {} },
          ),
          period_days: { type: 'integer', minimum: 1, maximum: 31, default: 14 },
          apply: { type: 'boolean', default: false },
        },
        ['events'],
      ),
    },
    responses: {
      200: {
        description: 'The placement (nothing written)',
        data: smartOut,
      },
      201: { description: 'The placement, with the created events (apply: true)', data: smartOut },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'create_events');
      if (ctx.body.apply) requireActive(cal.calendar);
      const now = clock(ctx.deps);
      const b = ctx.body;
      const tz = cal.calendar.timezone;
      const spacing = b.constraints.min_spacing_hours * 3600_000;
      const rows = await eventRowsBetween(ctx.deps.db, cal.calendar.calendar_id, {
        from: new Date(now.getTime() - spacing - DAY).toISOString(),
        to: new Date(now.getTime() + (b.period_days + 1) * DAY + spacing).toISOString(),
      });
      const existing = rows
        .filter((r) => r.scheduled_at && ['scheduled', 'approved', 'generated', 'published'].includes(r.status))
        .map((r) => ({ at: r.published_at ?? r.scheduled_at!, content_type: r.content_type }));
      const models = new Map<string, TimingModel>();
      for (const p of new Set(b.events.map((e) => e.platform)))
        models.set(p, await calendarModel(ctx.deps.db, cal.calendar.calendar_id, tz, { platform: p }));
      const limit = await limitOf(ctx.deps, cal.calendar.owner_id);
      const used = await currentEvents(ctx.deps.db, cal.calendar.calendar_id);
      const result = smartSchedule({
        items: b.events.map((e, i) => ({ ...e, id: e.id ?? String(i) })),
        constraints: b.constraints,
        goals: b.optimization_goals,
        now,
        period_days: b.period_days,
        timezone: tz,
        working_hours: cal.calendar.settings.working_hours,
        existing,
        model: (p) => models.get(p)!,
        capacity_remaining: limit - used,
      });
      if (!b.apply || !result.scheduled_events.length) return { data: { ...result, applied: false } };
      const r = await createEvents(
        ctx.deps,
        cal,
        userIdOf(ctx),
        result.scheduled_events.map((p) => ({
          status: 'scheduled' as const,
          fields: {
            title: p.title,
            content_type: p.content_type,
            platform: p.platform,
            scheduled_at: p.scheduled_at,
            metadata: { priority: p.priority, smart_scheduled: true, original_id: p.original_id },
          },
        })),
        now,
        requestMeta(ctx),
      );
      await settle(ctx, 'calendars', r.events);
      return {
        status: 201,
        data: {
          ...result,
          scheduled_events: result.scheduled_events.map((p, i) => ({ ...p, event_id: r.ids[i] })),
          applied: true,
        },
      };
    },
  }),
];
