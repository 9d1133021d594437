/**
 * Content generation activities (general family and developer API):
 * reading research sources, one metered AI call per generation (through the
 * gateway, with the activity's idempotency key so a retry is charged once),
 * scoring a text with the analysis engine, and recording a generated text as
 * a content record.
 */
import type { AiGateway } from '../infra/ai/gateway';
import { VendorBadResponseError } from '../infra/ai/errors';
import type { EventStore } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import type { ResearchProvider } from '../infra/research';
import { callSpec, GenerationCall } from '../domain/content/calls';
import { scoreContent } from '../domain/content/scores';
import type { ContentScores, Provenance, Source } from '../domain/content/types';
import { contentStream } from '../domain/events/content';
import { citationNumbers } from '../domain/generation';
import { storableText } from '../domain/storable-text';
import { activityKey, currentWorkflowId } from './tasks';
import { ajv, guarded, numbered, parsed, strings } from './ai-call';

export interface ContentActivityDeps {
  gateway: AiGateway;
  research: ResearchProvider;
  store: EventStore;
}

const cited = {
  type: 'array',
  items: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
};
/** The least a JSON answer of each kind must hold to be used (a vendor may answer anything). */
const CHECKS = {
  platform_post: ajv.compile({
    type: 'object',
    required: ['content'],
    properties: { content: { type: 'string', minLength: 1 }, hashtags: strings },
  }),
  strategy: ajv.compile({
    type: 'object',
    required: ['summary', 'content_pillars', 'goals', 'content_types'],
    properties: { summary: { type: 'string' }, content_pillars: { type: 'array' }, goals: { type: 'array' } },
  }),
  personas: ajv.compile({
    type: 'object',
    required: ['personas'],
    properties: { personas: { type: 'array', minItems: 1, items: { type: 'object', required: ['label'] } } },
  }),
  keyword_insights: ajv.compile({
    type: 'object',
    required: ['keywords', 'clusters'],
    properties: { keywords: { type: 'array', items: { type: 'object', required: ['keyword', 'intent'] } } },
  }),
  research: ajv.compile({
    type: 'object',
    required: ['keyword_analysis', 'competitor_analysis', 'suggested_angles', 'search_queries'],
    properties: { suggested_angles: strings, search_queries: strings, distribution: cited },
  }),
};

export interface Generated {
  /** Markdown for articles; the parsed JSON object for the other kinds. */
  output: string | Record<string, unknown>;
  provenance: Provenance;
  /** Articles: the sources the text cites (`[n]`). */
  citations: Source[];
}

export interface FoundSources {
  /** What was searched: `corpus`, or `<web vendor>+corpus`. */
  searched: string;
  sources: Source[];
}

export interface RecordedContent {
  content_id: string;
  streamId: string;
  streamPosition: number;
}

export function createContentActivities(deps: ContentActivityDeps) {
  return {
    /**
     * Research sources for a query, numbered 1..n. `kinds` keeps only sources of those types (corpus
     * documents' source_type; web results are classified by domain); `limit` is applied after filtering.
     */
    async findSources(a: { query: string; limit: number; kinds?: string[] }): Promise<FoundSources> {
      const searched = deps.research.name;
      if (!a.kinds?.length)
        return { searched, sources: numbered(await deps.research.search(a.query, { limit: a.limit })) };
      const all = await deps.research.search(a.query, { limit: Math.max(a.limit * 4, 30) });
      return {
        searched,
        sources: numbered(all.filter((s) => a.kinds!.includes(s.source_type ?? 'web')).slice(0, a.limit)),
      };
    },

    /** One metered AI call of the given kind (docs/content.md "Generation calls"). */
    async generate(a: { userId: string; purpose: string; call: GenerationCall }): Promise<Generated> {
      const spec = callSpec(a.call);
      const resp = await guarded(deps.gateway, {
        userId: a.userId,
        purpose: a.purpose,
        messages: spec.messages,
        maxTokens: spec.maxTokens,
        idempotencyKey: activityKey(),
        localTask: spec.localTask,
      });
      const provenance = { provider: resp.provider, model: resp.model, offline: resp.metadata.offline };
      if (spec.answer === 'markdown') {
        const text = resp.text.trim();
        if (!text) throw new VendorBadResponseError(resp.provider, `empty ${a.call.kind}`);
        const sources = 'sources' in a.call.input ? (a.call.input.sources ?? []) : [];
        const used = new Set(citationNumbers(text));
        return { output: text, provenance, citations: sources.filter((s) => used.has(s.index ?? -1)) };
      }
      const check = CHECKS[a.call.kind as keyof typeof CHECKS];
      const output = parsed<Record<string, unknown>>(resp, check, a.call.kind);
      // A post over the platform's limit cannot be published as asked: the vendor's answer is unusable.
      if (a.call.kind === 'platform_post') {
        const length = [...String(output.content)].length;
        if (length > a.call.input.max_characters)
          throw new VendorBadResponseError(
            resp.provider,
            `a post of ${length} characters for ${a.call.input.platform}, whose limit is ${a.call.input.max_characters}`,
          );
      }
      return { output, provenance, citations: [] };
    },

    /** The spec's metadata of a text, measured by the analysis engine (domain/content/scores.ts). */
    async scoreText(a: {
      content: string;
      keywords: string[];
    }): Promise<ContentScores & { recommendations: string[] }> {
      return scoreContent(a.content, a.keywords);
    },

    /** Stores a generated text as content record version 1 (idempotent: a retry finds its event). */
    async recordContent(a: {
      userId: string;
      contentId: string;
      taskId: string;
      type: string;
      topic: string;
      title: string | null;
      content: string;
      metadata: Record<string, unknown>;
    }): Promise<RecordedContent> {
      const key = activityKey();
      const { event: e } = await deps.store.appendOnce(
        contentStream(a.contentId),
        {
          type: 'ContentCreated',
          eventId: uuidFromKey(`content:${key}`),
          data: {
            content_id: a.contentId,
            user_id: a.userId,
            type: a.type,
            topic: storableText(a.topic),
            title: a.title === null ? null : storableText(a.title),
            content: storableText(a.content),
            metadata: a.metadata,
            origin_task_id: a.taskId,
          },
        },
        { user_id: a.userId, workflow_id: currentWorkflowId(), causation_id: key },
        'no_stream',
      );
      return { content_id: a.contentId, streamId: e.streamId, streamPosition: e.streamPosition };
    },
  };
}

export type ContentActivities = ReturnType<typeof createContentActivities>;
