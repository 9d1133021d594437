/**
 * The research provider activities use: the local corpus always, plus one
 * web-search vendor when WEB_SEARCH_PROVIDER and WEB_SEARCH_API_KEY are set.
 *
 * With a vendor, results alternate web, corpus, web, corpus ... (both kinds
 * stay visible whatever the limit; their scores are not comparable, so a
 * merged ranking would be arbitrary), duplicates by URL are dropped and
 * `index` is renumbered 1..n. Without one, the corpus answers alone.
 */
import type { Source } from '../../domain/analysis/types';
import { Config, publicBaseUrl } from '../config';
import { createCorpusProvider, CorpusProvider, SearchOptions, DEFAULT_CORPUS_DIR } from './corpus';
import { createWebSearchProvider, WebSearchProvider } from './web-search';

export { createCorpusProvider, loadCorpus, parseCorpusDocument, DEFAULT_CORPUS_DIR } from './corpus';
export type { CorpusDocument, CorpusProvider, SearchOptions } from './corpus';
export { createWebSearchProvider, classifyUrl, DEFAULT_BASE_URLS } from './web-search';
export type { WebSearchProvider, WebSearchSettings, WebSearchVendor } from './web-search';

export interface ResearchProvider {
  /** `corpus` alone, or e.g. `tavily+corpus`. */
  readonly name: string;
  search(query: string, options?: SearchOptions): Promise<Source[]>;
  /** Corpus document by slug (what GET /api/research/corpus/{slug} serves). */
  corpus: CorpusProvider;
  /** The configured web vendor, if any (metered per request as `web_search`). */
  web?: WebSearchProvider;
}

export function createResearchProvider(deps: { corpus: CorpusProvider; web?: WebSearchProvider }): ResearchProvider {
  return {
    name: deps.web ? `${deps.web.vendor}+corpus` : 'corpus',
    corpus: deps.corpus,
    web: deps.web,
    async search(query: string, options: SearchOptions = {}): Promise<Source[]> {
      const limit = options.limit ?? 8;
      const local = await deps.corpus.search(query, { limit });
      if (!deps.web) return local;
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
      return merged.map((s, i) => ({ ...s, index: i + 1 }));
    },
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
