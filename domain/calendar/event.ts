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
import type { Decider, Stored } from '../decider';
import { NotFoundError } from '../errors';
import type { DomainEvent } from '../events';
import type {
  AudienceFigures,
  CalendarSettings,
  CalendarStatus,
  EventContent,
  EventFields,
  EventMetadataFields,
  EventStatus,
  PerformanceMetrics,
} from '../events/calendar';
import { invalid, pastSchedule } from './errors';
import { checkMove, TIMED } from './states';

export interface CalendarCtx {
  calendar_id: string;
  owner_id: string;
  timezone: string;
  settings: CalendarSettings;
  status: CalendarStatus;
}

export interface EventState {
  event_id: string;
  calendar_id: string;
  owner_id: string;
  created_by: string;
  title: string;
  description: string;
  content_type: string;
  platform: string;
  status: EventStatus;
  scheduled_at: string | null;
  duration: number;
  content: EventContent;
  metadata: EventMetadataFields;
  deleted: boolean;
  /** The running timer: its schedule id and the time it was armed for. */
  schedule_id: string | null;
  timer_at: string | null;
  approval: {
    approved: boolean;
    comments: string;
    approver_id: string;
    approver_label: string | null;
    decided_at: string;
  } | null;
  published_at: string | null;
  /** How it was published (the projection's `publication`; answers read either). */
  publication: { mode: string; external_id: string | null; published_by: string; schedule_id: string | null } | null;
  failure: { code: string; reason: string; failed_at: string } | null;
  performance: (PerformanceMetrics & { measured_at: string }) | null;
  performance_initial: { impressions: number; engagements: number } | null;
  performance_count: number;
}

export type NewEventFields = EventFields & { title: string; content_type: string; platform: string };

export type EventCommand =
  | {
      kind: 'create';
      event_id: string;
      actor: string;
      now: Date;
      calendar: CalendarCtx;
      fields: NewEventFields;
      status?: 'draft' | 'scheduled' | 'generated';
      schedule_id: string;
    }
  | {
      kind: 'update';
      actor: string;
      now: Date;
      calendar: CalendarCtx;
      changes: EventFields;
      status?: EventStatus;
      schedule_id: string;
      /** Path of the fields in the request, for error messages (`updates.status` in bulk). */
      field_prefix?: string;
    }
  | {
      kind: 'approve';
      actor: string;
      now: Date;
      calendar: CalendarCtx;
      approved: boolean;
      comments: string;
      approver_label: string | null;
      schedule_id: string;
    }
  | {
      kind: 'publish_due';
      schedule_id: string;
      now: Date;
      /** Undefined when the calendar was deleted. */
      calendar: CalendarCtx | undefined;
      mode: 'local' | 'platform';
      external_id: string | null;
      /** The publication failed for good (the platform adapter's last attempt): record the move to `failed`. */
      failure?: { code: string; reason: string };
    }
  | { kind: 'delete'; actor: string; calendar: CalendarCtx }
  | {
      kind: 'record_performance';
      actor: string;
      now: Date;
      metrics: PerformanceMetrics;
      measured_at: string;
      audience: AudienceFigures;
      audience_segment: string | null;
    };

/** How a published event was published, from its CalendarEventPublished: the fold's and the projection's `publication`. */
export const publicationOf = (d: {
  mode: string;
  external_id: string | null;
  published_by: string;
  schedule_id: string | null;
}): NonNullable<EventState['publication']> => ({
  mode: d.mode,
  external_id: d.external_id,
  published_by: d.published_by,
  schedule_id: d.schedule_id,
});

/** The decision of a CalendarEventApprovalRecorded recorded at `at`: the fold's and the projection's `approval`. */
export const approvalOf = (
  d: { approved: boolean; comments: string; approver_id: string; approver_label: string | null },
  at: string,
): NonNullable<EventState['approval']> => ({
  approved: d.approved,
  comments: d.comments,
  approver_id: d.approver_id,
  approver_label: d.approver_label,
  decided_at: at,
});

export const approvalRequired = (cal: CalendarCtx, s: Pick<EventState, 'metadata'>): boolean =>
  cal.settings.approval_workflow || s.metadata.approval_required === true;

const EMPTY: EventState | undefined = undefined;

function evolve(s: EventState | undefined, e: Stored): EventState | undefined {
  const at = e.recordedAt ?? '';
  switch (e.type) {
    case 'CalendarEventCreated': {
      const d = e.data;
      return {
        event_id: d.event_id,
        calendar_id: d.calendar_id,
        owner_id: d.owner_id,
        created_by: d.created_by,
        title: d.title,
        description: d.description,
        content_type: d.content_type,
        platform: d.platform,
        status: d.status,
        scheduled_at: d.scheduled_at,
        duration: d.duration,
        content: d.content,
        metadata: d.metadata,
        deleted: false,
        schedule_id: null,
        timer_at: null,
        approval: null,
        published_at: null,
        publication: null,
        failure: null,
        performance: null,
        performance_initial: null,
        performance_count: 0,
      };
    }
    case 'CalendarEventUpdated':
      return (
        s && {
          ...s,
          ...(e.data.changes as Partial<EventState>),
          status: e.data.status?.to ?? s.status,
          failure: e.data.status ? null : s.failure,
        }
      );
    case 'CalendarEventScheduled':
      return s && { ...s, schedule_id: e.data.schedule_id, timer_at: e.data.scheduled_at };
    case 'CalendarEventUnscheduled':
      return s && s.schedule_id === e.data.schedule_id ? { ...s, schedule_id: null, timer_at: null } : s;
    case 'CalendarEventApprovalRecorded':
      return (
        s && {
          ...s,
          status: e.data.to,
          approval: approvalOf(e.data, at),
        }
      );
    case 'CalendarEventPublished':
      return (
        s && {
          ...s,
          status: 'published',
          published_at: e.data.published_at,
          publication: publicationOf(e.data),
          failure: null,
        }
      );
    case 'CalendarEventPublishFailed':
      return s && { ...s, status: 'failed', failure: { code: e.data.code, reason: e.data.reason, failed_at: at } };
    case 'CalendarEventDeleted':
      return s && { ...s, deleted: true };
    case 'CalendarEventPerformanceRecorded':
      return (
        s && {
          ...s,
          performance: { ...e.data.metrics, measured_at: e.data.measured_at },
          performance_initial: s.performance_initial ?? e.data.performance_initial,
          performance_count: s.performance_count + 1,
        }
      );
    default:
      return s;
  }
}

