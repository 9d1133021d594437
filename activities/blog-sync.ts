/**
 * Activities of the synchronous blog edits (workflows/blog-sync.ts): enhance
 * an outline section, optimize an outline, write and revise a section, and
 * record a section's continuity metrics as an event. AI calls go through the
 * gateway under the activity's idempotency key (a retry is charged once);
 * plan-limit and not-configured failures become non-retryable.
 */
import { Context } from '@temporalio/activity';
import type { AiGateway } from '../infra/ai/completion';
import type { ResearchProvider } from '../infra/research';
import type { EventStore } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import { ask, generationInfo, numbered } from './ai-call';
import { outlineQuality } from '../domain/analysis';
import type { OutlineSection, Source } from '../domain/analysis/types';
import { markdownWordCount, renumberCitations } from '../domain/generation';
import type { GenerationMetadata, ProviderChoiceName } from '../domain/generation';
import { BLOG_ENHANCE_SECTION, BLOG_OPTIMIZE_OUTLINE, BLOG_REVISE_SECTION, BLOG_SECTION } from '../domain/blog/tasks';
import { continuityMetrics, ContinuityMetrics, qualityScores, QualityScores } from '../domain/blog/continuity';
import type { EnhancedSection } from '../domain/blog/revise';
import { sectionStream } from '../domain/events/blog';
import { activityKey, currentWorkflowId } from './tasks';

export interface BlogSyncActivityDeps {
  gateway: AiGateway;
  research: ResearchProvider;
  store: EventStore;
}

export interface SectionWriteInput {
  userId: string;
  section: OutlineSection;
  keywords: string[];
  tone?: string;
  audience?: string;
  sources: Source[];
  targetWords: number;
  /** Default `auto` (docs/providers.md). */
  provider?: ProviderChoiceName;
}

export interface RecordedContinuity {
  metrics: ContinuityMetrics;
  streamId: string;
  streamPosition: number;
}

