/**
 * writePlatformPost: the offline writer's post for a social platform
 * (professional-network posts, short posts, captions, ad text).
 *
 * What it is: a hook (template by tone family over the topic and audience,
 * states no fact), the client's own key points, the source sentences that
 * best match topic + key points (BM25; each attributed to its source by
 * title, so every fact is traceable), a call to action (template) and
 * hashtags (the client's, then PascalCase phrases of the topic and of the
 * phrases the sources share). It is fitted to the platform's character limit
 * by dropping the least important parts first (the sources line, then extra
 * evidence and key points), never by cutting a sentence in the middle unless
 * the hook alone is over the limit. Deterministic: choices come from a hash of
 * the input.
 */
import type { Source } from './types';
import { bestEvidence, buildEvidencePool, numberSources } from './evidence';
import { audienceOf, toneFamily, ToneFamily } from './phrases';
import { capitalize, contentWords, pick, terminate } from './text';
import { termStats, topPhrases } from './terms';
import { STOPWORDS } from '../analysis/stopwords';

export interface PlatformPostInput {
  /** Platform token (profnet, socialnet, photonet, microblog, videonet, adnet_ads). */
  platform: string;
  topic: string;
  /** e.g. `post`, `article`, `caption`: an article-like type carries more evidence. */
  content_type?: string;
  tone?: string;
  audience?: string;
  key_points?: string[];
  include_hashtags: boolean;
  /** Hashtags the client wants (with or without `#`); they come first. */
  hashtags?: string[];
  include_cta: boolean;
  /** The platform's character limit (Unicode code points). */
  max_characters: number;
  /** Most hashtags to add. */
  max_hashtags: number;
  sources?: Source[];
}

export interface PlatformPostDraft {
  content: string;
  hashtags: string[];
  call_to_action: string | null;
  character_count: number;
  character_limit: number;
  /** Sources whose sentences the post quotes. */
  sources: Array<{ title: string; url: string }>;
}

type Table = Record<ToneFamily, string[]>;

const HOOKS: Table = {
  formal: ['{Topic}: what {audience} should know.', 'A closer look at {topic} for {audience}.', 'Notes on {topic}.'],
  friendly: ["Let's talk about {topic}.", 'Quick thoughts on {topic} for {audience}.', 'Been thinking about {topic}.'],
  persuasive: [
    '{Topic} deserves more attention than it gets.',
    'If {topic} is not on your list yet, it should be.',
    '{Topic} is where {audience} can pull ahead.',
  ],
  neutral: ['On {topic}.', 'A few notes on {topic}.', 'Some thoughts on {topic} for {audience}.'],
};

const CTAS: Table = {
  formal: [
    'How does your team approach this? I would value your perspective.',
    'What has worked in your organisation?',
  ],
  friendly: ['What has worked for you? Tell me in the comments.', "How do you handle this? I'd love to hear."],
  persuasive: ['Try one of these this week and share what changes.', 'Save this for your next planning session.'],
  neutral: ['What is your experience with this?', 'Which of these matters most to you?'],
};

const fill = (t: string, topic: string, audience: string) =>
  t
    .replace(/\{Topic\}/g, capitalize(topic))
    .replace(/\{topic\}/g, softLower(topic))
    .replace(/\{audience\}/g, softLower(audience));

/** Lower-cases plain capitalised words ("Repurposing") for use mid-sentence; acronyms and brands (SEO, SaaS) stay. */
export const softLower = (s: string) =>
  s.replace(/\p{L}+/gu, (w) => (/^\p{Lu}\p{Ll}+$/u.test(w) ? w.toLowerCase() : w));

