/**
 * Read queries over the calendar read model (projections/calendars.ts).
 * Access is decided by the caller (api/calendar/access.ts folds the calendar
 * stream); these only read rows.
 */
import type { Knex } from 'knex';
import type { PerformanceMetrics, Permissions, ShareRole } from '../domain/events/calendar';
import { CAL, CAMP, EV, MEM } from './calendars';

const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

export interface CalendarRow {
  calendar_id: string;
  owner_id: string;
  name: string;
  description: string;
  timezone: string;
  team_id: string | null;
  settings: Record<string, unknown>;
  status: string;
  created_at: string;
  updated_at: string;
}

const toCalendar = (r: Record<string, unknown>): CalendarRow => ({
  calendar_id: r.calendar_id as string,
  owner_id: r.owner_id as string,
  name: r.name as string,
  description: r.description as string,
  timezone: r.timezone as string,
  team_id: (r.team_id as string | null) ?? null,
  settings: r.settings as Record<string, unknown>,
  status: r.status as string,
  created_at: iso(r.created_at as Date)!,
  updated_at: iso(r.updated_at as Date)!,
});

export async function getCalendarRow(db: Knex, calendarId: string): Promise<CalendarRow | undefined> {
  const r = await db(CAL).where({ calendar_id: calendarId, deleted: false }).first();
  return r ? toCalendar(r) : undefined;
}

/**
 * The user's access to a listed calendar: as its owner (no share flags, unless a share row exists too), or through a
 * share (its role and flags).
 */
export type ListedAccess =
  { role: 'owner'; permissions: Permissions | null } | { role: ShareRole; permissions: Permissions };

// A share's row has its flags (NOT NULL); the owner's role comes from the query, not from a share row.
const accessOf = (r: Record<string, unknown>): ListedAccess =>
  r.role === 'owner'
    ? { role: 'owner', permissions: (r.permissions as Permissions | null) ?? null }
    : { role: r.role as ShareRole, permissions: r.permissions as Permissions };

/** Calendars the user owns or is a member of, newest first, with the total before paging. */
export async function listCalendarsFor(
  db: Knex,
  userId: string,
  f: { team_id?: string; status?: string; limit: number; offset: number },
): Promise<{ total: number; rows: (CalendarRow & ListedAccess)[] }> {
  const q = db(`${CAL} as c`)
    .leftJoin(`${MEM} as m`, function () {
      this.on('m.calendar_id', 'c.calendar_id').andOn('m.user_id', db.raw('?', [userId]));
    })
    .where('c.deleted', false)
    .andWhere((w) => w.where('c.owner_id', userId).orWhereNotNull('m.user_id'));
  if (f.team_id !== undefined) q.andWhere('c.team_id', f.team_id);
  if (f.status !== undefined) q.andWhere('c.status', f.status);
  const [{ n }] = await q.clone().count({ n: '*' });
  const rows = await q
    .select('c.*', 'm.permissions', db.raw(`CASE WHEN c.owner_id = ? THEN 'owner' ELSE m.role END AS role`, [userId]))
    .orderBy([{ column: 'c.created_at', order: 'desc' }, { column: 'c.calendar_id' }])
    .limit(f.limit)
    .offset(f.offset);
  return {
    total: Number(n),
    rows: rows.map((r) => ({ ...toCalendar(r), ...accessOf(r) })),
  };
}

export async function listMembers(
  db: Knex,
  calendarId: string,
): Promise<{ user_id: string; role: string; permissions: Permissions; created_at: string }[]> {
  const rows = await db(MEM).where({ calendar_id: calendarId }).orderBy('created_at');
  return rows.map((r) => ({
    user_id: r.user_id,
    role: r.role,
    permissions: r.permissions,
    created_at: iso(r.created_at)!,
  }));
}

/** Statuses an event still goes out from (counted as upcoming when its time is in the window). */
export const PENDING_STATUSES = ['draft', 'generated', 'scheduled', 'approved'];

