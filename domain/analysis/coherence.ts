/**
 * Coherence: is a text about its subject, and does it say each thing once?
 * (docs/analysis.md "Coherence"). Pure and lexical; the SEO analysis and the
 * engagement model both read it, so a text padded with sentences about other
 * subjects, or with the same template sentence over and over, cannot score
 * well on either.
 *
 * Topicality = on-topic sentences / judged body sentences. The subject is
 * what the caller gives (keywords, blog title, topic, brief) read together
 * with the text's own title, or the title alone: the H1 (else the first
 * sentence) plus the uncommon words of the other headings. Sentences are
 * compared by content-word stems (word-forms.ts, stopwords.ts):
 *  1. a sentence sharing a stem with the subject is on topic (a compound's
 *     head counts: "shop" names a "bookshop");
 *  2. otherwise the subject's vocabulary in this text (uncommon words and
 *     names recurring across on-topic sentences: "Maria", "novelist") is
 *     weighed against competing threads (uncommon words recurring in 3+ other
 *     sentences that never share a sentence with the subject and seldom meet
 *     its uncommon words: "podcast", "backlink"), in rounds;
 *  3. a sentence with neither ("She started with one reading in a back
 *     room.") continues the sentence before it in its paragraph, or is not
 *     judged.
 * "Uncommon" = not on the familiar-word list (easy-words.ts): "people",
 * "week" or "page" recur in any text and prove nothing either way.
 *
 * Repetition = duplicate sentences (the same words in the same order, case
 * and punctuation ignored, sentences of 4+ words) and the share of word
 * 4-grams that repeat an earlier 4-gram of the text (within sentences;
 * naming the subject again, a 4-gram of subject and function words only, is
 * not counted).
 */
import { isEasyWord } from './easy-words';
import { splitSentences } from './sentences';
import { STOPWORDS } from './stopwords';
import { TextDocument } from './text';
import { Span } from './types';
import { Token, tokenize } from './words';
import { contentKeys, wordKey } from './word-forms';

/** Below this topicality a text counts as off-topic: SEO and engagement are capped. */
export const TOPICALITY_CAP = 0.6;
/** Topicality from which the topic part of the coherence score is full (ordinary on-topic prose clears it). */
export const TOPICALITY_FULL = 0.8;
/** Topicality at which the topic part of the coherence score reaches 0. */
export const TOPICALITY_ZERO = 0.5;
/** Repeated 4-gram share ordinary prose stays under (the data/corpus articles measure 0–1.1 %). */
export const REPEATED_4GRAM_OK = 0.04;
/** Repeated 4-gram share above which a text counts as repetitive (capped). */
export const REPEATED_4GRAM_CAP = 0.1;
/** Duplicate sentences: a text with this many copies, or this share of its sentences copied, is repetitive. */
export const DUPLICATES_CAP = 2;
export const DUPLICATE_SHARE_CAP = 0.05;
/** Sentences shorter than this are not compared as duplicates ("Thank you.", "See you there!"). */
export const DUPLICATE_MIN_WORDS = 4;
/** The score cap for an off-topic or repetitive text (SEO and engagement). */
export const COHERENCE_SCORE_CAP = 50;

/** One sentence (or heading) the measure reads, with offsets into the caller's text. */
export interface CoherenceUnit extends Span {
  text: string;
  heading: boolean;
  /** Heading level (1–6), 0 for body sentences. */
  level: number;
  /** Paragraph (block) index: sentences of one block are neighbours. */
  block: number;
}

export interface DuplicateGroup {
  text: string;
  count: number;
  spans: Span[];
}

