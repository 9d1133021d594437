/**
 * Calendars (Document 3): create, get (with events_count, upcoming_events and
 * the next events), list, update (name, description, time zone, team,
 * settings, status active/archived), delete. Writes fold and decide on the
 * calendar stream; reads come from the `calendars` projection after settle.
 */
import { randomUUID } from 'node:crypto';
import { calendarDecider, CalendarCommand, SettingsPatch } from '../../domain/calendar/calendar';
import { calendarStream } from '../../domain/events/calendar';
import type { CalendarStatus } from '../../domain/events/calendar';
import { ROLE_DEFAULTS } from '../../domain/calendar/permissions';
import { upcomingWindow } from '../../domain/calendar/time';
import { handleCommand } from '../../infra/eventstore/command';
import { eventCounts, listCalendarsFor, nextEventRows } from '../../projections/calendar-queries';
import { clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteCtx, RouteDef } from '../kernel/registry';
import { calendarFor, requireScope } from './access';
import { calendarView } from './views';
import { allRequired, arr, int, iso, str, text, withRequired } from '../kernel/schema';
import { calendarOut, calendarParams, listOut, paging, settingsIn } from './schemas';

export const BASE = '/v1/calendar';
export const tags = ['calendar'];

type Ctx = RouteCtx;

const zone = { type: 'string', minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin' };
const teamId = { type: ['string', 'null'], maxLength: 100 };

async function countsOf(ctx: Ctx, c: { calendar_id: string; timezone: string }) {
  const counts = await eventCounts(
    ctx.deps.db,
    new Map([[c.calendar_id, upcomingWindow(clock(ctx.deps), c.timezone)]]),
  );
  return counts.get(c.calendar_id)!;
}

async function runCalendar(ctx: Ctx, id: string, command: CalendarCommand) {
  const r = await handleCommand(ctx.deps.store, calendarStream(id), calendarDecider, command, {
    metadata: requestMeta(ctx),
  });
  await settle(ctx, 'calendars', r.events);
  return r;
}

export const calendarRoutes: RouteDef[] = [
  defineRoute<{
    name: string;
    description?: string;
    timezone?: string;
    team_id?: string | null;
    settings?: SettingsPatch;
  }>({
    method: 'post',
    path: `${BASE}/calendars`,
    auth: 'user',
    scope: 'calendar:manage',
    tags,
    summary: 'Create a calendar (status active); the caller is its owner',
    description:
      'Needs no permission on an existing calendar (an OAuth token needs calendar:manage). timezone must be an IANA zone (default UTC, else 400); settings start from default_platform multi, working hours 09:00-17:00, auto_publish true and approval_workflow false, overridden by the settings given. Share the calendar with other users through POST /calendars/{calendar_id}/share.',
    request: {
      body: withRequired(
        { name: text(200), description: str(2000), timezone: zone, team_id: teamId, settings: settingsIn },
        ['name'],
      ),
    },
    responses: { 201: { description: 'The new calendar', data: calendarOut } },
    handler: async (ctx) => {
      await requireScope(ctx);
      const id = randomUUID();
      const r = await runCalendar(ctx, id, { kind: 'create', calendar_id: id, owner_id: userIdOf(ctx), ...ctx.body });
      const state = r.events.reduce(calendarDecider.evolve, undefined)!;
      return {
        status: 201,
        data: calendarView(
          state,
          { events_count: 0, upcoming_events: 0 },
          { role: 'owner', permissions: ROLE_DEFAULTS.owner },
        ),
      };
    },
  }),
  defineRoute<unknown, { events_limit: number }, { calendar_id: string }>({
    method: 'get',
    path: `${BASE}/calendars/{calendar_id}`,
    auth: 'user',
    scope: 'calendar:read',
    tags,
    summary: 'A calendar with events_count, upcoming_events (next 7 local days) and its next events',
    description:
      "Any member may read it; another user's calendar or a deleted one is 404. events lists up to events_limit (default 50, max 200) events still to go out (draft, generated, scheduled, approved) whose scheduled_at is now or later, earliest first; upcoming_window is the window upcoming_events counts in: from now to the end of the 7th local day in the calendar's time zone.",
    request: {
      params: calendarParams,
      query: withRequired({ events_limit: { type: 'integer', minimum: 0, maximum: 200, default: 50 } }, []),
    },
    responses: {
      200: {
        description: 'The calendar and the next events due from now (earliest first)',
        data: allRequired({
          calendar: calendarOut,
          events: arr(
            allRequired({
              id: { type: 'string' },
              title: { type: 'string' },
              scheduled_at: iso,
              status: { type: 'string' },
            }),
          ),
          upcoming_window: allRequired({ from: iso, to: iso, timezone: { type: 'string' } }),
        }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view');
      const now = clock(ctx.deps);
      const next = await nextEventRows(ctx.deps.db, cal.calendar.calendar_id, now, ctx.query.events_limit);
      return {
        data: {
          calendar: calendarView(cal.calendar, await countsOf(ctx, cal.calendar), cal.access),
          events: next.map((e) => ({ id: e.event_id, title: e.title, scheduled_at: e.scheduled_at, status: e.status })),
          upcoming_window: { ...upcomingWindow(now, cal.calendar.timezone), timezone: cal.calendar.timezone },
        },
      };
    },
  }),
  defineRoute<unknown, { team_id?: string; status?: CalendarStatus; limit: number; offset: number }>({
    method: 'get',
    path: `${BASE}/calendars`,
    auth: 'user',
    scope: 'calendar:read',
    tags,
    summary: 'Calendars the caller owns or is a member of, newest first',
    description:
      "Each calendar carries events_count, upcoming_events and the caller's role and permission flags; deleted calendars are not listed. Filters: team_id (exact) and status (active or archived); paged with limit (default 20, max 100) and offset, total counting every match.",
    request: {
      query: withRequired(
        { team_id: str(100), status: { type: 'string', enum: ['active', 'archived'] }, ...paging(100, 20) },
        [],
      ),
    },
    responses: { 200: { description: 'One page of calendars', data: listOut('calendars', calendarOut) } },
    handler: async (ctx) => {
      await requireScope(ctx);
      const me = userIdOf(ctx);
      const page = await listCalendarsFor(ctx.deps.db, me, ctx.query);
      const now = clock(ctx.deps);
      const counts = await eventCounts(
        ctx.deps.db,
        new Map(page.rows.map((c) => [c.calendar_id, upcomingWindow(now, c.timezone)])),
      );
      // The member row's role and flags (the owner has every flag); the calendar routes themselves re-check on the stream.
      const calendars = page.rows.map((c) =>
        calendarView(c, counts.get(c.calendar_id)!, {
          role: c.role,
          permissions: c.role === 'owner' ? ROLE_DEFAULTS.owner : c.permissions,
        }),
      );
      return { data: { calendars, total: page.total, limit: ctx.query.limit, offset: ctx.query.offset } };
    },
  }),
  defineRoute<
    {
      name?: string;
      description?: string;
      timezone?: string;
      team_id?: string | null;
      settings?: SettingsPatch;
      status?: CalendarStatus;
    },
    unknown,
    { calendar_id: string }
  >({
    method: 'patch',
    path: `${BASE}/calendars/{calendar_id}`,
    auth: 'user',
    scope: 'calendar:manage',
    tags,
    summary:
      'Change a calendar (owner): name, description, timezone, team_id, settings (merged), status active/archived',
    description:
      'Only the owner (members get 403). settings are merged into the current ones (working_hours HH:MM, start and end different) and timezone must be an IANA zone, else 400. status archived makes the calendar read-only: other writes answer 400 until a PATCH sets status active again, and publishing timers that fire meanwhile fail their events (CALENDAR_ARCHIVED).',
    request: {
      params: calendarParams,
      body: withRequired(
        {
          name: text(200),
          description: str(2000),
          timezone: zone,
          team_id: teamId,
          settings: settingsIn,
          status: { type: 'string', enum: ['active', 'archived'] },
        },
        [],
      ),
    },
    responses: { 200: { description: 'The updated calendar', data: calendarOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'manage');
      const r = await runCalendar(ctx, cal.calendar.calendar_id, { kind: 'update', actor: userIdOf(ctx), ...ctx.body });
      const state = r.events.reduce(calendarDecider.evolve, cal.calendar)!;
      return { data: calendarView(state, await countsOf(ctx, state), cal.access) };
    },
  }),
  defineRoute<unknown, unknown, { calendar_id: string }>({
    method: 'delete',
    path: `${BASE}/calendars/{calendar_id}`,
    auth: 'user',
    scope: 'calendar:manage',
    tags,
    summary: 'Delete a calendar (owner); its pending publishing timers do nothing when they fire',
    description:
      'Only the owner (members get 403). Afterwards the calendar is 404 on every route, for members too, and is no longer listed; events_count is the number of events it had.',
    request: { params: calendarParams },
    responses: {
      200: {
        description: 'Deletion result',
        data: allRequired({ id: { type: 'string' }, deleted: { const: true }, deleted_at: iso, events_count: int }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'manage');
      const counts = await countsOf(ctx, cal.calendar);
      const r = await runCalendar(ctx, cal.calendar.calendar_id, { kind: 'delete', actor: userIdOf(ctx) });
      return {
        data: {
          id: cal.calendar.calendar_id,
          deleted: true,
          deleted_at: r.events[0].recordedAt,
          events_count: counts.events_count,
        },
      };
    },
  }),
];
