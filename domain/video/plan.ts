/**
 * Plans (pure): durations that sum exactly to the target, a planner's draft
 * turned into a plan, scenes built from a plan, and the offline planner used
 * when no text vendor is configured.
 */
import { hash32 } from '../generation/text';
import { storableText } from '../storable-text';
import { writeSection } from '../generation/section';
import { NARRATION_WORDS_PER_SECOND, narrationSentences, plainNarration } from '../media/narration';
import { FORMAT_RULES, MIN_SCENE_SECONDS, sceneCount } from './formats';
import type { PlanDraft, PlanInput, PlanRequest, PlanScene, SceneVisual, VideoScene } from './types';

/** Scene durations are kept to tenths of a second. */
const STEP = 10;

/**
 * Splits `total` seconds over scenes in proportion to `weights`, in tenths of
 * a second by largest remainder, each scene at least MIN_SCENE_SECONDS: the
 * result sums to `total` exactly (to the tenth).
 */
export function allocateDurations(weights: readonly number[], total: number): number[] {
  const n = weights.length;
  const units = Math.round(total * STEP);
  const floor = MIN_SCENE_SECONDS * STEP;
  if (n === 0) return [];
  if (floor * n > units)
    throw new RangeError(`${n} scenes of at least ${MIN_SCENE_SECONDS} s do not fit in ${total} s`);
  const w = weights.map((x) => (Number.isFinite(x) && x > 0 ? x : 1));
  const sum = w.reduce((a, b) => a + b, 0);
  const spare = units - floor * n;
  const exact = w.map((x) => (spare * x) / sum);
  const base = exact.map(Math.floor);
  let left = spare - base.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    base[i]++;
    left--;
  }
  return base.map((b) => (b + floor) / STEP);
}

/** Settles the request's duration (format default) and scene count (format rule, or the request's within bounds). */
export function planInput(r: PlanRequest): PlanInput {
  const rule = FORMAT_RULES[r.format];
  // Scene durations are tenths of a second, so the target is too.
  const seconds = Math.round((r.duration_seconds ?? rule.default_seconds) * 10) / 10;
  const auto = sceneCount(r.format, seconds);
  const maxScenes = Math.floor(seconds / MIN_SCENE_SECONDS);
  return {
    topic: r.topic.trim(),
    format: r.format,
    duration_seconds: seconds,
    scene_count: r.scene_count ? Math.min(r.scene_count, maxScenes) : auto,
    key_points: (r.key_points ?? []).map((k) => k.trim()).filter(Boolean),
    audience: r.audience,
    tone: r.tone,
    style: r.style,
  };
}

/** A draft (local or vendor) as plan scenes: narration made plain, durations fitted to the target exactly. */
export function scenesFromDraft(draft: PlanDraft, input: PlanInput): PlanScene[] {
  const usable = draft.scenes.filter((s) => plainNarration(s.narration ?? '').length > 0);
  if (!usable.length) throw new RangeError('the plan has no scene with narration');
  const maxScenes = Math.floor(input.duration_seconds / MIN_SCENE_SECONDS);
  const kept = usable.slice(0, maxScenes);
  // Weights: the planner's own durations when it gave them all, else the narration's length.
  const given = kept.every((s) => typeof s.duration_seconds === 'number' && s.duration_seconds > 0);
  const weights = kept.map((s) => (given ? s.duration_seconds! : plainNarration(s.narration).split(' ').length));
  const durations = allocateDurations(weights, input.duration_seconds);
  // Vendor text is cleaned of what cannot be stored (NUL, unpaired surrogates) before it becomes an event.
  return kept.map((s, i) => {
    const heading = storableText(s.heading ?? '').trim() || `Scene ${i + 1}`;
    return {
      index: i,
      heading,
      narration: storableText(plainNarration(s.narration)),
      visual_description: storableText(s.visual_description ?? '').trim() || `Background for “${heading}”`,
      duration_seconds: durations[i],
    };
  });
}