export interface CoherenceResult {
  /** Share 0..1 of attributed body sentences about the subject (1 when none can be judged). */
  topicality: number;
  /** Where the subject came from: the caller's keywords/topic, or the text's own title/first sentence. */
  subject_source: 'given' | 'text';
  /** The subject as read: the given phrases, or the title/first sentence. */
  subject: string;
  /** Body sentences, and those judged (on + off topic; the rest could not be attributed). */
  sentences: number;
  judged: number;
  on_topic: number;
  /** Body sentences judged not about the subject, in text order. */
  off_topic: Array<Span & { text: string }>;
  /** Terms of the competing thread(s), most frequent first (what the off-topic sentences are about). */
  other_terms: string[];
  /** Copies beyond the first of every duplicated sentence. */
  duplicate_sentences: number;
  duplicate_share: number;
  duplicates: DuplicateGroup[];
  /** Share of word 4-grams that repeat an earlier one. */
  repeated_4gram_share: number;
  /** 0..1 each: 1 = fully on topic / no repetition. */
  topic_score: number;
  repetition_score: number;
  /** topic_score × repetition_score. */
  coherence: number;
  off_topic_text: boolean;
  repetitive: boolean;
  /** off_topic_text or repetitive: scores built on this text are capped at COHERENCE_SCORE_CAP. */
  capped: boolean;
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
const r4 = (x: number): number => Math.round(x * 10000) / 10000;

/** Units of a parsed Markdown document (headings and body sentences). */
export function documentUnits(doc: TextDocument): CoherenceUnit[] {
  return doc.sentences.map((s) => ({
    start: s.start,
    end: s.end,
    text: s.text,
    heading: s.blockKind === 'heading',
    level: s.blockKind === 'heading' ? doc.blocks[s.blockIndex].level : 0,
    block: s.blockIndex,
  }));
}

/**
 * Units of plain text (a social post): paragraphs are separated by blank
 * lines, every line ends a sentence, and no line is a heading.
 */
export function plainTextUnits(text: string): CoherenceUnit[] {
  const units: CoherenceUnit[] = [];
  let block = 0;
  let offset = 0;
  let blank = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (!blank && units.length > 0) block++;
      blank = true;
    } else {
      blank = false;
      for (const sp of splitSentences(line)) {
        const s = line.slice(sp.start, sp.end);
        if (!/[\p{L}\p{N}]/u.test(s)) continue;
        units.push({ start: offset + sp.start, end: offset + sp.end, text: s, heading: false, level: 0, block });
      }
    }
    offset += line.length + 1;
  }
  return units;
}

interface Read {
  unit: CoherenceUnit;
  tokens: Token[];
  /** Content-word stems (stop words dropped, hyphenated words split). */
  keys: Set<string>;
  /** Keys of words outside the familiar-word list, names excepted. */
  specific: Set<string>;
  /** Keys that carry evidence: uncommon words and names ("people", "week" or "page" recur in any text). */
  telling: Set<string>;
}

function readUnit(unit: CoherenceUnit, tokens: Token[], names: ReadonlySet<string>): Read {
  const keys = new Set<string>();
  const specific = new Set<string>();
  const telling = new Set<string>();
  for (const t of tokens) {
    if (t.kind !== 'word') continue;
    for (const w of t.text.split(/-(?=\p{L})/u)) {
      if (w.length < 2 || STOPWORDS.has(w.toLowerCase())) continue;
      const k = wordKey(w);
      keys.add(k);
      if (names.has(k)) telling.add(k);
      else if (!isEasyWord(w)) {
        specific.add(k);
        telling.add(k);
      }
    }
  }
  return { unit, tokens, keys, specific, telling };
}

/**
 * Names: words written with a capital inside a sentence somewhere in the text
 * ("Maria", "Riverside"), or capitalised first words the text never writes in
 * lower case and that are not common words ("Tom"); acronyms excluded. Who
 * and where a subject happens recur without being another subject, so names
 * never form a competing thread.
 */
