/**
 * Term statistics over research sources: which one-, two- and three-word
 * phrases the sources share. This is what "keyword analysis" can honestly
 * mean offline: no search-engine volumes, only how many sources use a phrase
 * (document frequency) and how often (term frequency).
 *
 * Candidates are runs of content words inside one sentence (stop words and
 * generic filler like "make" or "way" break a run). Word forms are folded
 * with the analysis domain's word keys, so "backlink" and "backlinks" count
 * as one phrase; the surface form shown is the most frequent one.
 * Score = (df / N) · ln(1 + tf) · length bonus (multi-word phrases are more
 * specific, so they get 1.4× for two words and 1.6× for three).
 */
import { splitSentences } from '../analysis/sentences';
import { STOPWORDS } from '../analysis/stopwords';
import { tokenize } from '../analysis/words';
import { wordKey } from '../analysis/word-forms';

export interface TermStat {
  phrase: string;
  key: string;
  words: number;
  /** Sources that use the phrase. */
  df: number;
  /** Occurrences across all sources. */
  tf: number;
  score: number;
}

/** Words too general to make a phrase (or a match) specific: "make", "small", "people", ... */
export const GENERIC: ReadonlySet<string> = new Set(
  (
    'make makes made use used uses using way ways time times thing things example examples often well like just even much many every get gets need needs ' +
    'new good better best great important key simple easy hard lot lots part parts kind kinds sure able want wants help helps really actually usually matter matters ' +
    'first second third one two three four five six seven eight nine ten also however instead still already always never sometimes something ' +
    'someone anything everything people person work works year years day days week weeks month months start starts end level levels number numbers ' +
    'different same own whole less least little long short high low large small big rather quite nearly almost per cent percent whether without within'
  ).split(' '),
);

const isContent = (w: string): boolean => {
  const l = w.toLowerCase();
  return l.length >= 3 && !STOPWORDS.has(l) && !GENERIC.has(l) && /\p{L}/u.test(l);
};

/** Phrase statistics of `texts` (one per source), best first. */
export function termStats(texts: string[], maxWords = 3, minMultiwordTf = 2): TermStat[] {
  const n = Math.max(1, texts.length);
  const stats = new Map<string, { tf: number; docs: Set<number>; surfaces: Map<string, number>; words: number }>();
  texts.forEach((text, doc) => {
    for (const sp of splitSentences(text)) {
      const words = tokenize(text.slice(sp.start, sp.end)).filter((t) => t.kind === 'word');
      let run: string[] = [];
      const flush = () => {
        for (let i = 0; i < run.length; i++) {
          for (let len = 1; len <= maxWords && i + len <= run.length; len++) {
            const parts = run.slice(i, i + len);
            const surface = parts.join(' ').toLowerCase();
            const key = parts.map((p) => wordKey(p)).join(' ');
            const s = stats.get(key) ?? {
              tf: 0,
              docs: new Set<number>(),
              surfaces: new Map<string, number>(),
              words: len,
            };
            s.tf += 1;
            s.docs.add(doc);
            s.surfaces.set(surface, (s.surfaces.get(surface) ?? 0) + 1);
            stats.set(key, s);
          }
        }
        run = [];
      };
      for (const w of words) {
        if (isContent(w.text)) run.push(w.text);
        else flush();
      }
      flush();
    }
  });
  const out: TermStat[] = [];
  for (const [key, s] of stats) {
    if (s.words > 1 && s.tf < minMultiwordTf) continue; // a multi-word phrase seen once is a coincidence, not a term
    const phrase = [...s.surfaces.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
    const bonus = s.words === 1 ? 1 : s.words === 2 ? 1.4 : 1.6;
    out.push({
      phrase,
      key,
      words: s.words,
      df: s.docs.size,
      tf: s.tf,
      score: (s.docs.size / n) * Math.log(1 + s.tf) * bonus,
    });
  }
  return out.sort((a, b) => b.score - a.score || a.phrase.localeCompare(b.phrase));
}

/**
 * The top phrases with near-duplicates removed: a phrase is skipped when its
 * words are all inside a better phrase already chosen ("keyword" after
 * "keyword research"), or when it contains one ("long-tail keyword research"
 * after "keyword research" is kept only if it scores higher).
 */
export function topPhrases(stats: TermStat[], k: number, exclude: string[] = []): TermStat[] {
  const chosen: TermStat[] = [];
  const excludedKeys = exclude.map((e) => new Set(e.split(/\s+/).map((w) => wordKey(w))));
  for (const s of stats) {
    const keys = s.key.split(' ');
    const overlaps = (set: Set<string>) => keys.every((x) => set.has(x));
    if (excludedKeys.some(overlaps)) continue;
    if (chosen.some((c) => overlaps(new Set(c.key.split(' '))) || c.key.split(' ').every((x) => keys.includes(x))))
      continue;
    chosen.push(s);
    if (chosen.length >= k) break;
  }
  return chosen;
}
