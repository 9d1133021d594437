/**
 * Content calendar (Document 3): calendars, their events, campaigns.
 * Streams: `calendar-<calendar_id>` (the calendar, its settings and shares),
 * `calendarevent-<event_id>` (one scheduled content event: its fields, status
 * moves, publishing timer, approvals, publication and performance),
 * `calendarcampaign-<campaign_id>`.
 *
 * Every event carries `owner_id` (the calendar owner: whose webhooks fire and
 * whose plan limits apply) and the calendar id. Events of an event stream that
 * produce webhooks carry `platform` and `published_at`, so the catalogue's
 * rules build the documented payload from the event alone.
 */
import { EventDefinitions, openAllRequired, openWithRequired } from './types';
import { anyString, bool, iso, nonEmptyString, nullableIso } from '../schema';

export type CalendarStatus = 'active' | 'archived';
export type EventStatus = 'draft' | 'generated' | 'scheduled' | 'approved' | 'published' | 'cancelled' | 'failed';
export type ShareRole = 'editor' | 'contributor' | 'viewer';

export interface CalendarSettings {
  default_platform: string;
  working_hours: { start: string; end: string };
  auto_publish: boolean;
  approval_workflow: boolean;
}

export interface Permissions {
  create_events: boolean;
  edit_events: boolean;
  delete_events: boolean;
  publish_content: boolean;
  view_analytics: boolean;
}

export interface EventContent {
  caption?: string;
  media_urls?: string[];
  hashtags?: string[];
  tags?: string[];
  location?: string;
  title?: string;
  thread_content?: string[];
  [k: string]: unknown;
}

export interface EventMetadataFields {
  priority?: string;
  campaign_id?: string;
  assigned_to?: string;
  approval_required?: boolean;
  ai_generated?: boolean;
  [k: string]: unknown;
}

/** Figures of one performance snapshot (cumulative as of measured_at). */
export interface PerformanceMetrics {
  impressions: number;
  reach: number;
  engagements: number;
  likes: number;
  comments: number;
  shares: number;
  saves: number;
  clicks: number;
}

export interface AudienceFigures {
  demographics?: Record<string, number>;
  top_cities?: { city: string; share: number }[];
  /** Share of the audience per IANA zone (0-1). */
  timezones?: Record<string, number>;
}

/** Fields of an event a client may set (create) or change (update). */
export interface EventFields {
  title?: string;
  description?: string;
  content_type?: string;
  platform?: string;
  scheduled_at?: string | null;
  duration?: number;
  content?: EventContent;
  metadata?: EventMetadataFields;
}

interface Ref {
  calendar_id: string;
  owner_id: string;
}
interface EventRef extends Ref {
  event_id: string;
}
/** What webhook payloads need, at the time of the event. */
interface Context {
  platform: string;
  published_at: string | null;
}

export interface CampaignFields {
  name?: string;
  description?: string;
  objectives?: string[];
  target_audience?: string;
  budget?: { amount: number; currency: string; platforms: string[] };
  /** milestones: what a client may leave out; stored as [] then (domain/calendar/campaign.ts storedTimeline), absent in updates recorded before. */
  timeline?: { start_date: string; end_date: string; milestones?: { date: string; name: string }[] };
  content_strategy?: { pillars: string[]; content_mix: Record<string, number> };
  status?: 'planned' | 'active' | 'completed' | 'cancelled';
}

