/**
 * SEO performance metrics (pure): the date range of a request and the
 * numbers derived from stored rows. Every figure is computed from imported or
 * synced rows; a figure the rows cannot give is null with a note saying why.
 *
 * date_range: `Nd` (the N days ending today, 1–480), `Nm` (the N calendar
 * months ending today, 1–16), or `YYYY-MM-DD..YYYY-MM-DD` (inclusive, at most
 * 480 days). "Today" is the API clock's UTC date. Changes compare with the
 * period of the same length just before.
 */
import { ValidationError } from '../errors';

export const METRICS = ['traffic', 'rankings', 'conversions'] as const;
export type Metric = (typeof METRICS)[number];
export const MAX_RANGE_DAYS = 480;

export interface DateRange {
  value: string;
  start: string;
  end: string;
  days: number;
  previous: { start: string; end: string };
}

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const parse = (d: string) => Date.parse(`${d}T00:00:00Z`);

const invalid = (message: string) =>
  new ValidationError([{ location: 'query', path: 'date_range', kind: 'constraint', message }]);

export function parseDateRange(value: string, today: Date): DateRange {
  const end0 = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  let start: number;
  let end = end0;
  const d = /^(\d{1,3})d$/.exec(value);
  const m = /^(\d{1,2})m$/.exec(value);
  const custom = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(value);
  if (d) {
    const n = Number(d[1]);
    if (n < 1 || n > MAX_RANGE_DAYS) throw invalid(`date_range ${value}: 1d to ${MAX_RANGE_DAYS}d`);
    start = end - (n - 1) * DAY;
  } else if (m) {
    const n = Number(m[1]);
    if (n < 1 || n > 16) throw invalid(`date_range ${value}: 1m to 16m`);
    const t = new Date(end0);
    start = Date.UTC(t.getUTCFullYear(), t.getUTCMonth() - n, t.getUTCDate()) + DAY;
  } else if (custom) {
    start = parse(custom[1]);
    end = parse(custom[2]);
    if (Number.isNaN(start) || Number.isNaN(end) || iso(start) !== custom[1] || iso(end) !== custom[2])
      throw invalid(`date_range ${value}: not calendar dates`);
    if (end < start) throw invalid(`date_range ${value}: the end is before the start`);
    if ((end - start) / DAY + 1 > MAX_RANGE_DAYS) throw invalid(`date_range ${value}: at most ${MAX_RANGE_DAYS} days`);
  } else throw invalid(`date_range ${value}: use Nd (e.g. 30d), Nm (e.g. 3m) or YYYY-MM-DD..YYYY-MM-DD`);
  const days = Math.round((end - start) / DAY) + 1;
  return {
    value,
    start: iso(start),
    end: iso(end),
    days,
    previous: { start: iso(start - days * DAY), end: iso(start - DAY) },
  };
}

/** Relative change in percent (one decimal); null when there is nothing to compare with. */
export function change(now: number | null, before: number | null): number | null {
  if (now === null || before === null || before === 0) return null;
  return Math.round(((now - before) / before) * 1000) / 10;
}

/** Click-through rate in percent (two decimals); null without impressions. */
export const ctr = (clicks: number, impressions: number): number | null =>
  impressions > 0 ? Math.round((clicks / impressions) * 10000) / 100 : null;

export const round1 = (x: number | null): number | null => (x === null ? null : Math.round(x * 10) / 10);

/** Conversion rate in percent (two decimals) of the clicks of rows that report conversions. */
export const conversionRate = (conversions: number | null, clicks: number): number | null =>
  conversions === null || clicks === 0 ? null : Math.round((conversions / clicks) * 10000) / 100;

/** The metrics asked for: an array of names or comma-separated names; default all. */
export function metricsOf(v: string[] | undefined): Metric[] {
  const names = (v ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return names.length ? ([...new Set(names)] as Metric[]) : [...METRICS];
}
