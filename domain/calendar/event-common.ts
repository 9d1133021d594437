/**
 * What the decisions on a content event share (domain/calendar/event.ts, event-update.ts): the event's reference,
 * the checks, the publishing timer's events and the publication event.
 */
import { NotFoundError } from '../errors';
import type { DomainEvent } from '../events';
import { pastSchedule } from './errors';
import { TIMED } from './states';
import type { CalendarCtx, EventState } from './event-state';

export const ref = (s: EventState) => ({ event_id: s.event_id, calendar_id: s.calendar_id, owner_id: s.owner_id });
export const ctxOf = (s: EventState) => ({ platform: s.platform, published_at: s.published_at });

/**
 * The timer events that bring the running timer in line with the event after
 * a change (`next`): stop the old one when it is no longer wanted or its time
 * moved, start one when wanted and none runs for that time.
 */
export function timerEvents(
  prev: EventState,
  next: Pick<EventState, 'status' | 'scheduled_at'>,
  cal: CalendarCtx | undefined,
  scheduleId: string,
  reason: string,
): DomainEvent[] {
  const want =
    !!cal && TIMED.includes(next.status) && !!next.scheduled_at && cal.settings.auto_publish && cal.status === 'active';
  const out: DomainEvent[] = [];
  const same = prev.schedule_id && prev.timer_at === next.scheduled_at;
  if (prev.schedule_id && !(want && same))
    out.push({ type: 'CalendarEventUnscheduled', data: { ...ref(prev), schedule_id: prev.schedule_id, reason } });
  if (want && !same)
    out.push({
      type: 'CalendarEventScheduled',
      data: { ...ref(prev), schedule_id: scheduleId, scheduled_at: next.scheduled_at! },
    });
  return out;
}

export function live(s: EventState | undefined): EventState {
  if (!s || s.deleted) throw new NotFoundError('Event not found');
  return s;
}

export function checkFuture(at: string | null | undefined, now: Date, field: string): void {
  if (at && Date.parse(at) <= now.getTime()) throw pastSchedule(field, at, now);
}

/** ISO instants normalised to UTC with milliseconds, so equal times compare equal. */
export const normal = (at: string | null | undefined) => (at ? new Date(at).toISOString() : at);

export function publishedEvent(
  s: EventState,
  now: Date,
  by: string,
  scheduleId: string | null,
  mode: 'local' | 'platform',
  externalId: string | null,
): DomainEvent {
  return {
    type: 'CalendarEventPublished',
    data: {
      ...ref(s),
      platform: s.platform,
      published_at: now.toISOString(),
      scheduled_at: s.scheduled_at,
      schedule_id: scheduleId,
      published_by: by,
      mode,
      external_id: externalId,
      from: s.status,
    },
  };
}