export type CalendarEvent =
  | {
      type: 'CalendarCreated';
      data: Ref & {
        name: string;
        description: string;
        timezone: string;
        team_id: string | null;
        settings: CalendarSettings;
      };
    }
  | {
      type: 'CalendarUpdated';
      data: Ref & {
        updated_by: string;
        changes: { name?: string; description?: string; timezone?: string; team_id?: string | null };
        settings?: CalendarSettings;
        status?: { from: CalendarStatus; to: CalendarStatus };
      };
    }
  | { type: 'CalendarDeleted'; data: Ref & { deleted_by: string } }
  | {
      type: 'CalendarShared';
      data: Ref & { user_id: string; role: ShareRole; permissions: Permissions; granted_by: string };
    }
  | { type: 'CalendarShareRevoked'; data: Ref & { user_id: string; revoked_by: string } }
  | {
      type: 'CalendarEventCreated';
      data: EventRef &
        Required<Omit<EventFields, 'scheduled_at'>> & {
          scheduled_at: string | null;
          status: EventStatus;
          created_by: string;
        };
    }
  | {
      type: 'CalendarEventUpdated';
      data: EventRef &
        Context & {
          updated_by: string;
          changes: EventFields;
          status?: { from: EventStatus; to: EventStatus };
          reason?: string;
        };
    }
  /** The publishing timer of the event is (re)armed: a workflow sleeps until scheduled_at under this schedule id. */
  | { type: 'CalendarEventScheduled'; data: EventRef & { schedule_id: string; scheduled_at: string } }
  /** The timer of schedule_id is disarmed (rescheduled, cancelled, unscheduled, deleted, fired). */
  | { type: 'CalendarEventUnscheduled'; data: EventRef & { schedule_id: string; reason: string } }
  | {
      type: 'CalendarEventApprovalRecorded';
      data: EventRef &
        Context & {
          approved: boolean;
          comments: string;
          approver_id: string;
          /** Free-text name the client sent as approved_by (the approver is always the caller). */
          approver_label: string | null;
          from: EventStatus;
          to: EventStatus;
        };
    }
  | {
      type: 'CalendarEventPublished';
      data: EventRef & {
        platform: string;
        published_at: string;
        scheduled_at: string | null;
        schedule_id: string | null;
        /** `timer` or the user id of a manual publish. */
        published_by: string;
        /** `local`: no platform adapter configured, marked published here; `platform`: sent through its adapter. */
        mode: 'local' | 'platform';
        external_id: string | null;
        from: EventStatus;
      };
    }
  | {
      type: 'CalendarEventPublishFailed';
      data: EventRef & Context & { schedule_id: string | null; code: string; reason: string; from: EventStatus };
    }
  | { type: 'CalendarEventDeleted'; data: EventRef & { deleted_by: string; status: EventStatus } }
  | {
      type: 'CalendarEventPerformanceRecorded';
      data: EventRef &
        Context & {
          recorded_by: string;
          measured_at: string;
          metrics: PerformanceMetrics;
          audience: AudienceFigures;
          audience_segment: string | null;
          content_type: string;
          /** True for the event's first snapshot (calendar analytics gain a data point). */
          first: boolean;
          performance_initial: { impressions: number; engagements: number };
        };
    }
  | {
      type: 'CalendarCampaignCreated';
      data: Ref & {
        campaign_id: string;
        created_by: string;
        name: string;
        description: string;
        objectives: string[];
        target_audience: string;
        budget: CampaignFields['budget'] | null;
        timeline: CampaignFields['timeline'] | null;
        content_strategy: CampaignFields['content_strategy'] | null;
        status: NonNullable<CampaignFields['status']>;
      };
    }
  | {
      type: 'CalendarCampaignUpdated';
      data: Ref & { campaign_id: string; updated_by: string; changes: CampaignFields };
    };

const a = 'calendar';
const object = { type: 'object' } as const;
const nullableObject = { type: ['object', 'null'] } as const;
const nullableStr = { type: ['string', 'null'] } as const;
const ref = { calendar_id: nonEmptyString, owner_id: nonEmptyString };
const evRef = { ...ref, event_id: nonEmptyString };
const ctx = { platform: nonEmptyString, published_at: nullableIso };
const status = { enum: ['draft', 'generated', 'scheduled', 'approved', 'published', 'cancelled', 'failed'] };
const move = openAllRequired({ from: status, to: status });

