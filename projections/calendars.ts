/**
 * Calendar read model (Document 3): calendars and their members (written by
 * stream `calendar-<id>`), content events with their latest performance
 * snapshot (stream `calendarevent-<id>`), campaigns (`calendarcampaign-<id>`).
 * Each row is written by its own stream's events only, so replay rebuilds the
 * same tables. Counts (events_count, upcoming_events) are computed by the read
 * queries, not stored, because they span streams. Read queries are in
 * projections/calendar-queries.ts.
 */
import { Change, defineProjection } from './framework';
import { approvalOf, publicationOf } from '../domain/calendar/event-state';

export const CAL = 'calendars';
export const MEM = 'calendar_members';
export const EV = 'calendar_events';
export const CAMP = 'calendar_campaigns';

const evKey = (id: string) => ({ event_id: id });

export const calendarsProjection = defineProjection({
  name: 'calendars',
  migrationName: '0130_projection_calendars',
  areas: ['calendar'],
  tables: [CAL, MEM, EV, CAMP],
  keys: { [CAL]: ['calendar_id'], [MEM]: ['calendar_id', 'user_id'], [EV]: ['event_id'], [CAMP]: ['campaign_id'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(CAL), (t) => {
      t.text('calendar_id').primary();
      t.text('owner_id').notNullable().index();
      t.text('name').notNullable();
      t.text('description').notNullable();
      t.text('timezone').notNullable();
      t.text('team_id');
      t.jsonb('settings').notNullable();
      t.text('status').notNullable();
      t.boolean('deleted').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable(name(MEM), (t) => {
      t.text('calendar_id').notNullable();
      t.text('user_id').notNullable().index();
      t.text('role').notNullable();
      t.jsonb('permissions').notNullable();
      t.text('granted_by').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.primary(['calendar_id', 'user_id']);
    });
    await knex.schema.createTable(name(EV), (t) => {
      t.text('event_id').primary();
      t.text('calendar_id').notNullable().index();
      t.text('owner_id').notNullable();
      t.text('created_by').notNullable();
      t.text('title').notNullable();
      t.text('description').notNullable();
      t.text('content_type').notNullable();
      t.text('platform').notNullable();
      t.text('status').notNullable();
      t.timestamp('scheduled_at', { useTz: true });
      t.integer('duration').notNullable();
      t.jsonb('content').notNullable();
      t.jsonb('metadata').notNullable();
      t.text('campaign_id').index();
      t.text('assigned_to');
      t.jsonb('approval');
      t.timestamp('published_at', { useTz: true });
      t.jsonb('publication');
      t.jsonb('failure');
      t.jsonb('performance');
      t.jsonb('performance_initial');
      t.jsonb('audience');
      t.text('audience_segment');
      t.integer('performance_count').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable(name(CAMP), (t) => {
      t.text('campaign_id').primary();
      t.text('calendar_id').notNullable().index();
      t.text('owner_id').notNullable();
      t.text('created_by').notNullable();
      t.text('name').notNullable();
      t.text('description').notNullable();
      t.jsonb('objectives').notNullable();
      t.text('target_audience').notNullable();
      t.jsonb('budget');
      t.jsonb('timeline');
      t.jsonb('content_strategy');
      t.text('status').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
  handlers: {
    CalendarCreated: (e) => [
      {
        op: 'upsert',
        table: CAL,
        key: { calendar_id: e.data.calendar_id },
        insert: {
          owner_id: e.data.owner_id,
          name: e.data.name,
          description: e.data.description,
          timezone: e.data.timezone,
          team_id: e.data.team_id,
          settings: e.data.settings,
          status: 'active',
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
        },
      },
    ],
    CalendarUpdated: (e) => [
      {
        op: 'update',
        table: CAL,
        key: { calendar_id: e.data.calendar_id },
        set: {
          ...e.data.changes,
          ...(e.data.settings ? { settings: e.data.settings } : {}),
          ...(e.data.status ? { status: e.data.status.to } : {}),
          updated_at: e.recordedAt,
        },
      },
    ],
    CalendarDeleted: (e) => [
      {
        op: 'update',
        table: CAL,
        key: { calendar_id: e.data.calendar_id },
        set: { deleted: true, updated_at: e.recordedAt },
      },
    ],
    CalendarShared: (e) => [
      {
        op: 'upsert',
        table: MEM,
        key: { calendar_id: e.data.calendar_id, user_id: e.data.user_id },
        insert: {
          role: e.data.role,
          permissions: e.data.permissions,
          granted_by: e.data.granted_by,
          created_at: e.recordedAt,
        },
        update: { role: e.data.role, permissions: e.data.permissions, granted_by: e.data.granted_by },
      },
    ],
    CalendarShareRevoked: (e) => [
      { op: 'delete', table: MEM, key: { calendar_id: e.data.calendar_id, user_id: e.data.user_id } },
    ],
    CalendarEventCreated: (e) => [
      {
        op: 'upsert',
        table: EV,
        key: evKey(e.data.event_id),
        insert: {
          calendar_id: e.data.calendar_id,
          owner_id: e.data.owner_id,
          created_by: e.data.created_by,
          title: e.data.title,
          description: e.data.description,
          content_type: e.data.content_type,
          platform: e.data.platform,
          status: e.data.status,
          scheduled_at: e.data.scheduled_at,
          duration: e.data.duration,
          content: e.data.content,
          metadata: e.data.metadata,
          campaign_id: strOrNull(e.data.metadata.campaign_id),
          assigned_to: strOrNull(e.data.metadata.assigned_to),
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
        },
      },
    ],
    CalendarEventUpdated: (e): Change[] => {
      const c = e.data.changes;
      return [
        {
          op: 'update',
          table: EV,
          key: evKey(e.data.event_id),
          set: {
            ...c,
            ...(c.metadata
              ? { campaign_id: strOrNull(c.metadata.campaign_id), assigned_to: strOrNull(c.metadata.assigned_to) }
              : {}),
            ...(e.data.status ? { status: e.data.status.to, failure: null } : {}),
            updated_at: e.recordedAt,
          },
        },
      ];
    },
    CalendarEventApprovalRecorded: (e) => [
      {
        op: 'update',
        table: EV,
        key: evKey(e.data.event_id),
        set: {
          status: e.data.to,
          approval: approvalOf(e.data, e.recordedAt),
          updated_at: e.recordedAt,
        },
      },
    ],
    CalendarEventPublished: (e) => [
      {
        op: 'update',
        table: EV,
        key: evKey(e.data.event_id),
        set: {
          status: 'published',
          published_at: e.data.published_at,
          publication: publicationOf(e.data),
          failure: null,
          updated_at: e.recordedAt,
        },
      },
    ],
    CalendarEventPublishFailed: (e) => [
      {
        op: 'update',
        table: EV,
        key: evKey(e.data.event_id),
        set: {
          status: 'failed',
          failure: { code: e.data.code, reason: e.data.reason, failed_at: e.recordedAt },
          updated_at: e.recordedAt,
        },
      },
    ],
    CalendarEventDeleted: (e) => [{ op: 'delete', table: EV, key: evKey(e.data.event_id) }],
    CalendarEventPerformanceRecorded: (e) => [
      {
        op: 'update',
        table: EV,
        key: evKey(e.data.event_id),
        set: {
          performance: { ...e.data.metrics, measured_at: e.data.measured_at },
          performance_initial: e.data.performance_initial,
          audience: e.data.audience,
          audience_segment: e.data.audience_segment,
          performance_count: { $inc: 1 },
          updated_at: e.recordedAt,
        },
      },
    ],
    CalendarCampaignCreated: (e) => [
      {
        op: 'upsert',
        table: CAMP,
        key: { campaign_id: e.data.campaign_id },
        insert: {
          calendar_id: e.data.calendar_id,
          owner_id: e.data.owner_id,
          created_by: e.data.created_by,
          name: e.data.name,
          description: e.data.description,
          objectives: e.data.objectives,
          target_audience: e.data.target_audience,
          budget: e.data.budget ?? null,
          timeline: e.data.timeline ?? null,
          content_strategy: e.data.content_strategy ?? null,
          status: e.data.status,
          created_at: e.recordedAt,
          updated_at: e.recordedAt,
        },
      },
    ],
    CalendarCampaignUpdated: (e) => [
      {
        op: 'update',
        table: CAMP,
        key: { campaign_id: e.data.campaign_id },
        set: { ...(e.data.changes as Record<string, object | string>), updated_at: e.recordedAt },
      },
    ],
  },
});

function strOrNull(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}
