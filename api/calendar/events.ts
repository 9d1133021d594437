/**
 * Content events of a calendar (Document 3): create, get, list (filters and
 * paging), update (fields and status: the state machine of
 * domain/calendar/states.ts), bulk update (per-event result), delete.
 * Writes decide on the event's stream and wait for the `calendars` projection
 * that serves the read.
 */
import { requireActive } from '../../domain/calendar/calendar';
import type { Permission } from '../../domain/calendar/permissions';
import { requireAccess } from '../../domain/calendar/calendar';
import type { EventFields, EventStatus } from '../../domain/events/calendar';
import type { AppError } from '../../domain/errors';
import type { RecordedEvent } from '../../infra/eventstore';
import { EventFilters, getEventRow, listEventRows } from '../../projections/calendar-queries';
import { CALENDAR_CODE } from '../kernel/envelopes/calendar';
import { clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteCtx, RouteDef } from '../kernel/registry';
import { calendarFor, CalendarAccess, loadEvent, requireScope } from './access';
import { BASE, tags } from './calendars';
import { bulkUpdate, createEvents, deleteEvent, inCalendar, runEventCommand, updateCommand } from './commands';
import { calendarEventDecider } from '../../domain/calendar/event';
import type { EventState } from '../../domain/calendar/event-state';
import { allRequired, arr, bool, int, iso, mapOf, str, uuid, withRequired } from '../kernel/schema';
import {
  calendarParams,
  contentType,
  eventCreateBody,
  eventOut,
  eventParams,
  eventPatchBody,
  eventStatus,
  listOut,
  metadataIn,
  paging,
  platform,
} from './schemas';
import { eventStateView, eventView } from './views';

type Ctx = RouteCtx;

type EventBody = EventFields & {
  title: string;
  content_type: string;
  platform: string;
  status?: 'draft' | 'scheduled';
};
type PatchBody = EventFields & { status?: EventStatus };

/** The event as the projection has it once it applied `events` (or as folded, past the consistency bound). */
export async function eventAfter(ctx: Ctx, calendarId: string, state: EventState, events: RecordedEvent[]) {
  await settle(ctx, 'calendars', events);
  const row = await getEventRow(ctx.deps.db, calendarId, state.event_id);
  return row
    ? eventView(row)
    : eventStateView(state, events[events.length - 1]?.recordedAt ?? new Date().toISOString());
}

/** Permissions a status move needs besides edit_events: publishing and approving need publish_content. */
export function statusNeeds(status: EventStatus | undefined): Permission[] {
  return status === 'published' || status === 'approved' ? ['edit_events', 'publish_content'] : ['edit_events'];
}

/**
 * The permissions of a status move; a move that needs publish_content (publishing, approving) also needs the
 * calendar:publish scope: an explicit second check beside the route's declared calendar:write.
 */
async function requireAll(ctx: Ctx, cal: CalendarAccess, needs: Permission[]) {
  for (const n of needs) requireAccess(cal.calendar, userIdOf(ctx), n);
  if (needs.includes('publish_content')) await requireScope(ctx, 'calendar:publish');
}

export const calendarCode = (e: AppError) => CALENDAR_CODE[e.kind] ?? 'INTERNAL_ERROR';

const bulkResult = withRequired(
  {
    event_id: { type: 'string' },
    success: bool,
    status: { type: 'string' },
    error: allRequired({
      code: { type: 'string' },
      message: { type: 'string' },
      details: mapOf(
        {},
        {
          description:
            "The error's own details, keys by error (e.g. from, to and allowed of a refused status move; current_time of a past scheduled_at); empty when it has none",
        },
      ),
    }),
  },
  ['event_id', 'success'],
);