/** events_count and upcoming_events per calendar; `windows` gives each calendar's upcoming window [from, to). */
export async function eventCounts(
  db: Knex,
  windows: Map<string, { from: string; to: string }>,
): Promise<Map<string, { events_count: number; upcoming_events: number }>> {
  const ids = [...windows.keys()];
  const out = new Map(ids.map((id) => [id, { events_count: 0, upcoming_events: 0 }]));
  if (!ids.length) return out;
  const totals = await db<{ calendar_id: string }>(EV)
    .whereIn('calendar_id', ids)
    .groupBy('calendar_id')
    .select('calendar_id')
    .count({ n: '*' });
  for (const t of totals) out.get(t.calendar_id)!.events_count = Number(t.n);
  const from = [...windows.values()].reduce((a, w) => (w.from < a ? w.from : a), '9999');
  const to = [...windows.values()].reduce((a, w) => (w.to > a ? w.to : a), '0000');
  const soon = await db(EV)
    .whereIn('calendar_id', ids)
    .whereIn('status', PENDING_STATUSES)
    .where('scheduled_at', '>=', from)
    .where('scheduled_at', '<', to)
    .select('calendar_id', 'scheduled_at');
  for (const r of soon) {
    const w = windows.get(r.calendar_id)!;
    const at = iso(r.scheduled_at)!;
    if (at >= w.from && at < w.to) out.get(r.calendar_id)!.upcoming_events++;
  }
  return out;
}

export interface EventRow {
  event_id: string;
  calendar_id: string;
  owner_id: string;
  created_by: string;
  title: string;
  description: string;
  content_type: string;
  platform: string;
  status: string;
  scheduled_at: string | null;
  duration: number;
  content: Record<string, unknown>;
  metadata: Record<string, unknown>;
  approval: Record<string, unknown> | null;
  published_at: string | null;
  publication: Record<string, unknown> | null;
  failure: Record<string, unknown> | null;
  /** The latest figures recorded (CalendarEventPerformanceRecorded's metrics) and when they were measured. */
  performance: (PerformanceMetrics & { measured_at: string }) | null;
  performance_initial: { impressions: number; engagements: number } | null;
  audience: Record<string, unknown> | null;
  audience_segment: string | null;
  performance_count: number;
  created_at: string;
  updated_at: string;
}

const toEvent = (r: Record<string, unknown>): EventRow => ({
  event_id: r.event_id as string,
  calendar_id: r.calendar_id as string,
  owner_id: r.owner_id as string,
  created_by: r.created_by as string,
  title: r.title as string,
  description: r.description as string,
  content_type: r.content_type as string,
  platform: r.platform as string,
  status: r.status as string,
  scheduled_at: iso(r.scheduled_at as Date | null),
  duration: r.duration as number,
  content: r.content as Record<string, unknown>,
  metadata: r.metadata as Record<string, unknown>,
  approval: (r.approval as Record<string, unknown> | null) ?? null,
  published_at: iso(r.published_at as Date | null),
  publication: (r.publication as Record<string, unknown> | null) ?? null,
  failure: (r.failure as Record<string, unknown> | null) ?? null,
  performance: (r.performance as EventRow['performance']) ?? null,
  performance_initial: (r.performance_initial as EventRow['performance_initial']) ?? null,
  audience: (r.audience as Record<string, unknown> | null) ?? null,
  audience_segment: (r.audience_segment as string | null) ?? null,
  performance_count: Number(r.performance_count ?? 0),
  created_at: iso(r.created_at as Date)!,
  updated_at: iso(r.updated_at as Date)!,
});

export async function getEventRow(db: Knex, calendarId: string, eventId: string): Promise<EventRow | undefined> {
  const r = await db(EV).where({ event_id: eventId, calendar_id: calendarId }).first();
  return r ? toEvent(r) : undefined;
}

export interface EventFilters {
  start_date?: string;
  end_date?: string;
  platform?: string;
  status?: string;
  content_type?: string;
  assigned_to?: string;
  campaign_id?: string;
  limit: number;
  offset: number;
}

/** A calendar's events by time (unscheduled last), filtered; total before paging. */
export async function listEventRows(
  db: Knex,
  calendarId: string,
  f: EventFilters,
): Promise<{ total: number; rows: EventRow[] }> {
  const q = db(EV).where({ calendar_id: calendarId });
  // As UTC: PostgreSQL refuses some offsets RFC 3339 allows (beyond ±15:59).
  if (f.start_date) q.where('scheduled_at', '>=', new Date(f.start_date).toISOString());
  if (f.end_date) q.where('scheduled_at', '<=', new Date(f.end_date).toISOString());
  for (const k of ['platform', 'status', 'content_type', 'assigned_to', 'campaign_id'] as const)
    if (f[k] !== undefined) q.where(k, f[k]!);
  const [{ n }] = await q.clone().count({ n: '*' });
  const rows = await q
    .orderByRaw('scheduled_at ASC NULLS LAST, created_at ASC, event_id ASC')
    .limit(f.limit)
    .offset(f.offset);
  return { total: Number(n), rows: rows.map(toEvent) };
}

