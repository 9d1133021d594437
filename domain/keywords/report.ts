/**
 * The keyword research answer: the seeds, the phrases the research corpus
 * relates to them and the keyword vendor's ideas, merged by keyword, each
 * number with the source it comes from (`sources` per keyword and
 * `data_sources` for the whole answer). Nothing is estimated: a number the
 * sources do not have is null, and `data_sources` says why.
 *
 * `competition_level` filters the vendor's suggestions to that competition
 * (seeds and corpus phrases are always kept: their competition is what the
 * vendor says, or unknown). Order: seeds, then by search volume, then by
 * corpus documents.
 */
import type { CorpusKeywordStats } from './corpus-stats';
import type { Intent } from '../generation/keywords';

export interface VendorIdea {
  keyword: string;
  search_volume: number | null;
  competition: 'low' | 'medium' | 'high' | null;
  competition_index: number | null;
  cpc: number | null;
  low_top_of_page_bid: number | null;
  high_top_of_page_bid: number | null;
  monthly_searches: Array<{ year: number; month: number; search_volume: number | null }>;
}

export type VendorOutcome =
  | { configured: true; name: string; describes: string; ideas: VendorIdea[] }
  | { configured: false; name: null; how_to_configure: string };

export interface ReportInput {
  seed_keywords: string[];
  language: string;
  location?: string;
  competition_level?: string;
  corpus: CorpusKeywordStats;
  vendor: VendorOutcome;
  insights: {
    keywords: Array<{ keyword: string; intent: Intent | string; intent_signal?: string }>;
    clusters: unknown;
  };
  /** Who classified intent: the gateway's provider and model. */
  intentBy: { provider: string; model: string };
}

/** Keywords whose statistics are reported (seeds, vendor ideas, corpus phrases), at most this many. */
export const MAX_KEYWORDS = 50;

const norm = (k: string) => k.trim().toLowerCase().replace(/\s+/g, ' ');

/** The keywords to classify, in report order (seeds first), before intent is known. */
export function reportKeywords(i: Pick<ReportInput, 'seed_keywords' | 'corpus' | 'vendor' | 'competition_level'>) {
  const level = i.competition_level?.toLowerCase();
  const vendorIdeas = i.vendor.configured
    ? i.vendor.ideas.filter(
        (v) => !level || v.competition === level || i.seed_keywords.some((s) => norm(s) === norm(v.keyword)),
      )
    : [];
  const order = new Map<string, string>();
  for (const k of i.seed_keywords) order.set(norm(k), k.trim());
  for (const v of [...vendorIdeas].sort((a, b) => (b.search_volume ?? -1) - (a.search_volume ?? -1)))
    if (!order.has(norm(v.keyword))) order.set(norm(v.keyword), v.keyword);
  for (const c of [...i.corpus.keywords].sort((a, b) => b.documents - a.documents))
    if (!order.has(norm(c.keyword))) order.set(norm(c.keyword), c.keyword);
  return { keywords: [...order.values()].slice(0, MAX_KEYWORDS), vendorIdeas };
}

export function keywordReport(i: ReportInput) {
  const { keywords, vendorIdeas } = reportKeywords(i);
  const vendorBy = new Map(vendorIdeas.map((v) => [norm(v.keyword), v]));
  const allVendor = new Map((i.vendor.configured ? i.vendor.ideas : []).map((v) => [norm(v.keyword), v]));
  const corpusBy = new Map(i.corpus.keywords.map((c) => [norm(c.keyword), c]));
  const intentBy = new Map(i.insights.keywords.map((k) => [norm(k.keyword), k]));
  const vendorName = i.vendor.configured ? i.vendor.name : null;
  const corpusSource = `research corpus (${i.corpus.corpus_documents} documents)`;
  const intentSource = i.intentBy.provider === 'local' ? 'local rules (modifier words)' : i.intentBy.provider;

  const rows = keywords.map((keyword) => {
    const n = norm(keyword);
    const v = vendorBy.get(n) ?? allVendor.get(n);
    const c = corpusBy.get(n);
    const intent = intentBy.get(n);
    const origin = [
      ...(i.seed_keywords.some((s) => norm(s) === n) ? ['seed'] : []),
      ...(vendorBy.has(n) ? ['vendor'] : []),
      ...(c && c.origin === 'corpus' ? ['corpus'] : []),
    ];
    return {
      keyword,
      origin,
      search_volume: v?.search_volume ?? null,
      competition: v?.competition ?? null,
      competition_index: v?.competition_index ?? null,
      cpc: v?.cpc ?? null,
      top_of_page_bid: v ? { low: v.low_top_of_page_bid, high: v.high_top_of_page_bid } : null,
      monthly_searches: v?.monthly_searches ?? [],
      corpus: c
        ? { documents: c.documents, of: i.corpus.corpus_documents, occurrences: c.occurrences, found_in: c.found_in }
        : null,
      intent: intent?.intent ?? null,
      intent_signal: intent?.intent_signal ?? null,
      sources: {
        search_volume: v && v.search_volume !== null ? vendorName : null,
        competition: v && v.competition !== null ? vendorName : null,
        cpc: v && v.cpc !== null ? vendorName : null,
        corpus: c ? corpusSource : null,
        intent: intent ? intentSource : null,
      },
    };
  });

  return {
    seed_keywords: i.seed_keywords,
    language: i.language,
    location: i.location ?? null,
    competition_level: i.competition_level ?? null,
    keywords: rows,
    clusters: i.insights.clusters,
    data_sources: {
      corpus: {
        documents: i.corpus.corpus_documents,
        language: 'en',
        measures:
          'documents using each keyword and its occurrences (phrase match, word forms folded); no search volume',
        ...(i.language.toLowerCase().startsWith('en') ? {} : { note: 'the research corpus is English' }),
      },
      keyword_vendor: i.vendor.configured
        ? { name: i.vendor.name, configured: true, measures: i.vendor.describes, ideas_returned: i.vendor.ideas.length }
        : {
            name: null,
            configured: false,
            note: `search_volume, competition and cpc are null: no keyword vendor is configured (${i.vendor.how_to_configure})`,
          },
      intent: { provider: i.intentBy.provider, model: i.intentBy.model },
    },
    filters: {
      competition_level: i.competition_level
        ? i.vendor.configured
          ? `vendor suggestions limited to ${i.competition_level} competition; seeds and corpus phrases kept`
          : 'not applied: competition comes only from a keyword vendor, and none is configured'
        : null,
    },
  };
}
