/**
 * Outline rebalance: spread a word budget over sections.
 *
 * Each section's share is proportional to its current target_words
 * (sections without one weigh as the average of those that have one; equal
 * shares when none has one). Quotas are rounded with the largest-remainder
 * method: everyone gets the floor of their quota, and the words still
 * missing go one each to the largest fractional parts (earlier section wins
 * ties). The result is integers that sum exactly to the budget, with no
 * section more than one word away from its exact quota.
 */
import { AnalysisInputError } from './errors';
import { OutlineSection } from './types';
import { validateOutline } from './outline-validate';

export const DEFAULT_TARGET_WORDS = 1500;

export interface RebalanceAdjustment {
  section_id: string;
  heading: string;
  original_target_words: number;
  new_target_words: number;
  word_adjustment: number;
}

export interface RebalanceResult {
  outline: Array<OutlineSection & { target_words: number; word_adjustment: number }>;
  rebalancing_summary: {
    total_target_words: number;
    original_total: number;
    rebalanced_total: number;
    adjustments_made: RebalanceAdjustment[];
  };
}

/** Split `total` into integers proportional to `weights` that sum exactly to `total`. */
export function largestRemainder(total: number, weights: number[]): number[] {
  if (weights.length === 0) return [];
  // integer weights make the arithmetic exact: quota_i = total * w_i / W with remainder (total * w_i) mod W
  const w = weights.map((x) => Math.max(0, Math.round(x * 1000)));
  const sum = w.reduce((a, b) => a + b, 0);
  const ws = sum === 0 ? w.map(() => 1) : w;
  const W = sum === 0 ? ws.length : sum;
  const floors = ws.map((x) => Math.floor((total * x) / W));
  const rems = ws.map((x) => (total * x) % W);
  let missing = total - floors.reduce((a, b) => a + b, 0);
  const order = rems.map((r, i) => ({ r, i })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; missing > 0; k = (k + 1) % order.length, missing--) floors[order[k].i]++;
  return floors;
}

export function rebalanceOutline(
  outline: OutlineSection[],
  targetWords: number = DEFAULT_TARGET_WORDS,
): RebalanceResult {
  validateOutline(outline);
  if (outline.length === 0) throw new AnalysisInputError('outline', 'outline must contain at least one section');
  if (!Number.isInteger(targetWords) || targetWords < 0 || targetWords > 1_000_000) {
    throw new AnalysisInputError('target_words', 'target_words must be an integer between 0 and 1000000');
  }
  const current = outline.map((s) =>
    typeof s.target_words === 'number' && s.target_words > 0 ? s.target_words : null,
  );
  const known = current.filter((x): x is number => x !== null);
  const fill = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  const allocation = largestRemainder(
    targetWords,
    current.map((x) => x ?? fill),
  );
  const adjustments: RebalanceAdjustment[] = [];
  const rebalanced = outline.map((s, i) => {
    const original = current[i] ?? 0;
    const word_adjustment = allocation[i] - original;
    if (word_adjustment !== 0) {
      adjustments.push({
        section_id: s.id,
        heading: s.heading,
        original_target_words: original,
        new_target_words: allocation[i],
        word_adjustment,
      });
    }
    return { ...s, target_words: allocation[i], word_adjustment };
  });
  return {
    outline: rebalanced,
    rebalancing_summary: {
      total_target_words: targetWords,
      original_total: current.reduce((a: number, b) => a + (b ?? 0), 0),
      rebalanced_total: allocation.reduce((a, b) => a + b, 0),
      adjustments_made: adjustments,
    },
  };
}
