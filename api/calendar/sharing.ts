/**
 * Sharing and approvals (Document 3): the owner shares a calendar with a role
 * and permission flags (defaults per role, docs/calendar.md), lists and
 * revokes shares; members with publish_content approve or reject events
 * (recorded as events: approver = the caller, comments, decision; a rejection
 * sends the event back to draft).
 */
import { calendarDecider, CalendarCommand } from '../../domain/calendar/calendar';
import { invalid } from '../../domain/calendar/errors';
import { calendarEventDecider } from '../../domain/calendar/event';
import { PERMISSION_NAMES, SHARE_ROLES } from '../../domain/calendar/permissions';
import { calendarStream } from '../../domain/events/calendar';
import type { Permissions, ShareRole } from '../../domain/events/calendar';
import { handleCommand } from '../../infra/eventstore/command';
import { listMembers } from '../../projections/calendar-queries';
import { getUser } from '../../projections/identity';
import { clock, requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteCtx, RouteDef } from '../kernel/registry';
import { calendarFor } from './access';
import { BASE, tags } from './calendars';
import { runEventCommand } from './commands';
import { eventAfter } from './events';
import { allRequired, arr, bool, iso, str, withRequired } from '../kernel/schema';
import { calendarParams, eventOut, eventParams, permissionsOut } from './schemas';
import { randomUUID } from 'node:crypto';
import { requireActive } from '../../domain/calendar/calendar';

type Ctx = RouteCtx;

const flags = withRequired(Object.fromEntries(PERMISSION_NAMES.map((p) => [p, bool])), []);
const userId = { type: 'string', minLength: 1, maxLength: 100 };
const shareOut = allRequired({
  calendar_id: { type: 'string' },
  user_id: { type: 'string' },
  role: { type: 'string', enum: SHARE_ROLES },
  permissions: permissionsOut,
  granted_by: { type: 'string' },
  granted_at: iso,
});

async function runCalendar(ctx: Ctx, id: string, command: CalendarCommand) {
  const r = await handleCommand(ctx.deps.store, calendarStream(id), calendarDecider, command, {
    metadata: requestMeta(ctx),
  });
  await settle(ctx, 'calendars', r.events);
  return r;
}

