/**
 * SEO performance rows (SEO dashboard): one row per user, domain, date, page
 * and query, written only by the events of stream
 * `seoperformance-<user_id>:<domain>` (imports and Search Console syncs), so
 * a later row with the same key replaces an earlier one in order, live and
 * on replay. Serves GET /api/seo-dashboard/performance with aggregate queries.
 */
import type { Knex } from 'knex';
import { Change, defineProjection } from './framework';

const T = 'seo_performance';

export const seoPerformanceProjection = defineProjection({
  name: 'seo-performance',
  migrationName: '0140_projection_seo_performance',
  areas: ['seo'],
  tables: [T],
  keys: { [T]: ['user_id', 'domain', 'date', 'page', 'query'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(T), (t) => {
      t.text('user_id').notNullable();
      t.text('domain').notNullable();
      t.date('date').notNullable();
      t.text('page').notNullable();
      t.text('query').notNullable();
      t.integer('clicks').notNullable();
      t.integer('impressions').notNullable();
      t.double('position');
      t.integer('conversions');
      t.text('source').notNullable();
      t.text('import_id').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.primary(['user_id', 'domain', 'date', 'page', 'query']);
    });
  },
  handlers: {
    PerformanceRowsImported: (e): Change[] =>
      e.data.rows.map((r) => {
        const values = {
          clicks: r.clicks,
          impressions: r.impressions,
          position: r.position,
          conversions: r.conversions,
          source: e.data.source,
          import_id: e.data.import_id,
          updated_at: e.recordedAt,
        };
        return {
          op: 'upsert',
          table: T,
          key: { user_id: e.data.user_id, domain: e.data.domain, date: r.date, page: r.page, query: r.query },
          insert: values,
          update: values,
        };
      }),
  },
});

export interface PerformanceSource {
  source: string;
  rows: number;
  first_date: string;
  last_date: string;
  last_updated_at: string;
}

const day = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : String(d).slice(0, 10));
const n = (v: unknown) => Number(v ?? 0);

/** What data a domain has, per source (empty = none at all). */
export async function performanceSources(db: Knex, userId: string, domain: string): Promise<PerformanceSource[]> {
  const rows = await db(T)
    .where({ user_id: userId, domain })
    .groupBy('source')
    .select('source')
    .count({ rows: '*' })
    .min({ first_date: 'date' })
    .max({ last_date: 'date', last_updated_at: 'updated_at' })
    .orderBy('source');
  return (rows as Array<Record<string, unknown>>).map((r) => ({
    source: String(r.source),
    rows: n(r.rows),
    first_date: day(r.first_date),
    last_date: day(r.last_date),
    last_updated_at: new Date(r.last_updated_at as string).toISOString(),
  }));
}

export interface PerformanceTotals {
  rows: number;
  clicks: number;
  impressions: number;
  /** Impression-weighted average position over rows that have a position; null without any. */
  average_position: number | null;
  /** Sum over rows that report conversions; null when none does. */
  conversions: number | null;
  /** Clicks of the rows that report conversions (the denominator of a conversion rate). */
  clicks_with_conversions: number;
  days_with_data: number;
}

const inRange = (q: Knex.QueryBuilder, userId: string, domain: string, from: string, to: string) =>
  q.where({ user_id: userId, domain }).whereBetween('date', [from, to]);

export async function performanceTotals(
  db: Knex,
  userId: string,
  domain: string,
  from: string,
  to: string,
): Promise<PerformanceTotals> {
  const r = await inRange(db(T), userId, domain, from, to)
    .select(
      db.raw('count(*) AS rows'),
      db.raw('coalesce(sum(clicks), 0) AS clicks'),
      db.raw('coalesce(sum(impressions), 0) AS impressions'),
      db.raw(
        'sum(position * impressions) FILTER (WHERE position IS NOT NULL) / nullif(sum(impressions) FILTER (WHERE position IS NOT NULL), 0) AS average_position',
      ),
      db.raw('sum(conversions) AS conversions'),
      db.raw('coalesce(sum(clicks) FILTER (WHERE conversions IS NOT NULL), 0) AS clicks_with_conversions'),
      db.raw('count(DISTINCT date) AS days_with_data'),
    )
    .first();
  return {
    rows: n(r.rows),
    clicks: n(r.clicks),
    impressions: n(r.impressions),
    average_position: r.average_position === null ? null : Number(r.average_position),
    conversions: r.conversions === null ? null : Number(r.conversions),
    clicks_with_conversions: n(r.clicks_with_conversions),
    days_with_data: n(r.days_with_data),
  };
}

