/**
 * Blog writer activities. Every AI call goes through the gateway (the one
 * chokepoint: provider choice, metering against the plan, retries) with the
 * activity's idempotency key, so a retried activity is charged once.
 */
import type { AiGateway } from '../infra/ai/completion';
import type { ResearchProvider, SearchReport } from '../infra/research';
import { citationNumbers, markdownWordCount } from '../domain/generation';
import type { DraftOutline, GenerationMetadata, ResearchSummary } from '../domain/generation';
import { assessOutline } from '../domain/blog/outline-assess';
import { BLOG_MEDIUM_SECTION, BLOG_OUTLINE, BLOG_RESEARCH } from '../domain/blog/tasks';
import {
  mediumSectionBudgets,
  MediumRequest,
  MediumSectionResult,
  OutlineRequest,
  OutlineResult,
  ResearchRequest,
  Source,
} from '../domain/blog/types';
import { activityKey } from './tasks';
import { ask, generationInfo, numbered } from './ai-call';

export interface BlogActivityDeps {
  gateway: AiGateway;
  research: ResearchProvider;
}

export function createBlogActivities(deps: BlogActivityDeps) {
  return {
    /** The research sources, and the queries sent to a web-search vendor to find them (none without one). */
    async gatherSources(a: { userId: string; request: ResearchRequest }): Promise<SearchReport> {
      const query = [a.request.topic, ...a.request.keywords, a.request.industry].filter(Boolean).join(' ');
      const found = await deps.research.find(query, { limit: 8 });
      return { sources: numbered(found.sources), web_search_queries: found.web_search_queries };
    },

    async analyzeResearch(a: {
      userId: string;
      request: ResearchRequest;
      sources: Source[];
      /** The queries gatherSources sent to a web-search vendor: the only ones the answer may list as searched. */
      webSearchQueries?: string[];
    }): Promise<ResearchSummary> {
      const r = a.request;
      const webSearchQueries = a.webSearchQueries ?? [];
      const { output: summary } = await ask(
        deps.gateway,
        BLOG_RESEARCH,
        {
          topic: r.topic,
          keywords: r.keywords,
          industry: r.industry,
          audience: r.target_audience,
          sources: a.sources,
          web_search_queries: webSearchQueries,
        },
        { userId: a.userId, idempotencyKey: activityKey() },
      );
      // What was searched is a fact of this activity, not the writer's to say: suggested queries stay in
      // search_queries; web_search_queries lists only what went to a web-search vendor (none without one).
      return {
        ...summary,
        grounding_metadata: {
          grounding_chunks: summary.grounding_metadata?.grounding_chunks ?? [],
          web_search_queries: webSearchQueries,
        },
      };
    },

    async draftOutline(a: {
      userId: string;
      request: OutlineRequest;
    }): Promise<DraftOutline & { metadata: GenerationMetadata }> {
      const r = a.request;
      const sources = numbered(r.research.sources ?? []);
      const topic = r.research.keyword_analysis?.primary_keywords?.[0] ?? sources[0]?.title ?? 'the topic';
      const keywords = [
        ...(r.research.keyword_analysis?.primary_keywords ?? []),
        ...(r.research.keyword_analysis?.secondary_keywords ?? []),
      ];
      const { output: draft, response: resp } = await ask(
        deps.gateway,
        BLOG_OUTLINE,
        {
          topic,
          keywords,
          sources,
          wordCount: r.word_count,
          audience: r.persona?.audience,
          tone: r.persona?.tone,
          instructions: r.custom_instructions,
        },
        { userId: a.userId, idempotencyKey: activityKey() },
      );
      // A vendor answers references as source numbers; resolve them to the sources themselves.
      draft.outline = draft.outline.map((s, i) => ({
        id: s.id ?? `s${i + 1}`,
        heading: s.heading,
        subheadings: s.subheadings ?? [],
        key_points: s.key_points ?? [],
        keywords: s.keywords ?? [],
        target_words: s.target_words ?? Math.round(r.word_count / draft.outline.length),
        references: (s.references ?? [])
          .map((ref: Source | number) => (typeof ref === 'number' ? sources[ref - 1] : ref))
          .filter(Boolean) as Source[],
      }));
      return { ...draft, metadata: generationInfo(resp) };
    },

    async assessOutline(a: {
      request: OutlineRequest;
      draft: DraftOutline & { metadata?: GenerationMetadata };
    }): Promise<OutlineResult> {
      const sources = a.request.research.sources ?? [];
      const assessment = assessOutline(
        a.draft.outline,
        sources,
        a.request.research.competitor_analysis?.content_gaps ?? [],
        a.request.research.suggested_angles ?? [],
      );
      return {
        title_options: a.draft.title_options,
        outline: a.draft.outline,
        ...assessment,
        ...(a.draft.metadata ? { metadata: a.draft.metadata } : {}),
      };
    },

    async writeMediumSection(a: {
      userId: string;
      request: MediumRequest;
      index: number;
    }): Promise<MediumSectionResult> {
      const r = a.request;
      const section = r.sections[a.index];
      const budget = mediumSectionBudgets(r)[a.index];
      let sources = numbered(section.references ?? []);
      if (sources.length === 0)
        sources = numbered(
          await deps.research.search(`${r.title} ${section.heading} ${(section.keywords ?? []).join(' ')}`, {
            limit: 3,
          }),
        );
      const input = {
        heading: section.heading,
        keyPoints: section.keyPoints ?? [],
        subheadings: section.subheadings,
        keywords: section.keywords ?? r.researchKeywords ?? [],
        targetWords: budget,
        sources,
        tone: r.tone ?? r.persona?.tone,
        audience: r.audience ?? r.persona?.audience,
        topic: r.title,
      };
      const { output: content, response: resp } = await ask(
        deps.gateway,
        BLOG_MEDIUM_SECTION,
        { title: r.title, section: input },
        { userId: a.userId, idempotencyKey: activityKey() },
      );
      const cited = new Set(citationNumbers(content));
      return {
        id: section.id,
        heading: section.heading,
        content,
        wordCount: markdownWordCount(content),
        sources: sources.filter((s) => cited.has(s.index!)),
        metadata: generationInfo(resp),
      };
    },
  };
}

export type BlogActivities = ReturnType<typeof createBlogActivities>;