export const calendarEvents: EventDefinitions<CalendarEvent['type']> = {
  CalendarCreated: {
    area: a,
    version: 1,
    schema: openAllRequired({
      ...ref,
      name: nonEmptyString,
      description: anyString,
      timezone: nonEmptyString,
      team_id: nullableStr,
      settings: object,
    }),
  },
  CalendarUpdated: {
    area: a,
    version: 1,
    schema: openWithRequired(
      { ...ref, updated_by: nonEmptyString, changes: object, settings: object, status: object },
      ['calendar_id', 'owner_id', 'updated_by', 'changes'],
    ),
  },
  CalendarDeleted: { area: a, version: 1, schema: openAllRequired({ ...ref, deleted_by: nonEmptyString }) },
  CalendarShared: {
    area: a,
    version: 1,
    schema: openAllRequired({
      ...ref,
      user_id: nonEmptyString,
      role: { enum: ['editor', 'contributor', 'viewer'] },
      permissions: object,
      granted_by: nonEmptyString,
    }),
  },
  CalendarShareRevoked: {
    area: a,
    version: 1,
    schema: openAllRequired({ ...ref, user_id: nonEmptyString, revoked_by: nonEmptyString }),
  },
  CalendarEventCreated: {
    area: a,
    version: 1,
    schema: openAllRequired({
      ...evRef,
      title: nonEmptyString,
      description: anyString,
      content_type: nonEmptyString,
      platform: nonEmptyString,
      status,
      scheduled_at: nullableIso,
      duration: { type: 'integer' },
      content: object,
      metadata: object,
      created_by: nonEmptyString,
    }),
  },
  CalendarEventUpdated: {
    area: a,
    version: 1,
    schema: openWithRequired(
      { ...evRef, ...ctx, updated_by: nonEmptyString, changes: object, status: move, reason: anyString },
      ['event_id', 'calendar_id', 'owner_id', 'platform', 'published_at', 'updated_by', 'changes'],
    ),
  },
  CalendarEventScheduled: {
    area: a,
    version: 1,
    schema: openAllRequired({ ...evRef, schedule_id: nonEmptyString, scheduled_at: iso }),
  },
  CalendarEventUnscheduled: {
    area: a,
    version: 1,
    schema: openAllRequired({ ...evRef, schedule_id: nonEmptyString, reason: nonEmptyString }),
  },
  CalendarEventApprovalRecorded: {
    area: a,
    version: 1,
    schema: openAllRequired({
      ...evRef,
      ...ctx,
      approved: bool,
      comments: anyString,
      approver_id: nonEmptyString,
      approver_label: nullableStr,
      from: status,
      to: status,
    }),
  },
  CalendarEventPublished: {
    area: a,
    version: 1,
    schema: openAllRequired({
      ...evRef,
      platform: nonEmptyString,
      published_at: iso,
      scheduled_at: nullableIso,
      schedule_id: nullableStr,
      published_by: nonEmptyString,
      mode: { enum: ['local', 'platform'] },
      external_id: nullableStr,
      from: status,
    }),
  },
  CalendarEventPublishFailed: {
    area: a,
    version: 1,
    schema: openAllRequired({
      ...evRef,
      ...ctx,
      schedule_id: nullableStr,
      code: nonEmptyString,
      reason: nonEmptyString,
      from: status,
    }),
  },
  CalendarEventDeleted: {
    area: a,
    version: 1,
    schema: openAllRequired({ ...evRef, deleted_by: nonEmptyString, status }),
  },
  CalendarEventPerformanceRecorded: {
    area: a,
    version: 1,
    schema: openAllRequired({
      ...evRef,
      ...ctx,
      recorded_by: nonEmptyString,
      measured_at: iso,
      metrics: object,
      audience: object,
      audience_segment: nullableStr,
      content_type: nonEmptyString,
      first: bool,
      performance_initial: object,
    }),
  },
  CalendarCampaignCreated: {
    area: a,
    version: 1,
    schema: openAllRequired({
      ...ref,
      campaign_id: nonEmptyString,
      created_by: nonEmptyString,
      name: nonEmptyString,
      description: anyString,
      objectives: { type: 'array' },
      target_audience: anyString,
      budget: nullableObject,
      timeline: nullableObject,
      content_strategy: nullableObject,
      status: nonEmptyString,
    }),
  },
  CalendarCampaignUpdated: {
    area: a,
    version: 1,
    schema: openAllRequired({ ...ref, campaign_id: nonEmptyString, updated_by: nonEmptyString, changes: object }),
  },
};

export const calendarStream = (id: string) => `calendar-${id}`;
export const calendarEventStream = (id: string) => `calendarevent-${id}`;
export const calendarCampaignStream = (id: string) => `calendarcampaign-${id}`;
