/** Request and result shapes of the asynchronous blog writer (Document 2, /api/blog). */
import type { Source } from '../analysis/types';
import { FieldIssue, ValidationError } from '../errors';
import type { DraftOutline, DraftOutlineSection, ResearchSummary } from '../generation/types';
import type { GenerationMetadata } from '../generation/model-plan';
import type { OutlineAssessment } from './outline-assess';

export type { Source };

export interface Persona {
  persona_id?: string;
  tone?: string;
  audience?: string;
  industry?: string;
}

export interface ResearchRequest {
  keywords: string[];
  topic: string;
  industry: string;
  target_audience: string;
  tone: string;
  word_count_target: number;
  persona?: Persona;
}

/**
 * A result as a plain object type (no interface): what a task records (TaskCompleted's `result` is a JSON object),
 * so it is assignable to `Record<string, unknown>`.
 */
type Plain<T> = { [K in keyof T]: T[K] };

/**
 * What the research workflow returns: the research summary (domain/generation) plus the sources it was made from.
 * The Research result of the spec is this with `success: true` (the API adds it: api/blog/tasks.ts).
 */
export type ResearchResult = Plain<ResearchSummary & { sources: Source[] }>;

export interface OutlineRequest {
  /** The Research result a client received (it may carry the spec's `success`, which is not read). */
  research: Partial<ResearchResult> & { sources?: Source[]; success?: boolean };
  persona?: Persona;
  word_count: number;
  custom_instructions?: string;
}

/** An Outline section of the spec (the same shape the outline drafter produces). */
export type OutlineSection = DraftOutlineSection;

export interface MediumSectionRequest {
  id: string;
  heading: string;
  keyPoints?: string[];
  subheadings?: string[];
  keywords?: string[];
  targetWords?: number;
  references?: Source[];
}

export interface MediumRequest {
  title: string;
  sections: MediumSectionRequest[];
  persona?: Persona;
  tone?: string;
  audience?: string;
  globalTargetWords?: number;
  researchKeywords?: string[];
}

/**
 * A medium section as a client may send it: the spec's camelCase, or exactly as the outline result returns it
 * (snake_case `key_points`, `target_words`; annotations of other outline routes are accepted and not used).
 */
export interface MediumSectionWire extends MediumSectionRequest {
  key_points?: string[];
  target_words?: number;
  enhancement_focus?: string;
  improvements_made?: string[];
  word_adjustment?: number;
}

export type MediumRequestWire = Omit<MediumRequest, 'sections'> & { sections: MediumSectionWire[] };

/** camelCase field → its outline (snake_case) spelling. */
const SPELLINGS = [
  ['keyPoints', 'key_points'],
  ['targetWords', 'target_words'],
] as const;

/**
 * Outline sections (the outline, section and rebalance routes) spell `key_points` and `target_words`: the medium
 * route's camelCase twin in one of them is refused naming the field (ValidationError: 400), never ignored.
 * `at(i)` is the path of section i (`section`, `outline.2`, or '' for a body that is the section).
 */
export function refuseCamelSpelling(sections: object[], at: (i: number) => string): void {
  const issues: FieldIssue[] = [];
  sections.forEach((s, i) => {
    for (const [c, k] of SPELLINGS) {
      if (!(c in s)) continue;
      const path = [at(i), c].filter(Boolean).join('.');
      issues.push({
        location: 'body',
        path,
        kind: 'constraint',
        message: `${path} is the medium route's spelling: an outline section spells it ${k}`,
      });
    }
  });
  if (issues.length) throw new ValidationError(issues);
}

/**
 * The medium request in the one spelling the writer reads (camelCase, annotations dropped). A body must use one
 * spelling throughout: a section mixing `keyPoints` with `target_words`, or one section in each spelling, is
 * refused naming the field (ValidationError: 400), never half read.
 */
export function normalizeMediumRequest(body: MediumRequestWire): MediumRequest {
  let camel: string | undefined;
  let snake: string | undefined;
  body.sections.forEach((s, i) => {
    for (const [c, k] of SPELLINGS) {
      if (s[c] !== undefined) camel ??= `sections.${i}.${c}`;
      if (s[k] !== undefined) snake ??= `sections.${i}.${k}`;
    }
  });
  if (camel && snake) {
    const issue: FieldIssue = {
      location: 'body',
      path: snake,
      kind: 'constraint',
      message: `${snake} is the outline's spelling, but ${camel} is the spec's: use one spelling in a request, keyPoints/targetWords or key_points/target_words`,
    };
    throw new ValidationError([issue]);
  }
  return {
    ...body,
    sections: body.sections.map((s) => {
      const {
        key_points,
        target_words,
        enhancement_focus: _focus,
        improvements_made: _made,
        word_adjustment: _adjustment,
        ...rest
      } = s;
      return {
        ...rest,
        ...(key_points !== undefined ? { keyPoints: key_points } : {}),
        ...(target_words !== undefined ? { targetWords: target_words } : {}),
      };
    }),
  };
}

export interface MediumSectionResult {
  id: string;
  heading: string;
  content: string;
  wordCount: number;
  sources: Source[];
  /** Extra: the AI call behind the section (provider, model; for llama who wrote what). */
  metadata?: GenerationMetadata;
}

/**
 * What the outline workflow returns: the drafted outline scored against its research (domain/blog/outline-assess),
 * with the AI call behind it. The Outline result of the spec is this with `success: true` (added by the API).
 */
export type OutlineResult = Plain<DraftOutline & OutlineAssessment & { metadata?: GenerationMetadata }>;

/** What the medium generation workflow returns; the spec's result is this with `success: true` (added by the API). */
export type MediumResult = { title: string; sections: MediumSectionResult[]; total_words: number };

/** Medium blogs are at most 1000 words (Document 2, Limits). */
export const MEDIUM_MAX_WORDS = 1000;

/**
 * The words a medium request asks for: globalTargetWords when given, else the
 * sum of the sections' targetWords (sections without one count 150, the
 * writer's default section length).
 */
export function mediumRequestedWords(r: Pick<MediumRequest, 'globalTargetWords' | 'sections'>): number {
  if (r.globalTargetWords !== undefined) return r.globalTargetWords;
  return r.sections.reduce((a, s) => a + (s.targetWords ?? 150), 0);
}

/** Each section's word budget: its targetWords scaled so the total is the request's total (largest remainder). */
export function mediumSectionBudgets(r: Pick<MediumRequest, 'globalTargetWords' | 'sections'>): number[] {
  const total = mediumRequestedWords(r);
  const weights = r.sections.map((s) => s.targetWords ?? 150);
  const sum = weights.reduce((a, b) => a + b, 0) || 1;
  const raw = weights.map((w) => (w / sum) * total);
  const out = raw.map(Math.floor);
  let rest = total - out.reduce((a, b) => a + b, 0);
  const order = raw.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (rest <= 0) break;
    out[i]++;
    rest--;
  }
  return out;
}
