/** Response bodies of the calendar routes, built from projection rows (or a folded state right after a write). */
import type { CalendarState } from '../../domain/calendar/calendar';
import type { PerformanceMetrics } from '../../domain/events/calendar';
import type { Access } from '../../domain/calendar/calendar';
import type { EventState } from '../../domain/calendar/event-state';
import type { CalendarRow, EventRow } from '../../projections/calendar-queries';

export function calendarView(
  c: CalendarRow | CalendarState,
  counts: { events_count: number; upcoming_events: number },
  access: Pick<Access, 'role' | 'permissions'>,
) {
  return {
    id: c.calendar_id,
    name: c.name,
    description: c.description,
    timezone: c.timezone,
    owner_id: c.owner_id,
    team_id: c.team_id,
    settings: c.settings,
    status: c.status,
    events_count: counts.events_count,
    upcoming_events: counts.upcoming_events,
    role: access.role,
    permissions: access.permissions,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

const perf = (p: PerformanceMetrics | null) =>
  p
    ? {
        impressions: Number(p.impressions ?? 0),
        engagements: Number(p.engagements ?? 0),
        clicks: Number(p.clicks ?? 0),
      }
    : null;

export function eventView(e: EventRow) {
  return {
    id: e.event_id,
    calendar_id: e.calendar_id,
    title: e.title,
    description: e.description,
    content_type: e.content_type,
    platform: e.platform,
    status: e.status,
    scheduled_at: e.scheduled_at,
    duration: e.duration,
    content: e.content,
    metadata: e.metadata,
    performance: perf(e.performance),
    approval: e.approval,
    published_at: e.published_at,
    publication: e.publication,
    failure: e.failure,
    created_by: e.created_by,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

/** The view of an event from its folded stream (used when the projection has not caught up within the bound). */
export function eventStateView(s: EventState, at: string) {
  return {
    id: s.event_id,
    calendar_id: s.calendar_id,
    title: s.title,
    description: s.description,
    content_type: s.content_type,
    platform: s.platform,
    status: s.status,
    scheduled_at: s.scheduled_at,
    duration: s.duration,
    content: s.content,
    metadata: s.metadata,
    performance: perf(s.performance),
    approval: s.approval,
    published_at: s.published_at,
    publication: s.publication,
    failure: s.failure,
    created_by: s.created_by,
    created_at: at,
    updated_at: at,
  };
}
