/**
 * Okapi BM25 ranking over short passages.
 *
 * Reusable: any caller can index its own documents (research corpus,
 * source passages) with `createBm25Index` and query with `search`. The
 * index is a plain JSON-serialisable object (postings as arrays), so it can
 * be stored and reloaded. Scores use the non-negative idf variant
 * ln(1 + (N - df + 0.5) / (df + 0.5)) and the usual k1 = 1.2, b = 0.75.
 */
import { tokenize } from './words';
import { contentKeys } from './word-forms';

export interface Bm25Doc {
  id: string;
  text: string;
}

export interface Bm25Options {
  k1?: number;
  b?: number;
}

export interface Bm25Index {
  k1: number;
  b: number;
  ids: string[];
  lengths: number[];
  avgLength: number;
  /** term -> [docIndex, termFrequency][] */
  postings: Record<string, Array<[number, number]>>;
}

export interface Bm25Hit {
  id: string;
  score: number;
}

/**
 * Default analyzer: content-word keys (stop words dropped, plural/-ing/-ed
 * folded) plus numbers with their formatting removed ("1,200" -> "1200").
 */
export function bm25Terms(text: string): string[] {
  const nums = tokenize(text)
    .filter((t) => t.kind === 'number')
    .map((t) => t.text.replace(/[$€£%,]/g, ''));
  return [...contentKeys(text), ...nums];
}

export function createBm25Index(docs: Bm25Doc[], options: Bm25Options = {}): Bm25Index {
  const postings: Record<string, Array<[number, number]>> = Object.create(null);
  const lengths: number[] = [];
  docs.forEach((doc, i) => {
    const terms = bm25Terms(doc.text);
    lengths.push(terms.length);
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) (postings[t] ??= []).push([i, n]);
  });
  const total = lengths.reduce((a, b) => a + b, 0);
  return {
    k1: options.k1 ?? 1.2,
    b: options.b ?? 0.75,
    ids: docs.map((d) => d.id),
    lengths,
    avgLength: docs.length ? total / docs.length : 0,
    postings,
  };
}

/** Top `k` documents for `query`, best first; documents sharing no term are not returned. */
export function search(index: Bm25Index, query: string, k = 10): Bm25Hit[] {
  const n = index.ids.length;
  if (n === 0 || k <= 0) return [];
  const scores = new Map<number, number>();
  const avg = index.avgLength || 1;
  for (const term of new Set(bm25Terms(query))) {
    if (!Object.prototype.hasOwnProperty.call(index.postings, term)) continue;
    const list = index.postings[term];
    const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    for (const [doc, tf] of list) {
      const norm = tf + index.k1 * (1 - index.b + (index.b * index.lengths[doc]) / avg);
      scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (index.k1 + 1)) / norm);
    }
  }
  return [...scores.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, k)
    .map(([doc, score]) => ({ id: index.ids[doc], score }));
}
