/**
 * Podcast maker activities for text work (workflows/podcast.ts): idea
 * enhancement, analysis, search queries and scripts are one metered AI call
 * each through the gateway (the offline writer `local` when no vendor is
 * configured), research asks the research provider (web-search vendor +
 * corpus, or the corpus alone) and says which; each result is recorded once
 * on the project's stream when the job names a project.
 */
import type { AiGateway } from '../infra/ai/completion';
import { VendorBadResponseError } from '../infra/ai/errors';
import type { EventStore, NewEvent } from '../infra/eventstore';
import { uuidFromKey } from '../infra/eventstore/ids';
import { ConcurrencyError } from '../infra/eventstore/errors';
import { podcastDecider } from '../domain/podcast/decide';
import type { ResearchProvider } from '../infra/research';
import { podcastStream } from '../domain/events/podcast';
import { PODCAST_SCRIPT, PODCAST_TEXT_TASKS } from '../domain/podcast/tasks';
import { scriptFromDraft, scriptInput } from '../domain/podcast/script';
import type { ResearchJob, ScriptJob, TextJob } from '../domain/podcast/jobs';
import type { NoteField, PodcastScript } from '../domain/podcast/types';
import { activityKey, currentWorkflowId } from './tasks';
import { ask, takeCoverage } from './ai-call';
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

/**
 * Records a written script as the project's next version, numbered when it is stored: the project's version then,
 * plus one, appended at the stream version it was read at (ConcurrencyError: read again and renumber). Two scripts
 * written at once for one project get two versions, never one number twice. A retried activity finds its own event
 * (the event id is the activity's key) and answers the version it was stored with.
 */
export async function appendScriptVersion(
  store: EventStore,
  projectId: string,
  userId: string,
  taskId: string,
  script: PodcastScript,
): Promise<number> {
  const key = activityKey();
  for (let attempt = 1; ; attempt++) {
    const { state, version: at } = await store.aggregateStream(
      podcastStream(projectId),
      podcastDecider.evolve,
      podcastDecider.initialState,
    );
    const version = (state.project?.script_version ?? 0) + 1;
    try {
      const r = await store.appendOnce(
        podcastStream(projectId),
        {
          type: 'PodcastScriptWritten',
          data: { project_id: projectId, user_id: userId, script, version, task_id: taskId },
          eventId: uuidFromKey(`podcast:${key}`),
        },
        { user_id: userId, workflow_id: currentWorkflowId(), causation_id: key },
        at,
      );
      return (r.event.data as { version: number }).version;
    } catch (e) {
      if (!(e instanceof ConcurrencyError) || attempt >= 10) throw e;
    }
  }
}

const NOTE: Record<TextJob['kind'], NoteField> = { enhance: 'enhanced_idea', analyze: 'analysis', queries: 'queries' };

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
      const { output: value, response: resp } = await ask(deps.gateway, PODCAST_TEXT_TASKS[job.kind], job.input, {
        userId: a.userId,
        provider: job.provider,
        idempotencyKey: activityKey(),
      });
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
      const { output: draft, response: resp } = await ask(deps.gateway, PODCAST_SCRIPT, input, {
        userId: a.userId,
        provider: a.job.request.provider,
        idempotencyKey: activityKey(),
      });
      // The offline writer's account of the brief and of a script shorter than the duration (absent for vendors).
      const coverage = takeCoverage(resp, draft);
      let script: PodcastScript;
      try {
        script = scriptFromDraft(draft, input, { provider: resp.provider, model: resp.model });
      } catch (e) {
        throw new VendorBadResponseError(resp.provider, `unusable script: ${(e as Error).message}`);
      }
      if (coverage) script = { ...script, coverage };
      const version = await appendScriptVersion(deps.store, a.job.project_id, a.userId, a.taskId, script);
      return { script, version };
    },
  };
}

export type PodcastActivities = ReturnType<typeof createPodcastActivities>;
