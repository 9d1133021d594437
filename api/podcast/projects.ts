/**
 * Podcast projects (Document 2, /api/podcast/projects): event-sourced (stream
 * `podcast-<project_id>`), read from the `podcast` projection. A project holds
 * the whole workflow state — the client's own `state`, the analysis notes,
 * the script and its approval, every file made — so a user can resume.
 */
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../domain/errors';
import { titleOf } from '../../domain/podcast/script';
import { getProject, listProjects } from '../../projections/podcast';
import { userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, arr, int } from '../kernel/schema';
import { Ctx, notFound, PREFIX, projectCommand, tags } from './common';
import { projectIdParams } from './schemas/common';
import { favoriteBody, listQuery, projectBody, projectSchema, projectUpdateBody } from './schemas/projects';
import { projectView } from './views';

/** Creates a project and answers its record (also used by POST /script without a project). */
export async function createProject(ctx: Ctx, title: string, idea: string, state: Record<string, unknown> = {}) {
  const projectId = randomUUID();
  await projectCommand(ctx, projectId, {
    kind: 'create',
    project_id: projectId,
    user_id: userIdOf(ctx),
    title,
    idea,
    state,
  });
  return projectId;
}

async function read(ctx: Ctx, projectId: string) {
  const r = await getProject(ctx.deps.db, userIdOf(ctx), projectId);
  if (!r) throw notFound('Podcast project');
  return projectView(ctx, r);
}

export const projectRoutes: RouteDef[] = [
  defineRoute<{ title?: string; idea?: string; state?: Record<string, unknown> }>({
    method: 'post',
    path: `${PREFIX}/projects`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Create a podcast project',
    description:
      'An idea alone starts a project: its title is derived from the idea (the first sentence) and answered.',
    request: { body: projectBody },
    responses: { 201: { description: 'The project', data: projectSchema } },
    async handler(ctx) {
      const idea = ctx.body.idea?.trim() ?? '';
      const title = ctx.body.title?.trim() || (idea && titleOf(idea));
      if (!title)
        throw new ValidationError([
          {
            location: 'body',
            path: 'title',
            kind: 'missing',
            message: 'title is required, or an idea to derive it from',
          },
        ]);
      const id = await createProject(ctx, title, idea, ctx.body.state ?? {});
      return { status: 201, data: await read(ctx, id) };
    },
  }),

  defineRoute<unknown, { favorite?: boolean; limit: number; offset: number }>({
    method: 'get',
    path: `${PREFIX}/projects`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: "The caller's podcast projects (newest change first)",
    description:
      'A page of the full project records (as GET /projects/{project_id} answers them), ordered by `updated_at`, newest first; `total` counts all the projects that match. `favorite=true|false` keeps only the favourites or only the others. Deleted projects are never listed.',
    request: { query: listQuery },
    responses: {
      200: {
        description: 'A page of projects',
        data: allRequired({ projects: arr(projectSchema), total: int, limit: int, offset: int }),
      },
    },
    async handler(ctx) {
      const r = await listProjects(ctx.deps.db, userIdOf(ctx), ctx.query);
      return {
        data: {
          projects: r.projects.map((p) => projectView(ctx, p)),
          total: r.total,
          limit: ctx.query.limit,
          offset: ctx.query.offset,
        },
      };
    },
  }),

  defineRoute<unknown, unknown, { project_id: string }>({
    method: 'get',
    path: `${PREFIX}/projects/{project_id}`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'A podcast project with everything needed to resume it',
    description:
      "The client's own `state`, the analysis notes, the current script and whether it is approved, every file and image made (each with its `url`), and `next_step`: the next call of the workflow (`script`, `approve_script`, `audio`, `combine_audio`, `video`, `combine_videos`, `done`). 404 for another user's, a deleted or an unknown project.",
    request: { params: projectIdParams },
    responses: { 200: { description: 'The project', data: projectSchema } },
    async handler(ctx) {
      return { data: await read(ctx, ctx.params.project_id) };
    },
  }),

  defineRoute<{ title?: string; idea?: string; state?: Record<string, unknown> }, unknown, { project_id: string }>({
    method: 'put',
    path: `${PREFIX}/projects/{project_id}`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: "Update a project's title, idea or client state",
    description:
      '`state` replaces the stored client state as a whole. Scripts, notes and files change only through their routes.',
    request: { params: projectIdParams, body: projectUpdateBody },
    responses: { 200: { description: 'The project after the update', data: projectSchema } },
    errors: { 409: 'The project was changed by another request; retry' },
    async handler(ctx) {
      const b = ctx.body;
      const changes = {
        ...(b.title !== undefined ? { title: b.title.trim() } : {}),
        ...(b.idea !== undefined ? { idea: b.idea.trim() } : {}),
        ...(b.state !== undefined ? { state: b.state } : {}),
      };
      await projectCommand(ctx, ctx.params.project_id, { kind: 'update', user_id: userIdOf(ctx), changes });
      return { data: await read(ctx, ctx.params.project_id) };
    },
  }),

  defineRoute<unknown, unknown, { project_id: string }>({
    method: 'delete',
    path: `${PREFIX}/projects/{project_id}`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Delete a project (its files are no longer served)',
    description:
      "From then on the project is 404 on every route and is not listed; its audio, videos, subtitles and dubs are no longer served. Deleting it again, or another user's project, is 404.",
    request: { params: projectIdParams },
    responses: {
      200: { description: 'Deleted', data: allRequired({ project_id: { type: 'string' }, deleted: { const: true } }) },
    },
    errors: { 409: 'The project was changed by another request; retry' },
    async handler(ctx) {
      await projectCommand(ctx, ctx.params.project_id, { kind: 'delete', user_id: userIdOf(ctx) });
      return { data: { project_id: ctx.params.project_id, deleted: true } };
    },
  }),

  defineRoute<{ favorite: boolean }, unknown, { project_id: string }>({
    method: 'post',
    path: `${PREFIX}/projects/{project_id}/favorite`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Mark (or unmark with favorite: false) a project as favourite',
    description:
      'Sets `favorite` (default true) and answers the project; setting the value it already has changes nothing. GET /projects?favorite=true lists the favourites.',
    request: { params: projectIdParams, body: favoriteBody },
    responses: { 200: { description: 'The project', data: projectSchema } },
    errors: { 409: 'The project was changed by another request; retry' },
    async handler(ctx) {
      await projectCommand(ctx, ctx.params.project_id, {
        kind: 'favorite',
        user_id: userIdOf(ctx),
        favorite: ctx.body.favorite,
      });
      return { data: await read(ctx, ctx.params.project_id) };
    },
  }),
];
