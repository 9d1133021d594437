/**
 * Images and videos of the podcast maker. Pictures come from the image studio
 * (its generation workflow, storage and ownership records: POST /image and
 * avatars are image-studio images, served by GET /images/{path}); scene
 * videos hold a picture (or a gradient) over the scene's audio with
 * subtitles, and are joined into the episode video — all on the media engine.
 */
import { NotFoundError } from '../../domain/errors';
import type { SubtitleMode } from '../../domain/media/subtitles';
import { frameSize, Resolution } from '../../domain/media/formats';
import { defaultVisual } from '../../domain/video/plan';
import { requireApprovedScript } from '../../domain/podcast/decide';
import type { PodcastProject } from '../../domain/podcast/types';
import { getImageAsset } from '../../projections/image-assets';
import { listPodcastFiles } from '../../projections/podcast';
import { imageGenerateWorkflow, podcastCombineVideosWorkflow, podcastSceneVideoWorkflow } from '../../workflows';
import { settle, userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, arr, withRequired } from '../kernel/schema';
import { runTask, taskResponses } from '../kernel/tasks';
import { boundErrors } from '../kernel/fair-use';
import { executeWorkflow } from '../kernel/workflows';
import { planGeneration } from '../image-studio/create';
import { domainErrors, jobId, studioOf } from '../image-studio/common';
import { imageFileRoutes } from '../image-studio/files';
import { fileRoute } from './audio';
import { Ctx, currentProject, invalid, mediaStorage, PREFIX, projectCommand, fileResults, tags, urlOf } from './common';
import { imagePathParams } from './schemas/common';
import {
  combineVideosBody,
  combineVideosResult,
  imageBody,
  renderVideoBody,
  sceneVideoResult,
} from './schemas/visuals';
import { latest } from './views';
import { ConflictError } from '../../domain/errors';

/** Generates one picture through the image studio's workflow and records it for the caller; returns its facts. */
export async function generatePicture(
  ctx: Ctx,
  o: {
    prompt: string;
    provider?: string;
    aspect_ratio?: string;
    style_preset?: string;
    size?: { width: number; height: number };
  },
) {
  const studio = studioOf(ctx);
  const plan = await domainErrors(() =>
    planGeneration(
      {
        prompt: o.prompt,
        provider: (o.provider ?? 'auto') as never,
        ...(o.size ? { width: o.size.width, height: o.size.height } : { aspect_ratio: o.aspect_ratio ?? '16:9' }),
        style_preset: o.style_preset,
        quality: 'standard',
        num_variations: 1,
        enhance_prompt: false,
        use_persona: false,
      },
      undefined,
      studio.configured,
      studio.defaultModels,
    ),
  );
  const out = await executeWorkflow(ctx.deps, imageGenerateWorkflow, {
    workflowId: jobId('podcast'),
    userId: userIdOf(ctx),
    args: [{ userId: userIdOf(ctx), plan }],
  });
  await settle(ctx, 'image-assets', out.recorded);
  const img = out.results[0];
  return {
    image_key: img.key,
    width: img.width,
    height: img.height,
    provider: img.provider,
    model: img.model,
    content_type: img.content_type,
  };
}

const sceneOf = (p: PodcastProject, sceneId: string) => {
  const s = p.script?.scenes.find((x) => x.scene_id === sceneId);
  if (!s) throw new NotFoundError(`scene ${sceneId} not found in the script`);
  return s;
};

/** The video tasks: their results carry their files' URLs (fileResults). */
const SCENE_VIDEO = fileResults('podcast_video', 'videos');
const EPISODE_VIDEO = fileResults('podcast_combine_videos', 'final-videos');

const MEDIA_ERRORS = {
  404: "No such project, scene or image (or not the caller's)",
  409: 'The script is not approved, or a scene has no audio/video yet',
  502: 'The image vendor failed',
  503: 'Background work (Temporal), media or image storage is not available',
};