/** Clicks and impressions per day with data, oldest first. */
export async function performanceDaily(db: Knex, userId: string, domain: string, from: string, to: string) {
  const rows = await inRange(db(T), userId, domain, from, to)
    .groupBy('date')
    .orderBy('date')
    .select('date', db.raw('sum(clicks) AS clicks'), db.raw('sum(impressions) AS impressions'));
  return (rows as Array<Record<string, unknown>>).map((r) => ({
    date: day(r.date),
    clicks: n(r.clicks),
    impressions: n(r.impressions),
  }));
}

/** Pages by clicks (then impressions), with conversions where reported. */
export async function performanceTopPages(
  db: Knex,
  userId: string,
  domain: string,
  from: string,
  to: string,
  limit = 10,
  by: 'clicks' | 'conversions' = 'clicks',
) {
  const rows = await inRange(db(T), userId, domain, from, to)
    .groupBy('page')
    .select(
      'page',
      db.raw('sum(clicks) AS clicks'),
      db.raw('sum(impressions) AS impressions'),
      db.raw('sum(conversions) AS conversions'),
    )
    .modify((q) => {
      if (by === 'conversions') q.havingRaw('sum(conversions) > 0');
    })
    .orderByRaw(by === 'conversions' ? 'sum(conversions) DESC, page' : 'sum(clicks) DESC, sum(impressions) DESC, page')
    .limit(limit);
  return (rows as Array<Record<string, unknown>>).map((r) => ({
    page: String(r.page),
    clicks: n(r.clicks),
    impressions: n(r.impressions),
    conversions: r.conversions === null ? null : n(r.conversions),
  }));
}

/** Queries with their impression-weighted position, by clicks; and how many queries rank in each position band. */
export async function performanceQueries(
  db: Knex,
  userId: string,
  domain: string,
  from: string,
  to: string,
  limit = 10,
) {
  const perQuery = inRange(db(T), userId, domain, from, to)
    .whereNot('query', '')
    .whereNotNull('position')
    .groupBy('query')
    .select(
      'query',
      db.raw('sum(clicks) AS clicks'),
      db.raw('sum(impressions) AS impressions'),
      db.raw('sum(position * impressions) / nullif(sum(impressions), 0) AS position'),
    );
  const top = await db
    .from(perQuery.clone().as('q'))
    .whereNotNull('position')
    .orderByRaw('clicks DESC, impressions DESC, query')
    .limit(limit);
  const bands = await db
    .from(perQuery.as('q'))
    .whereNotNull('position')
    .select(
      db.raw('count(*) AS queries'),
      db.raw('count(*) FILTER (WHERE position <= 3) AS top_3'),
      db.raw('count(*) FILTER (WHERE position > 3 AND position <= 10) AS top_4_10'),
      db.raw('count(*) FILTER (WHERE position > 10 AND position <= 20) AS top_11_20'),
      db.raw('count(*) FILTER (WHERE position > 20) AS beyond_20'),
    )
    .first();
  return {
    top: top.map((r) => ({
      query: String(r.query),
      clicks: n(r.clicks),
      impressions: n(r.impressions),
      position: Math.round(Number(r.position) * 10) / 10,
    })),
    queries_ranked: n(bands.queries),
    distribution: {
      top_3: n(bands.top_3),
      '4_10': n(bands.top_4_10),
      '11_20': n(bands.top_11_20),
      beyond_20: n(bands.beyond_20),
    },
  };
}
