/**
 * Campaigns of a calendar (Document 3 gives create and performance; list, get
 * and update are ours, docs/calendar.md). Events join a campaign through
 * `metadata.campaign_id`; performance aggregates them against the budget and
 * timeline (domain/calendar/campaign-performance.ts).
 */
import { randomUUID } from 'node:crypto';
import { campaignDecider, CampaignCommand, storedTimeline } from '../../domain/calendar/campaign';
import { campaignPerformance } from '../../domain/calendar/campaign-performance';
import { requireActive } from '../../domain/calendar/calendar';
import { calendarCampaignStream } from '../../domain/events/calendar';
import type { CampaignFields } from '../../domain/events/calendar';
import { NotFoundError } from '../../domain/errors';
import { handleCommand } from '../../infra/eventstore/command';
import { CampaignRow, eventRowsBetween, getCampaignRow, listCampaignRows } from '../../projections/calendar-queries';
import { clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteCtx, RouteDef } from '../kernel/registry';
import { calendarFor } from './access';
import { BASE, tags } from './calendars';
import { allRequired, arr, int, iso, mapOf, num, orNull, str, strings, text, withRequired } from '../kernel/schema';
import {
  budgetOut,
  budgetPerformanceOut,
  calendarParams,
  campaignParams,
  contentStrategyOut,
  dateOnly,
  listOut,
  paging,
  platform,
  timelineOut,
  timelinePerformanceOut,
} from './schemas';

type Ctx = RouteCtx;

const STATUSES = ['planned', 'active', 'completed', 'cancelled'];
const fieldsSchema = {
  name: text(200),
  description: str(2000),
  objectives: strings(20, 300),
  target_audience: str(500),
  budget: withRequired(
    {
      amount: { type: 'number', minimum: 0, maximum: 1e12 },
      currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      platforms: arr(platform, { maxItems: 7, uniqueItems: true }),
    },
    ['amount', 'currency'],
  ),
  timeline: withRequired(
    {
      start_date: dateOnly,
      end_date: dateOnly,
      milestones: arr(allRequired({ date: dateOnly, name: text(200) }), { maxItems: 50 }),
    },
    ['start_date', 'end_date'],
  ),
  content_strategy: withRequired(
    {
      pillars: strings(20, 200),
      content_mix: {
        type: 'object',
        additionalProperties: { type: 'number', minimum: 0, maximum: 100 },
        maxProperties: 20,
      },
    },
    [],
  ),
  status: { type: 'string', enum: STATUSES },
};

const campaignOut = allRequired({
  id: { type: 'string' },
  calendar_id: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  objectives: arr({ type: 'string' }),
  target_audience: { type: 'string' },
  budget: orNull(budgetOut),
  timeline: orNull(timelineOut),
  content_strategy: orNull(contentStrategyOut),
  status: { type: 'string' },
  created_by: { type: 'string' },
  created_at: iso,
  updated_at: iso,
});

const view = (c: CampaignRow) => ({
  id: c.campaign_id,
  calendar_id: c.calendar_id,
  name: c.name,
  description: c.description,
  objectives: c.objectives,
  target_audience: c.target_audience,
  budget: c.budget,
  // Campaigns updated before the decider stored milestones: [] read as it is written today.
  timeline: storedTimeline(c.timeline) ?? null,
  content_strategy: c.content_strategy,
  status: c.status,
  created_by: c.created_by,
  created_at: c.created_at,
  updated_at: c.updated_at,
});

async function run(ctx: Ctx, campaignId: string, command: CampaignCommand) {
  const r = await handleCommand(ctx.deps.store, calendarCampaignStream(campaignId), campaignDecider, command, {
    metadata: requestMeta(ctx),
  });
  await settle(ctx, 'calendars', r.events);
}

async function campaignOf(ctx: Ctx, calendarId: string, campaignId: string): Promise<CampaignRow> {
  const c = await getCampaignRow(ctx.deps.db, calendarId, campaignId);
  if (!c) throw new NotFoundError('Campaign not found');
  return c;
}

