/**
 * Sparse term-frequency vectors and cosine similarity: the "bag of words"
 * view used to ask whether two passages talk about the same thing.
 */
import { contentKeys } from './word-forms';

export type TermVector = Map<string, number>;

export function termVector(text: string): TermVector {
  const v: TermVector = new Map();
  for (const k of contentKeys(text)) v.set(k, (v.get(k) ?? 0) + 1);
  return v;
}

export function addVectors(vs: TermVector[]): TermVector {
  const out: TermVector = new Map();
  for (const v of vs) for (const [k, n] of v) out.set(k, (out.get(k) ?? 0) + n);
  return out;
}

export function cosine(a: TermVector, b: TermVector): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [k, n] of small) {
    const m = large.get(k);
    if (m !== undefined) dot += n * m;
  }
  let na = 0;
  let nb = 0;
  for (const n of a.values()) na += n * n;
  for (const n of b.values()) nb += n * n;
  return dot / Math.sqrt(na * nb);
}

/** Share of the smaller set's terms that the other set also has (overlap coefficient). */
export function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let n = 0;
  for (const k of small) if (large.has(k)) n++;
  return n / small.size;
}

export function mean(xs: number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function stdev(xs: number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length);
}