/** Up to `limit` events due from now (pending statuses), earliest first: the calendar view's next events. */
export async function nextEventRows(db: Knex, calendarId: string, now: Date, limit: number): Promise<EventRow[]> {
  const rows = await db(EV)
    .where({ calendar_id: calendarId })
    .whereIn('status', PENDING_STATUSES)
    .where('scheduled_at', '>=', now.toISOString())
    .orderBy([{ column: 'scheduled_at' }, { column: 'event_id' }])
    .limit(limit);
  return rows.map(toEvent);
}

/** Events of a calendar in a time range (scheduled_at or published_at), for analytics and scheduling. */
export async function eventRowsBetween(
  db: Knex,
  calendarId: string,
  range: { from?: string; to?: string; platform?: string; content_type?: string; campaign_id?: string },
): Promise<EventRow[]> {
  const q = db(EV).where({ calendar_id: calendarId });
  if (range.from) q.whereRaw('coalesce(published_at, scheduled_at) >= ?', [range.from]);
  if (range.to) q.whereRaw('coalesce(published_at, scheduled_at) < ?', [range.to]);
  if (range.platform) q.where('platform', range.platform);
  if (range.content_type) q.where('content_type', range.content_type);
  if (range.campaign_id) q.where('campaign_id', range.campaign_id);
  return (await q.orderByRaw('coalesce(published_at, scheduled_at) ASC NULLS LAST, event_id')).map(toEvent);
}

/** Published events with recorded performance (the timing model's observations). */
export async function performanceRows(
  db: Knex,
  calendarId: string,
  f: { from?: string; to?: string; platform?: string; content_type?: string; audience_segment?: string } = {},
): Promise<EventRow[]> {
  const q = db(EV).where({ calendar_id: calendarId, status: 'published' }).whereNotNull('performance');
  if (f.from) q.where('published_at', '>=', f.from);
  if (f.to) q.where('published_at', '<', f.to);
  if (f.platform) q.where('platform', f.platform);
  if (f.content_type) q.where('content_type', f.content_type);
  if (f.audience_segment) q.where('audience_segment', f.audience_segment);
  return (await q.orderBy('published_at')).map(toEvent);
}

export interface CampaignRow {
  campaign_id: string;
  calendar_id: string;
  owner_id: string;
  created_by: string;
  name: string;
  description: string;
  objectives: string[];
  target_audience: string;
  budget: { amount: number; currency: string; platforms: string[] } | null;
  timeline: { start_date: string; end_date: string; milestones: { date: string; name: string }[] } | null;
  content_strategy: { pillars: string[]; content_mix: Record<string, number> } | null;
  status: string;
  created_at: string;
  updated_at: string;
}

const toCampaign = (r: Record<string, unknown>): CampaignRow => ({
  campaign_id: r.campaign_id as string,
  calendar_id: r.calendar_id as string,
  owner_id: r.owner_id as string,
  created_by: r.created_by as string,
  name: r.name as string,
  description: r.description as string,
  objectives: r.objectives as string[],
  target_audience: r.target_audience as string,
  budget: (r.budget as CampaignRow['budget']) ?? null,
  timeline: (r.timeline as CampaignRow['timeline']) ?? null,
  content_strategy: (r.content_strategy as CampaignRow['content_strategy']) ?? null,
  status: r.status as string,
  created_at: iso(r.created_at as Date)!,
  updated_at: iso(r.updated_at as Date)!,
});

export async function getCampaignRow(
  db: Knex,
  calendarId: string,
  campaignId: string,
): Promise<CampaignRow | undefined> {
  const r = await db(CAMP).where({ campaign_id: campaignId, calendar_id: calendarId }).first();
  return r ? toCampaign(r) : undefined;
}

export async function listCampaignRows(
  db: Knex,
  calendarId: string,
  f: { status?: string; limit: number; offset: number },
): Promise<{ total: number; rows: CampaignRow[] }> {
  const q = db(CAMP).where({ calendar_id: calendarId });
  if (f.status) q.where('status', f.status);
  const [{ n }] = await q.clone().count({ n: '*' });
  const rows = await q
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'campaign_id' }])
    .limit(f.limit)
    .offset(f.offset);
  return { total: Number(n), rows: rows.map(toCampaign) };
}
