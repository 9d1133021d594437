/**
 * Podcast maker activities for text work (workflows/podcast.ts): idea
 * enhancement, analysis, search queries and scripts are one metered AI call
 * each through the gateway (the offline writer `local` when no vendor is
 * configured), research asks the research provider (web-search vendor +
 * corpus, or the corpus alone) and says which; each result is recorded once
 * on the project's stream when the job names a project.
 */
import type { AiGateway } from '../infra/ai/gateway';
import { VendorBadResponseError } from '../infra/ai/errors';
import type { EventStore, NewEvent } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import type { ResearchProvider } from '../infra/research';
import { podcastStream } from '../domain/events/podcast';
import type { LocalTask } from '../domain/generation';
import { analyzeIdeaPrompt, enhanceIdeaPrompt, queriesPrompt, scriptPrompt } from '../domain/podcast/prompts';
import { scriptFromDraft, scriptInput, ScriptDraft } from '../domain/podcast/script';
import type { ResearchJob, ScriptJob, TextJob } from '../domain/podcast/jobs';
import type { NoteField, PodcastScript } from '../domain/podcast/types';
import type { ChatMessage } from '../domain/blog/prompts';
import { activityKey, currentWorkflowId } from './tasks';
import { ajv, guarded, parsed, strings } from './ai-call';
import { withHeartbeat } from './heartbeat';

export interface PodcastActivityDeps {
  store: EventStore;
  gateway: AiGateway;
  research: ResearchProvider;
}

/** Appends one event to a project's stream, once (its id from the activity key and `suffix`). */
export async function appendProjectEvent(
  store: EventStore,
  projectId: string,
  userId: string,
  event: NewEvent,
  suffix = '',
) {
  const key = activityKey(suffix);
  await store.appendOnce(
    podcastStream(projectId),
    { ...event, eventId: uuidFromKey(`podcast:${key}`) },
    { user_id: userId, workflow_id: currentWorkflowId(), causation_id: key },
  );
}

const CHECKS = {
  enhance: ajv.compile({
    type: 'object',
    required: ['enhanced_idea'],
    properties: {
      enhanced_idea: { type: 'string', minLength: 1 },
      title_suggestions: strings,
      hooks: strings,
      keywords: strings,
    },
  }),
  analyze: ajv.compile({
    type: 'object',
    required: ['audience', 'angle', 'segment_outline'],
    properties: {
      audience: { type: 'string' },
      angle: { type: 'string' },
      segment_outline: { type: 'array', items: { type: 'object', required: ['title'] } },
    },
  }),
  queries: ajv.compile({
    type: 'object',
    required: ['queries'],
    properties: { queries: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } } },
  }),
};

const SCRIPT_CHECK = ajv.compile({
  type: 'object',
  required: ['scenes'],
  properties: {
    title: { type: 'string' },
    scenes: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['lines'],
        properties: {
          title: { type: 'string' },
          lines: {
            type: 'array',
            items: {
              type: 'object',
              required: ['speaker', 'text'],
              properties: { speaker: { type: 'string' }, text: { type: 'string' } },
            },
          },
        },
      },
    },
  },
});

const NOTE: Record<TextJob['kind'], NoteField> = { enhance: 'enhanced_idea', analyze: 'analysis', queries: 'queries' };
const PURPOSE: Record<TextJob['kind'], string> = {
  enhance: 'podcast.idea',
  analyze: 'podcast.analysis',
  queries: 'podcast.queries',
};

export function createPodcastActivities(deps: PodcastActivityDeps) {
  const record = (projectId: string | undefined, userId: string, taskId: string, field: NoteField, value: unknown) =>
    projectId
      ? appendProjectEvent(deps.store, projectId, userId, {
          type: 'PodcastNotesRecorded',
          data: { project_id: projectId, user_id: userId, field, value, task_id: taskId },
        })
      : Promise.resolve();

  return {
    /** One metered AI call: enhanced idea, analysis or search queries (JSON, checked), recorded on the project. */
    async podcastText(a: { taskId: string; userId: string; job: TextJob }): Promise<Record<string, unknown>> {
      const { job } = a;
      const messages: Record<TextJob['kind'], ChatMessage[]> = {
        enhance: enhanceIdeaPrompt(job.input),
        analyze: analyzeIdeaPrompt(job.input),
        queries: queriesPrompt(job.input),
      };
      const local: Record<TextJob['kind'], LocalTask> = {
        enhance: { kind: 'podcast_idea', input: job.input },
        analyze: { kind: 'podcast_analysis', input: job.input },
        queries: { kind: 'podcast_queries', input: job.input },
      };
      const resp = await guarded(deps.gateway, {
        userId: a.userId,
        provider: job.provider,
        purpose: PURPOSE[job.kind],
        messages: messages[job.kind],
        maxTokens: 1200,
        idempotencyKey: activityKey(),
        localTask: local[job.kind],
      });
      const value = parsed<Record<string, unknown>>(resp, CHECKS[job.kind], PURPOSE[job.kind]);
      await record(job.project_id, a.userId, a.taskId, NOTE[job.kind], value);
      return { ...value, provider: resp.provider, model: resp.model, offline: resp.metadata.offline };
    },

    /** Sources for the queries from the research provider (names the source used), recorded on the project. */
    async podcastResearch(a: { taskId: string; userId: string; job: ResearchJob }): Promise<Record<string, unknown>> {
      const per = Math.max(1, Math.ceil(a.job.limit / a.job.queries.length));
      const seen = new Set<string>();
      const results = [];
      for (const query of a.job.queries) {
        const found = await withHeartbeat(() => deps.research.search(query, { limit: per }));
        const fresh = found.filter((s) => !seen.has(s.url));
        fresh.forEach((s) => seen.add(s.url));
        results.push({ query, sources: fresh });
      }
      const value = {
        source: deps.research.web ? deps.research.name : 'corpus',
        web_search_vendor: deps.research.web?.vendor ?? null,
        offline: !deps.research.web,
        results,
        total_sources: seen.size,
      };
      await record(a.job.project_id, a.userId, a.taskId, 'research', value);
      return value;
    },

    /** One metered AI call writing the script, sized to the duration, recorded as the project's new script version. */
    async podcastScript(a: {
      taskId: string;
      userId: string;
      job: ScriptJob;
    }): Promise<{ script: PodcastScript; version: number }> {
      const input = scriptInput(a.job.request);
      const resp = await guarded(deps.gateway, {
        userId: a.userId,
        provider: a.job.request.provider,
        purpose: 'podcast.script',
        messages: scriptPrompt(input),
        maxTokens: Math.min(16000, 600 + input.target_words * 3),
        idempotencyKey: activityKey(),
        localTask: { kind: 'podcast_script', input },
      });
      const draft = parsed<ScriptDraft>(resp, SCRIPT_CHECK, 'podcast script');
      let script: PodcastScript;
      try {
        script = scriptFromDraft(draft, input, { provider: resp.provider, model: resp.model });
      } catch (e) {
        throw new VendorBadResponseError(resp.provider, `unusable script: ${(e as Error).message}`);
      }
      await appendProjectEvent(deps.store, a.job.project_id, a.userId, {
        type: 'PodcastScriptWritten',
        data: { project_id: a.job.project_id, user_id: a.userId, script, version: a.job.version, task_id: a.taskId },
      });
      return { script, version: a.job.version };
    },
  };
}

export type PodcastActivities = ReturnType<typeof createPodcastActivities>;
