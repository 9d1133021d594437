/**
 * Web-search vendors, configured by key (WEB_SEARCH_PROVIDER, _API_KEY,
 * _BASE_URL), mapped to the spec's Source shape.
 *
 * - Tavily: POST {base}/search {query, max_results}, `Authorization: Bearer`;
 *   results [{title, url, content, score, published_date?}].
 * - Exa: POST {base}/search {query, numResults, contents: {text}}, `x-api-key`;
 *   results [{title, url, text?, highlights?, publishedDate?, score?}].
 *
 * Both go through the same retrying HTTP helper as the text vendors (429/5xx
 * backoff, Retry-After, per-attempt time-out, typed errors). A failed search
 * throws; it never falls back to other data silently.
 *
 * Credibility of a web page is not something a search API reports, so it is
 * a documented heuristic on the domain: government sites 0.9, academic 0.85,
 * everything else 0.6 (scaled down to 0.5 when the vendor's own relevance
 * score is below 0.3). source_type follows the same rule.
 */
import { postJsonWithRetry, HttpRetryOptions } from '../ai/http';
import { VendorBadResponseError } from '../ai/errors';
import type { Source } from '../../domain/analysis/types';
import type { SearchOptions } from './corpus';

export type WebSearchVendor = 'tavily' | 'exa';

export interface WebSearchSettings {
  vendor: WebSearchVendor;
  apiKey: string;
  /** Empty = the vendor's public endpoint. */
  baseUrl?: string;
  timeoutMs: number;
  maxRetries: number;
}

export interface WebSearchProvider {
  readonly vendor: WebSearchVendor;
  search(query: string, options?: SearchOptions): Promise<Source[]>;
}

export const DEFAULT_BASE_URLS: Record<WebSearchVendor, string> = {
  tavily: 'https://api.tavily.com',
  exa: 'https://api.exa.ai',
};

const EXCERPT_CHARS = 700;

/** source_type and credibility from the host name (see module comment). */
export function classifyUrl(url: string, relevance?: number): { source_type: string; credibility_score: number } {
  const host = (/^https?:\/\/([^/:?#]+)/i.exec(url)?.[1] ?? '').toLowerCase();
  let out = { source_type: 'web', credibility_score: 0.6 };
  if (/\.gov(\.[a-z]{2})?$|\.gouv\.|\.gob\.|europa\.eu$/.test(host))
    out = { source_type: 'government', credibility_score: 0.9 };
  else if (/\.edu(\.[a-z]{2})?$|\.ac\.[a-z]{2}$|^arxiv\.org$|\.arxiv\.org$/.test(host))
    out = { source_type: 'academic', credibility_score: 0.85 };
  if (relevance !== undefined && relevance < 0.3) out.credibility_score = Math.min(out.credibility_score, 0.5);
  return out;
}

const clip = (text: string): string => {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= EXCERPT_CHARS) return t;
  const cut = t.slice(0, EXCERPT_CHARS);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return end > EXCERPT_CHARS / 2 ? cut.slice(0, end + 1) : `${cut.replace(/\s+\S*$/, '')}…`;
};

const dateOnly = (v: unknown): string => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : '');

interface RawResult {
  title?: unknown;
  url?: unknown;
  content?: unknown;
  text?: unknown;
  highlights?: unknown;
  score?: unknown;
  published_date?: unknown;
  publishedDate?: unknown;
}

function toSources(vendor: WebSearchVendor, body: unknown, limit: number): Source[] {
  const results = (body as { results?: unknown })?.results;
  if (!Array.isArray(results)) throw new VendorBadResponseError(vendor, 'no results array in the search response');
  return (results as RawResult[])
    .filter((r) => typeof r?.url === 'string')
    .slice(0, limit)
    .map((r, i) => {
      const url = r.url as string;
      const score = typeof r.score === 'number' ? r.score : undefined;
      const highlights = Array.isArray(r.highlights) ? r.highlights.filter((h) => typeof h === 'string').join(' ') : '';
      const excerpt = clip(
        typeof r.content === 'string' ? r.content : highlights || (typeof r.text === 'string' ? r.text : ''),
      );
      return {
        title: typeof r.title === 'string' && r.title.trim() ? r.title.trim() : url,
        url,
        excerpt,
        ...classifyUrl(url, score),
        published_at: dateOnly(r.published_date ?? r.publishedDate),
        index: i + 1,
      };
    });
}

export function createWebSearchProvider(
  settings: WebSearchSettings,
  overrides: Partial<HttpRetryOptions> = {},
): WebSearchProvider {
  const base = (settings.baseUrl || DEFAULT_BASE_URLS[settings.vendor]).replace(/\/+$/, '');
  const http = (): HttpRetryOptions => ({
    ...overrides,
    vendor: settings.vendor,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });
  return {
    vendor: settings.vendor,
    async search(query: string, options: SearchOptions = {}): Promise<Source[]> {
      const limit = options.limit ?? 8;
      if (settings.vendor === 'tavily') {
        const res = await postJsonWithRetry(
          `${base}/search`,
          { query, max_results: limit, search_depth: 'basic' },
          { authorization: `Bearer ${settings.apiKey}` },
          http(),
        );
        return toSources('tavily', res.body, limit);
      }
      const res = await postJsonWithRetry(
        `${base}/search`,
        { query, numResults: limit, contents: { text: { maxCharacters: 1500 } } },
        { 'x-api-key': settings.apiKey },
        http(),
      );
      return toSources('exa', res.body, limit);
    },
  };
}
