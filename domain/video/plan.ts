/**
 * Plans (pure): durations that sum exactly to the target, a planner's draft
 * turned into a plan, and scenes built from a plan. The offline planner used
 * when no text vendor is configured is in local-planner.ts.
 */
import { pointSentence } from '../generation/compose';
import { capitalize, hash32 } from '../generation/text';
import { storableText } from '../storable-text';
import { STOPWORDS } from '../analysis/stopwords';
import { plainNarration } from '../media/narration';
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

const ENDS_SENTENCE = /[.!?…]["'”’)]*$/;

/**
 * Narrations whose scenes end on sentence ends: a scene that stops mid-sentence (a planner that ran a sentence
 * over the cut) gets the rest of that sentence from the start of the next scene; the last scene is closed with a
 * full stop. Narration is never spoken across a cut.
 */
export function wholeSentences(narrations: readonly string[]): string[] {
  const out = [...narrations];
  for (let i = 0; i < out.length; i++) {
    if (!out[i] || ENDS_SENTENCE.test(out[i])) continue;
    if (i === out.length - 1) {
      out[i] = `${out[i].replace(/[,;:–—-]+$/, '')}.`;
      continue;
    }
    const next = out[i + 1];
    const end = /[.!?…]["'”’)]*(\s|$)/.exec(next);
    const head = end ? next.slice(0, end.index + end[0].trimEnd().length) : next;
    out[i] = `${out[i]} ${head}`.replace(/\s+/g, ' ').trim();
    out[i + 1] = next.slice(head.length).trim();
  }
  return out;
}

/** Content words of a phrase as 5-letter stems ("bookshops" and "bookshop" agree). */
const stems = (t: string) =>
  t
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !STOPWORDS.has(w))
    .map((w) => w.slice(0, 5));

/** Whether `text` says `point`: most of the point's content words are in it (at least 60 %). */
export function says(text: string, point: string): boolean {
  const want = stems(point);
  if (!want.length) return true;
  const have = new Set(stems(text));
  return want.filter((w) => have.has(w)).length >= Math.ceil(want.length * 0.6);
}

interface DraftScene {
  heading: string;
  narration: string;
  visual_description: string;
}

/**
 * Every key point of the brief said in the plan: a point no scene's narration says is added, as written, to the
 * scene whose heading and narration share most of its words (else the middle scene); when the plan has room for
 * another scene (`maxScenes`), a point that matches no scene gets its own, before the closing scene.
 */
export function keepKeyPoints(scenes: DraftScene[], keyPoints: readonly string[], maxScenes: number): DraftScene[] {
  const out = scenes.map((s) => ({ ...s }));
  for (const point of keyPoints) {
    if (out.some((s) => says(`${s.heading} ${s.narration}`, point) && says(s.narration, point))) continue;
    const want = new Set(stems(point));
    const overlap = out.map((s) => stems(`${s.heading} ${s.narration}`).filter((w) => want.has(w)).length);
    const best = overlap.indexOf(Math.max(...overlap));
    if (overlap[best] === 0 && out.length < maxScenes && out.length >= 2) {
      const heading = capitalize(point.replace(/[.!?]+$/, ''));
      out.splice(out.length - 1, 0, {
        heading,
        narration: pointSentence(point),
        visual_description: `Background for “${heading}”`,
      });
      continue;
    }
    const at = overlap[best] > 0 ? best : Math.floor((out.length - 1) / 2);
    out[at].narration = `${out[at].narration} ${pointSentence(point)}`.trim();
  }
  return out;
}

/**
 * A draft (local or vendor) as plan scenes: narration made plain and cut only at sentence ends (wholeSentences),
 * every key point of the brief said (keepKeyPoints; the offline planner says them itself, or says why not), durations following the narration — each scene's share of
 * the target is its share of the words, so a scene lasts about as long as it speaks — and summing to the target
 * exactly.
 */
export function scenesFromDraft(draft: PlanDraft, input: PlanInput): PlanScene[] {
  const maxScenes = Math.floor(input.duration_seconds / MIN_SCENE_SECONDS);
  const plain = draft.scenes.map((s) => ({ ...s, narration: plainNarration(s.narration ?? '') }));
  const whole = wholeSentences(plain.map((s) => s.narration));
  const usable = plain
    .map((s, i) => ({
      // Vendor text is cleaned of what cannot be stored (NUL, unpaired surrogates) before it becomes an event.
      heading: storableText(s.heading ?? '').trim(),
      narration: storableText(whole[i]),
      visual_description: storableText(s.visual_description ?? '').trim(),
    }))
    .filter((s) => s.narration.length > 0);
  if (!usable.length) throw new RangeError('the plan has no scene with narration');
  // The offline planner accounts for the brief itself (its coverage names the points that do not fit the duration);
  // a model's draft gets the points it left out.
  const first = usable.slice(0, maxScenes);
  const kept = draft.coverage ? first : keepKeyPoints(first, input.key_points, maxScenes);
  const durations = allocateDurations(
    kept.map((s) => Math.max(1, s.narration.split(' ').length)),
    input.duration_seconds,
  );
  return kept.map((s, i) => {
    const heading = s.heading || `Scene ${i + 1}`;
    return {
      index: i,
      heading,
      narration: s.narration,
      visual_description: s.visual_description || `Background for “${heading}”`,
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