/** `#PascalCase` of a phrase (letters and digits only), or undefined when nothing is left. */
export function pascalHashtag(phrase: string): string | undefined {
  const body = phrase
    .replace(/^#/, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    // Words with capitals after the first letter (B2B, SaaS, SEO) keep their casing; others become Capitalised.
    .map((w) => (/\p{Lu}/u.test(w.slice(1)) ? w : capitalize(w.toLowerCase())))
    .join('');
  return body ? `#${body}` : undefined;
}

const length = (s: string) => [...s].length;

/** Hashtags: the client's first, then the topic, then phrases the sources share; unique, at most `max`. */
function hashtagsFor(input: PlatformPostInput): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (phrase: string) => {
    const tag = pascalHashtag(phrase);
    if (!tag || seen.has(tag.toLowerCase()) || out.length >= input.max_hashtags) return;
    seen.add(tag.toLowerCase());
    out.push(tag);
  };
  (input.hashtags ?? []).forEach(add);
  // The topic's own words, casing kept (SEO stays SEO): the whole topic when short, then its longer words.
  const words = input.topic.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2 && !STOPWORDS.has(w.toLowerCase()));
  if (words.length && words.length <= 3) add(words.join(' '));
  // Two-word phrases several sources share that touch the topic ("content calendar" for a calendar post).
  const topicKeys = new Set(contentWords(input.topic));
  const stats = termStats((input.sources ?? []).map((s) => `${s.title}. ${s.excerpt ?? ''}`));
  for (const p of topPhrases(stats, 12))
    if (p.words === 2 && p.df >= 2 && contentWords(p.phrase).some((w) => topicKeys.has(w))) add(p.phrase);
  words.filter((w) => w.length >= 5).forEach(add);
  return out;
}

export function writePlatformPost(input: PlatformPostInput): PlatformPostDraft {
  const topic = input.topic.trim().replace(/[.!?]+$/, '');
  const audience = audienceOf(input.audience);
  const fam = toneFamily(input.tone);
  const seed = JSON.stringify([input.platform, topic, input.tone, input.audience, input.key_points]);
  const hook = fill(pick(HOOKS[fam], `${seed}|hook`), topic, audience);
  const points = (input.key_points ?? []).map((p) => terminate(capitalize(p.trim()))).filter((p) => p.length > 1);

  const numbered = numberSources(input.sources ?? []);
  const pool = buildEvidencePool(numbered);
  const longForm = /article|long|thread|carousel/i.test(input.content_type ?? '');
  const evidence = bestEvidence(pool, [topic, ...points].join(' '), longForm ? 4 : 2).map((e) => ({
    text: `${terminate(e.text)} (${e.title})`,
    source: numbered.find((s) => s.n === e.n)!.source,
  }));
  const cta = input.include_cta ? pick(CTAS[fam], `${seed}|cta`) : null;
  const tags = input.include_hashtags ? hashtagsFor(input) : [];

  // Parts with a priority: lower numbers are dropped last. The hook, CTA and hashtags were asked for.
  type Part = { text: string; priority: number; kind: 'hook' | 'point' | 'evidence' | 'cta' | 'tags' | 'sources' };
  const parts: Part[] = [{ text: hook, priority: 0, kind: 'hook' }];
  points.forEach((p, i) => parts.push({ text: `→ ${p}`, priority: 3 + 2 * i, kind: 'point' }));
  evidence.forEach((e, i) => parts.push({ text: e.text, priority: 2 + 2 * i, kind: 'evidence' }));
  if (cta) parts.push({ text: cta, priority: 1, kind: 'cta' });
  const used = () => [
    ...new Map(
      parts
        .filter((p) => p.kind === 'evidence')
        .map((p) => evidence.find((e) => e.text === p.text)!.source)
        .map((s) => [s.url, { title: s.title, url: s.url }]),
    ).values(),
  ];
  if (evidence.length) parts.push({ text: '', priority: 100, kind: 'sources' });
  if (tags.length) parts.push({ text: tags.join(' '), priority: 1, kind: 'tags' });

  const render = () => {
    const src = used();
    return parts
      .map((p) => (p.kind === 'sources' ? (src.length ? `Sources: ${src.map((s) => s.url).join(' ')}` : '') : p.text))
      .filter(Boolean)
      .join('\n\n');
  };
  let content = render();
  while (length(content) > input.max_characters) {
    const droppable = parts.filter((p) => p.kind !== 'hook').sort((a, b) => b.priority - a.priority)[0];
    if (!droppable || droppable.priority <= 1) break;
    parts.splice(parts.indexOf(droppable), 1);
    content = render();
  }
  if (length(content) > input.max_characters) {
    // Only the hook, CTA and hashtags are left and still too long: keep what fits, at a word boundary.
    const chars = [...content].slice(0, Math.max(0, input.max_characters - 1)).join('');
    content = `${chars.replace(/\s+\S*$/, '')}…`;
  }
  return {
    content,
    hashtags: tags.filter((t) => content.includes(t)),
    call_to_action: cta && content.includes(cta) ? cta : null,
    character_count: length(content),
    character_limit: input.max_characters,
    sources: used(),
  };
}
