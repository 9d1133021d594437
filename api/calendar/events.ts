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
import { defineRoute, HandlerCtx, RouteDef } from '../kernel/registry';
import { calendarFor, CalendarAccess, loadEvent, requireScope } from './access';
import { BASE, tags } from './calendars';
import { bulkUpdate, createEvents, deleteEvent, inCalendar, runEventCommand, updateCommand } from './commands';
import { calendarEventDecider, EventState } from '../../domain/calendar/event';
import {
  arr,
  bool,
  calendarParams,
  contentType,
  eventCreateBody,
  eventOut,
  eventParams,
  eventPatchBody,
  eventStatus,
  int,
  iso,
  listOut,
  metadataIn,
  obj,
  paging,
  platform,
  str,
  uuid,
} from './schemas';
import { eventStateView, eventView } from './views';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ctx = HandlerCtx<any, any, any>;

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

async function requireAll(ctx: Ctx, cal: CalendarAccess, needs: Permission[]) {
  for (const n of needs) requireAccess(cal.calendar, userIdOf(ctx), n);
  if (needs.includes('publish_content')) await requireScope(ctx, 'calendar:publish');
}

export const calendarCode = (e: AppError) => CALENDAR_CODE[e.kind] ?? 'INTERNAL_ERROR';

const bulkResult = obj(
  {
    event_id: { type: 'string' },
    success: bool,
    status: { type: 'string' },
    error: obj({ code: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } }),
  },
  ['event_id', 'success'],
);

export const eventRoutes: RouteDef[] = [
  defineRoute<EventBody, unknown, { calendar_id: string }>({
    method: 'post',
    path: `${BASE}/calendars/{calendar_id}/events`,
    auth: 'user',
    tags,
    summary:
      'Create an event: status scheduled when scheduled_at is given (must be in the future), else draft; counts against the event limit',
    request: { params: calendarParams, body: eventCreateBody },
    responses: { 201: { description: 'The created event', data: eventOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'create_events', 'calendar:write');
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
    tags,
    summary: 'Events of a calendar by scheduled time (unscheduled last), with filters and paging',
    request: {
      params: calendarParams,
      query: obj(
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
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view', 'calendar:read');
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
    tags,
    summary:
      'Update many events (status and/or metadata): each event is decided on its own, the accepted ones are written together; per-event result',
    request: {
      params: calendarParams,
      body: obj({
        event_ids: arr(uuid, { minItems: 1, maxItems: 100, uniqueItems: true }),
        updates: obj({ status: eventStatus, metadata: metadataIn }, [], { minProperties: 1 }),
      }),
    },
    responses: {
      200: {
        description: 'Bulk result: updated and failed counts, one result per event (failed ones carry the error)',
        data: obj({ updated: int, failed: int, results: arr(bulkResult) }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view', 'calendar:write');
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
    tags,
    summary: 'One event',
    request: { params: eventParams },
    responses: { 200: { description: 'The event', data: eventOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view', 'calendar:read');
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
    tags,
    summary:
      'Change an event (partial) and/or move its status; publishing and approving need publish_content; rescheduling moves its publishing timer',
    request: { params: eventParams, body: eventPatchBody },
    responses: { 200: { description: 'The updated event', data: eventOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view', 'calendar:write');
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
    tags,
    summary: 'Delete an event (stops its publishing timer, frees its place under the event limit)',
    request: { params: eventParams },
    responses: {
      200: {
        description: 'Deletion result',
        data: obj({
          id: { type: 'string' },
          deleted: { const: true },
          deleted_at: iso,
          status_before: { type: 'string' },
        }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'delete_events', 'calendar:write');
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