function namesOf(units: CoherenceUnit[], tokens: Token[][]): Set<string> {
  const names = new Set<string>();
  const lower = new Set<string>();
  const starts: string[] = [];
  units.forEach((u, j) => {
    if (u.heading) return;
    tokens[j].forEach((t, i) => {
      if (t.kind !== 'word') return;
      if (/^\p{Ll}/u.test(t.text)) lower.add(wordKey(t.text));
      else if (/^\p{Lu}\p{Ll}/u.test(t.text)) {
        if (i > 0) names.add(wordKey(t.text));
        else starts.push(t.text);
      }
    });
  });
  // A capitalised first word is a name when the text never writes it in lower case and it is no common word ("Tom").
  for (const w of starts)
    if (!lower.has(wordKey(w)) && !isEasyWord(w) && !STOPWORDS.has(w.toLowerCase())) names.add(wordKey(w));
  return names;
}

/** Keys that occur in at least `min` of the given key sets. */
function recurring(sets: Array<Set<string>>, min = 2): Map<string, number> {
  const n = new Map<string, number>();
  for (const s of sets) for (const k of s) n.set(k, (n.get(k) ?? 0) + 1);
  for (const [k, c] of n) if (c < min) n.delete(k);
  return n;
}

const overlap = (a: Set<string>, b: ReadonlySet<string> | ReadonlyMap<string, number>): number => {
  let n = 0;
  for (const k of a) if (b.has(k)) n++;
  return n;
};

/**
 * The text's own statement of its subject: the title (H1; without one, the
 * first body sentence, read with the next one when it is short: "Big news!")
 * and the uncommon words of the other headings ("Plan episodes and guests"
 * adds "episode", "guest"; "Getting people through the door" adds nothing).
 */
function ownSubject(reads: Read[]): string {
  const headings = reads.filter((r) => r.unit.heading);
  const h1 = headings.find((r) => r.unit.level === 1);
  const body = reads.filter((r) => !r.unit.heading);
  let title = h1?.unit.text ?? '';
  if (!h1 && body.length > 0) {
    title = body[0].unit.text;
    if (body.length > 1 && body[0].keys.size < 3 && body[1].unit.block === body[0].unit.block)
      title += ` ${body[1].unit.text}`;
  }
  const uncommon = headings
    .filter((r) => r !== h1)
    .flatMap((r) => r.tokens.filter((t) => t.kind === 'word' && !isEasyWord(t.text)))
    .map((t) => t.text);
  return [title, ...uncommon].filter(Boolean).join(' · ');
}

type Side = 'on' | 'off' | undefined;
/** Rounds of growing the subject's vocabulary (it stops earlier when nothing changes). */
const MAX_ROUNDS = 4;
/** A competing thread: an uncommon term in at least this many sentences not about the subject. */
const OTHER_MIN_SENTENCES = 3;
/** ...unless at least this share of its sentences also use the subject's own uncommon words ("dough" with "flour"). */
const BRIDGE_SHARE = 0.25;

/** Does a text term name a subject term? The same stem, or the head of a compound ("shop" of "bookshop"). */
function namesSubject(key: string, subject: readonly string[]): boolean {
  if (subject.includes(key)) return true;
  if (key.length < 4) return false;
  return subject.some((s) => s.length - key.length >= 3 && s.endsWith(key));
}

