/**
 * The research provider activities use: the local corpus always, plus one
 * web-search vendor when WEB_SEARCH_PROVIDER and WEB_SEARCH_API_KEY are set.
 *
 * With a vendor, results alternate web, corpus, web, corpus ... (both kinds
 * stay visible whatever the limit; their scores are not comparable, so a
 * merged ranking would be arbitrary), duplicates by URL are dropped and
 * `index` is renumbered 1..n. Without one, the corpus answers alone.
 * `find` also says which queries went to the vendor (the one query, as sent;
 * none without a vendor): research answers report exactly those as
 * `grounding_metadata.web_search_queries`.
 */
import type { Source } from '../../domain/analysis/types';
import { Config, publicBaseUrl } from '../config';
import { createCorpusProvider, CorpusProvider, SearchOptions, DEFAULT_CORPUS_DIR } from './corpus';
import { createWebSearchProvider, WebSearchProvider } from './web-search';

export { createCorpusProvider, loadCorpus, parseCorpusDocument, DEFAULT_CORPUS_DIR } from './corpus';
export type { CorpusDocument, CorpusProvider, SearchOptions } from './corpus';
export { createWebSearchProvider, classifyUrl, DEFAULT_BASE_URLS } from './web-search';
export type { WebSearchProvider, WebSearchSettings, WebSearchVendor } from './web-search';

/** What one search found, and the queries it sent to a web-search vendor (none when only the corpus was read). */
export interface SearchReport {
  sources: Source[];
  /** The queries sent to the web-search vendor, as sent; empty when no vendor is configured. */
  web_search_queries: string[];
}

export interface ResearchProvider {
  /** `corpus` alone, or e.g. `tavily+corpus`. */
  readonly name: string;
  search(query: string, options?: SearchOptions): Promise<Source[]>;
  /** The same search, with the queries that went to the web-search vendor (research answers report them). */
  find(query: string, options?: SearchOptions): Promise<SearchReport>;
  /** Corpus document by slug (what GET /api/research/corpus/{slug} serves). */
  corpus: CorpusProvider;
  /** The configured web vendor, if any (metered per request as `web_search`). */
  web?: WebSearchProvider;
}

export function createResearchProvider(deps: { corpus: CorpusProvider; web?: WebSearchProvider }): ResearchProvider {
  async function find(query: string, options: SearchOptions = {}): Promise<SearchReport> {
    const limit = options.limit ?? 8;
    const local = await deps.corpus.search(query, { limit });
    if (!deps.web) return { sources: local, web_search_queries: [] };
    const remote = await deps.web.search(query, { limit });
    const merged: Source[] = [];
    const seen = new Set<string>();
    for (let i = 0; merged.length < limit && (i < remote.length || i < local.length); i++) {
      for (const s of [remote[i], local[i]]) {
        if (!s || seen.has(s.url) || merged.length >= limit) continue;
        seen.add(s.url);
        merged.push(s);
      }
    }
    return { sources: merged.map((s, i) => ({ ...s, index: i + 1 })), web_search_queries: [query] };
  }
  return {
    name: deps.web ? `${deps.web.vendor}+corpus` : 'corpus',
    corpus: deps.corpus,
    web: deps.web,
    find,
    search: async (query: string, options?: SearchOptions) => (await find(query, options)).sources,
  };
}

/** Builds the provider from configuration (the worker calls this once). */
export function researchFromConfig(c: Config): ResearchProvider {
  const corpus = createCorpusProvider({
    dir: c.RESEARCH_CORPUS_DIR || DEFAULT_CORPUS_DIR,
    publicBaseUrl: publicBaseUrl(c),
  });
  const web =
    c.WEB_SEARCH_PROVIDER && c.WEB_SEARCH_API_KEY
      ? createWebSearchProvider({
          vendor: c.WEB_SEARCH_PROVIDER as 'tavily' | 'exa',
          apiKey: c.WEB_SEARCH_API_KEY,
          baseUrl: c.WEB_SEARCH_BASE_URL,
          timeoutMs: c.AI_TIMEOUT_MS,
          maxRetries: c.AI_MAX_RETRIES,
        })
      : undefined;
  return createResearchProvider({ corpus, web });
}
