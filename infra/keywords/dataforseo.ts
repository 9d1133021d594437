/**
 * The keyword-data port and its adapter to DataForSEO's Google Ads
 * "keywords for keywords" endpoint (live mode), configured by key
 * (KEYWORD_VENDOR=dataforseo, DATAFORSEO_LOGIN, DATAFORSEO_PASSWORD).
 *
 *   POST {base}/v3/keywords_data/google_ads/keywords_for_keywords/live
 *   Authorization: Basic base64(login:password)
 *   [{keywords: [...≤ 20 seeds], language_code | language_name, location_code | location_name, sort_by: "search_volume"}]
 *   → {status_code: 20000, tasks: [{status_code: 20000, cost, result: [{keyword, search_volume, competition,
 *      competition_index, cpc, low_top_of_page_bid, high_top_of_page_bid, monthly_searches: [{year, month, search_volume}]}]}]}
 *
 * The numbers are Google Ads' (Keyword Planner) as DataForSEO relays them.
 * Transport errors follow the shared retry discipline (infra/ai/http.ts);
 * DataForSEO also reports errors inside a 200 body as `status_code` ≠ 20000:
 * 4xxxx (credentials, payment, bad task) is a rejected request, 5xxxx a
 * vendor failure (retryable).
 */
import { postJsonWithRetry } from '../ai/http';
import { VendorBadResponseError, VendorRequestRejectedError, VendorUnavailableError } from '../ai/errors';

export interface KeywordIdea {
  keyword: string;
  search_volume: number | null;
  competition: 'low' | 'medium' | 'high' | null;
  /** 0–100. */
  competition_index: number | null;
  /** Average cost per click, in the account's currency (USD for DataForSEO). */
  cpc: number | null;
  low_top_of_page_bid: number | null;
  high_top_of_page_bid: number | null;
  monthly_searches: Array<{ year: number; month: number; search_volume: number | null }>;
}

export interface KeywordIdeasRequest {
  seeds: string[];
  /** ISO 639-1 code (`en`) or a language name (`English`). */
  language?: string;
  /** Location name (`United States`) or a numeric location code (`2840`). */
  location?: string;
  signal?: AbortSignal;
}

/** The port: keyword ideas with search volumes and competition from a keyword-data vendor. */
export interface KeywordVendor {
  /** Provider token of usage records and responses. */
  readonly name: 'dataforseo';
  /** What the numbers are, said in responses. */
  readonly describes: string;
  ideas(req: KeywordIdeasRequest): Promise<KeywordIdea[]>;
}

export interface DataForSeoSettings {
  login: string;
  password: string;
  /** Default https://api.dataforseo.com. */
  baseUrl?: string;
  timeoutMs: number;
  maxRetries: number;
}

export const DATAFORSEO_PATH = '/v3/keywords_data/google_ads/keywords_for_keywords/live';
/** The endpoint takes at most 20 seed keywords per task. */
export const MAX_SEEDS = 20;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function checkStatus(code: unknown, message: unknown): void {
  if (code === 20000) return;
  const text = `status_code ${String(code)}: ${String(message ?? '')}`;
  if (typeof code === 'number' && code >= 50000) throw new VendorUnavailableError('dataforseo', undefined, text, 1);
  if (typeof code === 'number' && code >= 40000) throw new VendorRequestRejectedError('dataforseo', 400, text);
  throw new VendorBadResponseError('dataforseo', `no status_code in the answer (${text})`);
}

/** The ideas of a DataForSEO answer (exported for tests). */
export function parseDataForSeo(body: unknown): KeywordIdea[] {
  const b = body as { status_code?: unknown; status_message?: unknown; tasks?: unknown };
  checkStatus(b?.status_code, b?.status_message);
  if (!Array.isArray(b.tasks) || b.tasks.length === 0)
    throw new VendorBadResponseError('dataforseo', 'answer without tasks');
  const task = b.tasks[0] as { status_code?: unknown; status_message?: unknown; result?: unknown };
  checkStatus(task.status_code, task.status_message);
  const rows = Array.isArray(task.result) ? task.result : [];
  return rows
    .filter((r): r is Record<string, unknown> => !!r && typeof (r as { keyword?: unknown }).keyword === 'string')
    .map((r) => {
      const c = typeof r.competition === 'string' ? r.competition.toLowerCase() : null;
      return {
        keyword: String(r.keyword),
        search_volume: num(r.search_volume),
        competition: c === 'low' || c === 'medium' || c === 'high' ? c : null,
        competition_index: num(r.competition_index),
        cpc: num(r.cpc),
        low_top_of_page_bid: num(r.low_top_of_page_bid),
        high_top_of_page_bid: num(r.high_top_of_page_bid),
        monthly_searches: (Array.isArray(r.monthly_searches) ? r.monthly_searches : [])
          .filter((m) => m && typeof m === 'object')
          .map((m) => ({
            year: Number((m as Record<string, unknown>).year),
            month: Number((m as Record<string, unknown>).month),
            search_volume: num((m as Record<string, unknown>).search_volume),
          })),
      };
    });
}

export function createDataForSeoVendor(s: DataForSeoSettings): KeywordVendor {
  const base = (s.baseUrl || 'https://api.dataforseo.com').replace(/\/+$/, '');
  const auth = `Basic ${Buffer.from(`${s.login}:${s.password}`).toString('base64')}`;
  return {
    name: 'dataforseo',
    describes: 'Google Ads keyword planner data via DataForSEO (keywords_for_keywords, live)',
    async ideas(req) {
      const task: Record<string, unknown> = { keywords: req.seeds.slice(0, MAX_SEEDS), sort_by: 'search_volume' };
      if (req.language) task[/^[a-z]{2}$/i.test(req.language) ? 'language_code' : 'language_name'] = req.language;
      if (req.location)
        task[/^\d+$/.test(req.location) ? 'location_code' : 'location_name'] = /^\d+$/.test(req.location)
          ? Number(req.location)
          : req.location;
      const r = await postJsonWithRetry(
        `${base}${DATAFORSEO_PATH}`,
        [task],
        { authorization: auth },
        { vendor: 'dataforseo', timeoutMs: s.timeoutMs, maxRetries: s.maxRetries, signal: req.signal },
      );
      return parseDataForSeo(r.body);
    },
  };
}
