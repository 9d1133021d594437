/**
 * One content event's state (`calendarevent-<id>`), the commands decided on it (domain/calendar/event.ts), and the
 * fold of its events into that state.
 */
import type { Stored } from '../decider';
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

export function evolve(s: EventState | undefined, e: Stored): EventState | undefined {
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
