/**
 * Scene timing of video posts, reels and stories: durations are written
 * `<n>_seconds` in requests (also accepted: a number of seconds, `"30"`,
 * `"30s"`, `"30 sec"`, `"30 seconds"`), and a scene plan's integer durations always sum
 * to exactly the requested total (largest-remainder rounding, every scene at
 * least one second). Narration is budgeted at a conversational 150 words a
 * minute, so a scene's voice-over fits its seconds.
 */
import { largestRemainder } from '../analysis/outline-rebalance';

/**
 * JSON Schema pattern of a duration given as text: `60_seconds` (the spec's form), or the seconds alone or with a
 * unit (`60`, `60s`, `60 sec`, `60 seconds`).
 */
export const DURATION_PATTERN = '^ *[1-9][0-9]{0,3}(_seconds| *(s|sec|secs|second|seconds))? *$';
const DURATION = new RegExp(DURATION_PATTERN);

/** Seconds of a duration: a whole number, or text of DURATION_PATTERN. */
export function parseDuration(value: string | number): number {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 1 || value > 9999) throw new Error(`duration ${value} is not 1 to 9999`);
    return value;
  }
  if (!DURATION.test(value)) throw new Error(`duration "${value}" is not of the form <n>_seconds`);
  return Number(/[0-9]+/.exec(value)![0]);
}

/** Spoken words per second of narration (150 words a minute). */
export const WORDS_PER_SECOND = 2.5;

export const narrationWords = (seconds: number): number => Math.max(3, Math.floor(seconds * WORDS_PER_SECOND));

/** Integer durations, each at least 1 s, proportional to `weights`, summing to `total` (needs total ≥ weights.length). */
export function sceneDurations(total: number, weights: number[]): number[] {
  if (weights.length === 0) return [];
  const n = Math.min(weights.length, Math.max(1, total));
  const rest = largestRemainder(
    total - n,
    weights.slice(0, n).map((w) => Math.max(0.001, w)),
  );
  return rest.map((x) => x + 1);
}

/** Scenes of a plan of `total` seconds: a hook, 1 to 6 body scenes (one per ~12 s), a closing call to action. */
export function sceneCount(total: number): number {
  if (total < 3) return Math.max(1, total);
  return Math.min(8, Math.max(3, 2 + Math.round(total / 12)));
}

/**
 * Weights of a plan's scenes: the hook and the closing scene get half a body
 * scene each (a hook lands in a few seconds; the end screen needs a moment).
 */
export function planWeights(count: number): number[] {
  if (count <= 2) return Array(count).fill(1);
  return [0.5, ...Array(count - 2).fill(1), 0.5];
}