function topicality(reads: Read[], given: string[]) {
  const phrases = given.map((g) => g.trim()).filter((g) => contentKeys(g).length > 0);
  const own = ownSubject(reads);
  const givenKeys = [...new Set(phrases.flatMap((p) => contentKeys(p)))];
  const allKeys = new Set(reads.flatMap((r) => [...r.keys]));
  const mentioned = [...allKeys].some((k) => namesSubject(k, givenKeys));
  // A given subject is read together with the text's own title, unless the text never mentions the given subject.
  const subjectSource: 'given' | 'text' = phrases.length > 0 ? 'given' : 'text';
  const subject =
    subjectSource === 'text' ? own : mentioned ? [...phrases, own].filter(Boolean).join(' · ') : phrases.join(' · ');
  const subjectKeys = [...new Set(contentKeys(subject))];
  const S = new Set([...allKeys].filter((k) => namesSubject(k, subjectKeys)).concat(subjectKeys));
  const body = reads.filter((r) => !r.unit.heading);
  // 1. Sentences that name the subject.
  const core = body.map((r) => overlap(r.keys, S) > 0);
  const side: Side[] = core.map((c) => (c ? 'on' : undefined));
  const coreTerms = new Set(body.filter((_, i) => core[i]).flatMap((r) => [...r.keys]));
  const coreTelling = new Set([...S, ...body.filter((_, i) => core[i]).flatMap((r) => [...r.telling])]);
  let other = new Map<string, number>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // 2. The subject's vocabulary in this text: telling terms recurring across the sentences attributed to it ...
    const T = recurring(body.filter((_, i) => side[i] === 'on').map((r) => r.telling));
    for (const k of S) T.delete(k);
    // ... against competing threads: uncommon terms recurring across the other sentences that never share a
    // sentence naming the subject and seldom (under a quarter of their sentences) meet the subject's own words.
    other = recurring(
      body.filter((_, i) => side[i] !== 'on').map((r) => r.specific),
      OTHER_MIN_SENTENCES,
    );
    for (const k of [...other.keys()]) if (S.has(k) || T.has(k) || coreTerms.has(k)) other.delete(k);
    const meets = new Map<string, number>();
    for (const r of body) {
      let touches = false;
      for (const k of r.keys) if (coreTelling.has(k) && !other.has(k)) touches = true;
      if (touches) for (const k of r.keys) if (other.has(k)) meets.set(k, (meets.get(k) ?? 0) + 1);
    }
    for (const [k, n] of meets) if (n / other.get(k)! >= BRIDGE_SHARE) other.delete(k);
    let changed = false;
    body.forEach((r, i) => {
      if (core[i]) return;
      const t = overlap(r.keys, T);
      const o = overlap(r.keys, other);
      const next: Side = t > o ? 'on' : o > t ? 'off' : undefined;
      if (next !== side[i]) changed = true;
      side[i] = next;
    });
    if (!changed) break;
  }
  // 3. A sentence with no evidence either way ("She started with one reading in a back room.") continues the
  // sentence before it in the same paragraph; at the start of a paragraph it is not judged. A text that never
  // mentions the subject it was given is about something else, whatever it says.
  const resolved: Side[] = side.map((s, i) =>
    subjectSource === 'given' && !mentioned
      ? 'off'
      : (s ?? (i > 0 && body[i - 1].unit.block === body[i].unit.block ? side[i - 1] : undefined)),
  );
  const on = resolved.filter((s) => s === 'on').length;
  const offIdx = resolved.flatMap((s, i) => (s === 'off' ? [i] : []));
  const judged = on + offIdx.length;
  // A readable word for each competing stem: its first occurrence in the off-topic sentences (else anywhere).
  const surface = new Map<string, string>();
  for (const r of [...offIdx.map((i) => body[i]), ...body])
    for (const t of r.tokens)
      if (t.kind === 'word' && other.has(wordKey(t.text)) && !surface.has(wordKey(t.text)))
        surface.set(wordKey(t.text), t.text.toLowerCase());
  const otherTerms = [...other.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k]) => surface.get(k) ?? k);
  return {
    subjectSource,
    subject,
    sentences: body.length,
    judged,
    on,
    topicality: judged === 0 ? 1 : on / judged,
    off: offIdx.map((i) => ({ start: body[i].unit.start, end: body[i].unit.end, text: body[i].unit.text })),
    otherTerms,
    subjectKeys: S,
  };
}

