/**
 * Evidence: the sentences of the research sources, ranked by BM25 against
 * what a paragraph is about, and framed with an attribution and a `[n]`
 * citation. This is the only way facts enter a `local` draft, so every claim
 * it makes can be traced to a numbered source.
 */
import { createBm25Index, search, Bm25Index } from '../analysis/bm25';
import { splitSentences } from '../analysis/sentences';
import type { Source } from './types';
import { isDangling, pick, safeLower, startsDeclarative, tidySourceSentence, wordsIn, withCitation } from './text';

export interface NumberedSource {
  n: number;
  source: Source;
}

/**
 * Citation numbers: the source's `index` (the research result numbers its
 * sources, and outlines carry them) when every source has a distinct one;
 * else the position in the list, 1-based. A vendor prompt can use the same
 * numbers, so `[n]` means the same thing whichever provider wrote the text.
 */
export function numberSources(sources: Source[]): NumberedSource[] {
  const idx = sources.map((s) => s.index);
  const usable = idx.every((i) => Number.isInteger(i) && (i as number) > 0) && new Set(idx).size === idx.length;
  return sources.map((source, i) => ({ n: usable ? (source.index as number) : i + 1, source }));
}

export interface EvidenceSentence {
  id: string;
  n: number;
  title: string;
  text: string;
  words: number;
}

export interface EvidencePool {
  index: Bm25Index;
  byId: Map<string, EvidenceSentence>;
  /** Sentence ids already placed in the draft: a source sentence is used at most once per article. */
  used: Set<string>;
}

export function buildEvidencePool(sources: NumberedSource[]): EvidencePool {
  const byId = new Map<string, EvidenceSentence>();
  for (const { n, source } of sources) {
    const text = `${source.excerpt ?? ''}`.replace(/\s+/g, ' ').trim();
    splitSentences(text).forEach((sp, i) => {
      const raw = text.slice(sp.start, sp.end);
      const clean = tidySourceSentence(raw);
      const words = wordsIn(clean);
      // Fragments and run-ons make poor evidence; "It ..." openers refer to text we did not quote.
      if (words < 6 || words > 45 || isDangling(clean) || /[:;]$/.test(clean) || clean.endsWith('?')) return;
      const id = `${n}:${i}`;
      byId.set(id, { id, n, title: (source.title || 'the source').trim(), text: clean, words });
    });
  }
  const index = createBm25Index([...byId.values()].map((e) => ({ id: e.id, text: e.text })));
  return { index, byId, used: new Set() };
}

/** The best unused sentences for `query`, best first (only sentences sharing a term with it). */
export function bestEvidence(pool: EvidencePool, query: string, k: number): EvidenceSentence[] {
  const out: EvidenceSentence[] = [];
  for (const hit of search(pool.index, query, k + pool.used.size + 8)) {
    if (pool.used.has(hit.id)) continue;
    out.push(pool.byId.get(hit.id)!);
    if (out.length >= k) break;
  }
  return out;
}

const shortTitle = (title: string): string => {
  const t = title.replace(/\s*[|–—-]\s+[^|–—-]+$/, '').trim();
  return t.split(/\s+/).length > 9 ? 'one source' : `“${t}”`;
};

/**
 * Frames a source sentence with an attribution and its citation. Frames that
 * lower-case the sentence ("X reports that the ...") are used only when the
 * sentence opens with a word that stays correct in lower case.
 */
export function frameEvidence(e: EvidenceSentence, seed: string, proper: ReadonlySet<string>): string {
  const t = shortTitle(e.title);
  const lowered = safeLower(e.text, proper);
  const declarative = startsDeclarative(e.text) && lowered !== e.text;
  const frames: Array<() => string> = [
    () => withCitation(e.text, e.n),
    () => withCitation(e.text, e.n),
    () => `${t === 'one source' ? 'One source' : t} [${e.n}] makes the point directly: ${e.text}`,
  ];
  if (declarative) {
    frames.push(
      () => withCitation(`According to ${t}, ${lowered}`, e.n),
      () => withCitation(`As ${t} notes, ${lowered}`, e.n),
      () => withCitation(`${t === 'one source' ? 'One source' : t} reports that ${lowered}`, e.n),
    );
  }
  return pick(frames, `${seed}|${e.id}`)();
}