/** Gradient pairs the scene builder picks from (by a hash of plan id and scene index: stable, no randomness). */
export const PALETTES: readonly (readonly [string, string])[] = [
  ['#1e3a8a', '#9333ea'],
  ['#0f766e', '#22d3ee'],
  ['#7c2d12', '#f59e0b'],
  ['#312e81', '#ec4899'],
  ['#14532d', '#a3e635'],
  ['#111827', '#6b7280'],
  ['#7f1d1d', '#f97316'],
  ['#0c4a6e', '#38bdf8'],
];

/**
 * The visual a freshly built scene gets: the image studio's offline still of
 * its visual description, zooming in and out in turn. The colours (a palette
 * stable per plan and index) are what a switch to `gradient` draws, and what
 * the podcast maker's gradients use.
 */
export function defaultVisual(planId: string, index: number): SceneVisual {
  const p = PALETTES[hash32(`${planId}:${index}`) % PALETTES.length];
  return { kind: 'image', colors: [p[0], p[1]], motion: index % 2 === 0 ? 'zoom_in' : 'zoom_out' };
}

/** Scenes built from a plan, with the given ids (one per plan scene, in order). */
export function buildScenes(planId: string, scenes: readonly PlanScene[], ids: readonly string[]): VideoScene[] {
  return scenes.map((s, i) => ({
    scene_id: ids[i],
    plan_id: planId,
    index: s.index,
    heading: s.heading,
    narration: s.narration,
    visual_description: s.visual_description,
    duration_seconds: s.duration_seconds,
    visual: defaultVisual(planId, i),
    voice: {},
  }));
}

const ASPECTS = [
  (t: string) => `What ${t} is`,
  (t: string) => `Why ${t} matters`,
  (t: string) => `How ${t} works`,
  (t: string) => `Getting started with ${t}`,
  (t: string) => `Common mistakes with ${t}`,
  (t: string) => `An example of ${t}`,
  (t: string) => `Measuring results of ${t}`,
  (t: string) => `Next steps with ${t}`,
];

/** Headings of `n` scenes: an opening, the key points and then generic aspects of the topic, a closing. */
export function sceneHeadings(topic: string, keyPoints: readonly string[], n: number): string[] {
  if (n <= 1) return [topic];
  const middle = n - 2;
  // The key points first, then generic aspects of the topic; only a very long plan repeats them.
  const points = [...keyPoints, ...ASPECTS.map((a) => a(topic))];
  const mids: string[] = [];
  for (let i = 0; i < middle; i++) {
    const p = points[i % points.length];
    const round = Math.floor(i / points.length);
    mids.push(round === 0 ? p : `${p} (part ${round + 1})`);
  }
  return [`Introducing ${topic}`, ...mids, `Key takeaways on ${topic}`];
}

/**
 * The offline planner (provider `local`): not a language model. Headings come
 * from the key points (or generic aspects of the topic); each scene's
 * narration is written by the offline writer (domain/generation) to a word
 * budget of the scene's length at NARRATION_WORDS_PER_SECOND, so it fits when
 * spoken; visuals describe what the renderer will really draw.
 */
export function localVideoPlan(input: PlanInput): PlanDraft {
  const headings = sceneHeadings(input.topic, input.key_points, input.scene_count);
  const durations = allocateDurations(
    headings.map(() => 1),
    input.duration_seconds,
  );
  const style = input.style?.trim() || 'clean';
  const scenes = headings.map((heading, i) => {
    const words = Math.max(6, Math.floor(durations[i] * NARRATION_WORDS_PER_SECOND * 0.85));
    const draft = writeSection({
      heading,
      keyPoints: i === 0 || i === headings.length - 1 ? input.key_points.slice(0, 2) : [heading],
      targetWords: words,
      tone: input.tone,
      audience: input.audience,
      topic: input.topic,
    });
    return {
      heading,
      narration: withinWords(plainNarration(draft.markdown), words),
      // The prompt of the scene's still (the image studio's offline renderer: palette, shapes and the motifs its words name).
      visual_description: `${style} abstract illustration for the scene “${heading}”, with a slow zoom`,
      duration_seconds: durations[i],
    };
  });
  return { title: titleOf(input.topic, input.format), scenes };
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
