/**
 * The offline writer's shared grammar: how a brief (topic, audience, key points, instructions, call to action,
 * format) becomes sentences a marketer could publish, without a language model. Every writer of the `local`
 * provider builds on these, so the same rules hold in every area (docs/providers.md "What `local` honestly is"):
 *
 *  - **Relevance, not length.** A sentence is the brief's own material (a key point, an instruction carried out,
 *    the call to action) or a source sentence about the brief. Nothing is added to reach a word count; where the
 *    material runs out the text is shorter, and `coverage` says so and why.
 *  - **Grammatical for any phrase.** The user's phrases are never made the subject of a template verb ("{topic}
 *    deserves…" breaks on plurals): a key point is its own sentence, the topic and audience only follow a
 *    preposition ("about …", "for …"), and what cannot be placed safely is not spliced in at all.
 *  - **The user's words as written.** Only the first letter of a sentence is ever capitalised; nothing the user
 *    wrote is lower-cased, so names ("Riverside Books", "Thursday") keep their capitals.
 *  - **Instructions carried out where a rule can do it** ("Mention that …", "Recommend …", "Warn readers not to
 *    …"); the others ("Explain …", "Give an example …") need a writer that can think, and are reported unmet.
 *  - **Hashtags from whole phrases** (names, the topic's noun phrases), never fragments.
 * Deterministic: choices between equivalent wordings come from a hash of the input.
 */
import { STOPWORDS } from '../analysis/stopwords';
import { contentKeys, wordKey } from '../analysis/word-forms';
import { GENERIC } from './terms';
import { toneFamily, ToneFamily } from './phrases';
import { capitalize, pick } from './text';

/** What a writer is asked to write about, as the request gave it. */
export interface BriefInput {
  topic: string;
  audience?: string;
  keyPoints?: string[];
  tone?: string;
  /** Free-form instructions ("Mention that signed copies are available."). */
  instructions?: string;
  /** The call to action: its text, or `true` to have one made from the brief. */
  cta?: string | boolean;
  /** Words the sources write in lower case (text.ts wordsWrittenLower): social-compose.ts topicPhrase. */
  commonWords?: ReadonlySet<string>;
}

export interface Brief {
  topic: string;
  audience?: string;
  keyPoints: string[];
  family: ToneFamily;
  instructions: Instructions;
  cta?: string | true;
  /** Word-form keys of the topic, key points and instructions: what "about the brief" means. */
  keys: ReadonlySet<string>;
  commonWords?: ReadonlySet<string>;
}

/** How the offline writer met the brief (returned as `metadata.coverage`). */
export interface Coverage {
  /** `brief`: built from the request's own words; `brief_and_sources`: sources about it were quoted too. */
  basis: 'brief' | 'brief_and_sources';
  key_points: number;
  key_points_used: number;
  sources_used: number;
  instructions_followed: string[];
  instructions_not_followed: string[];
  target_words?: number;
  words?: number;
  /** Why the text is shorter than asked (absent when it is not). */
  shortfall?: string;
  /** A listicle asked for `wanted` items; the brief and sources gave `written`. */
  items?: { wanted: number; written: number };
}

const clean = (s: string): string =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[;,:]+$/, '');

export function readBrief(i: BriefInput): Brief {
  const topic = clean(i.topic).replace(/[.!?]+$/, '');
  const keyPoints = (i.keyPoints ?? []).map((p) => clean(p).replace(/[.!?;:]+$/, '')).filter((p) => /\p{L}/u.test(p));
  const instructions = readInstructions(i.instructions ?? '');
  const cta = typeof i.cta === 'string' ? clean(i.cta).replace(/[.!]+$/, '') || undefined : i.cta ? true : undefined;
  const keys = new Set(
    [topic, ...keyPoints, ...instructions.sentences, typeof cta === 'string' ? cta : ''].flatMap((t) => contentKeys(t)),
  );
  return {
    topic,
    audience: i.audience?.trim().replace(/[.!]+$/, '') || undefined,
    keyPoints,
    family: toneFamily(i.tone),
    instructions,
    cta,
    keys,
    ...(i.commonWords ? { commonWords: i.commonWords } : {}),
  };
}