export const sharingRoutes: RouteDef[] = [
  defineRoute<
    { user_id: string; role: ShareRole; permissions?: Partial<Permissions> },
    unknown,
    { calendar_id: string }
  >({
    method: 'post',
    path: `${BASE}/calendars/{calendar_id}/share`,
    auth: 'user',
    scope: 'calendar:manage',
    tags,
    summary:
      "Share the calendar (owner): a role (editor, contributor, viewer) with its default flags, overridden by the flags given; sharing again replaces the user's share",
    description:
      "Only the owner, on an active calendar (members 403, archived 400). user_id must be an existing user other than the owner (else 400); each flag in permissions overrides the role's default. The share applies to the user's next request.",
    request: {
      params: calendarParams,
      body: withRequired({ user_id: userId, role: { type: 'string', enum: SHARE_ROLES }, permissions: flags }, [
        'user_id',
        'role',
      ]),
    },
    responses: { 200: { description: 'The share', data: shareOut } },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'manage');
      if (!(await getUser(ctx.deps.db, ctx.body.user_id)))
        throw invalid('user_id', 'No user with this id', ctx.body.user_id);
      const r = await runCalendar(ctx, cal.calendar.calendar_id, { kind: 'share', actor: userIdOf(ctx), ...ctx.body });
      const e = r.events[0];
      if (e.type !== 'CalendarShared') throw new Error('share decided no CalendarShared event');
      return {
        data: {
          calendar_id: e.data.calendar_id,
          user_id: e.data.user_id,
          role: e.data.role,
          permissions: e.data.permissions,
          granted_by: e.data.granted_by,
          granted_at: e.recordedAt,
        },
      };
    },
  }),
  defineRoute<unknown, unknown, { calendar_id: string }>({
    method: 'get',
    path: `${BASE}/calendars/{calendar_id}/shares`,
    auth: 'user',
    scope: 'calendar:read',
    tags,
    summary: 'Who the calendar is shared with (any member may read it)',
    description:
      "Every member's role and permission flags, oldest share first, with the owner's id (the owner has every permission and is not listed among the shares).",
    request: { params: calendarParams },
    responses: {
      200: {
        description: 'The owner and the shares',
        data: allRequired({
          owner_id: { type: 'string' },
          shares: arr(
            allRequired({
              user_id: { type: 'string' },
              role: { type: 'string' },
              permissions: permissionsOut,
              created_at: iso,
            }),
          ),
        }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'view');
      return {
        data: { owner_id: cal.calendar.owner_id, shares: await listMembers(ctx.deps.db, cal.calendar.calendar_id) },
      };
    },
  }),
  defineRoute<unknown, unknown, { calendar_id: string; user_id: string }>({
    method: 'delete',
    path: `${BASE}/calendars/{calendar_id}/share/{user_id}`,
    auth: 'user',
    scope: 'calendar:manage',
    tags,
    summary: "Revoke a user's share (owner); applies at once",
    description:
      'Only the owner (members 403); a user without a share is 404. From the next request the user gets 404 for the calendar.',
    request: { params: allRequired({ calendar_id: calendarParams.properties.calendar_id, user_id: userId }) },
    responses: {
      200: {
        description: 'Revocation result',
        data: allRequired({ calendar_id: { type: 'string' }, user_id: { type: 'string' }, revoked: { const: true } }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'manage');
      await runCalendar(ctx, cal.calendar.calendar_id, {
        kind: 'revoke_share',
        actor: userIdOf(ctx),
        user_id: ctx.params.user_id,
      });
      return { data: { calendar_id: cal.calendar.calendar_id, user_id: ctx.params.user_id, revoked: true } };
    },
  }),
  defineRoute<
    { approved: boolean; comments?: string; approved_by?: string },
    unknown,
    { calendar_id: string; event_id: string }
  >({
    method: 'post',
    path: `${BASE}/calendars/{calendar_id}/events/{event_id}/approve`,
    auth: 'user',
    scope: 'calendar:publish',
    tags,
    summary:
      'Approve (scheduled/generated → approved) or reject (→ draft, with the comments) an event; the approver is the caller, approved_by is kept as a label',
    description:
      'Needs publish_content on an active calendar. Approving needs the event scheduled or generated with a future scheduled_at (else 400); rejecting moves it to draft where the state machine allows it. The decision is recorded with the comments; an approved event keeps a publishing timer on a calendar with auto_publish, a rejected one loses it. PATCH status approved is the same approval without comments.',
    request: {
      params: eventParams,
      body: withRequired({ approved: bool, comments: str(5000), approved_by: str(200) }, ['approved']),
    },
    responses: {
      200: {
        description: 'Approval result',
        data: allRequired({
          event_id: { type: 'string' },
          approved: bool,
          status: { type: 'string' },
          previous_status: { type: 'string' },
          comments: { type: 'string' },
          approver_id: { type: 'string' },
          approved_by: { type: ['string', 'null'] },
          decided_at: iso,
          event: eventOut,
        }),
      },
    },
    handler: async (ctx) => {
      const cal = await calendarFor(ctx, ctx.params.calendar_id, 'publish_content');
      requireActive(cal.calendar);
      const r = await runEventCommand(
        ctx.deps,
        cal,
        ctx.params.event_id,
        {
          kind: 'approve',
          actor: userIdOf(ctx),
          now: clock(ctx.deps),
          calendar: cal.ctx,
          approved: ctx.body.approved,
          comments: ctx.body.comments ?? '',
          approver_label: ctx.body.approved_by ?? null,
          schedule_id: randomUUID(),
        },
        requestMeta(ctx),
      );
      const rec = r.events.find((e) => e.type === 'CalendarEventApprovalRecorded')!;
      if (rec.type !== 'CalendarEventApprovalRecorded') throw new Error('approval decided no record');
      const after = r.events.reduce(calendarEventDecider.evolve, r.state)!;
      return {
        data: {
          event_id: ctx.params.event_id,
          approved: rec.data.approved,
          status: rec.data.to,
          previous_status: rec.data.from,
          comments: rec.data.comments,
          approver_id: rec.data.approver_id,
          approved_by: rec.data.approver_label,
          decided_at: rec.recordedAt,
          event: await eventAfter(ctx, cal.calendar.calendar_id, after, r.events),
        },
      };
    },
  }),
];
