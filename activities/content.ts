/**
 * Content generation activities (general family and developer API):
 * reading research sources, one metered AI call per generation (through the
 * gateway, with the activity's idempotency key so a retry is charged once),
 * scoring a text with the analysis engine, and recording a generated text as
 * a content record.
 */
import type { AiGateway, CompletionResponse } from '../infra/ai/completion';
import { VendorBadResponseError } from '../infra/ai/errors';
import type { EventStore } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import type { ResearchProvider } from '../infra/research';
import { CONTENT_ARTICLE, jsonTaskOf, type GenerationCall } from '../domain/content/tasks';
import { scoreContent } from '../domain/content/scores';
import type { ContentScores, Provenance, Source } from '../domain/content/types';
import { contentStream } from '../domain/events/content';
import { renumberArticle } from '../domain/generation';
import { storableText } from '../domain/storable-text';
import { activityKey, currentWorkflowId } from './tasks';
import { ask, numbered, takeCoverage } from './ai-call';

export interface ContentActivityDeps {
  gateway: AiGateway;
  research: ResearchProvider;
  store: EventStore;
}

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
  /** The queries sent to the web-search vendor, as sent (empty when none is configured). */
  web_search_queries: string[];
}

/**
 * The kind a source counts as for a research request's `sources` filter: its source_type, and for a sample
 * document the kind of source it is written as (`sample_of`); its answer still says `source_type: "sample"`.
 */
export const kindOf = (s: Source): string =>
  s.source_type === 'sample' ? (s.sample_of ?? 'web') : (s.source_type ?? 'web');

export interface RecordedContent {
  content_id: string;
  streamId: string;
  streamPosition: number;
}

export function createContentActivities(deps: ContentActivityDeps) {
  return {
    /**
     * Research sources for a query, numbered 1..n. `kinds` keeps only sources of those kinds (`kindOf`: web
     * results are classified by domain, sample documents by the kind they are written as); `limit` is applied
     * after filtering.
     */
    async findSources(a: { query: string; limit: number; kinds?: string[] }): Promise<FoundSources> {
      const searched = deps.research.name;
      if (!a.kinds?.length) {
        const found = await deps.research.find(a.query, { limit: a.limit });
        return { searched, sources: numbered(found.sources), web_search_queries: found.web_search_queries };
      }
      const found = await deps.research.find(a.query, { limit: Math.max(a.limit * 4, 30) });
      return {
        searched,
        sources: numbered(found.sources.filter((s) => a.kinds!.includes(kindOf(s))).slice(0, a.limit)),
        web_search_queries: found.web_search_queries,
      };
    },

    /** One metered AI call of the given kind (docs/content.md "Generation calls"). */
    async generate(a: { userId: string; purpose: string; call: GenerationCall }): Promise<Generated> {
      const c = a.call;
      const call = { userId: a.userId, idempotencyKey: activityKey() };
      const provenanceOf = (resp: CompletionResponse): Provenance => ({
        provider: resp.provider,
        model: resp.model,
        offline: resp.metadata.offline,
        ...(resp.metadata.coverage ? { coverage: resp.metadata.coverage } : {}),
      });
      if (c.kind === 'article') {
        const { output: text, response: resp } = await ask(
          deps.gateway,
          CONTENT_ARTICLE,
          { purpose: a.purpose, input: c.input },
          call,
        );
        if (!text) throw new VendorBadResponseError(resp.provider, `empty ${c.kind}`);
        // The reader's numbering: 1..k in reading order, the References list exactly the cited sources.
        const done = renumberArticle(text, c.input.sources ?? []);
        return { output: done.markdown.trim(), provenance: provenanceOf(resp), citations: done.references };
      }
      const { output, response: resp } = await ask(
        deps.gateway,
        jsonTaskOf(c),
        { purpose: a.purpose, input: c.input },
        call,
      );
      const provenance = provenanceOf(resp);
      // A JSON writer of `local` reports its coverage inside the draft: it belongs with the provenance.
      const coverage = takeCoverage(resp, output);
      if (coverage) provenance.coverage = coverage;
      // A post over the platform's limit cannot be published as asked: the vendor's answer is unusable.
      if (c.kind === 'platform_post') {
        const length = [...String(output.content)].length;
        if (length > c.input.max_characters)
          throw new VendorBadResponseError(
            resp.provider,
            `a post of ${length} characters for ${c.input.platform}, whose limit is ${c.input.max_characters}`,
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
