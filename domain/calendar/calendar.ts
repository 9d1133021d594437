/**
 * Decisions on a calendar's stream (`calendar-<id>`): create, update (name,
 * description, time zone, team, settings, status active/archived), delete,
 * share and revoke a share. The same fold answers "may this user do that"
 * (accessOf): the API folds the stream for every request, so a revoked share
 * or a deletion applies the moment its event is stored.
 */
import type { Decider, Stored } from '../decider';
import { NotFoundError, PermissionError } from '../errors';
import type { DomainEvent } from '../events';
import type { CalendarSettings, CalendarStatus, Permissions, ShareRole } from '../events/calendar';
import { invalid } from './errors';
import type { CalendarCtx } from './event-state';
import { Need, ROLE_DEFAULTS, Role, sharePermissions } from './permissions';
import { isHhMm, isIanaZone, minutesOf } from './time';

export interface Member {
  role: ShareRole;
  permissions: Permissions;
}

export interface CalendarState {
  calendar_id: string;
  owner_id: string;
  name: string;
  description: string;
  timezone: string;
  team_id: string | null;
  settings: CalendarSettings;
  status: CalendarStatus;
  deleted: boolean;
  members: Record<string, Member>;
  created_at: string;
  updated_at: string;
}

export const DEFAULT_SETTINGS: CalendarSettings = {
  default_platform: 'multi',
  working_hours: { start: '09:00', end: '17:00' },
  auto_publish: true,
  approval_workflow: false,
};

export type SettingsPatch = Partial<Omit<CalendarSettings, 'working_hours'>> & {
  working_hours?: Partial<CalendarSettings['working_hours']>;
};

export type CalendarCommand =
  | {
      kind: 'create';
      calendar_id: string;
      owner_id: string;
      name: string;
      description?: string;
      timezone?: string;
      team_id?: string | null;
      settings?: SettingsPatch;
    }
  | {
      kind: 'update';
      actor: string;
      name?: string;
      description?: string;
      timezone?: string;
      team_id?: string | null;
      settings?: SettingsPatch;
      status?: CalendarStatus;
    }
  | { kind: 'delete'; actor: string }
  | { kind: 'share'; actor: string; user_id: string; role: ShareRole; permissions?: Partial<Permissions> }
  | { kind: 'revoke_share'; actor: string; user_id: string };

/** Settings after a patch, checked (working hours HH:MM and not empty). */
export function mergeSettings(base: CalendarSettings, patch: SettingsPatch = {}, field = 'settings'): CalendarSettings {
  const wh = { ...base.working_hours, ...(patch.working_hours ?? {}) };
  for (const k of ['start', 'end'] as const)
    if (!isHhMm(wh[k])) throw invalid(`${field}.working_hours.${k}`, `working_hours.${k} must be HH:MM`, wh[k]);
  if (minutesOf(wh.start) === minutesOf(wh.end) && patch.working_hours)
    throw invalid(`${field}.working_hours`, 'working_hours start and end must differ', wh);
  return {
    default_platform: patch.default_platform ?? base.default_platform,
    working_hours: wh,
    auto_publish: patch.auto_publish ?? base.auto_publish,
    approval_workflow: patch.approval_workflow ?? base.approval_workflow,
  };
}

function checkZone(zone: string, field = 'timezone'): void {
  if (!isIanaZone(zone)) throw invalid(field, `${field} must be an IANA time zone (e.g. Europe/Berlin)`, zone);
}

export interface Access {
  role: Role;
  permissions: Permissions;
}

/** The calendar as the event decisions need it (routes, the publishing activity). */
export const calendarCtx = (c: CalendarState): CalendarCtx => ({
  calendar_id: c.calendar_id,
  owner_id: c.owner_id,
  timezone: c.timezone,
  settings: c.settings,
  status: c.status,
});

/** A user's role and flags on a calendar, or undefined when the calendar does not exist for them. */
export function accessOf(s: CalendarState | undefined, userId: string): Access | undefined {
  if (!s || s.deleted) return undefined;
  if (s.owner_id === userId) return { role: 'owner', permissions: ROLE_DEFAULTS.owner };
  const m = s.members[userId];
  return m ? { role: m.role, permissions: m.permissions } : undefined;
}

/** The caller's access, or 404 (not a member) / 403 (member without the permission the action needs). */
export function requireAccess(s: CalendarState | undefined, userId: string, need: Need): Access {
  const a = accessOf(s, userId);
  if (!a) throw new NotFoundError('Calendar not found');
  if (need === 'view') return a;
  if (need === 'manage') {
    if (a.role !== 'owner')
      throw new PermissionError('Only the calendar owner may do this', { required: 'owner', role: a.role });
    return a;
  }
  if (!a.permissions[need])
    throw new PermissionError(`Your role (${a.role}) lacks the ${need} permission on this calendar`, {
      required_permission: need,
      role: a.role,
    });
  return a;
}

