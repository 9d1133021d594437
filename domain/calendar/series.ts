/**
 * Series expansion: `schedule {frequency, start_date, posts_per_week}` becomes
 * an RFC 5545 recurrence rule (rrule library) and its occurrences in the
 * calendar's time zone.
 *
 * - Days: weekly/biweekly/daily take the posts_per_week weekdays the timing
 *   model rates best for the series' first platform (daily with 7 or more:
 *   every day); monthly posts on start_date's day of the month.
 * - Time: the whole hour inside the calendar's working hours that the model
 *   rates best over those days.
 * - Zone: the rule is expanded on local wall-clock time ("floating", as
 *   rrule recommends) and each occurrence is placed in the calendar's IANA
 *   zone with luxon, so 10:00 stays 10:00 across a DST change (the UTC
 *   instant moves); a wall time in a spring-forward gap moves forward.
 * - Occurrences at or before `now` are skipped; `count` (default 4 weeks'
 *   worth, at most 60) counts future occurrences; `end_date` stops earlier.
 */
import { Frequency, RRule, Weekday } from 'rrule';
import { DateTime } from 'luxon';
import type { TimingModel } from './timing';
import { minutesOf, WorkingHours } from './time';

export type SeriesFrequency = 'daily' | 'weekly' | 'biweekly' | 'monthly';

export interface SeriesSchedule {
  frequency: SeriesFrequency;
  /** Local date YYYY-MM-DD. */
  start_date: string;
  posts_per_week?: number;
  end_date?: string;
  count?: number;
}

export interface Expansion {
  rrule: string;
  /** Occurrences as UTC instants, in order. */
  occurrences: string[];
  weekdays: number[];
  hour: number;
  timezone: string;
  /** Occurrences dropped because they were not in the future. */
  skipped_past: number;
}

export const MAX_SERIES = 60;
const RR_DAYS: Weekday[] = [RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR, RRule.SA, RRule.SU];

/** Whole hours h such that h:00 lies in working hours. */
export function workingHourStarts(wh: WorkingHours): number[] {
  const s = minutesOf(wh.start);
  const e = minutesOf(wh.end);
  const inside = (m: number) => (s === e ? true : s < e ? m >= s && m < e : m >= s || m < e);
  return Array.from({ length: 24 }, (_, h) => h).filter((h) => inside(h * 60));
}

export function expandSeries(
  schedule: SeriesSchedule,
  opts: { timezone: string; working_hours: WorkingHours; model: TimingModel; now: Date },
): Expansion {
  const ppw = Math.max(1, Math.min(14, schedule.posts_per_week ?? 3));
  const start = DateTime.fromISO(schedule.start_date, { zone: opts.timezone });
  const byDay = [1, 2, 3, 4, 5, 6, 7].sort(
    (a, b) => opts.model.weekday_effects[b - 1] - opts.model.weekday_effects[a - 1] || a - b,
  );
  let weekdays: number[];
  if (schedule.frequency === 'monthly') weekdays = [start.weekday];
  else if (schedule.frequency === 'daily' && ppw >= 7) weekdays = [1, 2, 3, 4, 5, 6, 7];
  else weekdays = byDay.slice(0, Math.min(7, ppw)).sort((a, b) => a - b);
  const hours = workingHourStarts(opts.working_hours);
  const candidates = hours.length ? hours : [9];
  const score = (h: number) => weekdays.reduce((a, d) => a + opts.model.slot(d, h).expected_engagements, 0);
  const hour = [...candidates].sort((a, b) => score(b) - score(a) || a - b)[0];
  const wanted = Math.max(
    1,
    Math.min(
      MAX_SERIES,
      schedule.count ?? (schedule.frequency === 'monthly' ? 3 : Math.min(MAX_SERIES, weekdays.length * 4)),
    ),
  );

  // Floating wall-clock time: the rule's "UTC" fields are local fields of the calendar's zone.
  const dtstart = new Date(Date.UTC(start.year, start.month - 1, start.day, 0, 0, 0));
  const until = schedule.end_date
    ? (() => {
        const e = DateTime.fromISO(schedule.end_date, { zone: 'UTC' });
        return new Date(Date.UTC(e.year, e.month - 1, e.day, 23, 59, 59));
      })()
    : undefined;
  const rule = new RRule({
    freq:
      schedule.frequency === 'monthly'
        ? Frequency.MONTHLY
        : schedule.frequency === 'daily'
          ? Frequency.DAILY
          : Frequency.WEEKLY,
    interval: schedule.frequency === 'biweekly' ? 2 : 1,
    ...(schedule.frequency === 'monthly'
      ? { bymonthday: [start.day] }
      : { byweekday: weekdays.map((d) => RR_DAYS[d - 1]) }),
    byhour: [hour],
    byminute: [0],
    bysecond: [0],
    dtstart,
    ...(until ? { until } : {}),
    wkst: RRule.MO,
  });
  const occurrences: string[] = [];
  let skipped = 0;
  rule.all((d, i) => {
    if (occurrences.length >= wanted || i >= 2000) return false;
    const at = DateTime.fromObject(
      { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: 0 },
      { zone: opts.timezone },
    );
    if (at.toMillis() <= opts.now.getTime()) skipped++;
    else occurrences.push(at.toUTC().toISO()!);
    return true;
  });
  const tzRule = rule
    .toString()
    .replace(/^DTSTART:(\d{8}T\d{6})Z/, `DTSTART;TZID=${opts.timezone}:$1`)
    .replace(/UNTIL=(\d{8}T\d{6})Z/, 'UNTIL=$1');
  return { rrule: tzRule, occurrences, weekdays, hour, timezone: opts.timezone, skipped_past: skipped };
}
