/**
 * Synchronous blog edits (Document 2, /api/blog): the API executes these and
 * waits for the result. They are workflows because they spend vendor budget
 * (rule 1 of ARCHITECTURE.md): Temporal retries a failed vendor call, the
 * gateway meters it once per activity, and operators see each run.
 * Workflow ids: `blog-<kind>-<uuid>` (kinds in SYNC_KINDS).
 */
import { proxyActivities } from '@temporalio/workflow';
import { PAID_CALL_RETRY } from './retry';
import type { BlogSyncActivities, RecordedContinuity } from '../activities/blog-sync';
import type { OutlineSection, Source } from '../domain/analysis/types';
import type { Persona } from '../domain/blog/types';
import type { ContinuityMetrics } from '../domain/blog/continuity';
import type { QualityScores } from '../domain/blog/continuity';

// Reading sources, scoring and appending an idempotent event: cheap, retry freely.
const reads = proxyActivities<BlogSyncActivities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumAttempts: 5 },
});
// Paid vendor calls: metered under the activity's idempotency key; few retries, none for plan limits.
const paid = proxyActivities<BlogSyncActivities>({
  startToCloseTimeout: '3m',
  heartbeatTimeout: '2m',
  retry: PAID_CALL_RETRY,
});

export interface SyncInput<R> {
  userId: string;
  request: R;
}

/** Where the API waits for the continuity projection (read-your-writes). */
export type ContinuityEvent = Pick<RecordedContinuity, 'streamId' | 'streamPosition'>;

export async function blogEnhanceSectionWorkflow(input: SyncInput<{ section: OutlineSection; focus: string }>): Promise<Record<string, unknown>> {
  const { section, focus } = input.request;
  const e = await paid.enhanceSection({ userId: input.userId, section, focus });
  return { ...section, heading: e.heading, subheadings: e.subheadings, key_points: e.key_points, keywords: e.keywords, enhancement_focus: focus, improvements_made: e.improvements_made };
}

export async function blogOptimizeOutlineWorkflow(input: SyncInput<{ outline: OutlineSection[]; focus: string }>): Promise<Record<string, unknown>> {
  const { outline, focus } = input.request;
  const r = await paid.optimizeOutline({ userId: input.userId, outline, focus });
  return { outline: r.outline, optimization_summary: { focus_area: focus, improvements_made: r.improvements_made, overall_quality_score: r.overall_quality_score } };
}

export interface SectionGenerateRequest {
  section: OutlineSection;
  keywords: string[];
  tone?: string;
  persona?: Persona;
  /** `draft`: one writing call; `polished`: the draft, then one revision call for readability. */
  mode: 'draft' | 'polished';
  /** Body words wanted. */
  targetWords: number;
}

export interface SectionGenerateResult {
  success: true;
  section_id: string;
  mode: string;
  markdown: string;
  citations: Source[];
  continuity_metrics: ContinuityMetrics;
  continuity_event: ContinuityEvent;
}

export async function blogSectionGenerateWorkflow(input: SyncInput<SectionGenerateRequest>): Promise<SectionGenerateResult> {
  const r = input.request;
  const keywords = r.keywords.length ? r.keywords : (r.section.keywords ?? []);
  const tone = r.tone ?? r.persona?.tone;
  const audience = r.persona?.audience;
  const sources = await reads.sectionSources({ section: r.section, keywords });
  const draft = await paid.writeSection({ userId: input.userId, section: r.section, keywords, tone, audience, sources, targetWords: r.targetWords });
  let markdown = draft.markdown;
  if (r.mode === 'polished') markdown = await paid.reviseSection({ userId: input.userId, content: markdown, focus: 'readability and flow', audience, tone });
  const rec = await reads.recordContinuity({ userId: input.userId, sectionId: r.section.id, markdown, heading: r.section.heading, keywords, origin: 'generate' });
  return { success: true, section_id: r.section.id, mode: r.mode, markdown, citations: draft.citations, continuity_metrics: rec.metrics, continuity_event: { streamId: rec.streamId, streamPosition: rec.streamPosition } };
}

export interface SectionOptimizeRequest {
  section_id: string;
  content: string;
  optimization_focus: string;
  target_audience?: string;
  tone?: string;
}

export interface SectionOptimizeResult {
  section_id: string;
  original_content: string;
  optimized_content: string;
  optimization_summary: {
    focus_area: string;
    improvements_made: string[];
    quality_improvements: QualityScores;
    scores_before: QualityScores;
    scores_after: QualityScores;
  };
  continuity_metrics: ContinuityMetrics;
  continuity_event: ContinuityEvent;
}

export async function blogSectionOptimizeWorkflow(input: SyncInput<SectionOptimizeRequest>): Promise<SectionOptimizeResult> {
  const r = input.request;
  const optimized = await paid.reviseSection({ userId: input.userId, content: r.content, focus: r.optimization_focus, audience: r.target_audience, tone: r.tone });
  const cmp = await reads.compareRevision({ before: r.content, after: optimized });
  const rec = await reads.recordContinuity({ userId: input.userId, sectionId: r.section_id, markdown: optimized, origin: 'optimize' });
  const delta = (k: keyof QualityScores) => cmp.after[k] - cmp.before[k];
  return {
    section_id: r.section_id,
    original_content: r.content,
    optimized_content: optimized,
    optimization_summary: {
      focus_area: r.optimization_focus,
      improvements_made: cmp.changes,
      quality_improvements: { engagement_score: delta('engagement_score'), readability_score: delta('readability_score'), clarity_score: delta('clarity_score') },
      scores_before: cmp.before,
      scores_after: cmp.after,
    },
    continuity_metrics: rec.metrics,
    continuity_event: { streamId: rec.streamId, streamPosition: rec.streamPosition },
  };
}
