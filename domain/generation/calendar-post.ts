/**
 * writeSocialPost: a calendar post of the offline writer (`local` provider).
 * Not a language model: it frames the request's topic with the writer's own
 * template sentences (phrases.ts, grouped by tone family), never states a fact
 * or a number, and chooses between equivalent templates by a hash of the
 * input, so the same request gives the same post. A thread type gives several
 * short posts (hook, one per angle, closer); other types one to three
 * paragraphs. Hashtags are the topic's content words. The gateway returns its
 * answer as JSON {title, thread_content, hashtags}, the shape vendors are
 * asked for.
 */
import { STOPWORDS } from '../analysis/stopwords';
import { audienceOf, CLOSERS, ELABORATIONS, fill, LEADS, toneFamily } from './phrases';
import { capitalize, hash32, rotate, titleCase, wordsIn } from './text';

export interface SocialPostInput {
  topic: string;
  content_type: string;
  platform: string;
  tone?: string;
  audience?: string;
  /** Words wanted over all of thread_content (default 60; bounded 15..600). */
  word_count?: number;
  include_hashtags?: boolean;
  include_cta?: boolean;
  /** Position in a series: varies the angle and names the part. */
  part?: { index: number; total: number; series_title: string };
}

export interface SocialPost {
  title: string;
  thread_content: string[];
  hashtags: string[];
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
const ANGLES = [
  'why it matters',
  'where to start',
  'common mistakes',
  'what to measure',
  'a simple routine',
  'what to try next',
];
const TITLE_FRAMES: Record<string, string[]> = {
  video: ['{T}: A Short Walkthrough', '{T} in Under a Minute'],
  video_script: ['{T}: A Short Walkthrough', '{T} in Under a Minute'],
  blog_post: ['A Practical Guide to {T}', '{T}: What to Know'],
  story: ['{T} Today', 'A Quick Look at {T}'],
};
const CTAS: Record<string, string[]> = {
  formal: ['Share how your team approaches this.', 'Follow for the next part.'],
  friendly: ['Tell us in the comments what worked for you!', 'Save this for later and share it with a friend.'],
  persuasive: ['Start this week and tell us how it goes.', 'Follow now so you do not miss the next one.'],
  neutral: ['Share your experience in the comments.', 'Follow for more on this topic.'],
};

/**
 * Templates that read well when subject and topic are the same phrase (a post
 * has one topic): no template naming both, none that mentions research.
 */
const usable = (templates: string[]) =>
  templates.filter((t) => !(/\{topic\}/i.test(t) && /\{subject\}/i.test(t)) && !/research/i.test(t));

/** The topic's content words as hashtags (#ContentMarketing), at most `n`. */
export function hashtagsOf(topic: string, n = 5): string[] {
  const words = topic.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && !STOPWORDS.has(w.toLowerCase()));
  const tags: string[] = [];
  if (words.length >= 2) tags.push(`#${words.slice(0, 3).map(capitalize).join('')}`);
  for (const w of words) tags.push(`#${capitalize(w.toLowerCase())}`);
  return [...new Set(tags)].slice(0, n);
}

export function writeSocialPost(input: SocialPostInput): SocialPost {
  const seed = JSON.stringify(input);
  const family = toneFamily(input.tone);
  const topic = input.topic.trim().replace(/[.!?]+$/, '');
  const subject = topic.toLowerCase();
  const slots = { subject, topic: subject, audience: audienceOf(input.audience) };
  const angle = input.part ? ANGLES[input.part.index % ANGLES.length] : undefined;
  const frames = TITLE_FRAMES[input.content_type] ?? ['{T}', '{T}: Where to Start', 'Getting {T} Right'];
  const base = frames[hash32(seed) % frames.length].replace('{T}', titleCase(topic));
  const title = input.part
    ? `${input.part.series_title} (${input.part.index + 1}/${input.part.total}): ${titleCase(topic)}, ${angle}`
    : base;
  const target = Math.min(600, Math.max(15, input.word_count ?? 60));
  const leads = rotate(usable(LEADS[family]), seed).map((t) => fill(t, slots));
  const more = rotate(usable(ELABORATIONS[family]), `${seed}:e`).map((t) => fill(t, slots));
  const closer = fill(rotate(usable(CLOSERS[family]), `${seed}:c`)[0], slots);
  const cta = input.include_cta ? rotate(CTAS[family], `${seed}:a`)[0] : undefined;
  const sentences = [leads[0], ...(angle ? [`This part is about ${angle}.`] : []), ...more];
  const thread = THREADS.has(input.content_type);
  const out: string[] = [];
  let words = wordsIn(closer) + (cta ? wordsIn(cta) : 0);
  const parts: string[] = [];
  for (const s of sentences) {
    if (words + wordsIn(s) > target * 1.1 && parts.length) break;
    parts.push(s);
    words += wordsIn(s);
    if (words >= target * 0.9) break;
  }
  if (thread) {
    // One short post per sentence, numbered as threads are.
    const posts = [...parts, closer, ...(cta ? [cta] : [])];
    posts.forEach((p, i) => out.push(`${i + 1}/${posts.length} ${p}`));
  } else {
    const per = Math.max(1, Math.ceil(parts.length / 3));
    for (let i = 0; i < parts.length; i += per) out.push(parts.slice(i, i + per).join(' '));
    out.push([closer, cta].filter(Boolean).join(' '));
  }
  return { title, thread_content: out, hashtags: input.include_hashtags === false ? [] : hashtagsOf(topic) };
}