export const eventRoutes: RouteDef[] = [
  defineRoute<EventBody, unknown, { calendar_id: string }>({
    method: 'post',
    path: `${BASE}/calendars/{calendar_id}/events`,
    auth: 'user',
    scope: 'calendar:write',
    tags,
    summary:
      'Create an event: status scheduled when scheduled_at is given (must be in the future), else draft; counts against the event limit',
    description:
      "Needs create_events on an active calendar (archived: 400). A scheduled_at at or before the current time is 400 with details.current_time; a scheduled event on a calendar with auto_publish gets a publishing timer for that time. Every event takes one place under the owner's plan limit: past it 402 CALENDAR_FULL with details limit, current_events and requested.",
    request: { params: calendarParams, body: eventCreateBody },
    responses: { 201: { description: 'The created event', data: eventOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'create_events');
      requireActive(cal.calendar);
      const { status, ...fields } = ctx.body;
      const r = await createEvents(
        ctx.deps,
        cal,
        userIdOf(ctx),
        [{ fields, status }],
        clock(ctx.deps),
        requestMeta(ctx),
      );
      const state = r.events.reduce(calendarEventDecider.evolve, undefined)!;
      return { status: 201, data: await eventAfter(ctx, cal.calendar.calendar_id, state, r.events) };
    },
  }),
  defineRoute<unknown, EventFilters, { calendar_id: string }>({
    method: 'get',
    path: `${BASE}/calendars/{calendar_id}/events`,
    auth: 'user',
    scope: 'calendar:read',
    tags,
    summary: 'Events of a calendar by scheduled time (unscheduled last), with filters and paging',
    description:
      'Any member may read it. Ordered by scheduled_at (events without one last); start_date and end_date bound scheduled_at inclusively, so unscheduled events drop out when either is given; platform, status, content_type and the metadata fields assigned_to and campaign_id filter exactly. Paged with limit (default 50, max 200) and offset; total counts every match.',
    request: {
      params: calendarParams,
      query: withRequired(
        {
          start_date: iso,
          end_date: iso,
          platform,
          status: eventStatus,
          content_type: contentType,
          assigned_to: str(100),
          campaign_id: str(100),
          ...paging(200, 50),
        },
        [],
      ),
    },
    responses: { 200: { description: 'One page of events', data: listOut('events', eventOut) } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view');
      const page = await listEventRows(ctx.deps.db, cal.calendar.calendar_id, ctx.query);
      return {
        data: { events: page.rows.map(eventView), total: page.total, limit: ctx.query.limit, offset: ctx.query.offset },
      };
    },
  }),
  defineRoute<
    { event_ids: string[]; updates: { status?: EventStatus; metadata?: Record<string, unknown> } },
    unknown,
    { calendar_id: string }
  >({
    method: 'patch',
    path: `${BASE}/calendars/{calendar_id}/events/bulk`,
    auth: 'user',
    scope: 'calendar:write',
    tags,
    summary:
      'Update many events (status and/or metadata): each event is decided on its own, the accepted ones are written together; per-event result',
    description:
      "Up to 100 distinct event_ids: updates.metadata is merged into each event and updates.status is decided per event by the same rules as PATCH of one event. Permissions are checked once for the whole request as for PATCH (edit_events; a move to published or approved also needs publish_content and, for an OAuth token, the calendar:publish scope besides calendar:write): a missing one refuses the request (403), as does an archived calendar (400). Events that are refused (unknown, another calendar's, an illegal move) are reported failed with their error; the accepted ones are written in one transaction.",
    request: {
      params: calendarParams,
      body: allRequired({
        event_ids: arr(uuid, { minItems: 1, maxItems: 100, uniqueItems: true }),
        updates: withRequired({ status: eventStatus, metadata: metadataIn }, [], { minProperties: 1 }),
      }),
    },
    responses: {
      200: {
        description: 'Bulk result: updated and failed counts, one result per event (failed ones carry the error)',
        data: allRequired({ updated: int, failed: int, results: arr(bulkResult) }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view');
      await requireAll(ctx, cal, statusNeeds(ctx.body.updates.status));
      requireActive(cal.calendar);
      const now = clock(ctx.deps);
      const { status, metadata } = ctx.body.updates;
      const r = await bulkUpdate(
        ctx.deps,
        cal,
        ctx.body.event_ids,
        () => updateCommand(cal, userIdOf(ctx), now, metadata ? { metadata } : {}, status, 'updates.'),
        calendarCode,
        requestMeta(ctx),
      );
      await settle(ctx, 'calendars', r.events);
      const ok = r.results.filter((x) => x.success).length;
      return { data: { updated: ok, failed: r.results.length - ok, results: r.results } };
    },
  }),
  defineRoute<unknown, unknown, { calendar_id: string; event_id: string }>({
    method: 'get',
    path: `${BASE}/calendars/{calendar_id}/events/{event_id}`,
    auth: 'user',
    scope: 'calendar:read',
    tags,
    summary: 'One event',
    description: 'Any member may read it; an unknown or deleted event, or one of another calendar, is 404.',
    request: { params: eventParams },
    responses: { 200: { description: 'The event', data: eventOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view');
      const row = await getEventRow(ctx.deps.db, cal.calendar.calendar_id, ctx.params.event_id);
      if (row) return { data: eventView(row) };
      // Not in the projection (yet): the stream says whether it exists.
      const s = inCalendar(await loadEvent(ctx.deps.store, ctx.params.event_id), cal.calendar.calendar_id);
      return { data: eventStateView(s, new Date().toISOString()) };
    },
  }),
  defineRoute<PatchBody, unknown, { calendar_id: string; event_id: string }>({
    method: 'patch',
    path: `${BASE}/calendars/{calendar_id}/events/{event_id}`,
    auth: 'user',
    scope: 'calendar:write',
    tags,
    summary:
      'Change an event (partial) and/or move its status; publishing and approving need publish_content; rescheduling moves its publishing timer',
    description:
      "Needs edit_events on an active calendar; a move to published or approved also needs publish_content and, for an OAuth token, the calendar:publish scope besides the route's calendar:write (a second check, made only then). content is replaced whole and metadata merged; status moves follow the state machine (400 naming the allowed moves), scheduled and approved need a future scheduled_at, and a published event may only change its metadata. Changing the content of an approved event that needs approval sends it back to scheduled; PATCH status approved is recorded as an approval without comments.",
    request: { params: eventParams, body: eventPatchBody },
    responses: { 200: { description: 'The updated event', data: eventOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view');
      await requireAll(ctx, cal, statusNeeds(ctx.body.status));
      requireActive(cal.calendar);
      const { status, ...changes } = ctx.body;
      const r = await runEventCommand(
        ctx.deps,
        cal,
        ctx.params.event_id,
        updateCommand(cal, userIdOf(ctx), clock(ctx.deps), changes, status),
        requestMeta(ctx),
      );
      const after = r.events.reduce(calendarEventDecider.evolve, r.state)!;
      return { data: await eventAfter(ctx, cal.calendar.calendar_id, after, r.events) };
    },
  }),
  defineRoute<unknown, unknown, { calendar_id: string; event_id: string }>({
    method: 'delete',
    path: `${BASE}/calendars/{calendar_id}/events/{event_id}`,
    auth: 'user',
    scope: 'calendar:write',
    tags,
    summary: 'Delete an event (stops its publishing timer, frees its place under the event limit)',
    description:
      'Needs delete_events on an active calendar (archived: 400); an event in any status may be deleted. An unknown or already deleted event, or one of another calendar, is 404.',
    request: { params: eventParams },
    responses: {
      200: {
        description: 'Deletion result',
        data: allRequired({
          id: { type: 'string' },
          deleted: { const: true },
          deleted_at: iso,
          status_before: { type: 'string' },
        }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'delete_events');
      requireActive(cal.calendar);
      const events = await deleteEvent(ctx.deps, cal, ctx.params.event_id, userIdOf(ctx), requestMeta(ctx));
      await settle(ctx, 'calendars', events);
      const del = events.find((e) => e.type === 'CalendarEventDeleted');
      return {
        data: {
          id: ctx.params.event_id,
          deleted: true,
          deleted_at: del?.recordedAt ?? new Date().toISOString(),
          status_before: del?.type === 'CalendarEventDeleted' ? del.data.status : 'unknown',
        },
      };
    },
  }),
];
