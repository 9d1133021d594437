/**
 * Word tokenisation on plain text.
 *
 * One regular expression, three token kinds:
 *  - url:    http(s)://… or www.… kept whole (a URL is one "word" for
 *            counting, never split at its dots; readability skips it);
 *  - number: 3.5, 1,000, 45%, $20 (thousands commas only before 3 digits);
 *  - word:   letters/digits joined by apostrophes, hyphens or inner dots
 *            (don't, state-of-the-art, U.S, e.g).
 */
import { Span } from './types';

export type TokenKind = 'word' | 'number' | 'url';

export interface Token extends Span {
  text: string;
  kind: TokenKind;
}

const TOKEN =
  /https?:\/\/[^\s<>"'()[\]]*[^\s<>"'()[\].,;:!?]|www\.[^\s<>"'()[\]]*[^\s<>"'()[\].,;:!?]|[$€£]?[\p{L}\p{N}]+(?:(?:['’\-.]|,(?=\p{N}{3}(?!\p{N})))[\p{L}\p{N}]+)*%?/gu;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TOKEN.exec(text))) {
    const t = m[0];
    const kind: TokenKind = /^(https?:|www\.)/i.test(t) ? 'url' : /\p{L}/u.test(t) ? 'word' : 'number';
    out.push({ text: t, kind, start: m.index, end: m.index + t.length });
  }
  return out;
}

/** Letters and digits of a token (what Coleman–Liau and ARI count as characters). */
export function letterCount(token: string): number {
  let n = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) n++;
    else if (c > 127 && /[\p{L}\p{N}]/u.test(token[i])) n++; // rare non-ASCII letters
  }
  return n;
}