export function createBlogSyncActivities(deps: BlogSyncActivityDeps) {
  return {
    /** The section's references, else the 3 best research sources for its heading and keywords. */
    async sectionSources(a: { section: OutlineSection; keywords: string[] }): Promise<Source[]> {
      const refs = a.section.references ?? [];
      if (refs.length) return numbered(refs);
      return numbered(await deps.research.search([a.section.heading, ...a.keywords].join(' '), { limit: 3 }));
    },

    async enhanceSection(a: { userId: string; section: OutlineSection; focus: string }): Promise<EnhancedSection> {
      const { output: e } = await ask(
        deps.gateway,
        BLOG_ENHANCE_SECTION,
        { section: a.section, focus: a.focus },
        { userId: a.userId, idempotencyKey: activityKey() },
      );
      return {
        heading: e.heading,
        subheadings: e.subheadings,
        key_points: e.key_points,
        keywords: e.keywords ?? a.section.keywords ?? [],
        improvements_made: e.improvements_made,
      };
    },

    async optimizeOutline(a: {
      userId: string;
      outline: OutlineSection[];
      focus: string;
    }): Promise<{ outline: OutlineSection[]; improvements_made: string[]; overall_quality_score: number }> {
      const { output: answer, response: resp } = await ask(
        deps.gateway,
        BLOG_OPTIMIZE_OUTLINE,
        { outline: a.outline, focus: a.focus },
        { userId: a.userId, idempotencyKey: activityKey() },
      );
      const byId = new Map(answer.outline.map((s) => [s.id, s]));
      if (byId.size !== a.outline.length || a.outline.some((s) => !byId.has(s.id)))
        throw new Error(`${resp.provider} returned an optimized outline whose section ids differ from the input`);
      // The answer's fields win; what it leaves out (references, ...) is kept from the input, in the answer's order.
      const original = new Map(a.outline.map((s) => [s.id, s]));
      const outline = answer.outline.map((s) => ({ ...original.get(s.id)!, ...s }));
      return { outline, improvements_made: answer.improvements_made, overall_quality_score: outlineQuality(outline) };
    },

    async writeSection(a: SectionWriteInput): Promise<{
      markdown: string;
      citations: Source[];
      word_count: number;
      metadata: GenerationMetadata;
    }> {
      const s = a.section;
      Context.current().heartbeat();
      const { output: markdown, response: resp } = await ask(
        deps.gateway,
        BLOG_SECTION,
        {
          title: s.heading,
          section: {
            heading: s.heading,
            keyPoints: s.key_points ?? [],
            subheadings: s.subheadings,
            keywords: a.keywords,
            targetWords: a.targetWords,
            sources: a.sources,
            tone: a.tone,
            audience: a.audience,
          },
        },
        { userId: a.userId, provider: a.provider, idempotencyKey: activityKey() },
      );
      // Numbered 1..k in reading order for the reader, whichever provider wrote it ([n] named the given sources).
      const [part] = renumberCitations([{ content: markdown, sources: a.sources }]);
      return {
        markdown: part.content,
        citations: part.sources,
        word_count: markdownWordCount(part.content),
        metadata: generationInfo(resp),
      };
    },

    async reviseSection(a: {
      userId: string;
      content: string;
      focus: string;
      audience?: string;
      tone?: string;
      provider?: ProviderChoiceName;
    }): Promise<{ content: string; metadata: GenerationMetadata }> {
      const { output: content, response: resp } = await ask(
        deps.gateway,
        BLOG_REVISE_SECTION,
        { content: a.content, focus: a.focus, audience: a.audience, tone: a.tone },
        { userId: a.userId, provider: a.provider, idempotencyKey: activityKey() },
      );
      return { content, metadata: generationInfo(resp) };
    },

    /** Scores before and after a revision and what changed, measured (the same for every provider). */
    async compareRevision(a: {
      before: string;
      after: string;
    }): Promise<{ before: QualityScores; after: QualityScores; changes: string[] }> {
      const before = qualityScores(a.before);
      const after = qualityScores(a.after);
      const changes: string[] = [];
      if (a.before.trim() === a.after.trim())
        changes.push('Text unchanged: it already passes the sentence, paragraph and filler-word checks');
      const words = [markdownWordCount(a.before), markdownWordCount(a.after)];
      if (words[0] !== words[1]) changes.push(`Word count ${words[0]} → ${words[1]}`);
      for (const k of ['readability_score', 'clarity_score', 'engagement_score'] as const)
        if (before[k] !== after[k]) changes.push(`${k.replace('_score', '')} ${before[k]} → ${after[k]}`);
      return { before, after, changes };
    },

    /**
     * Computes the section's continuity metrics and appends SectionContinuityRecorded.
     * Without keywords or heading (optimize), the section's last recorded ones are used.
     * The event id comes from the workflow and activity ids, so a retry never appends twice.
     */
    async recordContinuity(a: {
      userId: string;
      sectionId: string;
      markdown: string;
      heading?: string;
      keywords?: string[];
      origin: 'generate' | 'optimize';
    }): Promise<RecordedContinuity> {
      const stream = sectionStream(a.userId, a.sectionId);
      let heading = a.heading;
      let keywords = a.keywords;
      if (heading === undefined || keywords === undefined) {
        const last = (await deps.store.readStream(stream)).at(-1);
        const prior = last?.type === 'SectionContinuityRecorded' ? last.data : undefined;
        heading ??= prior?.heading ?? '';
        keywords ??= prior?.keywords ?? [];
      }
      const metrics = continuityMetrics(a.markdown, { heading, keywords });
      const eventId = uuidFromKey(`section-continuity:${activityKey()}`);
      const workflowId = currentWorkflowId();
      const r = await deps.store.appendOnce(
        stream,
        {
          type: 'SectionContinuityRecorded',
          eventId,
          data: {
            user_id: a.userId,
            section_id: a.sectionId,
            heading,
            keywords,
            origin: a.origin,
            workflow_id: workflowId,
            metrics,
          },
        },
        { user_id: a.userId, workflow_id: workflowId, causation_id: activityKey() },
      );
      return { metrics, streamId: stream, streamPosition: r.event.streamPosition };
    },
  };
}

export type BlogSyncActivities = ReturnType<typeof createBlogSyncActivities>;
