/**
 * writePlatformPost: the offline writer's post for a social platform
 * (professional-network posts, short posts, captions, ad text), written from
 * the brief, not to a length (compose.ts has the rules).
 *
 * What it is: an opening line naming the topic and the audience (after
 * prepositions only, so it reads for any phrase), the client's own key points
 * as written, the source sentences that are about the brief (social-compose.ts
 * `topicScore`: a phrase of the topic, or its words and a source about it; each
 * source named once after its sentences, so every fact is traceable), a call
 * to action made from the topic, and hashtags (the client's, then whole
 * phrases of the names and the topic; never a fragment). A
 * topic the sources do not cover gets no source sentence: the post is the
 * brief's own material and shorter, and `coverage` says so.
 *
 * The source sentences are named by their source's title; the sources' links
 * are in `sources`, not in the text. It is fitted to the platform's character
 * limit by giving up, in order: source sentences, the audience in the opening
 * line, hashtags beyond the first, the opening line, then key points from the
 * last; never by cutting a sentence in the middle unless what is left is still
 * too long.
 * Deterministic: choices come from a hash of the input.
 */
import type { Source } from './types';
import { bestEvidence, buildEvidencePool, numberSources } from './evidence';
import { Coverage, coverageOf, keysOf, namesIn, pointSentence, readBrief, sharedKeys } from './compose';
import { briefHashtags, callToAction, hookSentence, rankAbout, shortHook } from './social-compose';
import { capitalize, terminate } from './text';

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
  /** How the post met the brief: key points and source sentences used, and why it is short when it is. */
  coverage: Coverage;
}

/** Lower-cases plain capitalised words ("Repurposing") for use mid-sentence; acronyms and brands (SEO, SaaS) stay. */
export const softLower = (s: string) =>
  s.replace(/\p{L}+/gu, (w) => (/^\p{Lu}\p{Ll}+$/u.test(w) ? w.toLowerCase() : w));

/** `#PascalCase` of a phrase (letters and digits only), or undefined when nothing is left. */
export function pascalHashtag(phrase: string): string | undefined {
  const body = phrase
    .replace(/^#/, '')
    .replace(/[’']s\b/g, 's')
    .replace(/[’']/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    // Words with capitals after the first letter (B2B, SaaS, SEO) keep their casing; others become Capitalised.
    .map((w) => (/\p{Lu}/u.test(w.slice(1)) ? w : capitalize(w.toLowerCase())))
    .join('');
  return body ? `#${body}` : undefined;
}

const length = (s: string) => [...s].length;

/** Hashtags: the client's first, then whole phrases of the brief; unique, at most `max`. */
function hashtagsOf(input: PlatformPostInput, brief: ReturnType<typeof readBrief>, names: string[]): string[] {
  const out: string[] = [];
  const add = (tag: string | undefined) => {
    if (tag && out.length < input.max_hashtags && !out.some((t) => t.toLowerCase() === tag.toLowerCase()))
      out.push(tag);
  };
  (input.hashtags ?? []).forEach((h) => add(pascalHashtag(h)));
  briefHashtags(brief, names, input.max_hashtags).forEach(add);
  return out;
}

export function writePlatformPost(input: PlatformPostInput): PlatformPostDraft {
  const brief = readBrief({
    topic: input.topic,
    audience: input.audience,
    keyPoints: input.key_points,
    tone: input.tone,
    cta: input.include_cta ? true : undefined,
  });
  const seed = JSON.stringify([input.platform, brief.topic, input.tone, input.audience, input.key_points]);
  const names = namesIn([input.topic, ...(input.key_points ?? [])]);
  const points = brief.keyPoints.map(pointSentence);

  // Source sentences about the brief, best first; a sentence that only restates a key point adds nothing.
  const numbered = numberSources(input.sources ?? []);
  const pool = buildEvidencePool(numbered);
  const longForm = /article|long|thread|carousel/i.test(input.content_type ?? '');
  const pointKeys = points.map((p) => keysOf(p));
  const chosen = rankAbout(bestEvidence(pool, [brief.topic, ...brief.keyPoints].join(' '), 16), brief)
    .filter((e) => !pointKeys.some((k) => k.size > 0 && sharedKeys(e.text, k) >= k.size))
    .slice(0, longForm ? 4 : 2);
  // One paragraph per source, in the order its first sentence was chosen, named once after its sentences.
  const groups: Array<{ source: Source; sentences: string[] }> = [];
  for (const e of chosen) {
    const source = numbered.find((s) => s.n === e.n)!.source;
    const g = groups.find((x) => x.source === source);
    if (g) g.sentences.push(terminate(e.text));
    else groups.push({ source, sentences: [terminate(e.text)] });
  }

  const cta = callToAction(brief, seed) ?? null;
  const allTags = input.include_hashtags ? hashtagsOf(input, brief, names) : [];

  // What the post is made of; fitting gives parts up in the order of the module comment.
  const state = {
    hook: hookSentence(brief, seed) as string | undefined,
    points: [...points],
    groups: [...groups],
    tags: [...allTags],
  };
  const render = () =>
    [
      state.hook,
      state.points.map((p) => `→ ${p}`).join('\n'),
      ...state.groups.map((g) => `${g.sentences.join(' ')} (${g.source.title})`),
      cta,
      state.tags.join(' '),
    ]
      .filter(Boolean)
      .join('\n\n');
  const steps: Array<() => boolean> = [
    () => state.groups.length > 0 && Boolean(dropLastSentence(state.groups)),
    () => {
      const short = shortHook(brief, seed);
      if (!state.hook || state.hook === short) return false;
      state.hook = short;
      return true;
    },
    () => state.tags.length > 1 && Boolean(state.tags.pop()),
    () => state.hook !== undefined && !(state.hook = undefined),
    () => state.points.length > 0 && Boolean(state.points.pop()),
  ];
  let content = render();
  for (const step of steps) {
    while (length(content) > input.max_characters && step()) content = render();
    if (length(content) <= input.max_characters) break;
  }
  if (length(content) > input.max_characters) {
    // Only the call to action and one hashtag are left and still too long: keep what fits, at a word boundary.
    const chars = [...content].slice(0, Math.max(0, input.max_characters - 1)).join('');
    content = `${chars.replace(/\s+\S*$/, '')}…`;
  }

  const used = state.groups.map((g) => ({ title: g.source.title, url: g.source.url }));
  const coverage = coverageOf(brief, { keyPoints: state.points.length, sources: used.length });
  if (state.points.length < points.length)
    coverage.shortfall = `${state.points.length} of ${points.length} key points: the rest do not fit ${input.platform}'s limit of ${input.max_characters} characters`;
  else if (points.length === 0 && used.length === 0)
    coverage.shortfall =
      'no key points and no source about the topic: the post states only the topic; add key points, or configure a language model (docs/providers.md)';
  return {
    content,
    hashtags: state.tags.filter((t) => content.split(/\s+/).includes(t)),
    call_to_action: cta && content.includes(cta) ? cta : null,
    character_count: length(content),
    character_limit: input.max_characters,
    sources: used,
    coverage,
  };
}

/** Drops the last source sentence (and its source's paragraph when it was the only one); false when none is left. */
function dropLastSentence(groups: Array<{ sentences: string[] }>): boolean {
  const last = groups[groups.length - 1];
  if (!last) return false;
  last.sentences = last.sentences.slice(0, -1);
  if (last.sentences.length === 0) groups.pop();
  return true;
}