function repetition(reads: Read[], subjectKeys: ReadonlySet<string>) {
  const body = reads.filter((r) => !r.unit.heading);
  const groups = new Map<string, DuplicateGroup>();
  let grams = 0;
  let repeatedGrams = 0;
  const seen = new Set<string>();
  for (const { unit: u, tokens } of body) {
    const words = tokens.filter((t) => t.kind !== 'url').map((t) => t.text.toLowerCase().replace(/[’']/g, ''));
    if (words.length >= DUPLICATE_MIN_WORDS) {
      const norm = words.join(' ');
      const g = groups.get(norm) ?? { text: u.text, count: 0, spans: [] };
      g.count++;
      g.spans.push({ start: u.start, end: u.end });
      groups.set(norm, g);
    }
    const keys = words.map((w) => wordKey(w));
    // Naming the subject again is not repetition: a 4-gram of subject words (and function words) is free.
    const free = words.map((w, i) => STOPWORDS.has(w) || subjectKeys.has(keys[i]));
    for (let i = 0; i + 4 <= keys.length; i++) {
      const gram = `${keys[i]} ${keys[i + 1]} ${keys[i + 2]} ${keys[i + 3]}`;
      grams++;
      if (!seen.has(gram)) seen.add(gram);
      else if (!(free[i] && free[i + 1] && free[i + 2] && free[i + 3])) repeatedGrams++;
    }
  }
  const duplicates = [...groups.values()].filter((g) => g.count > 1);
  const duplicateSentences = duplicates.reduce((n, g) => n + g.count - 1, 0);
  return {
    duplicates,
    duplicateSentences,
    duplicateShare: body.length === 0 ? 0 : duplicateSentences / body.length,
    repeatedShare: grams === 0 ? 0 : repeatedGrams / grams,
  };
}

/**
 * The coherence of a text given as units (documentUnits / plainTextUnits)
 * against `subject` (keywords, topic, brief; empty: the text's own title).
 */
export function measureCoherence(units: CoherenceUnit[], subject: string[] = []): CoherenceResult {
  const tokens = units.map((u) => tokenize(u.text));
  const names = namesOf(units, tokens);
  const reads = units.map((u, i) => readUnit(u, tokens[i], names));
  const t = topicality(reads, subject);
  const r = repetition(reads, t.subjectKeys);
  const topicScore = clamp01((t.topicality - TOPICALITY_ZERO) / (TOPICALITY_FULL - TOPICALITY_ZERO));
  const gramScore = clamp01(1 - (r.repeatedShare - REPEATED_4GRAM_OK) / (REPEATED_4GRAM_CAP - REPEATED_4GRAM_OK));
  // Every copied sentence costs a quarter; a text at the duplicate cap scores at most 0.5.
  const repetitionScore = Math.min(gramScore, clamp01(1 - 0.25 * r.duplicateSentences));
  const offTopic = t.judged > 0 && t.topicality < TOPICALITY_CAP;
  const repetitive =
    r.duplicateSentences >= DUPLICATES_CAP ||
    (r.duplicateSentences > 0 && r.duplicateShare >= DUPLICATE_SHARE_CAP) ||
    r.repeatedShare > REPEATED_4GRAM_CAP;
  return {
    topicality: r4(t.topicality),
    subject_source: t.subjectSource,
    subject: t.subject,
    sentences: t.sentences,
    judged: t.judged,
    on_topic: t.on,
    off_topic: t.off,
    other_terms: t.otherTerms,
    duplicate_sentences: r.duplicateSentences,
    duplicate_share: r4(r.duplicateShare),
    duplicates: r.duplicates,
    repeated_4gram_share: r4(r.repeatedShare),
    topic_score: r4(topicScore),
    repetition_score: r4(repetitionScore),
    coherence: r4(topicScore * repetitionScore),
    off_topic_text: offTopic,
    repetitive,
    capped: offTopic || repetitive,
  };
}

/** Coherence of a plain text (a post, a caption) against an optional subject. */
export function textCoherence(text: string, subject: string[] = []): CoherenceResult {
  return measureCoherence(plainTextUnits(text), subject);
}
