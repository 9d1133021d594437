/**
 * The performance-data port's Search Console adapter: Google Search Console
 * `searchanalytics.query` over OAuth 2.0.
 *
 * The OAuth client (SEARCH_CONSOLE_CLIENT_ID / _SECRET) is the deployment's;
 * the refresh token is the user's grant (stored encrypted per user by the
 * connect route), so a user only ever reads properties their own Google
 * account can read.
 *
 *   POST {token_url} (form) client_id, client_secret, refresh_token, grant_type=refresh_token → {access_token}
 *   POST {api}/webmasters/v3/sites/{siteUrl}/searchAnalytics/query  Authorization: Bearer <access_token>
 *        {startDate, endDate, dimensions: ["date", "page", "query"], rowLimit, startRow, dataState: "final"}
 *        → {rows: [{keys: [date, page, query], clicks, impressions, ctr, position}]}
 *
 * Pages of `rowLimit` rows are read until a short page (or MAX_SYNC_ROWS).
 * Search Console reports no conversions: rows carry `conversions: null`.
 */
import { postJsonWithRetry } from '../ai/http';
import {
  VendorBadResponseError,
  VendorRequestRejectedError,
  VendorTimeoutError,
  VendorUnavailableError,
} from '../ai/errors';
import type { PerformanceRow } from '../../domain/events/seo';

export interface SearchConsoleSettings {
  clientId: string;
  clientSecret: string;
  /** Default https://oauth2.googleapis.com/token. */
  tokenUrl?: string;
  /** Default https://www.googleapis.com. */
  apiBaseUrl?: string;
  timeoutMs: number;
  maxRetries: number;
  /** Rows per page (Search Console allows at most 25,000). */
  pageSize?: number;
}

export interface SearchConsoleRowsRequest {
  refreshToken: string;
  /** `sc-domain:example.com` or `https://www.example.com/`. */
  siteUrl: string;
  startDate: string;
  endDate: string;
  signal?: AbortSignal;
}

export interface SearchConsole {
  rows(req: SearchConsoleRowsRequest): Promise<{ rows: PerformanceRow[]; truncated: boolean }>;
}

/** Most rows one sync reads. */
export const MAX_SYNC_ROWS = 50_000;
export const SEARCH_CONSOLE_SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly';

async function accessToken(s: SearchConsoleSettings, refreshToken: string, signal?: AbortSignal): Promise<string> {
  const url = s.tokenUrl || 'https://oauth2.googleapis.com/token';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), s.timeoutMs);
  signal?.addEventListener('abort', () => controller.abort(), { once: true });
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: s.clientId,
        client_secret: s.clientSecret,
        refresh_token: refreshToken,
        grant_type: 'refresh_token',
      }).toString(),
      signal: controller.signal,
    });
  } catch (e) {
    if (controller.signal.aborted && !signal?.aborted) throw new VendorTimeoutError('search_console', s.timeoutMs);
    throw new VendorUnavailableError('search_console', undefined, (e as Error).message);
  } finally {
    clearTimeout(timer);
  }
  const text = await res.text();
  if (res.status >= 500) throw new VendorUnavailableError('search_console', res.status, text.slice(0, 200));
  let body: { access_token?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    body = JSON.parse(text);
  } catch {
    throw new VendorBadResponseError('search_console', `token answer is not JSON: ${text.slice(0, 200)}`);
  }
  if (!res.ok)
    throw new VendorRequestRejectedError(
      'search_console',
      res.status,
      `OAuth token refused (${String(body.error ?? '')}: ${String(body.error_description ?? '')}); connect Search Console again`,
    );
  if (typeof body.access_token !== 'string') throw new VendorBadResponseError('search_console', 'no access_token');
  return body.access_token;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function createSearchConsole(s: SearchConsoleSettings): SearchConsole {
  const api = (s.apiBaseUrl || 'https://www.googleapis.com').replace(/\/+$/, '');
  const pageSize = Math.min(25_000, s.pageSize ?? 25_000);
  return {
    async rows(req) {
      const token = await accessToken(s, req.refreshToken, req.signal);
      const url = `${api}/webmasters/v3/sites/${encodeURIComponent(req.siteUrl)}/searchAnalytics/query`;
      const out: PerformanceRow[] = [];
      for (let startRow = 0; ; startRow += pageSize) {
        const r = await postJsonWithRetry(
          url,
          {
            startDate: req.startDate,
            endDate: req.endDate,
            dimensions: ['date', 'page', 'query'],
            rowLimit: pageSize,
            startRow,
            dataState: 'final',
          },
          { authorization: `Bearer ${token}` },
          { vendor: 'search_console', timeoutMs: s.timeoutMs, maxRetries: s.maxRetries, signal: req.signal },
        );
        const rows = (r.body as { rows?: unknown }).rows;
        if (rows !== undefined && !Array.isArray(rows))
          throw new VendorBadResponseError('search_console', 'rows is not an array');
        for (const row of (rows ?? []) as Array<{
          keys?: unknown;
          clicks?: unknown;
          impressions?: unknown;
          position?: unknown;
        }>) {
          const keys = Array.isArray(row.keys) ? row.keys.map(String) : [];
          if (keys.length < 3)
            throw new VendorBadResponseError('search_console', 'a row without date, page and query keys');
          out.push({
            date: keys[0],
            page: keys[1],
            query: keys[2],
            clicks: Math.round(num(row.clicks)),
            impressions: Math.round(num(row.impressions)),
            position: typeof row.position === 'number' ? Math.max(1, row.position) : null,
            conversions: null,
          });
        }
        if ((rows ?? []).length < pageSize) return { rows: out, truncated: false };
        if (out.length >= MAX_SYNC_ROWS) return { rows: out.slice(0, MAX_SYNC_ROWS), truncated: true };
      }
    },
  };
}
