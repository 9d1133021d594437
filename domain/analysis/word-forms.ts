/**
 * Word-form keys: a tiny suffix stripper so that "keyword", "keywords",
 * "bake", "baked" and "baking" compare equal.
 *
 * It is not a linguistic stemmer (no Porter rules); it only folds the
 * inflections named in the SEO brief (plural -s/-es/-ies, -ing, -ed) and a
 * final silent "e". What matters is that the same rule is applied to the
 * keyword and to the text, so the keys agree even when they are not words.
 */
import { STOPWORDS } from './stopwords';
import { tokenize, Token } from './words';

const memo = new Map<string, string>();

/** Memoised (bounded) form of `computeKey`: texts repeat their words. */
export function wordKey(word: string): string {
  const hit = memo.get(word);
  if (hit !== undefined) return hit;
  if (memo.size >= 20_000) memo.clear();
  const key = computeKey(word);
  memo.set(word, key);
  return key;
}

function computeKey(word: string): string {
  let w = word
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’']s$/, '')
    .replace(/[’']/g, '');
  if (/^[\d.,$€£%]+$/.test(w)) return w; // numbers stay as written
  if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
  else if (/(s|x|z|ch|sh)es$/.test(w) && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w) && w.length > 3) w = w.slice(0, -1);
  else if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && !w.endsWith('eed') && w.length > 4) {
    w = w.slice(0, -2);
    w = w.endsWith('i') ? w.slice(0, -1) + 'y' : undouble(w);
  }
  if (w.length > 3 && w.endsWith('e') && !w.endsWith('ee')) w = w.slice(0, -1);
  return w;
}

function undouble(stem: string): string {
  return /([bdgklmnprt])\1$/.test(stem) ? stem.slice(0, -1) : stem;
}

/** Keys of every word in a phrase (stop words kept: they are part of a key phrase). */
export function phraseKeys(phrase: string): string[] {
  return tokenize(phrase)
    .filter((t) => t.kind !== 'url')
    .map((t) => wordKey(t.text));
}

/** Keys of the content words only (stop words and bare numbers dropped). */
export function contentKeys(text: string): string[] {
  return tokenize(text)
    .filter((t) => t.kind === 'word')
    .flatMap((t) => t.text.split(/-(?=\p{L})/u)) // "full-time" compares as "full" + "time"
    .filter((w) => w.length > 1 && !STOPWORDS.has(w.toLowerCase()))
    .map((w) => wordKey(w));
}

/** Indices in `tokens` where the phrase (given as keys) starts. */
export function findPhrase(tokens: Token[], keys: string[], tokenKeys?: string[]): number[] {
  const hits: number[] = [];
  if (keys.length === 0) return hits;
  const tk = tokenKeys ?? tokens.map((t) => wordKey(t.text));
  outer: for (let i = 0; i + keys.length <= tk.length; i++) {
    for (let j = 0; j < keys.length; j++) if (tk[i + j] !== keys[j]) continue outer;
    hits.push(i);
  }
  return hits;
}

/**
 * Does a text mention the key phrase? Either as an exact phrase, or (looser,
 * like common SEO tools) with all its content words present in any order.
 */
export function mentions(text: string, phrase: string): boolean {
  const keys = phraseKeys(phrase);
  const tk = phraseKeys(text);
  if (findPhrase([], keys, tk).length > 0) return true;
  const content = contentKeys(phrase);
  if (content.length === 0) return false;
  const set = new Set(tk);
  return content.every((k) => set.has(k));
}
