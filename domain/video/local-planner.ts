/**
 * The offline video planner (provider `local`, pure), used when no text vendor is configured: scenes from the
 * brief only — an opening, the key points, a closing — with narration that stays speakable in the video's time
 * and the coverage saying what it was built from.
 */
import { Brief, Coverage, coverageOf, pointSentence, readBrief } from '../generation/compose';
import type { ToneFamily } from '../generation/phrases';
import { capitalize } from '../generation/text';
import { NARRATION_WORDS_PER_SECOND, narrationSentences, plainNarration } from '../media/narration';
import { MIN_SCENE_SECONDS } from './formats';
import type { PlanDraft, PlanInput } from './types';
import { allocateDurations } from './plan';

const VIDEO_INTROS: Record<ToneFamily, { withAudience: string[]; without: string[] }> = {
  formal: {
    withAudience: ['This video sets out what {audience} should know about {topic}.'],
    without: ['This video sets out the essentials of {topic}.'],
  },
  friendly: {
    withAudience: ['Here is a quick look at {topic} for {audience}.'],
    without: ['Here is a quick look at {topic}.'],
  },
  persuasive: {
    withAudience: ['Here is what {audience} need to know about {topic}.'],
    without: ['Here is what matters most about {topic}.'],
  },
  neutral: {
    withAudience: ['This video covers {topic} for {audience}.'],
    without: ['This video covers {topic}.'],
  },
};
const VIDEO_CLOSERS: Record<ToneFamily, string> = {
  formal: 'Thank you for watching this overview of {topic}.',
  friendly: 'Thanks for watching, and good luck with {topic}.',
  persuasive: 'Now is the time to act on {topic}.',
  neutral: 'That was a short overview of {topic}.',
};

/** The opening sentence: the topic and audience after prepositions only (grammatical for any phrase). */
function videoIntro(b: Brief): string {
  const set = VIDEO_INTROS[b.family];
  // A topic with its own "for ..." would read "... for freelancers for freelance designers".
  if (b.audience && /\bfor\b/i.test(b.topic))
    return `${set.without[0].replace('{topic}', b.topic).replace(/\.$/, '')}, with ${b.audience} in mind.`;
  return (b.audience ? set.withAudience : set.without)[0]
    .replace('{topic}', b.topic)
    .replace('{audience}', b.audience ?? '');
}

/**
 * Scene headings of the offline planner: an opening, one scene per key point (several points a scene when the
 * plan has fewer scenes than points), a closing. No generic aspect scenes: a plan is as long as its brief.
 */
export function sceneHeadings(topic: string, keyPoints: readonly string[], n: number): string[] {
  return scenePlan(topic, keyPoints, n).map((s) => s.heading);
}

interface ScenePlan {
  heading: string;
  intro: boolean;
  points: string[];
  closing: boolean;
}

/** Which sentences each scene says: see sceneHeadings. */
function scenePlan(topic: string, keyPoints: readonly string[], n: number, intro = true, closing = true): ScenePlan[] {
  const k = keyPoints.length;
  const heading = (points: string[]) =>
    points.length === 1 ? capitalize(points[0]) : points.map((p) => capitalize(p)).join('; ');
  if (n <= 1 || k === 0) {
    if (n <= 1 || !intro || !closing) return [{ heading: capitalize(topic), intro, points: [...keyPoints], closing }];
    return [
      { heading: `Introducing ${topic}`, intro: true, points: [], closing: false },
      { heading: `Wrap-up: ${topic}`, intro: false, points: [], closing: true },
    ];
  }
  // Point scenes: as many as the plan allows after its opening and closing, at least one.
  let slots = n - (intro ? 1 : 0) - (closing ? 1 : 0);
  const ownIntro = intro && slots >= 1;
  if (!ownIntro) slots = n - (closing ? 1 : 0);
  const ownClosing = closing && slots >= 1;
  if (!ownClosing) slots = Math.max(1, n - (ownIntro ? 1 : 0));
  const groups = Math.min(k, Math.max(1, slots));
  const scenes: ScenePlan[] = [];
  if (ownIntro) scenes.push({ heading: `Introducing ${topic}`, intro: true, points: [], closing: false });
  for (let g = 0; g < groups; g++) {
    const points = keyPoints.slice(Math.floor((g * k) / groups), Math.floor(((g + 1) * k) / groups));
    scenes.push({
      heading: heading(points),
      intro: intro && !ownIntro && g === 0,
      points,
      closing: closing && !ownClosing && g === groups - 1,
    });
  }
  if (ownClosing) scenes.push({ heading: `Wrap-up: ${topic}`, intro: false, points: [], closing: true });
  return scenes;
}

const wordsOf = (text: string) => plainNarration(text).split(' ').filter(Boolean).length;