const ref = (s: EventState) => ({ event_id: s.event_id, calendar_id: s.calendar_id, owner_id: s.owner_id });
const ctxOf = (s: EventState) => ({ platform: s.platform, published_at: s.published_at });

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

function live(s: EventState | undefined): EventState {
  if (!s || s.deleted) throw new NotFoundError('Event not found');
  return s;
}

function checkFuture(at: string | null | undefined, now: Date, field: string): void {
  if (at && Date.parse(at) <= now.getTime()) throw pastSchedule(field, at, now);
}

/** ISO instants normalised to UTC with milliseconds, so equal times compare equal. */
const normal = (at: string | null | undefined) => (at ? new Date(at).toISOString() : at);

function decideUpdate(c: Extract<EventCommand, { kind: 'update' }>, s: EventState): DomainEvent[] {
  const p = c.field_prefix ?? '';
  const changes: EventFields = {};
  const f = c.changes;
  for (const k of ['title', 'description', 'content_type', 'platform', 'duration'] as const)
    if (f[k] !== undefined && f[k] !== s[k]) (changes as Record<string, unknown>)[k] = f[k];
  if (f.content !== undefined && JSON.stringify(f.content) !== JSON.stringify(s.content)) changes.content = f.content;
  if (f.metadata !== undefined) {
    const merged = { ...s.metadata, ...f.metadata };
    if (JSON.stringify(merged) !== JSON.stringify(s.metadata)) changes.metadata = merged;
  }
  if (f.scheduled_at !== undefined && normal(f.scheduled_at) !== normal(s.scheduled_at)) {
    checkFuture(f.scheduled_at, c.now, `${p}scheduled_at`);
    changes.scheduled_at = normal(f.scheduled_at) ?? null;
  }
  if (s.status === 'published') {
    const locked = Object.keys(changes).filter((k) => k !== 'metadata');
    if (locked.length)
      throw invalid(
        `${p}${locked[0]}`,
        `A published event cannot be changed (only its metadata): ${locked.join(', ')}`,
      );
  }
  const needsApproval = approvalRequired(c.calendar, {
    metadata: (changes.metadata as EventMetadataFields) ?? s.metadata,
  });
  let to = c.status ?? s.status;
  let reason: string | undefined;
  if (c.status !== undefined && c.status !== s.status) {
    if (c.status === 'failed') throw invalid(`${p}status`, 'failed is set by the publishing timer only', c.status);
    checkMove(s.status, c.status, `${p}status`, needsApproval);
  }
  // An approved event whose content changes needs approving again.
  const contentChanged = ['title', 'description', 'content', 'content_type', 'platform'].some((k) => k in changes);
  if (to === 'approved' && s.status === 'approved' && contentChanged && needsApproval && c.status === undefined) {
    to = 'scheduled';
    reason = 'content changed after approval';
  }
  const scheduledAt = changes.scheduled_at !== undefined ? changes.scheduled_at : s.scheduled_at;
  if (['scheduled', 'approved'].includes(to) && !scheduledAt)
    throw invalid(
      `${p}scheduled_at`,
      `A ${to} event needs scheduled_at (clear it only after moving the event to draft)`,
    );
  if (['scheduled', 'approved'].includes(to) && to !== s.status) {
    if (!scheduledAt) throw invalid(`${p}scheduled_at`, `An event needs scheduled_at to become ${to}`);
    checkFuture(scheduledAt, c.now, `${p}scheduled_at`);
  }
  const out: DomainEvent[] = [];
  const publish = to === 'published' && s.status !== 'published';
  // `PATCH status: approved` is an approval without comments: recorded as one, with the caller as approver.
  const approval = to === 'approved' && to !== s.status;
  const statusMove = to !== s.status && !publish && !approval ? { from: s.status, to } : undefined;
  if (Object.keys(changes).length || statusMove)
    out.push({
      type: 'CalendarEventUpdated',
      data: {
        ...ref(s),
        ...ctxOf(s),
        platform: changes.platform ?? s.platform,
        updated_by: c.actor,
        changes,
        ...(statusMove ? { status: statusMove } : {}),
        ...(reason ? { reason } : {}),
      },
    });
  if (approval)
    out.push({
      type: 'CalendarEventApprovalRecorded',
      data: {
        ...ref(s),
        ...ctxOf(s),
        platform: changes.platform ?? s.platform,
        approved: true,
        comments: '',
        approver_id: c.actor,
        approver_label: null,
        from: s.status,
        to: 'approved',
      },
    });
  const after = { ...s, ...(changes as Partial<EventState>), status: publish ? s.status : to };
  if (publish) {
    out.push(
      ...timerEvents(s, { status: 'published', scheduled_at: scheduledAt }, c.calendar, c.schedule_id, 'published'),
    );
    out.push(publishedEvent(after, c.now, c.actor, null, 'local', null));
  } else out.push(...timerEvents(s, { status: to, scheduled_at: scheduledAt }, c.calendar, c.schedule_id, 'updated'));
  return out;
}

function publishedEvent(
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
