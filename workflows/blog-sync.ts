/**
 * Synchronous blog edits (Document 2, /api/blog): the API executes these and
 * waits for the result. They are workflows because they spend vendor budget
 * (rule 1 of ARCHITECTURE.md): Temporal retries a failed vendor call, the
 * gateway meters it once per activity, and operators see each run.
 * Workflow ids: `blog-<kind>-<uuid>`. Each returns a domain result; the API
 * shapes the HTTP body (api/blog/sections.ts).
 */
import { proxyActivities } from '@temporalio/workflow';
import { PAID_CALL_RETRY, READ_RETRY } from './retry';
import type { BlogSyncActivities, RecordedContinuity } from '../activities/blog-sync';
import type { OutlineSection, Source } from '../domain/analysis/types';
import type { Persona } from '../domain/blog/types';
import type { ContinuityMetrics, QualityScores } from '../domain/blog/continuity';
import type { EnhancedSection } from '../domain/blog/revise';
import type { GenerationMetadata, ProviderChoiceName } from '../domain/generation/model-plan';

// Reading sources, scoring and appending an idempotent event: cheap, retry freely.
const reads = proxyActivities<BlogSyncActivities>({
  startToCloseTimeout: '1m',
  retry: READ_RETRY,
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

export async function blogEnhanceSectionWorkflow(
  input: SyncInput<{ section: OutlineSection; focus: string }>,
): Promise<EnhancedSection> {
  return paid.enhanceSection({ userId: input.userId, section: input.request.section, focus: input.request.focus });
}

export interface OptimizedOutline {
  outline: OutlineSection[];
  improvements_made: string[];
  overall_quality_score: number;
}

export async function blogOptimizeOutlineWorkflow(
  input: SyncInput<{ outline: OutlineSection[]; focus: string }>,
): Promise<OptimizedOutline> {
  return paid.optimizeOutline({ userId: input.userId, outline: input.request.outline, focus: input.request.focus });
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
  /** Which AI provider writes (default `auto`); the revision of `polished` uses the same. */
  provider?: ProviderChoiceName;
}

export interface WrittenSection {
  markdown: string;
  citations: Source[];
  metrics: ContinuityMetrics;
  continuity: ContinuityEvent;
  /** The writing call (provider, model; for llama who wrote what), and the revision call in `polished` mode. */
  metadata: GenerationMetadata;
  revision_metadata?: GenerationMetadata;
}

export async function blogSectionGenerateWorkflow(input: SyncInput<SectionGenerateRequest>): Promise<WrittenSection> {
  const r = input.request;
  const keywords = r.keywords.length ? r.keywords : (r.section.keywords ?? []);
  const tone = r.tone ?? r.persona?.tone;
  const audience = r.persona?.audience;
  const sources = await reads.sectionSources({ section: r.section, keywords });
  const draft = await paid.writeSection({
    userId: input.userId,
    section: r.section,
    keywords,
    tone,
    audience,
    sources,
    targetWords: r.targetWords,
    provider: r.provider,
  });
  let markdown = draft.markdown;
  let revision: GenerationMetadata | undefined;
  if (r.mode === 'polished') {
    const revised = await paid.reviseSection({
      userId: input.userId,
      content: markdown,
      focus: 'readability and flow',
      audience,
      tone,
      provider: r.provider,
    });
    [markdown, revision] = [revised.content, revised.metadata];
  }
  const rec = await reads.recordContinuity({
    userId: input.userId,
    sectionId: r.section.id,
    markdown,
    heading: r.section.heading,
    keywords,
    origin: 'generate',
  });
  return {
    markdown,
    citations: draft.citations,
    metrics: rec.metrics,
    continuity: { streamId: rec.streamId, streamPosition: rec.streamPosition },
    metadata: draft.metadata,
    ...(revision ? { revision_metadata: revision } : {}),
  };
}

export interface SectionOptimizeRequest {
  section_id: string;
  content: string;
  optimization_focus: string;
  target_audience?: string;
  tone?: string;
}

export interface RevisedSection {
  optimized: string;
  before: QualityScores;
  after: QualityScores;
  changes: string[];
  metrics: ContinuityMetrics;
  continuity: ContinuityEvent;
  metadata: GenerationMetadata;
}

export async function blogSectionOptimizeWorkflow(input: SyncInput<SectionOptimizeRequest>): Promise<RevisedSection> {
  const r = input.request;
  const { content: optimized, metadata } = await paid.reviseSection({
    userId: input.userId,
    content: r.content,
    focus: r.optimization_focus,
    audience: r.target_audience,
    tone: r.tone,
  });
  const cmp = await reads.compareRevision({ before: r.content, after: optimized });
  const rec = await reads.recordContinuity({
    userId: input.userId,
    sectionId: r.section_id,
    markdown: optimized,
    origin: 'optimize',
  });
  return {
    optimized,
    before: cmp.before,
    after: cmp.after,
    changes: cmp.changes,
    metrics: rec.metrics,
    continuity: { streamId: rec.streamId, streamPosition: rec.streamPosition },
    metadata,
  };
}
