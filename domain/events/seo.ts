/**
 * SEO performance data (docs/content.md "SEO dashboard performance"):
 * - stream `seoperformance-<user_id>:<domain>`: PerformanceRowsImported, one
 *   event per part of an import (at most PERFORMANCE_ROWS_PER_EVENT rows),
 *   from the import route or a Search Console sync. One stream per user and
 *   domain keeps every change of a domain's rows in order, so a later row
 *   with the same date, page and query replaces an earlier one, live and on
 *   replay alike.
 * - stream `searchconsole-<user_id>`: SearchConsoleConnected (a fingerprint of
 *   the refresh token, never the token) and SearchConsoleDisconnected.
 */
import { EventDefinitions, openAllRequired, openWithRequired } from './types';
import { int, nonEmptyString } from '../schema';

export interface PerformanceRow {
  /** YYYY-MM-DD. */
  date: string;
  /** URL or path of the page. */
  page: string;
  /** Search query ('' when the source does not say). */
  query: string;
  clicks: number;
  impressions: number;
  /** Average position (1 = top); null when the source has none. */
  position: number | null;
  /** null when the source does not report conversions (Search Console never does). */
  conversions: number | null;
}

export type SeoEvent =
  | {
      type: 'PerformanceRowsImported';
      data: {
        import_id: string;
        user_id: string;
        domain: string;
        source: 'import' | 'search_console';
        part: number;
        parts: number;
        rows: PerformanceRow[];
      };
    }
  | { type: 'SearchConsoleConnected'; data: { user_id: string; site_url: string | null; token_fingerprint: string } }
  | { type: 'SearchConsoleDisconnected'; data: { user_id: string } };

/** Rows per PerformanceRowsImported event (an import of more rows is several parts, appended atomically). */
export const PERFORMANCE_ROWS_PER_EVENT = 1000;

const row = openWithRequired(
  {
    date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    page: nonEmptyString,
    query: { type: 'string' },
    clicks: { ...int, minimum: 0 },
    impressions: { ...int, minimum: 0 },
    position: { type: ['number', 'null'] },
    conversions: { type: ['number', 'null'] },
  },
  ['date', 'page', 'query', 'clicks', 'impressions'],
);

export const seoEvents: EventDefinitions<SeoEvent['type']> = {
  PerformanceRowsImported: {
    area: 'seo',
    version: 1,
    schema: openAllRequired({
      import_id: nonEmptyString,
      user_id: nonEmptyString,
      domain: nonEmptyString,
      source: { enum: ['import', 'search_console'] },
      part: int,
      parts: int,
      rows: { type: 'array', items: row, maxItems: PERFORMANCE_ROWS_PER_EVENT },
    }),
  },
  SearchConsoleConnected: {
    area: 'seo',
    version: 1,
    schema: openAllRequired({
      user_id: nonEmptyString,
      site_url: { type: ['string', 'null'] },
      token_fingerprint: nonEmptyString,
    }),
  },
  SearchConsoleDisconnected: { area: 'seo', version: 1, schema: openAllRequired({ user_id: nonEmptyString }) },
};

export const performanceStream = (userId: string, domain: string) => `seoperformance-${userId}:${domain}`;
export const searchConsoleStream = (userId: string) => `searchconsole-${userId}`;
