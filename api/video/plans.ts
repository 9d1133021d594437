/**
 * Video studio plans and scenes (Document 2, /api/videonet): POST /plan
 * drafts a plan with one metered AI call (a workflow the route executes) and
 * records it through the plan's decider; scenes are built from a plan and
 * edited one by one, on the same stream. Reads come from the `video`
 * projection, which every write waits for (read-your-writes).
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { videoPlanStream } from '../../domain/events/video';
import { videoPlanDecider, VideoPlanCommand } from '../../domain/video/decide';
import { durationProblem, FORMAT_RULES } from '../../domain/video/formats';
import type { PlanRequest, SceneChanges, VideoPlan } from '../../domain/video/types';
import { voiceProblem } from '../../domain/media/voices';
import { handleCommand } from '../../infra/eventstore/command';
import { getPlan, getScene, planRenders, planScenes } from '../../projections/video';
import { videoPlanWorkflow } from '../../workflows';
import { requestMeta, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteCtx, RouteDef } from '../kernel/registry';
import { runMeteredWorkflow } from '../kernel/tasks';
import {
  planBody,
  planIdParams,
  planSchema,
  sceneIdParams,
  sceneSchema,
  scenesBody,
  scenesResponse,
  sceneUpdateBody,
} from './schemas';
import { planView, sceneView, totalSeconds } from './views';

const tags = ['video studio'];
type Ctx = RouteCtx;

/** Runs a command on a plan's stream and waits until the projection has it. */
export async function planCommand(ctx: Ctx, planId: string, command: VideoPlanCommand) {
  const r = await handleCommand(ctx.deps.store, videoPlanStream(planId), videoPlanDecider, command, {
    metadata: requestMeta(ctx),
  });
  await settle(ctx, 'video', r.events);
  return r;
}

/** Builds the plan's scenes unless they exist (or `rebuild`); answers whether it built them. */
export async function ensureScenes(ctx: Ctx, planId: string, rebuild = false): Promise<boolean> {
  const rec = await getPlan(ctx.deps.db, userIdOf(ctx), planId);
  if (!rec) throw new NotFoundError('Video plan not found');
  const ids = rec.plan.scenes.map(() => randomUUID());
  const r = await planCommand(ctx, planId, { kind: 'build_scenes', user_id: userIdOf(ctx), scene_ids: ids, rebuild });
  return r.events.length > 0;
}

/** A voice the deployment cannot speak is refused when the scene is edited, not at render time. */
function checkVoice(ctx: Ctx, voice: string | undefined, path: string) {
  const problem = ctx.deps.media?.speechVendorConfigured ? undefined : voiceProblem('local', voice);
  if (problem)
    throw new ValidationError([
      { location: 'body', path, kind: 'constraint', message: problem, provided_value: voice },
    ]);
}

