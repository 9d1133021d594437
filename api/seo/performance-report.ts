/**
 * The body of GET /api/seo-dashboard/performance, from the seo-performance
 * projection's aggregate queries (docs/content.md "SEO dashboard
 * performance"). Every figure is a sum, ratio or weighted mean of stored rows;
 * what the rows cannot give is null with a note.
 */
import type { Knex } from 'knex';
import { change, conversionRate, ctr, DateRange, metricsOf, round1 } from '../../domain/performance/report';
import {
  performanceDaily,
  performanceQueries,
  performanceSources,
  performanceTopPages,
  performanceTotals,
} from '../../projections/seo-performance';
import { allRequired, arr, int, num, withRequired } from '../kernel/schema';

export interface PerformanceQuery {
  domain: string;
  date_range: string;
  metrics?: string[];
}

const nullableNum = { type: ['number', 'null'] };
const page = { type: 'string' };

/** How a domain gets performance data: the import route, or Search Console connected and synced. */
export const HOW_TO_ADD_DATA = [
  'import rows with POST /api/seo-dashboard/performance/import (JSON rows or CSV: date, page, query, clicks, impressions, position, conversions)',
  'or connect Google Search Console with PUT /api/seo-dashboard/search-console and run POST /api/seo-dashboard/performance/sync',
];

export const performanceDataSchema = withRequired(
  {
    domain: { type: 'string' },
    date_range: allRequired({
      value: { type: 'string' },
      start: { type: 'string' },
      end: { type: 'string' },
      days: int,
    }),
    previous_period: allRequired({ start: { type: 'string' }, end: { type: 'string' } }),
    metrics: arr({ enum: ['traffic', 'rankings', 'conversions'] }),
    data_sources: arr(
      allRequired({
        source: { enum: ['import', 'search_console'] },
        rows: int,
        first_date: { type: 'string' },
        last_date: { type: 'string' },
        last_updated_at: { type: 'string' },
      }),
    ),
    days_with_data: int,
    how_to_add_data: arr(
      { type: 'string' },
      { description: 'Present when the domain has no data at all: how to import rows or connect Search Console' },
    ),
    traffic: withRequired(
      {
        clicks: int,
        impressions: int,
        ctr: nullableNum,
        change_percent: allRequired({ clicks: nullableNum, impressions: nullableNum }),
        daily: arr(allRequired({ date: { type: 'string' }, clicks: int, impressions: int })),
        top_pages: arr(allRequired({ page, clicks: int, impressions: int, ctr: nullableNum }), {
          description: 'At most 10 pages, by clicks',
        }),
      },
      ['clicks', 'impressions', 'ctr'],
    ),
    rankings: withRequired(
      {
        average_position: nullableNum,
        previous_average_position: nullableNum,
        queries_ranked: int,
        distribution: allRequired(
          { top_3: int, '4_10': int, '11_20': int, beyond_20: int },
          {
            description: 'Queries per band of their impression-weighted average position',
          },
        ),
        top_queries: arr(allRequired({ query: { type: 'string' }, clicks: int, impressions: int, position: num }), {
          description: 'At most 10 queries with a position, by clicks; position is impression-weighted',
        }),
      },
      ['average_position', 'queries_ranked'],
    ),
    conversions: withRequired(
      {
        conversions: nullableNum,
        conversion_rate: nullableNum,
        change_percent: nullableNum,
        top_pages: arr(allRequired({ page, conversions: int, clicks: int }), {
          description: 'At most 10 pages with conversions, by conversions',
        }),
      },
      ['conversions', 'conversion_rate'],
    ),
    notes: arr({ type: 'string' }),
  },
  ['domain', 'date_range', 'metrics', 'data_sources', 'days_with_data'],
);

/** The report, or undefined when the domain has no data at all. */
export async function performanceReport(db: Knex, userId: string, q: PerformanceQuery, range: DateRange) {
  const sources = await performanceSources(db, userId, q.domain);
  const metrics = metricsOf(q.metrics);
  const { start, end } = range;
  const [now, before] = await Promise.all([
    performanceTotals(db, userId, q.domain, start, end),
    performanceTotals(db, userId, q.domain, range.previous.start, range.previous.end),
  ]);
  const notes: string[] = [];
  if (sources.length === 0) notes.push(`No performance data for ${q.domain} yet: ${HOW_TO_ADD_DATA.join('; ')}`);
  else if (now.rows === 0)
    notes.push(
      `No rows between ${start} and ${end}; the data covers ${sources.map((s) => `${s.first_date}..${s.last_date} (${s.source})`).join(', ')}`,
    );
  if (before.rows === 0)
    notes.push(`No rows in the previous period (${range.previous.start}..${range.previous.end}): changes are null`);
  const out: Record<string, unknown> = {
    domain: q.domain,
    date_range: { value: range.value, start, end, days: range.days },
    previous_period: range.previous,
    metrics,
    data_sources: sources,
    days_with_data: now.days_with_data,
    ...(sources.length === 0 ? { how_to_add_data: HOW_TO_ADD_DATA } : {}),
  };
  if (metrics.includes('traffic'))
    out.traffic = {
      clicks: now.clicks,
      impressions: now.impressions,
      ctr: ctr(now.clicks, now.impressions),
      change_percent: {
        clicks: before.rows ? change(now.clicks, before.clicks) : null,
        impressions: before.rows ? change(now.impressions, before.impressions) : null,
      },
      daily: await performanceDaily(db, userId, q.domain, start, end),
      top_pages: (await performanceTopPages(db, userId, q.domain, start, end)).map((p) => ({
        page: p.page,
        clicks: p.clicks,
        impressions: p.impressions,
        ctr: ctr(p.clicks, p.impressions),
      })),
    };
  if (metrics.includes('rankings')) {
    const queries = await performanceQueries(db, userId, q.domain, start, end);
    if (now.average_position === null && now.rows) notes.push('No row in the range has a position: rankings are null');
    out.rankings = {
      average_position: round1(now.average_position),
      previous_average_position: round1(before.average_position),
      queries_ranked: queries.queries_ranked,
      distribution: queries.distribution,
      top_queries: queries.top,
    };
  }
  if (metrics.includes('conversions')) {
    if (now.conversions === null && now.rows)
      notes.push(
        'No row in the range reports conversions (Search Console does not): import rows with a conversions column',
      );
    out.conversions = {
      conversions: now.conversions,
      conversion_rate: conversionRate(now.conversions, now.clicks_with_conversions),
      change_percent: change(now.conversions, before.conversions),
      top_pages:
        now.conversions === null
          ? []
          : (await performanceTopPages(db, userId, q.domain, start, end, 10, 'conversions')).map((p) => ({
              page: p.page,
              conversions: p.conversions,
              clicks: p.clicks,
            })),
    };
  }
  out.notes = notes;
  return out;
}