/** A sentence of the user's own words: first letter capitalised, ended with a full stop, nothing else touched. */
export function asSentence(text: string): string {
  const t = clean(text);
  if (!t) return t;
  return /[.!?]["”’)]*$/.test(t) ? capitalize(t) : `${capitalize(t)}.`;
}

/** A key point as a sentence of its own (imperatives and statements as written; a noun phrase stands alone). */
export function pointSentence(point: string): string {
  return asSentence(point);
}

/** A key point as a list item: the user's sentence or phrase as written, first letter capitalised. */
export function pointItem(point: string): string {
  return asSentence(point);
}

/** The audience after "for": "readers" when none was given. */
export const forAudience = (b: Brief): string => b.audience ?? 'readers';

const INTROS: Record<ToneFamily, { withAudience: string[]; without: string[] }> = {
  formal: {
    withAudience: ['This article sets out what {audience} should know about {topic}.'],
    without: ['This article sets out the essentials of {topic}.'],
  },
  friendly: {
    withAudience: [
      'Here is a short guide to {topic} for {audience}.',
      'A few notes on {topic}, written for {audience}.',
    ],
    without: ['Here is a short guide to {topic}.'],
  },
  persuasive: {
    withAudience: ['Here is what {audience} need to know about {topic}.'],
    without: ['Here is what matters most about {topic}.'],
  },
  neutral: {
    withAudience: ['This post covers {topic} for {audience}.'],
    without: ['This post covers {topic}.'],
  },
};

/** One opening sentence naming the topic and audience, after prepositions only (grammatical for any phrase). */
export function introSentence(b: Brief, seed: string): string {
  const set = INTROS[b.family];
  // A topic that has its own "for ..." would read "... for freelancers for freelance designers".
  if (b.audience && /\bfor\b/i.test(b.topic))
    return `${pick(set.without, `${seed}|intro`).replace(/\.$/, '')}, written with ${b.audience} in mind.`.replace(
      '{topic}',
      b.topic,
    );
  const t = pick(b.audience ? set.withAudience : set.without, `${seed}|intro`);
  return t.replace('{topic}', b.topic).replace('{audience}', b.audience ?? '');
}

/** The call to action as a sentence: the user's text, or one made from the topic. */
export function ctaSentence(b: Brief, seed: string): string | undefined {
  if (!b.cta) return undefined;
  if (typeof b.cta === 'string') return asSentence(b.cta);
  return pick(
    [
      `Ask us anything about ${b.topic} in the comments.`,
      `Share this with anyone who cares about ${b.topic}.`,
      `Follow us for more on ${b.topic}.`,
    ],
    `${seed}|cta`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Instructions

export interface Instructions {
  /** Sentences that carry out instructions a rule can follow ("Mention that X." -> "X."). */
  sentences: string[];
  followed: string[];
  /** Instructions that need a writer that can think (explain, compare, give an example): not carried out offline. */
  notFollowed: string[];
  /** Style instructions ("Keep it encouraging", "Avoid jargon"): met by the offline writer's plain templates. */
  style: string[];
}

const STYLE = /^(keep (it|the (tone|text|post))|avoid|do not|don't|never|use (a|an|plain)|write (in|for)|be )\b/i;
const NEEDS_THOUGHT =
  /^(explain|compare|give|show|describe|list|outline|include an example|provide|discuss|summari[sz]e|suggest a .*(formula|template|plan))\b/i;

/** What each instruction sentence becomes (see the module comment). */
export function readInstructions(text: string): Instructions {
  const out: Instructions = { sentences: [], followed: [], notFollowed: [], style: [] };
  const parts = text
    .split(/(?<=[.!?])\s+|;\s*/)
    .map((s) => clean(s).replace(/[.!?]+$/, ''))
    .filter((s) => /\p{L}/u.test(s));
  for (const raw of parts) {
    const s = raw.trim();
    let m: RegExpExecArray | null;
    let sentence: string | undefined;
    if (
      (m =
        /^(?:mention|say|note|point out|stress|emphasi[sz]e|make clear|reassure (?:readers|them|people|the reader)?)\s+that\s+(.+)$/i.exec(
          s,
        ))
    )
      sentence = asSentence(m[1]);
    else if ((m = /^reassure (?:readers|them|people|the reader)\s+(?:that\s+)?(.+)$/i.exec(s)))
      sentence = asSentence(m[1]);
    else if ((m = /^(?:warn|remind) (?:readers|them|people|the reader) not to\s+(.+)$/i.exec(s)))
      sentence = `A word of warning: do not ${m[1]}.`;
    else if ((m = /^warn (?:readers |them |people )?against\s+(.+)$/i.exec(s))) sentence = `Be wary of ${m[1]}.`;
    else if ((m = /^(?:recommend|suggest|advise)\s+(.+)$/i.exec(s)) && !NEEDS_THOUGHT.test(s))
      sentence = `We recommend ${m[1]}.`;
    else if ((m = /^(?:mention|note|point out|highlight)\s+(.+)$/i.exec(s))) sentence = `Worth knowing: ${m[1]}.`;
    else if ((m = /^(?:stress|emphasi[sz]e)\s+(.+)$/i.exec(s))) sentence = `It pays to focus on ${m[1]}.`;
    if (sentence) {
      out.sentences.push(sentence);
      out.followed.push(`${s}.`);
    } else if (STYLE.test(s)) out.style.push(`${s}.`);
    else out.notFollowed.push(`${s}.`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Relevance

/** Shared word-form keys between a sentence and a set of keys. */
export function sharedKeys(sentence: string, keys: ReadonlySet<string>): number {
  return new Set(contentKeys(sentence).filter((k) => keys.has(k))).size;
}

/** Keys of a phrase (what a key point or heading is about). */
export const keysOf = (...texts: string[]): Set<string> => new Set(texts.flatMap((t) => contentKeys(t)));

/**
 * Whether a source sentence is about the brief: it shares at least two specific content words with the topic and
 * the part it would stand in (one is a coincidence: "the author" of an SEO guide is not an author event; general
 * words such as "small" or "people" do not count); a subject of one or two specific words needs one of them.
 */
export function isRelevant(sentence: string, keys: ReadonlySet<string>): boolean {
  const shared = new Set(contentKeys(sentence).filter((k) => keys.has(k) && !GENERIC_KEYS.has(k)));
  // A subject of one or two specific words ("keyword research") is named by one of them; longer ones need two.
  const specific = [...keys].filter((k) => !GENERIC_KEYS.has(k)).length;
  return shared.size >= (specific <= 2 ? 1 : 2);
}

/** Word-form keys of the words too general to tie a sentence to a subject ("small", "people", "work"). */
const GENERIC_KEYS: ReadonlySet<string> = new Set([...GENERIC].map((w) => wordKey(w)));

/** Whether a word-form key is specific enough to tie a sentence to a subject (not "small", "long", "people"). */
export const isSpecific = (key: string): boolean => !GENERIC_KEYS.has(key);

// ---------------------------------------------------------------------------------------------------------------
// Hashtags

const WEAK = new Set([
  'new',
  'good',
  'great',
  'best',
  'small',
  'big',
  'free',
  'more',
  'most',
  'tips',
  'ideas',
  'guide',
  'way',
  'ways',
  'thing',
  'things',
  'first',
  'every',
  'time',
  'home',
]);

/** Words of a phrase as a hashtag: each word capitalised, apostrophes and punctuation dropped ("#ChildrensStoryTime"). */
export function toHashtag(phrase: string): string | undefined {
  const words = phrase
    .replace(/[’']s\b/g, 's')
    .replace(/[’']/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length === 0) return undefined;
  const tag = words.map((w) => (/\p{Lu}/u.test(w.slice(1)) ? w : capitalize(w.toLowerCase()))).join('');
  if (tag.length < 3 || (words.length === 1 && (STOPWORDS.has(tag.toLowerCase()) || WEAK.has(tag.toLowerCase()))))
    return undefined;
  return `#${tag}`;
}

const LEADING_VERB =
  /^(?:\p{L}+ing|plan|use|build|write|make|keep|get|choose|start|learn|find|check|protect|run|grow)$/iu;

/** Noun phrases of a text: runs of up to three content words between function words, leading verbs dropped. */
export function nounPhrases(text: string): string[] {
  const runs: string[][] = [[]];
  for (const w of text.split(/\s+/)) {
    const word = w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}’']+$/gu, '');
    const boundary = /[,.;:!?]$/.test(w);
    if (!word || STOPWORDS.has(word.toLowerCase())) runs.push([]);
    else runs[runs.length - 1].push(word);
    if (boundary) runs.push([]);
  }
  return runs
    .map((r) => {
      let x = r;
      while (x.length > 1 && LEADING_VERB.test(x[0])) x = x.slice(1);
      return x.slice(-3).join(' ');
    })
    .filter((p) => p && !(p.split(' ').length === 1 && LEADING_VERB.test(p)));
}

/**
 * Up to `n` hashtags from whole phrases: the brief's names first ("#RiversideBooks"), then the topic's noun phrases
 * of two or three words, then single words of the topic that can stand alone (a plural, or the topic's last word),
 * then the key points' phrases of two or three words. A verb or a word cut from its phrase never becomes a tag.
 */
export function hashtagsFor(b: Brief, names: string[], n = 3): string[] {
  const topicPhrases = nounPhrases(b.topic);
  const last =
    b.topic
      .split(/\s+/)
      .pop()
      ?.replace(/[^\p{L}\p{N}]/gu, '') ?? '';
  const single = (p: string) =>
    !p.includes(' ') && p.length >= 4 && !/(ing|ed)$/i.test(p) && (p === last || (/s$/i.test(p) && !/ss$/i.test(p)));
  const candidates = [
    ...names,
    ...topicPhrases.filter((p) => p.includes(' ')),
    ...topicPhrases.filter(single),
    ...b.keyPoints.flatMap((p) => nounPhrases(p)).filter((p) => p.includes(' ')),
  ];
  const tags: string[] = [];
  for (const phrase of candidates) {
    const t = toHashtag(phrase);
    if (t && !tags.some((x) => x.toLowerCase() === t.toLowerCase())) tags.push(t);
    if (tags.length >= n) break;
  }
  return tags;
}

/**
 * Names in the user's words: a run of capitalised words not at the start of a sentence ("on the Riverside Books
 * website"), or any word with inner capitals or all capitals ("SafeLift", "HVAC"), and day and month names.
 */
export function namesIn(texts: string[]): string[] {
  const out = new Set<string>();
  const DAYS =
    /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/i;
  for (const text of texts) {
    // Two or more capitalised words in a row are a name wherever they stand ("Riverside Books hosts ...").
    for (const m of text.matchAll(/(\p{Lu}[\p{L}’'-]*(?:\s+(?:&\s+)?\p{Lu}[\p{L}’'&-]*)+)/gu)) {
      const run = m[1].replace(/[’']s$/, '').replace(/^(?:The|A|An|Our|Your|This|That)\s+/, '');
      if (/\s/.test(run)) out.add(run);
    }
    for (const m of text.matchAll(/(?<=[^.!?:\s]\s+)(\p{Lu}[\p{L}’'&-]*(?:\s+(?:&\s+)?\p{Lu}[\p{L}’'&-]*)*)/gu))
      out.add(m[1].replace(/[’']s$/, ''));
    for (const w of text.split(/[^\p{L}\p{N}&’'-]+/u)) {
      if (/^\p{Lu}[\p{L}]*\p{Lu}[\p{L}]*$/u.test(w) && w.length > 1) out.add(w);
      if (DAYS.test(w) && /^\p{Lu}/u.test(w)) out.add(w);
    }
  }
  // A run that starts a sentence is caught only in part ("Books" of "Riverside Books hosts"): keep whole names.
  const all = [...out].filter((n) => n !== 'I');
  return all.filter((n) => !all.some((o) => o !== n && o.split(/\s+/).includes(n)));
}

/** Coverage from what a writer used; the shortfall says why a text is well under its target. */
export function coverageOf(
  b: Brief,
  used: {
    keyPoints: number;
    sources: number;
    words?: number;
    targetWords?: number;
    items?: { wanted: number; written: number };
    /** What the items are called in the shortfall ("items", "content slides"). */
    itemsLabel?: string;
    /** What to do about too few items (the shortfall's advice). */
    itemsAdvice?: string;
  },
): Coverage {
  const c: Coverage = {
    basis: used.sources > 0 ? 'brief_and_sources' : 'brief',
    key_points: b.keyPoints.length,
    key_points_used: used.keyPoints,
    sources_used: used.sources,
    instructions_followed: b.instructions.followed,
    instructions_not_followed: b.instructions.notFollowed,
    ...(used.targetWords !== undefined ? { target_words: used.targetWords } : {}),
    ...(used.words !== undefined ? { words: used.words } : {}),
    ...(used.items ? { items: used.items } : {}),
  };
  const reasons: string[] = [];
  if (used.targetWords !== undefined && used.words !== undefined && used.words < used.targetWords * 0.9)
    reasons.push(
      `${used.words} of ${used.targetWords} words: the offline writer states only the brief (${b.keyPoints.length} key point${b.keyPoints.length === 1 ? '' : 's'}) and ${used.sources ? `${used.sources} source sentence${used.sources === 1 ? '' : 's'} about it` : 'no source sentence, as none of the sources is about it'}, and adds nothing to reach a length; add key points, or configure a language model (docs/providers.md)`,
    );
  if (used.items && used.items.written < used.items.wanted)
    reasons.push(
      `${used.items.written} of ${used.items.wanted} ${used.itemsLabel ?? 'items'}: the brief and the sources give ${used.items.written} distinct point${used.items.written === 1 ? '' : 's'}${used.itemsAdvice ? `; ${used.itemsAdvice}` : ''}`,
    );
  if (reasons.length) c.shortfall = reasons.join('; ');
  return c;
}
