/**
 * Platform limits enforced on generated text (rule 4 of the writers' issue):
 * hashtags, emoji, line breaks and length are held to a format's limits
 * (domain/writers/platforms.ts) whichever provider wrote the text. Text
 * that is too long is shortened at a sentence boundary (or at a line end);
 * only when not even the first sentence fits is it cut at the last whole
 * word, with an ellipsis. It is never cut inside a word. Every change is
 * reported as an adjustment, so the client sees what the limits did.
 * Lengths are Unicode code points (an emoji counts once).
 */
import { splitSentences } from '../analysis/sentences';

export interface TextLimits {
  max_characters: number;
  max_hashtags: number;
  max_emoji: number;
  max_line_breaks: number;
}

export interface Adjustment {
  /** Field of the response that was changed (`content.text`, `content.slides.2.body`, ...). */
  field: string;
  rule:
    | 'max_characters'
    | 'max_hashtags'
    | 'max_emoji'
    | 'max_line_breaks'
    | 'max_words'
    | 'duration'
    | 'slides'
    | 'variants'
    | 'not_shown';
  before: number;
  after: number;
  detail: string;
}

/** Length in code points (what the limits count). */
export const charCount = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

const HASHTAG = /(^|[^\p{L}\p{N}_&#])#([\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)/gu;
// One emoji: a pictograph with its variation selector, skin tone and ZWJ continuations, or a flag.
const EMOJI =
  /\p{Extended_Pictographic}(?:\uFE0F|[\u{1F3FB}-\u{1F3FF}])*(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|[\u{1F3FB}-\u{1F3FF}])*)*|[\u{1F1E6}-\u{1F1FF}]{2}/gu;

export const hashtagsIn = (s: string): string[] => [...s.matchAll(HASHTAG)].map((m) => `#${m[2]}`);
export const emojiIn = (s: string): string[] => [...s.matchAll(EMOJI)].map((m) => m[0]);
export const lineBreaks = (s: string): number => (s.match(/\n/g) ?? []).length;

/** Spaces and blank lines left behind by removals, tidied. */
function tidy(s: string): string {
  return s
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n[ \t]+/g, '\n')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Removes the matches of `re` after the first `keep`. */
function keepFirst(s: string, re: RegExp, keep: number, lead: boolean): string {
  let seen = 0;
  return s.replace(re, (m: string, pre?: string) => {
    seen++;
    if (seen <= keep) return m;
    return lead ? (pre ?? '') : '';
  });
}

/** Positions (exclusive ends) after which the text may be cut: sentence ends and line ends. */
export function cutPoints(text: string): number[] {
  const points = new Set<number>();
  let offset = 0;
  for (const line of text.split('\n')) {
    for (const sp of splitSentences(line)) points.add(offset + sp.end);
    offset += line.length + 1;
  }
  return [...points].sort((a, b) => a - b);
}

/**
 * `text` shortened to at most `max` code points: the longest prefix that ends
 * at a sentence or line end; else the longest prefix that ends at a word end,
 * plus "…"; else "" (a first word longer than `max` cannot be kept whole).
 */
export function shortenText(
  text: string,
  max: number,
  opts: { ellipsis?: boolean } = {},
): { text: string; method: 'none' | 'sentence' | 'word' } {
  const ellipsis = opts.ellipsis ?? true;
  const clean = text.trim();
  if (charCount(clean) <= max) return { text: clean, method: 'none' };
  let best = '';
  for (const p of cutPoints(clean)) {
    const prefix = clean.slice(0, p).trimEnd();
    if (charCount(prefix) <= max) best = prefix;
    else break;
  }
  if (best) return { text: tidy(best), method: 'sentence' };
  const room = ellipsis ? max - 1 : max;
  if (room < 1) return { text: '', method: 'word' };
  const chars = Array.from(clean);
  const head = chars.slice(0, room).join('');
  const next = chars[room] ?? '';
  // Cut at a word end: the head itself when the next character is a space, else back to the last space.
  const atWordEnd = /\s/.test(next) ? head : head.replace(/\S+$/, '');
  const words = endOfPhrase(atWordEnd.replace(TRAILING_PUNCTUATION, ''), room);
  return { text: words ? `${words}${ellipsis ? '…' : ''}` : '', method: 'word' };
}

const TRAILING_PUNCTUATION = /[\s,;:–—\-(\[{"'“‘]+$/u;
/**
 * Words a cut phrase cannot end on (articles, determiners, prepositions, conjunctions, auxiliaries): "Author
 * events at Riverside Books every" reads as a sentence cut off; "Author events at Riverside Books" does not.
 */
const DANGLING = new Set(
  (
    'a an the this that these those each every all any some no our your their its my his her ' +
    'and or but nor so yet of for to in on at by with from into onto about as than over under after before ' +
    'is are was were be been being has have had do does did will would can could should may might must ' +
    'not who which whose when where while if because'
  ).split(' '),
);

/**
 * A word cut made readable: at the last phrase break (a comma, colon, semicolon, dash or parenthesis) when it keeps
 * at least half of the room, and without dangling words at its end (unless nothing else would be left).
 */
function endOfPhrase(words: string, room: number): string {
  let out = words;
  const breaks = [...out.matchAll(/\s*(?:[,;:(]|\s[–—-])\s*/gu)].filter((m) => (m.index ?? 0) >= room / 2);
  const last = breaks[breaks.length - 1];
  if (last?.index !== undefined) out = out.slice(0, last.index);
  for (;;) {
    const m = /\s+([\p{L}'’]+)$/u.exec(out);
    if (!m || !DANGLING.has(m[1].toLowerCase())) break;
    out = out.slice(0, m.index).replace(TRAILING_PUNCTUATION, '');
  }
  return out;
}

const wordsIn = (s: string) => (s.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? []).length;

/** `text` shortened at a sentence boundary to at most `maxWords` words (narration of a timed scene). */
export function shortenToWords(text: string, maxWords: number): { text: string; shortened: boolean } {
  const clean = text.trim();
  if (wordsIn(clean) <= maxWords) return { text: clean, shortened: false };
  let best = '';
  for (const p of cutPoints(clean)) {
    const prefix = clean.slice(0, p).trimEnd();
    if (wordsIn(prefix) <= maxWords) best = prefix;
    else break;
  }
  if (best) return { text: tidy(best), shortened: true };
  // No whole sentence fits: keep the first maxWords words.
  const m = new RegExp(`^(?:[^\\p{L}\\p{N}]*[\\p{L}\\p{N}]+(?:['’-][\\p{L}\\p{N}]+)*){${maxWords}}`, 'u').exec(clean);
  return { text: m ? `${m[0].trim()}…` : '', shortened: true };
}

/** Removes every emoji (the brief asked for none). */
export const stripEmoji = (s: string): string => tidy(s.replace(EMOJI, ''));

/** Counts words the way the limits do (letters and digits, with inner apostrophes and hyphens). */
export const countWordsIn = wordsIn;

/** Holds `text` to `limits`; `field` names it in the adjustments. */
export function enforceLimits(
  text: string,
  limits: TextLimits,
  field: string,
): { text: string; adjustments: Adjustment[] } {
  const adjustments: Adjustment[] = [];
  let t = text.replace(/\r\n?/g, '\n').trim();
  const tags = hashtagsIn(t).length;
  if (tags > limits.max_hashtags) {
    t = tidy(keepFirst(t, HASHTAG, limits.max_hashtags, true));
    adjustments.push({
      field,
      rule: 'max_hashtags',
      before: tags,
      after: hashtagsIn(t).length,
      detail: `kept the first ${limits.max_hashtags} hashtags`,
    });
  }
  const emoji = emojiIn(t).length;
  if (emoji > limits.max_emoji) {
    t = tidy(keepFirst(t, EMOJI, limits.max_emoji, false));
    adjustments.push({
      field,
      rule: 'max_emoji',
      before: emoji,
      after: emojiIn(t).length,
      detail: `kept the first ${limits.max_emoji} emoji`,
    });
  }
  const breaks = lineBreaks(t);
  if (breaks > limits.max_line_breaks) {
    t = t.replace(/\n{3,}/g, '\n\n');
    // Join the last paragraphs first: the opening lines carry the hook and keep their layout.
    while (lineBreaks(t) > limits.max_line_breaks) t = t.replace(/\n+(?=[^\n]*$)/, ' ');
    adjustments.push({
      field,
      rule: 'max_line_breaks',
      before: breaks,
      after: lineBreaks(t),
      detail: `joined lines to stay within ${limits.max_line_breaks} line breaks`,
    });
  }
  const length = charCount(t);
  if (length > limits.max_characters) {
    const s = shortenText(t, limits.max_characters);
    t = s.text;
    adjustments.push({
      field,
      rule: 'max_characters',
      before: length,
      after: charCount(t),
      detail:
        s.method === 'sentence'
          ? `shortened at a sentence boundary to stay within ${limits.max_characters} characters`
          : `no whole sentence fits ${limits.max_characters} characters: cut after the last whole word`,
    });
  }
  return { text: t, adjustments };
}

/** A hashtag from a phrase: `#ContentMarketing` (letters and digits only), or undefined when nothing is left. */
export function toHashtag(phrase: string): string | undefined {
  const words = phrase
    .replace(/^#/, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const tag = words
    .map((w) => (/^[\p{Lu}\p{N}]+$/u.test(w) && w.length <= 4 ? w : w[0].toUpperCase() + w.slice(1).toLowerCase()))
    .join('');
  if (!tag || !/\p{L}/u.test(tag) || charCount(tag) > 40) return undefined;
  return `#${tag}`;
}

/** Distinct hashtags (case-insensitive), normalised, at most `max`. */
export function normaliseHashtags(tags: string[], max: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const t of tags) {
    const h = toHashtag(t);
    if (!h || seen.has(h.toLowerCase())) continue;
    seen.add(h.toLowerCase());
    out.push(h);
    if (out.length >= max) break;
  }
  return out;
}