export const campaignRoutes: RouteDef[] = [
  defineRoute<CampaignFields & { name: string }, unknown, { calendar_id: string }>({
    method: 'post',
    path: `${BASE}/calendars/{calendar_id}/campaigns`,
    auth: 'user',
    scope: 'calendar:write',
    tags,
    summary: 'Create a campaign (status planned unless given); link events to it with metadata.campaign_id',
    description:
      "Needs create_events on an active calendar. The timeline's start_date must not be after its end_date, milestones must fall inside it, and content_mix shares (0-100) must add up to at most 100, else 400. Campaign performance aggregates the events whose metadata.campaign_id is the campaign's id.",
    request: { params: calendarParams, body: withRequired(fieldsSchema, ['name']) },
    responses: { 201: { description: 'The created campaign', data: campaignOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'create_events');
      requireActive(cal.calendar);
      const id = randomUUID();
      await run(ctx, id, {
        kind: 'create',
        campaign_id: id,
        calendar_id: cal.calendar.calendar_id,
        owner_id: cal.calendar.owner_id,
        actor: userIdOf(ctx),
        fields: ctx.body,
      });
      return { status: 201, data: view(await campaignOf(ctx, cal.calendar.calendar_id, id)) };
    },
  }),
  defineRoute<unknown, { status?: string; limit: number; offset: number }, { calendar_id: string }>({
    method: 'get',
    path: `${BASE}/calendars/{calendar_id}/campaigns`,
    auth: 'user',
    scope: 'calendar:read',
    tags,
    summary: "A calendar's campaigns, newest first",
    description:
      'Any member may read it. Filter by status; paged with limit (default 20, max 100) and offset, total counting every match.',
    request: {
      params: calendarParams,
      query: withRequired({ status: { type: 'string', enum: STATUSES }, ...paging(100, 20) }, []),
    },
    responses: { 200: { description: 'One page of campaigns', data: listOut('campaigns', campaignOut) } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view');
      const page = await listCampaignRows(ctx.deps.db, cal.calendar.calendar_id, ctx.query);
      return {
        data: { campaigns: page.rows.map(view), total: page.total, limit: ctx.query.limit, offset: ctx.query.offset },
      };
    },
  }),
  defineRoute<unknown, unknown, { calendar_id: string; campaign_id: string }>({
    method: 'get',
    path: `${BASE}/calendars/{calendar_id}/campaigns/{campaign_id}`,
    auth: 'user',
    scope: 'calendar:read',
    tags,
    summary: 'One campaign',
    description: 'Any member may read it; a campaign of another calendar is 404.',
    request: { params: campaignParams },
    responses: { 200: { description: 'The campaign', data: campaignOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view');
      return { data: view(await campaignOf(ctx, cal.calendar.calendar_id, ctx.params.campaign_id)) };
    },
  }),
  defineRoute<CampaignFields, unknown, { calendar_id: string; campaign_id: string }>({
    method: 'patch',
    path: `${BASE}/calendars/{calendar_id}/campaigns/{campaign_id}`,
    auth: 'user',
    scope: 'calendar:write',
    tags,
    summary: 'Change a campaign (partial; objects such as budget and timeline are replaced whole)',
    description:
      'Needs edit_events on an active calendar; a campaign of another calendar is 404. The campaign after the change is checked as on create (timeline order, milestones inside it, content_mix at most 100; else 400); status may be set to planned, active, completed or cancelled.',
    request: { params: campaignParams, body: withRequired(fieldsSchema, []) },
    responses: { 200: { description: 'The updated campaign', data: campaignOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'edit_events');
      requireActive(cal.calendar);
      await campaignOf(ctx, cal.calendar.calendar_id, ctx.params.campaign_id);
      await run(ctx, ctx.params.campaign_id, {
        kind: 'update',
        calendar_id: cal.calendar.calendar_id,
        actor: userIdOf(ctx),
        changes: ctx.body,
      });
      return { data: view(await campaignOf(ctx, cal.calendar.calendar_id, ctx.params.campaign_id)) };
    },
  }),
  defineRoute<unknown, unknown, { calendar_id: string; campaign_id: string }>({
    method: 'get',
    path: `${BASE}/calendars/{calendar_id}/campaigns/{campaign_id}/performance`,
    auth: 'user',
    scope: 'calendar:analytics',
    tags,
    summary:
      'Campaign performance: its events (metadata.campaign_id) against budget, timeline, platforms and content mix',
    description:
      "Needs view_analytics. Counts the campaign's events by status and sums their latest figures; budget gives the budget amount per recorded result (spend is not tracked); timeline compares the elapsed share of the timeline (local dates of the calendar's zone) with the share of events published (pacing ahead, on_track or behind within 10 points, or not_started, ended). Platforms and content mix compare plan and actual over the events that are not cancelled.",
    request: { params: campaignParams },
    responses: {
      200: {
        description: 'Campaign performance',
        data: allRequired({
          campaign_id: { type: 'string' },
          name: { type: 'string' },
          status: { type: 'string' },
          events: allRequired({
            total: int,
            published: int,
            by_status: mapOf(int, { description: "Number of the campaign's events by status (statuses present only)" }),
          }),
          metrics: allRequired({
            impressions: int,
            reach: int,
            engagements: int,
            clicks: int,
            engagement_rate: num,
            click_through_rate: num,
            measured_events: int,
          }),
          budget: orNull(budgetPerformanceOut),
          timeline: orNull(timelinePerformanceOut),
          platforms: allRequired({
            planned: arr({ type: 'string' }),
            actual: mapOf(int, { description: 'Events that are not cancelled, by platform' }),
            unused: arr({ type: 'string' }),
            unplanned: arr({ type: 'string' }),
          }),
          content_mix: allRequired({
            target: mapOf(num, {
              description: "content_strategy.content_mix: the campaign's target share (%) by content type",
            }),
            actual: mapOf(num, { description: 'Share (%) of the events that are not cancelled, by content type' }),
            deviation: mapOf(num, {
              description: 'actual minus target (percentage points), by content type of either',
            }),
          }),
        }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view_analytics');
      const c = await campaignOf(ctx, cal.calendar.calendar_id, ctx.params.campaign_id);
      const rows = await eventRowsBetween(ctx.deps.db, cal.calendar.calendar_id, { campaign_id: c.campaign_id });
      const p = campaignPerformance(
        {
          budget: c.budget ?? undefined,
          timeline: c.timeline ?? undefined,
          content_strategy: c.content_strategy ?? undefined,
        },
        rows.map((r) => ({
          status: r.status,
          platform: r.platform,
          content_type: r.content_type,
          at: r.published_at ?? r.scheduled_at,
          metrics: r.performance,
        })),
        clock(ctx.deps),
        cal.calendar.timezone,
      );
      return { data: { campaign_id: c.campaign_id, name: c.name, status: c.status, ...p } };
    },
  }),
];
