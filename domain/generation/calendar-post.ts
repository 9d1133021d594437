/**
 * writeSocialPost: a calendar post of the offline writer (`local` provider), written from relevance, not to a length
 * (compose.ts; docs/providers.md "What `local` honestly is"). Not a language model: it says what the request says.
 *
 * - **One post** (`events/generate`): the request has a topic and an audience only, so the post is one sentence
 *   naming both (the topic after a preposition, never the subject of a template verb), any further sentences the
 *   topic itself carries ("Launch week. Doors open at nine." gives two), and the call to action when asked for
 *   (one made from the topic: the route has no field for its text). Nothing is added to reach `word_count`.
 * - **A series** (`series/generate`): the series description reaches the writer inside the topic
 *   (`"<series title>: <description>"`, or `part.description`). Its items (lines, `;`-separated parts or
 *   sentences) are shared out over the parts, the part index choosing which, so every post says something the
 *   others do not. With more parts than items the first part introduces the series, the last one recaps it, and
 *   any part left over restates one item under its part number; with more items than parts a post carries several.
 *   The description is never echoed whole into every post, and the user's words keep their capitals.
 * - **Hashtags** from whole phrases: the brief's names ("#RiversideBooks"), then the topic's noun phrases
 *   (compose.ts `hashtagsFor`); days and months are kept as written in the text but never made tags.
 * Deterministic: choices between equivalent wordings come from a hash of the input. The gateway returns the post as
 * JSON {title, thread_content, hashtags}, the shape vendors are asked for, plus `coverage` (what the post used).
 */
import { Brief, asSentence, coverageOf, Coverage, hashtagsFor, namesIn, readBrief } from './compose';
import { pointKind } from './phrases';
import { capitalize, hash32, wordsIn } from './text';

export interface SocialPostInput {
  topic: string;
  content_type: string;
  platform: string;
  tone?: string;
  audience?: string;
  /** Words wanted over all of thread_content (default 60; bounded 15..600): an upper bound, never padded to. */
  word_count?: number;
  include_hashtags?: boolean;
  include_cta?: boolean;
  /**
   * Position in a series: chooses this part's items of the description. The description is `description` when
   * given, else what follows `"<series_title>:"` in the topic (how the series route builds the topic).
   */
  part?: { index: number; total: number; series_title: string; description?: string };
}

export interface SocialPost {
  title: string;
  thread_content: string[];
  hashtags: string[];
  /** How the offline writer met the brief (absent from vendors' answers). */
  coverage?: Coverage;
}

/** A post as the generation activity returns it: the text plus what the metered call was. */
export interface GeneratedPost extends SocialPost {
  provider: string;
  model: string;
  offline: boolean;
  tokens_in: number;
  tokens_out: number;
  cost: number;
}

const THREADS = new Set(['thread', 'social_thread', 'carousel', 'carousel_post']);
const DAYS_MONTHS =
  /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/i;

type Family = Brief['family'];

/** Title Case that only ever capitalises: the user's own capitals and lower-case words stay as written. */
export function titleOf(text: string): string {
  const SMALL = /^(a|an|and|as|at|but|by|for|in|of|on|or|the|to|vs|with)$/;
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((w, i) => (i > 0 && SMALL.test(w) ? w : capitalize(w)))
    .join(' ');
}

/**
 * Hashtags from whole phrases: the names (not days or months) the post's own text uses first, then the brief's
 * other names and the topic's noun phrases. Key points' phrases are left out: cut from a sentence they carry its
 * verbs and adverbs ("#StoryTimeRuns", "#SkinTwice").
 */
export function postHashtags(b: Brief, names: string[], n = 4, text = ''): string[] {
  const usable = names.filter((x) => !DAYS_MONTHS.test(x));
  const own = usable.filter((x) => text.includes(x));
  return hashtagsFor({ ...b, keyPoints: [] }, [...own, ...usable.filter((x) => !own.includes(x))], n);
}

/** Whether a phrase reads as a sentence of its own (a finite verb, or an imperative) rather than a noun phrase. */
function isClause(text: string): boolean {
  return (
    pointKind(text) === 'imperative' ||
    /\b(is|are|was|were|has|have|had|can|will|would|should|must|does|do|did|hosts?|runs?|opens?|starts?|gets?)\b/i.test(
      text,
    )
  );
}

const POST_OPENERS: Record<Family, { withAudience: string[]; without: string[] }> = {
  friendly: {
    withAudience: ['A quick note on {topic} for {audience}.', 'Something for {audience} today: {topic}.'],
    without: ['A quick note on {topic}.', 'On our minds today: {topic}.'],
  },
  formal: {
    withAudience: ['A note for {audience} on {topic}.'],
    without: ['A note on {topic}.'],
  },
  persuasive: {
    withAudience: ['{Audience}: it is time to talk about {topic}.'],
    without: ['It is time to talk about {topic}.'],
  },
  neutral: {
    withAudience: ['Today’s post: {topic}, for {audience}.', 'On the calendar today: {topic}, for {audience}.'],
    without: ['Today’s post: {topic}.', 'On the calendar today: {topic}.'],
  },
};