export const videoPlanRoutes: RouteDef[] = [
  defineRoute<PlanRequest & { format: PlanRequest['format'] }>({
    method: 'post',
    path: '/api/videonet/plan',
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Generate a video plan',
    description:
      'One AI call (the `local` offline planner when no text vendor is configured) writes the title and the scenes: narration, visual description and durations that sum exactly to the target. The plan is stored; build editable scenes from it with POST /api/videonet/scenes.',
    request: { body: planBody },
    responses: { 201: { description: 'The plan', data: planSchema } },
    errors: {
      502: 'The text vendor failed or answered unusably',
      503: 'Background work (Temporal) or the chosen text vendor is not available',
    },
    async handler(ctx) {
      const userId = userIdOf(ctx);
      const r = ctx.body;
      const rule = FORMAT_RULES[r.format];
      const seconds = Math.round((r.duration_seconds ?? rule.default_seconds) * 10) / 10;
      const problem = durationProblem(r.format, seconds);
      if (problem)
        throw new ValidationError([
          { location: 'body', path: 'duration_seconds', kind: 'constraint', message: problem, provided_value: seconds },
        ]);
      const planId = randomUUID();
      const drafted = await runMeteredWorkflow(ctx, videoPlanWorkflow, {
        workflowId: `video-plan-${planId}`,
        userId: userIdOf(ctx),
        args: [{ userId, request: { ...r, duration_seconds: seconds } }],
      });
      const plan: VideoPlan = {
        plan_id: planId,
        user_id: userId,
        title: drafted.title,
        topic: r.topic.trim(),
        format: r.format,
        aspect_ratio: rule.aspect_ratio,
        target_duration_seconds: seconds,
        key_points: r.key_points ?? [],
        ...(r.audience !== undefined ? { audience: r.audience } : {}),
        ...(r.tone !== undefined ? { tone: r.tone } : {}),
        ...(r.style !== undefined ? { style: r.style } : {}),
        scenes: drafted.scenes,
        provider: drafted.provider,
        model: drafted.model,
        ...(drafted.coverage ? { coverage: drafted.coverage } : {}),
      };
      await planCommand(ctx, planId, { kind: 'create', plan });
      const rec = await getPlan(ctx.deps.db, userId, planId);
      const now = new Date().toISOString();
      return { status: 201, data: planView(rec ?? { plan, scene_ids: [], created_at: now, updated_at: now }) };
    },
  }),

  defineRoute<unknown, unknown, { id: string }>({
    method: 'get',
    path: '/api/videonet/plan/{id}',
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Retrieve a video plan',
    description:
      "The plan as POST /api/videonet/plan drafted it (the plan's own scenes: narration, visual description, durations), with `scenes_built` and `scene_ids` (the editable scenes of POST /api/videonet/scenes, read one by one at GET /api/videonet/scenes/{id}) and `renders`: the plan's render tasks, newest first (at most 50). Another user's plan is 404.",
    request: { params: planIdParams },
    responses: { 200: { description: 'The plan, whether its scenes are built, and its renders', data: planSchema } },
    async handler(ctx) {
      const rec = await getPlan(ctx.deps.db, userIdOf(ctx), ctx.params.id);
      if (!rec) throw new NotFoundError('Video plan not found');
      return { data: planView(rec, await planRenders(ctx.deps.db, userIdOf(ctx), ctx.params.id)) };
    },
  }),

  defineRoute<{ plan_id: string; rebuild: boolean }>({
    method: 'post',
    path: '/api/videonet/scenes',
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Build scenes from a plan',
    description:
      'Creates one editable scene per plan scene (201). When the plan has scenes already they are returned as they are (200), unless `rebuild` is true: then fresh scenes (new ids) replace them.',
    request: { body: scenesBody },
    responses: {
      201: { description: 'Scenes built', data: scenesResponse },
      200: { description: 'The scenes the plan already had', data: scenesResponse },
    },
    errors: { 404: "No such plan (or not the caller's)", 409: 'The plan was changed by another request; retry' },
    async handler(ctx) {
      const userId = userIdOf(ctx);
      const created = await ensureScenes(ctx, ctx.body.plan_id, ctx.body.rebuild);
      const scenes = await planScenes(ctx.deps.db, userId, ctx.body.plan_id);
      const rec = await getPlan(ctx.deps.db, userId, ctx.body.plan_id);
      const at = rec?.updated_at ?? new Date().toISOString();
      return {
        status: created ? 201 : 200,
        data: {
          plan_id: ctx.body.plan_id,
          created,
          total_duration_seconds: totalSeconds(scenes),
          scenes: scenes.map((s) => sceneView(s, at)),
        },
      };
    },
  }),

  defineRoute<SceneChanges, unknown, { id: string }>({
    method: 'post',
    path: '/api/videonet/scenes/{id}/update',
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Update one scene',
    description:
      "Changes any of heading, narration, visual_description, duration_seconds, visual, voice. The video's total length must stay within its format (400 naming duration_seconds otherwise). Renders already started keep the scenes they started with.",
    request: { params: sceneIdParams, body: sceneUpdateBody },
    responses: { 200: { description: 'The scene after the update', data: sceneSchema } },
    errors: { 409: 'The plan was changed by another request; retry' },
    async handler(ctx) {
      const userId = userIdOf(ctx);
      const found = await getScene(ctx.deps.db, userId, ctx.params.id);
      if (!found) throw new NotFoundError('Scene not found');
      checkVoice(ctx, ctx.body.voice?.voice, 'voice.voice');
      await planCommand(ctx, found.scene.plan_id, {
        kind: 'update_scene',
        user_id: userId,
        scene_id: ctx.params.id,
        changes: ctx.body,
      });
      const now = await getScene(ctx.deps.db, userId, ctx.params.id);
      if (!now) throw new NotFoundError('Scene not found');
      return { data: sceneView(now.scene, now.updated_at) };
    },
  }),

  defineRoute<unknown, unknown, { id: string }>({
    method: 'get',
    path: '/api/videonet/scenes/{id}',
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Retrieve a scene',
    description:
      "One editable scene built from a plan, as it stands after its edits (POST /api/videonet/scenes/{id}/update); `visual.rendered_as` says what the renderer will draw for it. Another user's scene is 404.",
    request: { params: sceneIdParams },
    responses: { 200: { description: 'The scene', data: sceneSchema } },
    async handler(ctx) {
      const found = await getScene(ctx.deps.db, userIdOf(ctx), ctx.params.id);
      if (!found) throw new NotFoundError('Scene not found');
      return { data: sceneView(found.scene, found.updated_at) };
    },
  }),
];
