/**
 * Outline routes: POST /api/blog/outline/refine and /outline/rebalance
 * (bodies without `success`).
 */
import { OutlineSection } from './types';
import { validateOutline } from './outline-validate';
import { RefinePayload, applyOperation } from './outline-refine';
import { titleCase } from './metadata-text';
import { mean, stdev } from './vectors';

export { rebalanceOutline, largestRemainder, DEFAULT_TARGET_WORDS } from './outline-rebalance';
export type { RebalanceResult, RebalanceAdjustment } from './outline-rebalance';
export { REFINE_OPERATIONS } from './outline-refine';
export type { RefineOperation, RefinePayload } from './outline-refine';

export interface RefineInput {
  outline: OutlineSection[];
  operation: string;
  section_id?: string;
  payload?: RefinePayload;
}

export interface RefineResult {
  title_options: string[];
  outline: OutlineSection[];
  optimization_results: { overall_quality_score: number; improvements_made: string[]; optimization_focus: string };
}

/**
 * Outline quality 0-100, four equal parts: 3-10 sections; every section has
 * key points; balanced target_words (coefficient of variation <= 0.5, full
 * marks when no targets are set); unique, non-empty headings of <= 70 chars.
 */
export function outlineQuality(outline: OutlineSection[]): number {
  if (outline.length === 0) return 0;
  const count = outline.length >= 3 && outline.length <= 10 ? 1 : 0.5;
  const points = outline.filter((s) => (s.key_points ?? []).length > 0).length / outline.length;
  const targets = outline.map((s) => s.target_words).filter((x): x is number => typeof x === 'number' && x > 0);
  const cv = targets.length > 1 ? stdev(targets) / mean(targets) : 0;
  const balance = cv <= 0.5 ? 1 : Math.max(0, 1 - (cv - 0.5));
  const heads = outline.map((s) => s.heading.trim().toLowerCase());
  const headingOk =
    heads.filter((h, i) => h !== '' && h.length <= 70 && heads.indexOf(h) === i).length / outline.length;
  return Math.round(25 * (count + points + balance + headingOk));
}

/** Title ideas from the outline's most frequent keyword (or the first heading). */
export function outlineTitleOptions(outline: OutlineSection[], seed?: string): string[] {
  const freq = new Map<string, number>();
  for (const s of outline)
    for (const k of s.keywords ?? []) freq.set(k.toLowerCase(), (freq.get(k.toLowerCase()) ?? 0) + 1);
  const top =
    [...freq.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? outline[0]?.heading ?? '';
  if (!top) return seed ? [seed] : [];
  const kw = titleCase(top);
  const opts = [
    seed,
    `${kw}: A Complete Guide`,
    `${outline.length} Things to Know About ${kw}`,
    `How to Master ${kw}`,
    `${kw} Explained Step by Step`,
  ];
  return [...new Set(opts.filter((t): t is string => typeof t === 'string' && t.trim() !== ''))];
}

export function refineOutline(input: RefineInput): RefineResult {
  validateOutline(input.outline);
  const payload = input.payload && typeof input.payload === 'object' ? input.payload : {};
  const { outline, change } = applyOperation(input.outline, input.operation, input.section_id, payload);
  const before = outlineQuality(input.outline);
  const after = outlineQuality(outline);
  const improvements = [change];
  if (after !== before)
    improvements.push(`Outline quality score ${after > before ? 'rose' : 'fell'} from ${before} to ${after}.`);
  return {
    title_options: outlineTitleOptions(outline, typeof payload.title === 'string' ? payload.title : undefined),
    outline,
    optimization_results: {
      overall_quality_score: after,
      improvements_made: improvements,
      optimization_focus: typeof payload.focus === 'string' && payload.focus ? payload.focus : input.operation,
    },
  };
}
