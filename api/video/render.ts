/**
 * Video studio renders (Document 2, /api/videonet): POST /render starts the
 * asynchronous render workflow (task id = workflow id) on a snapshot of the
 * plan's scenes; GET /render/{task_id} combines the task record (status,
 * progress messages, result) with the render's progress (percent, current
 * scene) from the `video` projection.
 */
import { randomUUID } from 'node:crypto';
import { VIDEO_RENDER_TASK_TYPE } from '../../domain/video/render';
import { NotFoundError, ServiceUnavailableError, ValidationError } from '../../domain/errors';
import { taskStream } from '../../domain/events/tasks';
import { videoPlanStream } from '../../domain/events/video';
import { videoPlanDecider, ownPlan } from '../../domain/video/decide';
import { renderJob, RenderRequest } from '../../domain/video/render';
import { getPlan, getRender } from '../../projections/video';
import { videoRenderWorkflow } from '../../workflows';
import { callerOf, settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteCtx, RouteDef } from '../kernel/registry';
import { startWorkflow } from '../kernel/workflows';
import { boundErrors } from '../kernel/fair-use';
import { ensureScenes } from './plans';
import { ownTask, pollHeaders, presentResultsOf, presentTask } from '../kernel/tasks';
import { renderBody, renderResult, renderStarted, renderStatus, taskIdParams } from './schemas';
import { defineTaskType } from '../kernel/task-catalogue';
import { voiceProblem } from '../../domain/media/voices';

const tags = ['video studio'];
export const RENDER_TASK_TYPE = defineTaskType({ type: VIDEO_RENDER_TASK_TYPE, result: renderResult }).type;

/** Where clients fetch a stored file (absolute when the deployment knows its public URL). */

export const fileUrl = (ctx: RouteCtx, filename: string) =>
  `${ctx.deps.publicBaseUrl ?? ''}/api/videonet/videos/${encodeURIComponent(filename)}`;

/** A render's result as clients see it, wherever it is read: with the URLs of its files. */
presentResultsOf(RENDER_TASK_TYPE, (ctx, r) => {
  const result = r as { filename?: string; files?: { filename: string }[] };
  return result.filename
    ? {
        ...r,
        video_url: fileUrl(ctx, result.filename),
        files: (result.files ?? []).map((f) => ({ ...f, url: fileUrl(ctx, f.filename) })),
      }
    : r;
});

export const videoRenderRoutes: RouteDef[] = [
  defineRoute<RenderRequest>({
    method: 'post',
    path: '/api/videonet/render',
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Start rendering a plan to MP4',
    description:
      "Starts an asynchronous render (H.264 + AAC MP4, faststart; loudness normalised to -16 LUFS / -1.5 dBTP; SRT and WebVTT subtitles from the measured speech) of the plan's scenes as they are now; builds the scenes first when the plan has none. Poll GET /api/videonet/render/{task_id}; cancel with POST /api/story/task/{task_id}/cancel. Metered: one `render` call per started minute of video.",
    request: { body: renderBody },
    responses: { 202: { description: 'Render started', data: renderStarted } },
    errors: {
      404: "No such plan (or not the caller's)",
      409: 'The plan was changed by another request; retry',
      503: 'Background work (Temporal), media storage or the requested speech vendor is not available',
      ...boundErrors(RENDER_TASK_TYPE),
    },
    async handler(ctx) {
      const userId = userIdOf(ctx);
      const r = ctx.body;
      if (!ctx.deps.media)
        throw new ServiceUnavailableError('Media storage is not configured on this API', { service: 'media' });
      if (r.speech_provider === 'tts_vendor' && !ctx.deps.media.speechVendorConfigured)
        throw new ServiceUnavailableError(
          'tts_vendor is not configured: set TTS_VENDOR_BASE_URL, TTS_VENDOR_API_KEY, TTS_VENDOR_MODEL',
          {
            provider: 'tts_vendor',
          },
        );
      const local = r.speech_provider === 'local' || !ctx.deps.media.speechVendorConfigured;
      const problem = local ? voiceProblem('local', r.voice?.voice) : undefined;
      if (problem)
        throw new ValidationError([{ location: 'body', path: 'voice.voice', kind: 'constraint', message: problem }]);
      if (!(await getPlan(ctx.deps.db, userId, r.plan_id))) throw new NotFoundError('Video plan not found');
      await ensureScenes(ctx, r.plan_id);
      // The render works on the scenes as the plan's stream has them now (a snapshot; later edits do not apply).
      const { state } = await ctx.deps.store.aggregateStream(
        videoPlanStream(r.plan_id),
        videoPlanDecider.evolve,
        videoPlanDecider.initialState,
      );
      const plan = ownPlan(state, userId);
      const job = renderJob(plan, state.scenes ?? [], r);
      const taskId = `video-render-${randomUUID()}`;
      await startWorkflow(ctx.deps, videoRenderWorkflow, {
        workflowId: taskId,
        args: [{ taskId, userId, request: job }],
        task: { userId, plan: callerOf(ctx).plan, taskType: RENDER_TASK_TYPE },
      });
      await settle(ctx, 'task-status', [{ streamId: taskStream(taskId), streamPosition: 0 }]);
      return {
        status: 202,
        data: { task_id: taskId, status: 'started', plan_id: r.plan_id, status_url: `/api/videonet/render/${taskId}` },
      };
    },
  }),

  defineRoute<unknown, unknown, { task_id: string }>({
    method: 'get',
    path: '/api/videonet/render/{task_id}',
    auth: 'user',
    successBody: 'bare',
    tags,
    rateScheme: 'status',
    summary: 'Render status and progress',
    description:
      'status (started, in_progress, completed, failed, cancelled), percent (scenes 0–90 by length, assembly 90–100), current_scene of total_scenes, progress_messages; when completed, result with video_url and the subtitle files.',
    request: { params: taskIdParams },
    etag: true,
    responses: { 200: { description: 'The render task', data: renderStatus } },
    errors: { 503: 'A task not recorded yet cannot be looked up: background work (Temporal) is not available' },
    async handler(ctx) {
      const userId = userIdOf(ctx);
      const t = await ownTask(ctx, ctx.params.task_id, RENDER_TASK_TYPE);
      const p = await getRender(ctx.deps.db, userId, t.task_id);
      const done = t.status === 'completed';
      const { result, ...record } = presentTask(t, [], ctx);
      return {
        data: {
          ...record,
          ...(p ? { plan_id: p.plan_id } : {}),
          percent: done ? 100 : (p?.percent ?? 0),
          current_scene: done ? (p?.total_scenes ?? 0) : (p?.current_scene ?? 0),
          total_scenes: p?.total_scenes ?? 0,
          step: p?.step ?? null,
          ...(result && (result as { filename?: string }).filename ? { result } : {}),
        },
        headers: pollHeaders(t.status),
      };
    },
  }),
];
