/**
 * Performance data import (pure): CSV parsing and the checks every imported
 * row passes (docs/content.md "Importing performance data").
 *
 * CSV: RFC 4180 (comma separated, double-quoted fields with "" escapes, CRLF or
 * LF), a header row naming the columns in any order, case-insensitive:
 * date, page, clicks, impressions (required), query, position, conversions
 * (optional; an empty cell is "not reported").
 */
import { ValidationError, FieldIssue } from '../errors';
import type { PerformanceRow } from '../events/seo';

export const REQUIRED_COLUMNS = ['date', 'page', 'clicks', 'impressions'] as const;
export const OPTIONAL_COLUMNS = ['query', 'position', 'conversions'] as const;
/** Most rows one import may carry. */
export const MAX_IMPORT_ROWS = 10_000;

/** Splits CSV text into records of fields. */
export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const s = text.replace(/^\uFEFF/, '');
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (!(record.length === 1 && record[0].trim() === '')) out.push(record);
    record = [];
  };
  while (i < s.length) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n') endRecord();
    else if (c !== '\r') field += c;
    i++;
  }
  if (field !== '' || record.length) endRecord();
  return out;
}

export type RawRow = Record<string, unknown>;

/** CSV text → raw rows keyed by the (lower-cased) header; refuses a header without the required columns. */
export function csvRows(text: string): RawRow[] {
  const [header, ...records] = parseCsv(text);
  if (!header) throw issue('csv', 'the CSV is empty: it needs a header row and at least one row');
  const names = header.map((h) => h.trim().toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length) throw issue('csv', `the CSV header lacks ${missing.join(', ')} (columns: ${names.join(', ')})`);
  return records.map((r) => {
    const o: RawRow = {};
    names.forEach((n, j) => {
      if ((REQUIRED_COLUMNS as readonly string[]).includes(n) || (OPTIONAL_COLUMNS as readonly string[]).includes(n))
        o[n] = (r[j] ?? '').trim();
    });
    return o;
  });
}

const issue = (path: string, message: string) =>
  new ValidationError([{ location: 'body', path, kind: 'constraint', message }]);

const isDate = (d: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) return false;
  const t = new Date(`${d}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
};

/** A number from JSON or a CSV cell; '' / null / undefined = not given. */
function numberOf(v: unknown): number | undefined | 'bad' {
  if (v === null || v === undefined || v === '') return undefined;
  const x = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.replace(/,/g, '')) : NaN;
  return Number.isFinite(x) ? x : 'bad';
}

/** True when `page` is a path, or an http(s) URL on `domain` or one of its subdomains. */
export function pageOnDomain(page: string, domain: string): boolean {
  if (page.startsWith('/')) return true;
  try {
    const u = new URL(page);
    const host = u.hostname.toLowerCase();
    return /^https?:$/.test(u.protocol) && (host === domain || host.endsWith(`.${domain}`));
  } catch {
    return false;
  }
}

/**
 * Checks and normalises rows for `domain`: every problem is reported with its row's path (`rows.3.clicks`), at
 * most 20 of them. `where` is the body field the rows came from (`rows` or `csv`; CSV rows count from 1 after the
 * header).
 */
export function checkRows(raw: RawRow[], domain: string, where: 'rows' | 'csv'): PerformanceRow[] {
  const issues: FieldIssue[] = [];
  const out: PerformanceRow[] = [];
  const seen = new Set<string>();
  if (raw.length === 0) throw issue(where, 'no rows to import');
  if (raw.length > MAX_IMPORT_ROWS)
    throw issue(where, `at most ${MAX_IMPORT_ROWS} rows per import (got ${raw.length}); split the file`);
  raw.forEach((r, i) => {
    const at = (f: string) => `${where}.${where === 'csv' ? i + 1 : i}.${f}`;
    const bad = (f: string, message: string) =>
      issues.push({ location: 'body', path: at(f), kind: 'constraint', message: `${at(f)} ${message}` });
    const date = String(r.date ?? '').trim();
    const page = String(r.page ?? '').trim();
    const query = String(r.query ?? '').trim();
    if (!isDate(date)) bad('date', 'must be a calendar date YYYY-MM-DD');
    if (!page || page.length > 2048) bad('page', 'must be a path or URL of at most 2048 characters');
    else if (!pageOnDomain(page, domain)) bad('page', `must be a path or an http(s) URL on ${domain}`);
    if (query.length > 500) bad('query', 'must be at most 500 characters');
    const clicks = numberOf(r.clicks);
    const impressions = numberOf(r.impressions);
    const position = numberOf(r.position);
    const conversions = numberOf(r.conversions);
    if (clicks === undefined || clicks === 'bad' || !Number.isInteger(clicks) || clicks < 0)
      bad('clicks', 'must be a whole number ≥ 0');
    if (impressions === undefined || impressions === 'bad' || !Number.isInteger(impressions) || impressions < 0)
      bad('impressions', 'must be a whole number ≥ 0');
    else if (typeof clicks === 'number' && clicks > impressions) bad('clicks', 'cannot exceed impressions');
    if (position === 'bad' || (typeof position === 'number' && position < 1)) bad('position', 'must be a number ≥ 1');
    if (
      conversions === 'bad' ||
      (typeof conversions === 'number' && (conversions < 0 || !Number.isInteger(conversions)))
    )
      bad('conversions', 'must be a whole number ≥ 0');
    const key = `${date}\n${page}\n${query}`;
    if (seen.has(key)) bad('date', 'repeats the date, page and query of an earlier row');
    seen.add(key);
    if (issues.length >= 20) return;
    out.push({
      date,
      page,
      query,
      clicks: clicks as number,
      impressions: impressions as number,
      position: typeof position === 'number' ? position : null,
      conversions: typeof conversions === 'number' ? conversions : null,
    });
  });
  if (issues.length) throw new ValidationError(issues.slice(0, 20));
  return out;
}