/** Writes to an archived calendar are refused (it is read-only until made active again). */
export function requireActive(s: CalendarState): void {
  if (s.status !== 'active')
    throw invalid(
      'calendar_id',
      'The calendar is archived: make it active (PATCH status) before changing it',
      s.status,
    );
}

function evolve(s: CalendarState | undefined, e: Stored): CalendarState | undefined {
  const at = e.recordedAt ?? s?.updated_at ?? '';
  switch (e.type) {
    case 'CalendarCreated':
      return {
        calendar_id: e.data.calendar_id,
        owner_id: e.data.owner_id,
        name: e.data.name,
        description: e.data.description,
        timezone: e.data.timezone,
        team_id: e.data.team_id,
        settings: e.data.settings,
        status: 'active',
        deleted: false,
        members: {},
        created_at: at,
        updated_at: at,
      };
    case 'CalendarUpdated':
      return (
        s && {
          ...s,
          ...e.data.changes,
          settings: e.data.settings ?? s.settings,
          status: e.data.status?.to ?? s.status,
          updated_at: at,
        }
      );
    case 'CalendarDeleted':
      return s && { ...s, deleted: true, updated_at: at };
    case 'CalendarShared':
      return (
        s && {
          ...s,
          members: { ...s.members, [e.data.user_id]: { role: e.data.role, permissions: e.data.permissions } },
          updated_at: at,
        }
      );
    case 'CalendarShareRevoked': {
      if (!s) return s;
      const members = { ...s.members };
      delete members[e.data.user_id];
      return { ...s, members, updated_at: at };
    }
    default:
      return s;
  }
}

export const calendarDecider: Decider<CalendarCommand, CalendarState | undefined> = {
  initialState: undefined,
  evolve,
  decide(c, s): DomainEvent[] {
    if (c.kind === 'create') {
      const timezone = c.timezone ?? 'UTC';
      checkZone(timezone);
      return [
        {
          type: 'CalendarCreated',
          data: {
            calendar_id: c.calendar_id,
            owner_id: c.owner_id,
            name: c.name,
            description: c.description ?? '',
            timezone,
            team_id: c.team_id ?? null,
            settings: mergeSettings(DEFAULT_SETTINGS, c.settings),
          },
        },
      ];
    }
    const cal = s && !s.deleted ? s : undefined;
    const ref = { calendar_id: cal?.calendar_id ?? '', owner_id: cal?.owner_id ?? '' };
    switch (c.kind) {
      case 'update': {
        const st = cal!;
        requireAccess(st, c.actor, 'manage');
        if (c.status === undefined) requireActive(st);
        if (c.timezone !== undefined) checkZone(c.timezone);
        const changes: { name?: string; description?: string; timezone?: string; team_id?: string | null } = {};
        if (c.name !== undefined && c.name !== st.name) changes.name = c.name;
        if (c.description !== undefined && c.description !== st.description) changes.description = c.description;
        if (c.timezone !== undefined && c.timezone !== st.timezone) changes.timezone = c.timezone;
        if (c.team_id !== undefined && c.team_id !== st.team_id) changes.team_id = c.team_id;
        const settings = c.settings ? mergeSettings(st.settings, c.settings) : undefined;
        const settingsChanged = settings && JSON.stringify(settings) !== JSON.stringify(st.settings);
        const status = c.status !== undefined && c.status !== st.status ? { from: st.status, to: c.status } : undefined;
        if (!Object.keys(changes).length && !settingsChanged && !status) return [];
        return [
          {
            type: 'CalendarUpdated',
            data: {
              ...ref,
              updated_by: c.actor,
              changes,
              ...(settingsChanged ? { settings } : {}),
              ...(status ? { status } : {}),
            },
          },
        ];
      }
      case 'delete':
        requireAccess(cal, c.actor, 'manage');
        return [{ type: 'CalendarDeleted', data: { ...ref, deleted_by: c.actor } }];
      case 'share': {
        const st = cal!;
        requireAccess(st, c.actor, 'manage');
        requireActive(st);
        if (c.user_id === st.owner_id) throw invalid('user_id', 'The owner already has every permission', c.user_id);
        return [
          {
            type: 'CalendarShared',
            data: {
              ...ref,
              user_id: c.user_id,
              role: c.role,
              permissions: sharePermissions(c.role, c.permissions),
              granted_by: c.actor,
            },
          },
        ];
      }
      case 'revoke_share': {
        const st = cal!;
        requireAccess(st, c.actor, 'manage');
        if (!st.members[c.user_id]) throw new NotFoundError('No share for this user on the calendar');
        return [{ type: 'CalendarShareRevoked', data: { ...ref, user_id: c.user_id, revoked_by: c.actor } }];
      }
    }
  },
};
