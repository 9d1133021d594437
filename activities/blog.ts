/**
 * Blog writer activities. Every AI call goes through the gateway (the one
 * chokepoint: provider choice, metering against the plan, retries) with the
 * activity's idempotency key, so a retried activity is charged once.
 */
import type { AiGateway } from '../infra/ai/gateway';
import type { ResearchProvider } from '../infra/research';
import { citationNumbers, markdownWordCount, MODEL_PLANS } from '../domain/generation';
import type { DraftOutline, GenerationMetadata, ResearchSummary } from '../domain/generation';
import { assessOutline } from '../domain/blog/outline-assess';
import { outlinePrompt, researchPrompt, sectionPrompt } from '../domain/blog/prompts';
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
import { ajv, generationInfo, guarded, numbered, parsed, strings } from './ai-call';

export interface BlogActivityDeps {
  gateway: AiGateway;
  research: ResearchProvider;
}

const checkResearch = ajv.compile({
  type: 'object',
  required: ['keyword_analysis', 'competitor_analysis', 'suggested_angles', 'search_queries'],
  properties: {
    keyword_analysis: {
      type: 'object',
      required: ['primary_keywords', 'secondary_keywords'],
      properties: { primary_keywords: strings, secondary_keywords: strings },
    },
    competitor_analysis: {
      type: 'object',
      required: ['top_competitors', 'content_gaps', 'opportunities'],
      properties: { top_competitors: strings, content_gaps: strings, opportunities: strings },
    },
    suggested_angles: strings,
    search_queries: strings,
  },
});
const checkOutline = ajv.compile({
  type: 'object',
  required: ['title_options', 'outline'],
  properties: {
    title_options: strings,
    outline: {
      type: 'array',
      minItems: 1,
      items: { type: 'object', required: ['heading'], properties: { heading: { type: 'string' } } },
    },
  },
});

export function createBlogActivities(deps: BlogActivityDeps) {
  return {
    async gatherSources(a: { userId: string; request: ResearchRequest }): Promise<Source[]> {
      const query = [a.request.topic, ...a.request.keywords, a.request.industry].filter(Boolean).join(' ');
      return numbered(await deps.research.search(query, { limit: 8 }));
    },

    async analyzeResearch(a: {
      userId: string;
      request: ResearchRequest;
      sources: Source[];
    }): Promise<ResearchSummary> {
      const r = a.request;
      const resp = await guarded(deps.gateway, {
        userId: a.userId,
        purpose: 'blog.research',
        messages: researchPrompt(
          { topic: r.topic, keywords: r.keywords, industry: r.industry, audience: r.target_audience },
          a.sources,
        ),
        maxTokens: 1500,
        idempotencyKey: activityKey(),
        localTask: {
          kind: 'research',
          input: {
            topic: r.topic,
            keywords: r.keywords,
            industry: r.industry,
            audience: r.target_audience,
            sources: a.sources,
          },
        },
      });
      const summary = parsed<ResearchSummary>(resp, checkResearch, 'research summary');
      return {
        ...summary,
        grounding_metadata: summary.grounding_metadata ?? {
          grounding_chunks: [],
          web_search_queries: summary.search_queries,
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
      const resp = await guarded(deps.gateway, {
        userId: a.userId,
        purpose: 'blog.outline',
        messages: outlinePrompt(
          {
            topic,
            keywords,
            wordCount: r.word_count,
            audience: r.persona?.audience,
            tone: r.persona?.tone,
            instructions: r.custom_instructions,
          },
          sources,
        ),
        maxTokens: 2000,
        idempotencyKey: activityKey(),
        localTask: {
          kind: 'outline',
          input: {
            topic,
            keywords,
            sources,
            wordCount: r.word_count,
            audience: r.persona?.audience,
            tone: r.persona?.tone,
          },
        },
        // Without a vendor, the in-process model writes the title options (headlines); the outline stays grounded.
        modelPlan: MODEL_PLANS.headlines('title_options.*', {
          topic,
          audience: r.persona?.audience,
          tone: r.persona?.tone,
          keyPoints: keywords.slice(0, 3),
        }),
      });
      const draft = parsed<DraftOutline>(resp, checkOutline, 'outline');
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
      const resp = await guarded(deps.gateway, {
        userId: a.userId,
        purpose: 'blog.medium.section',
        messages: sectionPrompt(
          {
            title: r.title,
            heading: section.heading,
            keyPoints: input.keyPoints,
            keywords: input.keywords,
            targetWords: budget,
            tone: input.tone,
            audience: input.audience,
          },
          sources,
        ),
        maxTokens: Math.ceil(budget * 2.5) + 100,
        idempotencyKey: activityKey(),
        localTask: { kind: 'section', input },
        // Without a vendor, the in-process model rephrases the grounded sentences (citations kept).
        modelPlan: MODEL_PLANS.rewriteText(),
      });
      const cited = new Set(citationNumbers(resp.text));
      return {
        id: section.id,
        heading: section.heading,
        content: resp.text.trim(),
        wordCount: markdownWordCount(resp.text),
        sources: sources.filter((s) => cited.has(s.index!)),
        metadata: generationInfo(resp),
      };
    },
  };
}

export type BlogActivities = ReturnType<typeof createBlogActivities>;
