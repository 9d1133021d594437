/**
 * Term statistics of the research corpus for keyword research: how many of
 * its documents use a keyword (document frequency) and how often
 * (occurrences), and which phrases the documents about the seeds share.
 * That is all a corpus can honestly say about a keyword: no search volume.
 *
 * Matching folds word forms (domain/analysis word keys: "backlinks" =
 * "backlink") and is phrase-exact over consecutive words, stop words
 * included, so "how to do keyword research" is counted as written.
 * Related phrases: the multi-word phrases (terms.ts) of the documents that
 * use a seed or match it best (BM25, three per seed), sharing at least one word with a seed, best first (at most 15).
 */
import { tokenize } from '../analysis/words';
import { wordKey } from '../analysis/word-forms';
import { termStats } from '../generation/terms';
import { createBm25Index, search } from '../analysis/bm25';

export interface CorpusDoc {
  slug: string;
  title: string;
  body: string;
}

export interface CorpusKeyword {
  keyword: string;
  origin: 'seed' | 'corpus';
  /** Documents of the corpus that use the keyword. */
  documents: number;
  /** Occurrences across the corpus. */
  occurrences: number;
  /** Slugs of the documents that use it (at most 5). */
  found_in: string[];
}

export interface CorpusKeywordStats {
  /** Documents in the corpus. */
  corpus_documents: number;
  keywords: CorpusKeyword[];
}

const keysOf = (text: string): string[] =>
  tokenize(text)
    .filter((t) => t.kind === 'word' || t.kind === 'number')
    .map((t) => wordKey(t.text.toLowerCase()));

function countPhrase(docKeys: string[], phrase: string[]): number {
  if (phrase.length === 0) return 0;
  let n = 0;
  outer: for (let i = 0; i + phrase.length <= docKeys.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (docKeys[i + j] !== phrase[j]) continue outer;
    n++;
  }
  return n;
}

export function corpusKeywordStats(docs: CorpusDoc[], seeds: string[], related = 15): CorpusKeywordStats {
  const docKeys = docs.map((d) => keysOf(`${d.title}\n${d.body}`));
  const measure = (keyword: string, origin: CorpusKeyword['origin']): CorpusKeyword => {
    const phrase = keysOf(keyword);
    const counts = docKeys.map((k) => countPhrase(k, phrase));
    const using = docs.filter((_, i) => counts[i] > 0);
    return {
      keyword,
      origin,
      documents: using.length,
      occurrences: counts.reduce((a, b) => a + b, 0),
      found_in: using.slice(0, 5).map((d) => d.slug),
    };
  };
  const seedStats = seeds.map((s) => measure(s, 'seed'));
  const seedWords = new Set(seeds.flatMap(keysOf));
  // Documents about the seeds: those using a seed as written, and the three best BM25 matches of each seed.
  const index = createBm25Index(docs.map((d, i) => ({ id: String(i), text: `${d.title}\n${d.title}\n${d.body}` })));
  const about = new Set(seeds.flatMap((s) => search(index, s, 3).map((h) => Number(h.id))));
  const using = docs.filter(
    (_, i) => about.has(i) || seedStats.some((s) => countPhrase(docKeys[i], keysOf(s.keyword)) > 0),
  );
  const seen = new Set(seeds.map((s) => keysOf(s).join(' ')));
  // Straight from the term statistics (best first): topPhrases would drop every phrase containing a chosen word.
  const candidates = termStats(using.map((d) => `${d.title}. ${d.body}`))
    .filter((p) => p.words > 1 && p.key.split(' ').some((k) => seedWords.has(k)))
    .filter((p) => {
      const k = keysOf(p.phrase).join(' ');
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .slice(0, related);
  return {
    corpus_documents: docs.length,
    keywords: [...seedStats, ...candidates.map((p) => measure(p.phrase, 'corpus'))],
  };
}