/** The opening sentence of a single post: the topic after a preposition or colon, the audience after "for". */
function openerOf(b: Brief, seed: string): string {
  if (isClause(b.topic)) return asSentence(b.topic);
  const set = POST_OPENERS[b.family];
  // A topic with its own "for ..." would read "... for freelancers for freelance designers".
  const audience = b.audience && !/\bfor\b/i.test(b.topic) ? b.audience : undefined;
  const t = pickBy(audience ? set.withAudience : set.without, `${seed}|opener`);
  return capitalize(
    t
      .replace('{topic}', b.topic)
      .replace('{Audience}', capitalize(audience ?? ''))
      .replace('{audience}', audience ?? ''),
  );
}

/**
 * Calls to action made from the topic (the calendar routes have a flag, not the text): each names the topic, so
 * no sentence of the post is about nothing; a series is named by its title, in quotes. `k` rotates through them,
 * so the parts of a series differ.
 */
export function topicCta(topic: string, seed: string, k = 0, series = false): string {
  const all = series
    ? [
        `Follow “${topic}” here for the next part.`,
        `Share “${topic}” with anyone it could help.`,
        `Tell us in the comments what “${topic}” should cover next.`,
        `Save this part of “${topic}” for later.`,
        `Send us your questions about “${topic}” any time.`,
        `Subscribe to follow “${topic}” from start to finish.`,
      ]
    : [
        `Follow us for more on ${topic}.`,
        `Share this with anyone who cares about ${topic}.`,
        `Tell us in the comments how you approach ${topic}.`,
        `Save this post for your next look at ${topic}.`,
        `Send us your questions about ${topic}.`,
        `Subscribe for our next post on ${topic}.`,
      ];
  return all[(hash32(`${seed}|cta`) + k) % all.length];
}

const pickBy = <T>(items: readonly T[], seed: string): T => items[hash32(seed) % items.length];

/**
 * The items of a description: its list lines, else its `;`-separated parts, else its sentences; list markers and
 * trailing punctuation dropped, the user's words otherwise as written.
 */
export function descriptionItems(description: string): string[] {
  const text = description.trim();
  if (!text) return [];
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  let parts: string[];
  if (lines.length > 1) parts = lines;
  else if (text.includes(';')) parts = text.split(/\s*;\s*/);
  else parts = text.split(/(?<=[.!?])\s+(?=\p{Lu})/u);
  return parts
    .map((p) =>
      p
        .replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '')
        .replace(/^(?:and|or)\s+/i, '')
        .replace(/[.!?;:,]+$/, '')
        .trim(),
    )
    .filter((p) => /\p{L}/u.test(p));
}

/** "A; B; and C": items joined as one sentence (each as the user wrote it). */
function listOf(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join('; ')}; and ${items[items.length - 1]}`;
}

const NUMBER_WORDS = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const partsWord = (n: number) => (n >= 2 && n <= 10 ? NUMBER_WORDS[n - 2] : String(n));

/** What one part of a series says: its items, an introduction, a recap, or an item restated under its number. */
interface PartPlan {
  kind: 'items' | 'intro' | 'recap' | 'restate';
  items: string[];
}

/** Which items part `i` of `n` carries (see the module comment). */
export function planPart(items: string[], i: number, n: number): PartPlan {
  const k = items.length;
  if (k === 0) return { kind: i === 0 ? 'intro' : 'restate', items: [] };
  if (n <= k) return { kind: 'items', items: items.slice(Math.floor((i * k) / n), Math.floor(((i + 1) * k) / n)) };
  // One item that is a subject rather than a point ("product launch tips"): the series is about it.
  if (k === 1 && !isClause(items[0])) return { kind: i === 0 ? 'intro' : 'restate', items: [items[0]] };
  // More parts than items: an introduction first, then one item a part, a recap last (of two items or more).
  const recap = k >= 2 && n >= k + 2;
  if (i === 0) return { kind: 'intro', items: [] };
  if (i <= k) return { kind: 'items', items: [items[i - 1]] };
  if (recap && i === n - 1) return { kind: 'recap', items };
  return { kind: 'restate', items: [items[(i - k - 1) % k]] };
}

interface Written {
  sentences: string[];
  label: string;
  keyPointsUsed: number;
}

function writePart(input: SocialPostInput, b: Brief, title: string, items: string[]): Written {
  const part = input.part!;
  const plan = planPart(items, part.index, part.total);
  const n = part.total;
  const who = b.audience ? ` for ${b.audience}` : '';
  const recaps = planPart(items, n - 1, n).kind === 'recap';
  switch (plan.kind) {
    case 'intro':
      return {
        sentences: [
          n > 1
            ? `${title}: ${/^(?:[aeio]|8|1[18](?!\d))/.test(partsWord(n)) ? 'an' : 'a'} ${partsWord(n)}-part series${plan.items.length ? ` on ${plan.items[0]}` : ''}${who}.`
            : `${title}${who}.`,
          // What is coming, unless the last part recaps it.
          ...(items.length >= 2 && !recaps ? [`Coming up: ${listOf(items)}.`] : []),
        ],
        label: 'Introduction',
        keyPointsUsed: plan.items.length || (items.length >= 2 && !recaps ? items.length : 0),
      };
    case 'recap':
      return { sentences: [`${title}, in short: ${listOf(plan.items)}.`], label: 'Recap', keyPointsUsed: items.length };
    case 'restate':
      return {
        sentences: [
          plan.items.length
            ? `${title}, part ${part.index + 1} of ${n}: ${plan.items[0]}.`
            : `${title}, part ${part.index + 1} of ${n}.`,
        ],
        label: plan.items.length ? capitalize(plan.items[0]) : `Part ${part.index + 1}`,
        keyPointsUsed: plan.items.length,
      };
    default:
      return {
        sentences: plan.items.map((p) => asSentence(p)),
        label: capitalize(plan.items[0]),
        keyPointsUsed: plan.items.length,
      };
  }
}

/** A label for a title: at most `max` characters, cut at a word. */
function shortLabel(text: string, max = 90): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max).replace(/\s+\S*$/, '')}…`;
}

