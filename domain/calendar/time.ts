/**
 * Calendar time: every rule that speaks of days, hours or working hours does
 * so in the calendar's IANA time zone, with luxon (DST-correct: a day across a
 * DST change has 23 or 25 hours, a local time in a spring-forward gap does not
 * exist and is moved forward, an ambiguous autumn time takes the earlier offset).
 */
import { DateTime, IANAZone } from 'luxon';

export const isIanaZone = (zone: string): boolean => zone !== '' && IANAZone.isValidZone(zone);

export interface WorkingHours {
  start: string;
  end: string;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
export const isHhMm = (s: string) => HHMM.test(s);
export const minutesOf = (hhmm: string): number => {
  const m = HHMM.exec(hhmm);
  if (!m) throw new Error(`not HH:MM: ${hhmm}`);
  return Number(m[1]) * 60 + Number(m[2]);
};

/** The local date-time of an instant in `zone`. */
export const local = (iso: string | Date | number, zone: string): DateTime =>
  (typeof iso === 'string'
    ? DateTime.fromISO(iso, { setZone: false })
    : typeof iso === 'number'
      ? DateTime.fromMillis(iso)
      : DateTime.fromJSDate(iso)
  ).setZone(zone);

/** Local calendar date (YYYY-MM-DD) of an instant in `zone`. */
export const localDate = (iso: string | Date | number, zone: string): string => local(iso, zone).toISODate()!;

/**
 * Whether an instant falls inside working hours in `zone`. A window whose end
 * is before its start runs over midnight (22:00-06:00); start = end is all day.
 */
export function inWorkingHours(iso: string | Date | number, zone: string, wh: WorkingHours): boolean {
  const t = local(iso, zone);
  return minuteInWorkingHours(t.hour * 60 + t.minute, wh);
}

/** Whether a local minute of the day (0..1439) is inside working hours. */
export function minuteInWorkingHours(m: number, wh: WorkingHours): boolean {
  const s = minutesOf(wh.start);
  const e = minutesOf(wh.end);
  if (s === e) return true;
  return s < e ? m >= s && m < e : m >= s || m < e;
}

/** UTC instant of a local wall-clock time in `zone` (a time in a DST gap moves forward, as luxon does). */
export function atLocal(date: string, hhmm: string, zone: string): DateTime {
  const [h, m] = hhmm.split(':').map(Number);
  return DateTime.fromISO(date, { zone }).set({ hour: h, minute: m, second: 0, millisecond: 0 });
}

/** Start of the local day of `iso` in `zone`, plus `days` local days (23 or 25 hours across a DST change). */
export const startOfLocalDay = (iso: string | Date | number, zone: string, days = 0): DateTime =>
  local(iso, zone).startOf('day').plus({ days });

/**
 * The "upcoming" window of a calendar: from now to the end of the 7th local
 * day (today and the six days after it, in the calendar's zone).
 */
export function upcomingWindow(now: Date, zone: string): { from: string; to: string } {
  return { from: now.toISOString(), to: startOfLocalDay(now, zone, 7).toUTC().toISO()! };
}

export type GroupBy = 'day' | 'week' | 'month';

/** The local period an instant belongs to: `2024-03-31` (day), ISO week start date (week), `2024-03` (month). */
export function periodKey(iso: string, zone: string, by: GroupBy): string {
  const t = local(iso, zone);
  if (by === 'day') return t.toISODate()!;
  if (by === 'week') return t.startOf('week').toISODate()!;
  return t.toFormat('yyyy-MM');
}

/** Local weekday (1 = Monday .. 7 = Sunday, ISO) and hour of an instant in `zone`. */
export function weekdayHour(iso: string | number, zone: string): { weekday: number; hour: number } {
  const t = local(iso, zone);
  return { weekday: t.weekday, hour: t.hour };
}

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
export const weekdayName = (isoWeekday: number) => WEEKDAYS[isoWeekday - 1];