/**
 * The offline planner (provider `local`): not a language model, and written from relevance, not to a length
 * (domain/generation/compose.ts). The opening names the topic and audience; each key point is said once, as
 * written, in a scene headed by it; the closing names the topic. Nothing else is said: a plan with few key points
 * has few scenes (never fewer than two), and narration shorter than the video leaves the scenes room to breathe.
 * Durations are weighted by the narration's words and sum to the target exactly (scenesFromDraft); the narration
 * stays speakable in time (NARRATION_WORDS_PER_SECOND): when the brief says more than the video can hold, the
 * closing goes first, then the opening, then the last key points. Visuals describe what the renderer really draws.
 */
export function localVideoPlan(input: PlanInput): PlanDraft {
  const b = readBrief({ topic: input.topic, audience: input.audience, keyPoints: input.key_points, tone: input.tone });
  const style = input.style?.trim() || 'clean';
  const intro = videoIntro(b);
  const closing = VIDEO_CLOSERS[b.family].replace('{topic}', b.topic);
  const maxScenes = Math.max(1, Math.min(input.scene_count, Math.floor(input.duration_seconds / MIN_SCENE_SECONDS)));
  let points = b.keyPoints;
  let withIntro = true;
  let withClosing = true;
  const narrate = (s: ScenePlan) =>
    [...(s.intro ? [intro] : []), ...s.points.map((p) => pointSentence(p)), ...(s.closing ? [closing] : [])].join(' ');
  for (;;) {
    const plan = scenePlan(b.topic, points, maxScenes, withIntro, withClosing);
    const narration = plan.map(narrate);
    const words = narration.map(wordsOf);
    // Speakable when every scene's share of the video (as scenesFromDraft allocates it) holds its words.
    const durations = allocateDurations(
      words.map((w) => Math.max(1, w)),
      input.duration_seconds,
    );
    const fits = words.every((w, i) => w <= durations[i] * NARRATION_WORDS_PER_SECOND);
    const last = !withClosing && (points.length === 0 || (!withIntro && points.length === 1));
    if (fits || last) {
      const scenes = plan.map((s, i) => ({
        heading: s.heading,
        // A single point longer than the whole video can hold is cut at a word (the only cut the planner makes).
        narration: fits
          ? narration[i]
          : withinWords(narration[i], Math.floor(durations[i] * NARRATION_WORDS_PER_SECOND)),
        // The prompt of the scene's still (the image studio's offline renderer: palette, shapes and the motifs its words name).
        visual_description: `${style} abstract illustration for the scene “${s.heading}”, with a slow zoom`,
      }));
      return { title: titleOf(input.topic, input.format), scenes, coverage: planCoverage(b, input, points, scenes) };
    }
    if (withClosing) withClosing = false;
    else if (withIntro && points.length) withIntro = false;
    else points = points.slice(0, -1);
  }
}

/**
 * What the offline plan was built from (the brief only: the planner reads no sources) and why its narration is
 * shorter than the duration could hold, or leaves key points out (compose.ts `coverageOf`; it never pads).
 */
function planCoverage(b: Brief, input: PlanInput, points: string[], scenes: Array<{ narration: string }>): Coverage {
  const words = scenes.reduce((n, s) => n + wordsOf(s.narration), 0);
  const target = Math.floor(input.duration_seconds * NARRATION_WORDS_PER_SECOND);
  const c = coverageOf(b, { keyPoints: points.length, sources: 0, words, targetWords: target });
  const reasons: string[] = [];
  if (points.length < b.keyPoints.length)
    reasons.push(
      `${points.length} of ${b.keyPoints.length} key points: the rest do not fit ${input.duration_seconds} s of narration`,
    );
  if (c.shortfall)
    reasons.push(
      `${words} of the ${target} words ${input.duration_seconds} s can narrate: the offline planner says only the brief (${b.keyPoints.length} key point${b.keyPoints.length === 1 ? '' : 's'}; it reads no sources) and adds nothing to fill the time; add key points, or configure a language model (docs/providers.md)`,
    );
  if (reasons.length) c.shortfall = reasons.join('; ');
  else delete c.shortfall;
  return c;
}

/**
 * The first sentences of `text` that fit in `max` words (the writer's fixed
 * openers can overshoot a short scene's budget); a first sentence longer
 * than that is cut at `max` words.
 */
export function withinWords(text: string, max: number): string {
  const out: string[] = [];
  let n = 0;
  for (const s of narrationSentences(text)) {
    const w = s.split(/\s+/).length;
    if (n + w > max) {
      if (!out.length)
        out.push(
          `${s
            .split(/\s+/)
            .slice(0, max)
            .join(' ')
            .replace(/[,;:]$/, '')}.`,
        );
      break;
    }
    out.push(s);
    n += w;
  }
  return out.join(' ');
}

function titleOf(topic: string, format: string): string {
  const t = topic.charAt(0).toUpperCase() + topic.slice(1);
  return format === 'short' ? `${t} in under a minute` : t;
}
