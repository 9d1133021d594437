/**
 * Narration text as the speech engine takes it: plain sentences. Markdown
 * (from a writer), citation markers and list bullets are removed; very long
 * sentences are cut at clause boundaries so that one synthesis call, and one
 * subtitle cue group, never covers a whole paragraph.
 */
import { splitSentences } from '../analysis/sentences';

/** Longest sentence (characters) sent to the synthesiser in one piece. */
export const MAX_SENTENCE_CHARS = 300;

/** Markdown → plain spoken text. */
export function plainNarration(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\s*\[\d+(?:\s*[,–-]\s*\d+)*\]/g, '')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function cutLong(sentence: string, max: number): string[] {
  if (sentence.length <= max) return [sentence];
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const at = Math.max(window.lastIndexOf(', '), window.lastIndexOf('; '), window.lastIndexOf(': '));
    const cut = at > max / 3 ? at + 1 : window.lastIndexOf(' ') > 0 ? window.lastIndexOf(' ') : max;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/** The sentences of a narration, in order, each at most MAX_SENTENCE_CHARS. */
export function narrationSentences(text: string, max = MAX_SENTENCE_CHARS): string[] {
  const plain = plainNarration(text);
  return splitSentences(plain)
    .map((s) => plain.slice(s.start, s.end).trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s))
    .flatMap((s) => cutLong(s, max));
}

/** Words per second of narration the planners budget for (a little under espeak-ng's 160 wpm at rate 1). */
export const NARRATION_WORDS_PER_SECOND = 2.2;
