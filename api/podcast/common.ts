/**
 * Helpers shared by the podcast maker's routes: the project's decider run
 * from the API (read-your-writes through the `podcast` projection), the
 * project's strongly consistent state (folded from its stream, for checks
 * such as "the script is approved"), file URLs, and the media guard.
 */
import type { TaskType } from '../../domain/task-types';
import { NotFoundError, ServiceUnavailableError, ValidationError } from '../../domain/errors';
import { podcastStream } from '../../domain/events/podcast';
import { ownProject, podcastDecider, PodcastCommand } from '../../domain/podcast/decide';
import type { PodcastProject } from '../../domain/podcast/types';
import { handleCommand } from '../../infra/eventstore/command';
import type { MediaStorage } from '../../infra/storage/port';
import { requestMeta, settle, userIdOf } from '../kernel/handler';
import { presentResultsOf } from '../kernel/tasks';
import type { RouteCtx } from '../kernel/registry';

export type Ctx = RouteCtx;
export const tags = ['podcast'];
export const PREFIX = '/api/podcast';

/** Runs a command on a project's stream and waits until the projection has it. */
export async function projectCommand(ctx: Ctx, projectId: string, command: PodcastCommand) {
  const r = await handleCommand(ctx.deps.store, podcastStream(projectId), podcastDecider, command, {
    metadata: requestMeta(ctx),
  });
  await settle(ctx, 'podcast', r.events);
  return r;
}

/** The caller's project as its stream has it now (404 for another user's, a deleted or an unknown one). */
export async function currentProject(ctx: Ctx, projectId: string): Promise<PodcastProject> {
  const { state } = await ctx.deps.store.aggregateStream(
    podcastStream(projectId),
    podcastDecider.evolve,
    podcastDecider.initialState,
  );
  return ownProject(state, userIdOf(ctx));
}

export function mediaStorage(ctx: Ctx): MediaStorage {
  const s = ctx.deps.media?.storage;
  if (!s) throw new ServiceUnavailableError('Media storage is not configured on this API', { service: 'media' });
  return s;
}

export const invalid = (path: string, message: string, provided?: unknown) =>
  new ValidationError([
    {
      location: 'body',
      path,
      kind: 'constraint',
      message,
      ...(provided !== undefined ? { provided_value: provided } : {}),
    },
  ]);

export const notFound = (what: string) => new NotFoundError(`${what} not found`);

/** Public URL of a file route (absolute when the deployment knows its base URL). */
export const urlOf = (ctx: Ctx, route: string, filename: string) =>
  `${ctx.deps.publicBaseUrl ?? ''}${PREFIX}/${route}/${encodeURIComponent(filename)}`;

/**
 * A file task's result with the URL of its file (and of each of its `files`) on `route`: registered for the task
 * type, so the route's 200 answer and the task record read later (GET /api/tasks/{task_id}) show the same URLs.
 */
export function fileResults(taskType: TaskType, route: string): TaskType {
  presentResultsOf(taskType, (anyCtx, r) => {
    const ctx = anyCtx as Ctx;
    return {
      ...r,
      ...(typeof r.filename === 'string' ? { url: urlOf(ctx, route, r.filename) } : {}),
      ...(Array.isArray(r.files)
        ? { files: (r.files as { filename: string }[]).map((f) => ({ ...f, url: urlOf(ctx, route, f.filename) })) }
        : {}),
    };
  });
  return taskType;
}
