/**
 * The social writers' share of the offline writer's grammar (compose.ts holds the rules; this adds what a post
 * needs on top of them): an opening line, a question and a call to action that name the topic after a
 * preposition only, a shorter name for the topic once the post has said it in full (`topicRef`), hashtags of whole
 * phrases (`briefHashtags`; names come from compose.ts `namesIn`), and a stricter test of "about the brief" for the few source
 * sentences a post has room for (`topicScore`: a phrase of the topic, not two words that happen to recur).
 *
 * Every sentence made here names the topic (or the call to action the user wrote), so no sentence of a post is
 * about nothing in particular: there is no "What has worked for you?" or "Tell us in the comments below!".
 * Used by platform-post.ts, social/*.ts and copy.ts. Deterministic: choices come from a hash of the seed.
 */
import { STOPWORDS } from '../analysis/stopwords';
import { contentKeys, wordKey } from '../analysis/word-forms';
import { asSentence, Brief, toHashtag } from './compose';
import { pointKind, ToneFamily } from './phrases';
import { GENERIC } from './terms';
import { pick } from './text';

type Table = Record<ToneFamily, string[]>;

/** Opening lines: the topic after "on"/"about"/"to", the audience after "for" (grammatical for any phrase). */
const HOOKS: Record<'withAudience' | 'without', Table> = {
  withAudience: {
    formal: ['A short briefing on {topic} for {audience}.', 'Notes on {topic}, written for {audience}.'],
    friendly: ['A few notes on {topic} for {audience}.', 'Quick notes on {topic} for {audience}.'],
    persuasive: [
      'Here is what to get right about {topic}, for {audience}.',
      'For {audience}: what matters most about {topic}.',
    ],
    neutral: ['Some notes on {topic} for {audience}.', 'This post covers {topic} for {audience}.'],
  },
  without: {
    formal: ['A short briefing on {topic}.', 'Notes on {topic}.'],
    friendly: ['A few notes on {topic}.', 'Quick notes on {topic}.'],
    persuasive: ['Here is what to get right about {topic}.', 'What matters most about {topic}.'],
    neutral: ['Some notes on {topic}.', 'This post covers {topic}.'],
  },
};

/** The post's first line: names the topic and the audience. A topic with its own "for …" keeps the audience apart. */
export function hookSentence(b: Brief, seed: string, audience = b.audience): string {
  const withAudience = Boolean(audience) && !/\bfor\b/i.test(b.topic);
  const t = pick(HOOKS[withAudience ? 'withAudience' : 'without'][b.family], `${seed}|hook`);
  // Every hook has the topic mid-sentence: a sentence-case topic loses its capital (topicPhrase), a name keeps it.
  const line = t.replace('{topic}', topicMidSentence(b)).replace('{audience}', audience ?? '');
  return audience && !withAudience ? `${line.replace(/\.$/, '')}, written with ${audience} in mind.` : line;
}

/** The one-line hook without the audience (for short platforms). */
export const shortHook = (b: Brief, seed: string): string => hookSentence(b, seed, '');