export function writeSocialPost(input: SocialPostInput): SocialPost {
  const seed = JSON.stringify({ ...input, part: input.part && { ...input.part, index: 0 } });
  const limit = Math.min(600, Math.max(15, input.word_count ?? 60)) * 1.1;
  const raw = input.topic.replace(/\s+/g, ' ').trim();
  let topic = raw;
  let description = input.part?.description?.trim() ?? '';
  if (input.part && !description) {
    const title = input.part.series_title.trim();
    if (title && raw.startsWith(title) && /^\s*:/.test(raw.slice(title.length))) {
      topic = title;
      description = raw.slice(title.length).replace(/^\s*:\s*/, '');
    }
  } else if (input.part) topic = input.part.series_title.trim() || raw;

  let sentences: string[];
  let title: string;
  let keyPoints: string[];
  let keyPointsUsed: number;
  let b: Brief;
  if (input.part) {
    keyPoints = descriptionItems(description);
    b = readBrief({ topic, audience: input.audience, keyPoints, tone: input.tone });
    const seriesTitle = b.topic;
    const w = writePart(input, b, seriesTitle, b.keyPoints);
    sentences = w.sentences;
    keyPointsUsed = w.keyPointsUsed;
    title = `${seriesTitle} (${input.part.index + 1}/${input.part.total}): ${shortLabel(w.label)}`;
  } else {
    // A topic of several sentences: the first is the topic, the others are said as written.
    const [first, ...rest] = raw.split(/(?<=[.!?])\s+(?=\p{Lu})/u);
    keyPoints = rest;
    b = readBrief({ topic: first, audience: input.audience, keyPoints, tone: input.tone });
    sentences = [openerOf(b, seed), ...b.keyPoints.map((p) => asSentence(p))];
    keyPointsUsed = b.keyPoints.length;
    title = titleOf(b.topic);
  }
  const cta = input.include_cta ? topicCta(b.topic, seed, input.part?.index ?? 0, Boolean(input.part)) : undefined;

  // Within the word limit: sentences in order (the first always), the call to action kept.
  const kept: string[] = [];
  let words = cta ? wordsIn(cta) : 0;
  for (const s of sentences) {
    if (kept.length && words + wordsIn(s) > limit) break;
    kept.push(s);
    words += wordsIn(s);
  }
  const thread = THREADS.has(input.content_type);
  const posts = [...kept, ...(cta ? [cta] : [])];
  const thread_content = thread
    ? posts.map((p, i) => `${i + 1}/${posts.length} ${p}`)
    : [kept.join(' '), ...(cta ? [cta] : [])].filter(Boolean);
  const names = namesIn([raw, input.audience ?? '']);
  const hashtags = input.include_hashtags === false ? [] : postHashtags(b, names, 4, kept.join(' '));
  const coverage = coverageOf(b, {
    keyPoints: Math.min(keyPointsUsed, b.keyPoints.length),
    sources: 0,
    words: wordsIn(thread_content.join(' ')),
    targetWords: Math.min(600, Math.max(15, input.word_count ?? 60)),
  });
  return { title, thread_content, hashtags, coverage };
}

/** The topic's noun phrases as hashtags (#ContentMarketing), at most `n` (kept for callers of the old helper). */
export function hashtagsOf(topic: string, n = 5): string[] {
  return postHashtags(readBrief({ topic }), namesIn([topic]), n);
}
