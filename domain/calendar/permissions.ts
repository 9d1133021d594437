/**
 * Who may do what on a calendar (docs/calendar.md "Roles and permissions").
 * The owner always has every permission and alone manages the calendar
 * itself (settings, archive, delete, shares). A share grants a role; the role
 * gives default flags, and flags sent with the share override them one by one.
 *
 * OAuth access tokens are further limited by their scopes: a route needs its
 * permission AND its scope (api/calendar/access.ts).
 */
import type { Permissions, ShareRole } from '../events/calendar';

export type Permission = keyof Permissions;
export type Role = 'owner' | ShareRole;

export const PERMISSION_NAMES: Permission[] = [
  'create_events',
  'edit_events',
  'delete_events',
  'publish_content',
  'view_analytics',
];

const all = (v: boolean): Permissions => ({
  create_events: v,
  edit_events: v,
  delete_events: v,
  publish_content: v,
  view_analytics: v,
});

/** Default flags of each role. */
export const ROLE_DEFAULTS: Record<Role, Permissions> = {
  owner: all(true),
  editor: { create_events: true, edit_events: true, delete_events: true, publish_content: true, view_analytics: true },
  contributor: {
    create_events: true,
    edit_events: true,
    delete_events: false,
    publish_content: false,
    view_analytics: true,
  },
  viewer: all(false),
};

export const SHARE_ROLES: ShareRole[] = ['editor', 'contributor', 'viewer'];

/** The flags a share grants: the role's defaults, overridden by the flags given. */
export function sharePermissions(role: ShareRole, given: Partial<Permissions> = {}): Permissions {
  const out = { ...ROLE_DEFAULTS[role] };
  for (const p of PERMISSION_NAMES) if (typeof given[p] === 'boolean') out[p] = given[p]!;
  return out;
}

/**
 * What a route needs beyond membership (every member may read the calendar
 * and its events): a permission flag, or `manage` (owner only).
 */
export type Need = 'view' | Permission | 'manage';

/** OAuth scopes (docs/calendar.md "OAuth 2.0"). */
export const SCOPES = [
  'calendar:read',
  'calendar:write',
  'calendar:publish',
  'calendar:analytics',
  'calendar:generate',
  'calendar:manage',
] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'calendar:read': 'read calendars, events and campaigns',
  'calendar:write': 'create, change and delete events and campaigns; smart scheduling',
  'calendar:publish': 'publish and approve events, record performance figures',
  'calendar:analytics': 'timing analysis, analytics, event and campaign performance',
  'calendar:generate': 'AI generation of events and series (spends the plan budget)',
  'calendar:manage': 'create, change, archive, delete and share calendars; calendar webhooks',
};

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}