const PLURAL = /^\p{L}[\p{L}-]*[^s'’]s$/u;
const LEAD = /^(?:a|an|the|\p{Ll}{3,}ing)$/u;
const NOT_GERUND =
  /^(?:thing|string|spring|morning|evening|ceiling|building|clothing|wedding|pudding|ring|king|wing)$/i;
/** Words that end a phrase for a tag or a short name ("an email newsletter people want to read"). */
const PHRASE_BREAK = new Set(
  'want wants need needs make makes made get gets help helps people also however instead still already always never often well like just even much many really actually usually'.split(
    ' ',
  ),
);

/** The run of words after a leading verb in -ing and an article, up to the first function word. */
function headRun(topic: string): string[] {
  const words = topic.split(/\s+/).filter(Boolean);
  let i = 0;
  while (i < words.length - 1 && i < 2 && LEAD.test(words[i]) && !NOT_GERUND.test(words[i])) i++;
  const run: string[] = [];
  for (const w of words.slice(i)) {
    const clean = w.replace(/[,;:.!?]+$/, '');
    if (!clean || STOPWORDS.has(clean.toLowerCase()) || PHRASE_BREAK.has(clean.toLowerCase())) break;
    run.push(clean);
    if (clean !== w) break;
  }
  return run;
}

/**
 * The noun phrase a topic is about: the run of words after a leading verb in -ing and an article ("author events"
 * of "author events at an independent bookshop", "home water pipes" of "protecting home water pipes from freezing"),
 * with the verb when its object is one word ("learning piano", "posting times"); undefined when the topic does not
 * start with one ("when to post on social media") or it has more than three words.
 */
export function headPhrase(topic: string): string | undefined {
  const run = headRun(topic);
  // Four words or more are a name or a phrase that cutting would break ("Books Author Night").
  if (run.length === 0 || run.length > 3) return undefined;
  // One word after a verb in -ing is its object: "posting times", "learning piano" (not "times", "piano").
  const words = topic.split(/\s+/);
  if (run.length === 1 && /^\p{Ll}{3,}ing$/u.test(words[0]) && !NOT_GERUND.test(words[0]) && words[1] === run[0])
    return `${words[0]} ${run[0]}`;
  return run.join(' ');
}

/** "newsletter" -> "newsletters", "class" -> "classes", "city" -> "cities"; undefined for a word it cannot tell. */
function plural(word: string): string | undefined {
  if (!/^\p{Ll}[\p{Ll}-]*$/u.test(word) || PLURAL.test(word)) return undefined;
  if (/(?:s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/**
 * A shorter name for the topic, for the sentences after the opening line, so a post does not say "protecting home
 * water pipes from freezing in winter" three times. The topic's first phrase, without what follows its first
 * preposition:
 *  - a topic that opens with a verb in -ing keeps it and its object: "checking a roof" (after a storm), "choosing
 *    a wholesale coffee roaster" (for a café), "protecting home water pipes" (from freezing in winter);
 *  - a noun phrase as written when it has no article ("author events", "local SEO", "preventive HVAC maintenance
 *    contracts"), in the plural when it has "a"/"an" ("an email newsletter people want to read" -> "email
 *    newsletters", "a first yoga class" -> "first yoga classes"), with "the" or a possessive as written.
 * The whole topic when it is short, opens with a question word ("when to post …") or has no such phrase.
 */
export function topicRef(topic: string): string {
  const words = topic.split(/\s+/).filter(Boolean);
  if (words.length <= 3 || /^(?:when|how|what|why|where|which|who|whether)$/i.test(words[0])) return topic;
  let i = 0;
  const out: string[] = [];
  // "keeping a commuter bike (in good repair)": a light verb means little without what follows.
  if (/^(?:keeping|getting|making|staying|being|having|going|doing|taking)$/i.test(words[0])) return topic;
  if (/^\p{Ll}{3,}ing$/u.test(words[0]) && !NOT_GERUND.test(words[0])) out.push(words[i++]);
  const article = /^(?:a|an|the)$/i.test(words[i] ?? '') ? words[i++] : undefined;
  const run: string[] = [];
  for (const w of words.slice(i)) {
    const clean = w.replace(/[,;:.!?]+$/, '');
    if (!clean || STOPWORDS.has(clean.toLowerCase()) || PHRASE_BREAK.has(clean.toLowerCase())) break;
    run.push(clean);
    if (clean !== w || run.length >= 4) break;
  }
  if (run.length === 0) return topic;
  let phrase: string[];
  if (out.length) phrase = [...out, ...(article ? [article] : []), ...run];
  else if (article && /^an?$/i.test(article) && !run.some((w) => /[’']/.test(w))) {
    const many = plural(run[run.length - 1]);
    phrase = many ? [...run.slice(0, -1), many] : [article, ...run];
  } else phrase = article ? [article, ...run] : run;
  const ref = phrase.join(' ');
  return phrase.length < words.length && !(phrase.length === 1 && GENERIC.has(ref.toLowerCase())) ? ref : topic;
}

/** The topic as written, for the middle of a sentence: a sentence-case first letter lowered (lowerFirst). */
export function topicMidSentence(b: Pick<Brief, 'topic' | 'commonWords'>): string {
  return lowerFirst(b.topic, b.commonWords);
}

/**
 * The brief's topic for the middle of a sentence ("Share it with someone thinking about {ref}."): topicRef of the
 * topic, its first letter lowered when the topic is in sentence case (lowerFirst: a word the sources write in lower
 * case, Brief.commonWords, or a plain word) — "Author evenings at Riverside Books" → "author evenings"; a name stays
 * ("Riverside Books events", "Shopify tips").
 */
export function topicPhrase(b: Pick<Brief, 'topic' | 'commonWords'>): string {
  return topicRef(topicMidSentence(b));
}

const QUESTIONS = {
  list: ['Which of these points on {ref} would you try first?', 'What would you add to this list on {ref}?'],
  other: [
    'What would you add about {ref}?',
    'What questions do you have about {ref}?',
    'What has your experience been with {ref}?',
  ],
};

/** A question to the reader about the topic (a list post asks about its points). */
export function questionSentence(b: Brief, seed: string, list = false): string {
  const ref = topicPhrase(b);
  // "experience with when to post …" does not read: a wh-clause topic only follows "about".
  const pool = list
    ? QUESTIONS.list
    : QUESTIONS.other.filter((q) => !/^(?:when|how|what|why|where|which|who)\b/i.test(ref) || q.includes('about'));
  return pick(pool, `${seed}|question`).replace('{ref}', ref);
}

const CTAS = {
  /** After a question that already invites comments: calls that do something else. */
  afterQuestion: ['Follow us for more on {ref}.', 'Save this post and share it with someone thinking about {ref}.'],
  alone: [
    'Follow us for more on {ref}.',
    'Comment with your thoughts on {ref}.',
    'Send us your questions about {ref}.',
    'Save this post and share it with someone thinking about {ref}.',
  ],
};

/**
 * The call to action: the user's own (as written) when the brief has one, else a call made from the topic that
 * starts with the verb of the call. Undefined when none was asked for.
 */
export function callToAction(b: Brief, seed: string, opts: { afterQuestion?: boolean } = {}): string | undefined {
  if (!b.cta) return undefined;
  if (typeof b.cta === 'string') return asSentence(b.cta);
  return pick(opts.afterQuestion ? CTAS.afterQuestion : CTAS.alone, `${seed}|cta`).replace('{ref}', topicPhrase(b));
}

const CALENDAR =
  /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/i;

/** Runs of up to three words (the last three) between function words and the words that end a phrase. */
function phrasesOf(text: string): string[] {
  const runs: string[][] = [[]];
  for (const w of text.split(/\s+/)) {
    const word = w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}’']+$/gu, '');
    const l = word.toLowerCase();
    const run = runs[runs.length - 1];
    if (!word || STOPWORDS.has(l) || PHRASE_BREAK.has(l)) runs.push([]);
    // A verb in -ing opens a phrase ("protecting home water pipes"); inside one it is a noun ("tax filing").
    else if (!(run.length === 0 && /^\p{Ll}{3,}ing$/u.test(word) && !NOT_GERUND.test(word))) run.push(word);
    if (/[,.;:!?]$/.test(w)) runs.push([]);
  }
  // A long run keeps its last three words ("HVAC maintenance contracts"), unless it is a name ("Riverside Books
  // Author Night"), which is a tag whole or not at all.
  return runs
    .filter((r) => r.length && !(r.length > 3 && r.slice(1).some((w) => /^\p{Lu}/u.test(w))))
    .map((r) => r.slice(-3).join(' '));
}

/**
 * Hashtags of a brief, whole phrases only (compose.ts `toHashtag`): the names that make a tag (two words or more,
 * or written with inner capitals: "#RiversideBooks", "#SafeLift", "#SEO"; not days, months or a lone capitalised
 * word such as "Dutch"), then the topic's head phrase ("#AuthorEvents", "#LearningPiano"), its other phrases of two or
 * three words ("#IndependentBookshop") and its plural nouns. Key points are sentences, not phrases: a run cut from
 * one ("#SkinTwice", "#FlowersCostLess") is not a tag, so a post has fewer tags rather than those.
 */
export function briefHashtags(b: Brief, names: string[], n: number): string[] {
  if (n <= 0) return [];
  // An acronym is a tag when the topic has it ("#SEO"); from a key point it is a word of a sentence ("the URL").
  const acronym = (x: string) => /^[\p{Lu}\p{N}]+$/u.test(x);
  const tagNames = names.filter(
    (x) =>
      !CALENDAR.test(x) &&
      (/\s/.test(x.trim()) || /\p{Lu}/u.test(x.slice(1)) || /\p{N}/u.test(x)) &&
      (!acronym(x) || b.topic.split(/[^\p{L}\p{N}]+/u).includes(x)),
  );
  const phrases = phrasesOf(b.topic).filter((p) => !CALENDAR.test(p) && !GENERIC.has(p.toLowerCase()));
  const head = headPhrase(b.topic);
  const candidates = [
    ...tagNames,
    ...(head && !PHRASE_BREAK.has(head.toLowerCase()) ? [head] : []),
    ...phrases.filter((p) => p.includes(' ')),
    ...phrases.filter((p) => !p.includes(' ') && PLURAL.test(p) && p.length >= 5),
  ];
  const out: string[] = [];
  for (const phrase of candidates) {
    const t = toHashtag(phrase);
    if (t && !out.some((x) => x.toLowerCase() === t.toLowerCase())) out.push(t);
    if (out.length >= n) break;
  }
  return out;
}

/**
 * A `#PascalCase` hashtag as the words it was made from ("#RiversideBooks" -> "Riverside Books", "#SafeLift" ->
 * "Safe Lift", "#HVACMaintenance" -> "HVAC Maintenance"): the form a normaliser that capitalises each word keeps.
 */
export function tagWords(tag: string): string {
  return tag
    .replace(/^#/, '')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
}

const GENERIC_KEYS: ReadonlySet<string> = new Set([...GENERIC].map((w) => wordKey(w)));

/** Runs of specific content-word keys between function words and punctuation (general words left out). */
function keyRuns(text: string): string[][] {
  return text
    .split(/[,;:.!?()"“”]+|\s[–—-]\s/)
    .flatMap((chunk) => {
      const runs: string[][] = [[]];
      for (const w of chunk.split(/\s+/)) {
        const word = w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
        if (!word) continue;
        if (STOPWORDS.has(word.toLowerCase())) {
          runs.push([]);
          continue;
        }
        const keys = contentKeys(word).filter((k) => !GENERIC_KEYS.has(k));
        runs[runs.length - 1].push(...keys);
      }
      return runs;
    })
    .filter((r) => r.length);
}

const pairKey = (a: string, b: string) => (a < b ? `${a} ${b}` : `${b} ${a}`);

/** Pairs of keys that stand in one phrase of `text` (every pair of a run: "preventive HVAC maintenance contracts"). */
function phrasePairs(text: string): Set<string> {
  const out = new Set<string>();
  for (const run of keyRuns(text))
    for (let i = 0; i < run.length; i++) for (let j = i + 1; j < run.length; j++) out.add(pairKey(run[i], run[j]));
  return out;
}

/**
 * How well a source sentence is about the brief, 0 when it is not. compose.ts `isRelevant` asks for two specific
 * words shared with the brief; that lets in "Link schemes such as private blog networks, mass guest posting …" for
 * "refreshing old blog posts", and a post has room for a few sentences only. Here:
 *  - a sentence that names a phrase of the topic (two of its words side by side: "content calendar", "refreshing
 *    old", "content repurposing" for a topic whose words stand alone) is about it: 2, or 3 when the phrase comes
 *    in its first words (the sentence is about the topic, not only mentioning it);
 *  - one that shares three of the topic's words, or one of them and a phrase of a key point, is about it when its
 *    source is (the source's title names the topic): 1. "… the questions customers ask in reviews … local content"
 *    of a local SEO guide is not about keyword research;
 *  - a one-word topic: a sentence with that word, 2.
 */
export function topicScore(sentence: string, b: Brief, title = ''): number {
  const topicKeys = new Set(keyRuns(b.topic).flat());
  if (topicKeys.size === 0) return 0;
  const runs = keyRuns(sentence);
  const keys = new Set(runs.flat());
  const onTopic = [...topicKeys].filter((k) => keys.has(k)).length;
  if (onTopic === 0) return 0;
  if (topicKeys.size === 1) return 2;
  let allowed = phrasePairs(b.topic);
  if (allowed.size === 0) {
    const ks = [...topicKeys];
    allowed = new Set(ks.flatMap((a, i) => ks.slice(i + 1).map((c) => pairKey(a, c))));
  }
  // "keyword research for a small content team": a sentence about content teams is not about keyword research.
  const head = new Set(keyRuns(b.topic)[0]);
  const namesHead = [...head].some((k) => keys.has(k));
  // Where the phrase comes: in the first words, the sentence is about it; later, it only mentions it.
  const wordKeys = sentence.split(/\s+/).map((w) => new Set(contentKeys(w)));
  const at = (key: string) => wordKeys.findIndex((k) => k.has(key));
  for (const run of runs)
    for (let i = 0; i + 1 < run.length; i++)
      if (allowed.has(pairKey(run[i], run[i + 1])) && (namesHead || (head.has(run[i]) && head.has(run[i + 1]))))
        return at(run[i]) < 6 ? 3 : 2;
  const pointPairs = new Set(b.keyPoints.flatMap((p) => [...phrasePairs(p)]));
  const pointPhrase = runs.some((run) =>
    run.some((k, i) => i + 1 < run.length && pointPairs.has(pairKey(k, run[i + 1]))),
  );
  if (onTopic < 3 && !pointPhrase) return 0;
  const titleKeys = new Set(keyRuns(title).flat());
  const titleOn = [...topicKeys].filter((k) => titleKeys.has(k)).length;
  return titleOn >= Math.min(2, topicKeys.size) ? 1 : 0;
}

/** Whether a source sentence may stand in a post about the brief (`topicScore` above 0). */
export const aboutTopic = (sentence: string, b: Brief, title = ''): boolean => topicScore(sentence, b, title) > 0;

/** Candidates about the brief, best first: by `topicScore`, then in the order given (their search rank). */
export function rankAbout<T extends { text: string; title: string }>(candidates: T[], b: Brief): T[] {
  return candidates
    .map((c, i) => ({ c, i, score: topicScore(c.text, b, c.title) }))
    .filter((x) => x.score > 0)
    .sort((x, y) => y.score - x.score || x.i - y.i)
    .map((x) => x.c);
}

const PLAIN_OPENERS = new Set(['free', 'fast', 'faster', 'more', 'less', 'no', 'every', 'all', 'your', 'our', 'fewer']);

/**
 * The user's phrase for the middle of a sentence ("Looking for …?"): its first letter lowered only when its first
 * word cannot be a name: a verb of an instruction ("Plan sprints in minutes"), a function word or a general word
 * ("Free delivery", "Better reports"). Anything else stays as written ("Slack integration", "SEO audits").
 */
export function lowerFirst(phrase: string, common?: ReadonlySet<string>): string {
  const t = phrase.trim();
  const words = t.split(/\s+/);
  const first = words[0] ?? '';
  if (!/^\p{Lu}\p{Ll}+$/u.test(first) || /^\p{Lu}/u.test(words[1] ?? '')) return t;
  const l = first.toLowerCase();
  const plain =
    pointKind(t) === 'imperative' ||
    STOPWORDS.has(l) ||
    GENERIC.has(l) ||
    PLAIN_OPENERS.has(l) ||
    (common?.has(l) ?? false);
  return plain ? l + t.slice(first.length) : t;
}