export const visualRoutes: RouteDef[] = [
  defineRoute<{
    project_id: string;
    scene_id?: string;
    prompt?: string;
    provider?: string;
    aspect_ratio?: string;
    style_preset?: string;
  }>({
    method: 'post',
    path: `${PREFIX}/image`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Generate a scene picture (image studio)',
    description:
      "One image through the image studio's generation (its configured vendors, else its offline renderer `local`; metered as image studio images), recorded on the project (and its scene). The prompt defaults to the scene's title and first line.",
    request: { body: imageBody },
    responses: {
      200: {
        description: 'The picture',
        data: allRequired({
          project_id: { type: 'string' },
          scene_id: { type: ['string', 'null'] },
          image_key: { type: 'string' },
          url: { type: 'string' },
          width: { type: 'integer' },
          height: { type: 'integer' },
          provider: { type: 'string' },
          model: { type: 'string' },
        }),
      },
    },
    errors: MEDIA_ERRORS,
    async handler(ctx) {
      const b = ctx.body;
      const p = await currentProject(ctx, b.project_id);
      const scene = b.scene_id ? sceneOf(p, b.scene_id) : undefined;
      const prompt = b.prompt?.trim() || (scene ? `${scene.title}. ${scene.lines[0]?.text ?? ''}` : p.title);
      const img = await generatePicture(ctx, {
        prompt,
        provider: b.provider,
        aspect_ratio: b.aspect_ratio,
        style_preset: b.style_preset,
      });
      await projectCommand(ctx, p.project_id, {
        kind: 'attach',
        user_id: userIdOf(ctx),
        asset: {
          kind: 'image',
          ...(scene ? { scene_id: scene.scene_id } : {}),
          image_key: img.image_key,
          width: img.width,
          height: img.height,
          provider: img.provider,
          created_at: new Date().toISOString(),
        },
      });
      return {
        data: {
          project_id: p.project_id,
          scene_id: scene?.scene_id ?? null,
          ...img,
          url: urlOf(ctx, 'images', img.image_key),
        },
      };
    },
  }),

  defineRoute<unknown, unknown, { path: string }>({
    method: 'get',
    path: `${PREFIX}/images/{path}`,
    auth: 'user',
    tags,
    summary: 'Serve a picture or avatar of the caller (Range, ETag)',
    description:
      "The image studio's file route under the podcast prefix: images the caller generated or uploaded (pictures, avatars).",
    request: { params: imagePathParams },
    responses: imageFileRoutes[0].responses,
    errors: imageFileRoutes[0].errors,
    async handler(ctx) {
      if (!(await getImageAsset(ctx.deps.db, userIdOf(ctx), ctx.params.path)))
        throw new NotFoundError('Image not found');
      return imageFileRoutes[0].handler({ ...ctx, params: { key: ctx.params.path } });
    },
  }),

  defineRoute<{
    project_id: string;
    scene_id: string;
    audio_url?: string;
    image_key?: string;
    prompt?: string;
    resolution: Resolution;
    fps: number;
    subtitles: SubtitleMode;
  }>({
    method: 'post',
    path: `${PREFIX}/render/video`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: "Render one scene's video (picture + audio + subtitles)",
    description:
      "The picture (image_key; else one generated from `prompt`; else the scene's latest image; else a gradient) held for the length of the scene's audio (`audio_url`, else its latest) with a slow zoom, audio normalised to −16 LUFS as AAC, subtitles from the measured speech as a track (`mux`), burnt in or none; H.264 MP4 with faststart, 16:9 at 480p/720p/1080p.",
    request: { body: renderVideoBody },
    responses: taskResponses('The scene video', { taskType: SCENE_VIDEO, result: sceneVideoResult }),
    errors: { ...MEDIA_ERRORS, ...boundErrors('podcast_video') },
    async handler(ctx) {
      const b = ctx.body;
      mediaStorage(ctx);
      const p = await currentProject(ctx, b.project_id);
      requireApprovedScript(p);
      const scene = sceneOf(p, b.scene_id);
      const audios = p.assets.filter(
        (a): a is Extract<typeof a, { kind: 'scene_audio' }> =>
          a.kind === 'scene_audio' && a.scene_id === scene.scene_id,
      );
      const wanted = b.audio_url ? decodeURIComponent(b.audio_url.split('?')[0].split('/').pop() ?? '') : undefined;
      const audio = wanted ? audios.find((a) => a.filename === wanted) : audios[audios.length - 1];
      if (!audio) {
        if (wanted) throw new NotFoundError(`audio ${wanted} is not an audio of scene ${scene.scene_id}`);
        throw new ConflictError(`scene ${scene.scene_id} has no audio yet: POST /api/podcast/audio first`, {
          reason: 'NO_AUDIO',
        });
      }
      let imageKey = b.image_key;
      if (imageKey && !(await getImageAsset(ctx.deps.db, userIdOf(ctx), imageKey)))
        throw new NotFoundError('Image not found');
      if (!imageKey && b.prompt) imageKey = (await generatePicture(ctx, { prompt: b.prompt })).image_key;
      if (!imageKey) imageKey = latest(p, 'image', scene.scene_id)?.image_key;
      const size = frameSize(b.resolution, '16:9');
      const v = defaultVisual(p.project_id, scene.index);
      return runTask(
        ctx,
        {
          workflow: podcastSceneVideoWorkflow,
          taskType: SCENE_VIDEO,
          idPrefix: 'podcast-video',
        },
        {
          project_id: p.project_id,
          scene_id: scene.scene_id,
          audio: { filename: audio.filename, cues: audio.cues },
          ...(imageKey ? { image_key: imageKey } : {}),
          colors: [v.colors[0], v.colors[1] ?? v.colors[0]] as [string, string],
          width: size.width,
          height: size.height,
          fps: b.fps,
          resolution: b.resolution,
          subtitles: b.subtitles,
        },
      );
    },
  }),

  defineRoute<{ project_id: string; scene_ids?: string[] }>({
    method: 'post',
    path: `${PREFIX}/render/combine-videos`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Join the scene videos into the episode video',
    description:
      "The latest video of each scene (every scene with a video, in script order, by default): pictures joined without re-encoding, the scenes' audio normalised once (two passes) as AAC, the episode's subtitles as a track plus SRT and WebVTT files; all scenes must share resolution and frame rate (400 otherwise). Served by GET /final-videos/{filename}.",
    request: { body: combineVideosBody },
    responses: taskResponses('The episode video', { taskType: EPISODE_VIDEO, result: combineVideosResult }),
    errors: { ...MEDIA_ERRORS, ...boundErrors('podcast_combine_videos') },
    async handler(ctx) {
      const b = ctx.body;
      mediaStorage(ctx);
      const p = await currentProject(ctx, b.project_id);
      const script = requireApprovedScript(p);
      const ids =
        b.scene_ids ?? script.scenes.filter((s) => latest(p, 'scene_video', s.scene_id)).map((s) => s.scene_id);
      if (!ids.length)
        throw new ConflictError('no scene has a video yet: POST /api/podcast/render/video first', {
          reason: 'NO_VIDEO',
        });
      const scenes = ids.map((id) => {
        sceneOf(p, id);
        const v = latest(p, 'scene_video', id);
        if (!v) throw new ConflictError(`scene ${id} has no video yet`, { reason: 'NO_VIDEO', scene_id: id });
        return v;
      });
      const first = scenes[0];
      const odd = scenes.find((s) => s.width !== first.width || s.height !== first.height || s.fps !== first.fps);
      if (odd)
        throw invalid(
          'scene_ids',
          `scene ${odd.scene_id} is ${odd.width}x${odd.height}@${odd.fps}, the first is ${first.width}x${first.height}@${first.fps}: render them alike`,
        );
      return runTask(
        ctx,
        {
          workflow: podcastCombineVideosWorkflow,
          taskType: EPISODE_VIDEO,
          idPrefix: 'podcast-final',
        },
        {
          project_id: p.project_id,
          scenes: scenes.map((s) => ({
            scene_id: s.scene_id,
            filename: s.filename,
            part: s.part,
            audio_filename: s.audio_filename,
            seconds: s.duration_seconds,
            cues: s.cues,
            ...(s.subtitles ? { subtitles: s.subtitles } : {}),
          })),
        },
      );
    },
  }),

  defineRoute<unknown, { project_id?: string; limit: number; offset: number }>({
    method: 'get',
    path: `${PREFIX}/videos`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: "The caller's podcast videos (scene and episode videos), newest first, paged",
    description:
      "`limit` (1–100, default 50) and `offset` page the list; `total` counts every video of the caller (of `project_id` when given). Subtitle files of episode videos are not listed (they are in the project's `final_video` asset).",
    request: {
      query: withRequired(
        {
          project_id: { type: 'string', pattern: '^[0-9a-fA-F-]{36}$' },
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
          offset: { type: 'integer', minimum: 0, maximum: 100000, default: 0 },
        },
        [],
      ),
    },
    responses: {
      200: {
        description: 'Videos',
        data: allRequired({
          videos: arr(
            allRequired({
              filename: { type: 'string' },
              project_id: { type: 'string' },
              kind: { enum: ['scene_video', 'final_video'] },
              url: { type: 'string' },
              created_at: { type: 'string', format: 'date-time' },
            }),
          ),
          total: { type: 'integer', description: 'videos in all (every page)' },
          limit: { type: 'integer' },
          offset: { type: 'integer' },
        }),
      },
    },
    async handler(ctx) {
      const { total, files } = await listPodcastFiles(ctx.deps.db, userIdOf(ctx), ['scene_video', 'final_video'], {
        projectId: ctx.query.project_id,
        limit: ctx.query.limit,
        offset: ctx.query.offset,
      });
      const videos = files.map((f) => ({
        filename: f.filename,
        project_id: f.project_id,
        kind: f.kind,
        url: urlOf(ctx, f.folder === 'video' ? 'videos' : 'final-videos', f.filename),
        created_at: f.created_at,
      }));
      return { data: { videos, total, limit: ctx.query.limit, offset: ctx.query.offset } };
    },
  }),

  fileRoute('videos', 'video', 'Serve a scene video (MP4)', 'video/mp4'),
  fileRoute('final-videos', 'final_video', 'Serve an episode video (MP4) or its subtitles (SRT, WebVTT)', [
    'video/mp4',
    'application/x-subrip',
    'text/vtt',
  ]),
];
