/**
 * Who may do what on a calendar, decided for every request: the calendar's
 * stream is folded (one indexed read), so a share revoked or a calendar
 * deleted a moment ago applies at once; another user's calendar is 404, a
 * member without the permission is 403 AUTHORIZATION_ERROR. Callers with an
 * OAuth access token also need the route's scope (the token's scope is read
 * from its own stream, `oauthtoken-<id>`).
 */
import { oauthTokenStream } from '../../domain/events/identity';
import { calendarEventStream, calendarStream } from '../../domain/events/calendar';
import { calendarCtx, calendarDecider, CalendarState, requireAccess, Access } from '../../domain/calendar/calendar';
import type { Need, Scope } from '../../domain/calendar/permissions';
import { calendarEventDecider } from '../../domain/calendar/event';
import type { CalendarCtx, EventState } from '../../domain/calendar/event-state';
import { PermissionError } from '../../domain/errors';
import type { EventStoreOps } from '../../infra/eventstore';
import type { Caller } from '../identity/lookup';
import { callerOf } from '../kernel/handler';
import type { RouteCtx } from '../kernel/types';

type Ctx = RouteCtx;

export async function loadCalendar(store: EventStoreOps, calendarId: string): Promise<CalendarState | undefined> {
  const { state } = await store.aggregateStream(calendarStream(calendarId), calendarDecider.evolve, undefined);
  return state && !state.deleted ? state : undefined;
}

/** An event folded from its stream (undefined when it never existed). */
export async function loadEvent(store: EventStoreOps, eventId: string): Promise<EventState | undefined> {
  const { state } = await store.aggregateStream(calendarEventStream(eventId), calendarEventDecider.evolve, undefined);
  return state;
}

/** The scopes an OAuth access token was issued with (empty for other credentials: they are not scope-limited). */
export async function tokenScopes(store: EventStoreOps, caller: Caller): Promise<Set<string> | undefined> {
  if (caller.credential !== 'oauth') return undefined;
  const events = await store.readStream(oauthTokenStream(caller.credentialId));
  const issued = events.find((e) => e.type === 'OAuthTokenIssued');
  const scope = issued?.type === 'OAuthTokenIssued' ? issued.data.scope : '';
  return new Set(scope.split(/\s+/).filter(Boolean));
}

/** The scope the route declares (RouteDef.scope, given as `ctx.scope`); a route without one is a programming error. */
function declaredScope(ctx: Ctx): string {
  if (!ctx.scope) throw new Error('route declares no scope');
  return ctx.scope;
}

/**
 * Refuses an OAuth caller whose token lacks the route's declared scope (403), or `scope` when given: the explicit
 * second check of a route that needs another scope only in some cases (publishing through an event change). API keys
 * carry every scope.
 */
export async function requireScope(ctx: Ctx, scope?: Scope): Promise<void> {
  const need = scope ?? declaredScope(ctx);
  const scopes = await tokenScopes(ctx.deps.store, callerOf(ctx));
  if (scopes && !scopes.has(need))
    throw new PermissionError(`The access token lacks the ${need} scope`, { required_scope: need });
}

export interface CalendarAccess {
  calendar: CalendarState;
  access: Access;
  /** The calendar as event decisions need it. */
  ctx: CalendarCtx;
}

/**
 * The calendar of the path with the caller's access, checking membership, the permission and then the route's
 * declared scope (`ctx.scope`).
 */
export async function calendarFor(ctx: Ctx, calendarId: string, need: Need): Promise<CalendarAccess> {
  const calendar = await loadCalendar(ctx.deps.store, calendarId);
  const access = requireAccess(calendar, callerOf(ctx).userId, need);
  await requireScope(ctx);
  return { calendar: calendar!, access, ctx: calendarCtx(calendar!) };
}
