/**
 * Decisions on one content event's stream (`calendarevent-<id>`): create,
 * update (fields and status), approve or reject, publish when the timer fires,
 * delete, record performance. The calendar's state a decision needs (time
 * zone, settings, status) arrives in the command, read by the caller first.
 *
 * The publishing timer: whenever an event is in `scheduled` or `approved` with
 * a time, on a calendar that publishes automatically, a timer must run for that
 * time. A decision that starts, moves or stops one says so with
 * CalendarEventScheduled (new schedule id) and CalendarEventUnscheduled (old
 * id); the calendar scheduler turns these into workflow starts and cancels.
 * The workflow's publish decision checks that its schedule id is still the
 * event's, so a timer that was moved or stopped never publishes.
 */
import type { Decider } from '../decider';
import type { DomainEvent } from '../events';
import type { EventStatus } from '../events/calendar';
import { invalid } from './errors';
import { checkMove, TIMED } from './states';
import { approvalRequired, EventCommand, EventState, evolve } from './event-state';
import { checkFuture, ctxOf, live, normal, publishedEvent, ref, timerEvents } from './event-common';
import { decideUpdate } from './event-update';

const EMPTY: EventState | undefined = undefined;

export const calendarEventDecider: Decider<EventCommand, EventState | undefined> = {
  initialState: EMPTY,
  evolve,
  decide(c, state): DomainEvent[] {
    switch (c.kind) {
      case 'create': {
        if (state) throw new Error(`event ${c.event_id} exists already`);
        const f = c.fields;
        checkFuture(f.scheduled_at, c.now, 'scheduled_at');
        const scheduledAt = normal(f.scheduled_at) ?? null;
        const status = c.status ?? (scheduledAt ? 'scheduled' : 'draft');
        if (status === 'scheduled' && !scheduledAt)
          throw invalid('scheduled_at', 'A scheduled event needs scheduled_at');
        const created: EventState = evolve(undefined, {
          type: 'CalendarEventCreated',
          data: {
            event_id: c.event_id,
            calendar_id: c.calendar.calendar_id,
            owner_id: c.calendar.owner_id,
            created_by: c.actor,
            title: f.title,
            description: f.description ?? '',
            content_type: f.content_type,
            platform: f.platform,
            status,
            scheduled_at: scheduledAt,
            duration: f.duration ?? 0,
            content: f.content ?? {},
            metadata: f.metadata ?? {},
          },
        })!;
        const {
          deleted: _d,
          schedule_id: _s,
          timer_at: _t,
          approval: _a,
          published_at: _p,
          failure: _f,
          ...rest
        } = created;
        const { performance: _x, performance_initial: _y, performance_count: _z, ...data } = rest;
        return [
          { type: 'CalendarEventCreated', data },
          ...timerEvents(created, created, c.calendar, c.schedule_id, 'created'),
        ];
      }
      case 'update':
        return decideUpdate(c, live(state));
      case 'approve': {
        const s = live(state);
        const to: EventStatus = c.approved ? 'approved' : 'draft';
        checkMove(s.status, to, 'approved');
        if (c.approved && !['scheduled', 'generated'].includes(s.status))
          throw invalid('approved', `Only scheduled or generated events can be approved (this one is ${s.status})`);
        if (c.approved) {
          if (!s.scheduled_at) throw invalid('scheduled_at', 'Give the event a scheduled_at before approving it');
          checkFuture(s.scheduled_at, c.now, 'scheduled_at');
        }
        return [
          {
            type: 'CalendarEventApprovalRecorded',
            data: {
              ...ref(s),
              ...ctxOf(s),
              approved: c.approved,
              comments: c.comments,
              approver_id: c.actor,
              approver_label: c.approver_label,
              from: s.status,
              to,
            },
          },
          ...timerEvents(s, { status: to, scheduled_at: s.scheduled_at }, c.calendar, c.schedule_id, 'approval'),
        ];
      }
      case 'publish_due': {
        const s = state;
        // A timer that was moved, stopped or already fired does nothing.
        if (!s || s.deleted || s.schedule_id !== c.schedule_id || !TIMED.includes(s.status)) return [];
        const disarm: DomainEvent = {
          type: 'CalendarEventUnscheduled',
          data: { ...ref(s), schedule_id: c.schedule_id, reason: 'fired' },
        };
        const fail = (code: string, reason: string): DomainEvent[] => [
          disarm,
          {
            type: 'CalendarEventPublishFailed',
            data: { ...ref(s), ...ctxOf(s), schedule_id: c.schedule_id, code, reason, from: s.status },
          },
        ];
        if (!c.calendar) return [disarm];
        if (c.failure) return fail(c.failure.code, c.failure.reason);
        if (c.calendar.status !== 'active') return fail('CALENDAR_ARCHIVED', 'the calendar was archived');
        if (!c.calendar.settings.auto_publish) return [disarm];
        if (approvalRequired(c.calendar, s) && s.status !== 'approved')
          return fail('APPROVAL_REQUIRED', 'the event was not approved by its scheduled time');
        return [disarm, publishedEvent(s, c.now, 'timer', c.schedule_id, c.mode, c.external_id)];
      }
      case 'delete': {
        const s = live(state);
        return [
          ...timerEvents(s, { status: 'cancelled', scheduled_at: null }, c.calendar, '', 'deleted'),
          { type: 'CalendarEventDeleted', data: { ...ref(s), deleted_by: c.actor, status: s.status } },
        ];
      }
      case 'record_performance': {
        const s = live(state);
        if (s.status !== 'published')
          throw invalid(
            'event_id',
            `Performance can be recorded for published events only (this one is ${s.status})`,
            s.status,
          );
        if (Date.parse(c.measured_at) > c.now.getTime())
          throw invalid('measured_at', 'measured_at must not be in the future', c.measured_at);
        return [
          {
            type: 'CalendarEventPerformanceRecorded',
            data: {
              ...ref(s),
              ...ctxOf(s),
              recorded_by: c.actor,
              measured_at: c.measured_at,
              metrics: c.metrics,
              audience: c.audience,
              audience_segment: c.audience_segment,
              content_type: s.content_type,
              first: s.performance_count === 0,
              performance_initial: s.performance_initial ?? {
                impressions: c.metrics.impressions,
                engagements: c.metrics.engagements,
              },
            },
          },
        ];
      }
    }
  },
};
