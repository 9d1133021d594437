/**
 * Rendering of the writers' media through the studios (pure): what the API
 * found available (the image studio's storage and provider, the video
 * studio's media storage), and the studio jobs built from a finished piece —
 * one image-studio generation per carousel slide (or one for a post's or
 * article's image), one video-studio render of a video post's scene plan.
 * The writer workflow runs them as child workflows (imageGenerateWorkflow,
 * videoRenderWorkflow) and reports each asset as `rendered` or `failed`.
 */
import { hash32 } from '../generation/text';
import type { GenerationPlan } from '../image/jobs';
import type { ImageProvider } from '../image/providers';
import { overlayText } from '../image/procedural';
import { AspectRatio, DEFAULT_FPS, FrameRate, Resolution } from '../media/formats';
import type { VoiceSettings } from '../media/voices';
import { defaultVisual } from '../video/plan';
import { renderJob, RenderJob } from '../video/render';
import type { SubtitleMode } from '../media/subtitles';
import type { SceneVisual, VideoPlan, VideoScene } from '../video/types';
import type { CarouselBrief, VideoPostBrief, WriterBrief } from './types';

/** What the API found for rendering when it built the job (the workflow never reads configuration). */
export interface RenderServices {
  /** Image studio: the provider chosen for generation, or why it is not available. */
  image: { available: true; provider: ImageProvider; model: string } | { available: false; reason: string };
  /** Video studio: whether speech goes to the vendor, or why it is not available. */
  video: { available: true; speechVendor: boolean } | { available: false; reason: string };
  /** Prefix of the studios' file URLs (PUBLIC_BASE_URL, or '' for paths relative to the API). */
  baseUrl: string;
}

/** Sizes of rendered images and videos when the request gives none. */
export const DEFAULT_SLIDE_SIZE = { width: 1080, height: 1080 };
export const DEFAULT_POST_IMAGE_SIZE = { width: 1200, height: 627 };
export const DEFAULT_VIDEO_RESOLUTION: Resolution = '720p';

/** Options a request may give for its render (extension `render_options`). */
export interface RenderOptions {
  width?: number;
  height?: number;
  resolution?: Resolution;
  fps?: FrameRate;
  subtitles?: SubtitleMode;
}

const seedOf = (key: string) => hash32(key) % 4294967295;

/** The image-studio plan of one image: the offline renderer writes `title` on it; vendors read the prompt. */
export function imagePlan(
  services: Extract<RenderServices['image'], { available: true }>,
  a: { prompt: string; title?: string; width: number; height: number; seedKey: string },
): GenerationPlan {
  const prompt = a.prompt.replace(/\s+/g, ' ').trim().slice(0, 3900);
  return {
    prompt,
    enhance: false,
    enrich: { prompt, quality: 'standard' },
    provider: services.provider,
    model: services.model,
    width: a.width,
    height: a.height,
    quality: 'standard',
    seeds: [seedOf(a.seedKey)],
    ...(services.provider === 'local' && a.title
      ? { overlay: { kind: 'title', text: overlayText('title', a.title) } }
      : {}),
  };
}

interface Slide {
  index: number;
  kind: string;
  title: string;
  body: string;
  visual_notes: string;
}

/** The prompt of a slide's image: its title and body, its visual notes, the carousel's style and brand colours. */
export function slidePrompt(b: CarouselBrief, s: Slide): string {
  return [
    `${s.kind === 'cover' ? 'Carousel cover' : s.kind === 'cta' ? 'Call-to-action slide' : 'Carousel slide'}: ${s.title}`,
    s.body,
    s.visual_notes,
    `Style: ${b.style}`,
    b.brand.colors.length ? `Brand colours ${b.brand.colors.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('. ');
}

/** One image plan per slide of a finished carousel. */
export function slidePlans(
  taskId: string,
  b: CarouselBrief,
  content: Record<string, unknown>,
  services: Extract<RenderServices['image'], { available: true }>,
  opts: RenderOptions = {},
): GenerationPlan[] {
  const slides = (content.slides ?? []) as Slide[];
  const width = opts.width ?? DEFAULT_SLIDE_SIZE.width;
  const height = opts.height ?? DEFAULT_SLIDE_SIZE.height;
  return slides.map((s) =>
    imagePlan(services, { prompt: slidePrompt(b, s), title: s.title, width, height, seedKey: `${taskId}:${s.index}` }),
  );
}

/** The video studio renders 16:9 and 9:16: a wider-than-tall request gets 16:9, anything else 9:16. */
export function renderAspect(aspectRatio: string): AspectRatio {
  const [w, h] = aspectRatio.split(':').map(Number);
  return w > h ? '16:9' : '9:16';
}

/** The offline voice closest to the brief's voice type and speed (vendor voices keep the vendor's default). */
export function renderVoice(b: VideoPostBrief): VoiceSettings {
  const t = `${b.voice.type} ${b.voice.speed ?? ''}`.toLowerCase();
  const female = /female|woman|\bher\b|feminine/.test(t);
  const british = /brit|uk\b|english accent/.test(t);
  const voice = `en-${british ? 'gb' : 'us'}-${female ? 'f' : 'm'}1`;
  const rate = /fast|quick|energetic|brisk/.test(t) ? 1.15 : /slow|calm|relaxed/.test(t) ? 0.9 : 1;
  return { voice, rate };
}

const HEX = /^#[0-9a-f]{6}$/i;

interface PlannedScene {
  index: number;
  duration_seconds: number;
  narration: string;
  visual: string;
  on_screen_text: string;
}

/**
 * The video studio's render job of a finished video post: its scenes as the
 * studio's scenes (brand colours as the background gradient when given, else
 * the studio's palette), timed by the plan's durations (renderJob).
 */
export function videoPostRenderJob(
  taskId: string,
  b: VideoPostBrief,
  content: Record<string, unknown>,
  speechVendor: boolean,
  opts: RenderOptions = {},
): RenderJob {
  const planned = (content.scenes ?? []) as PlannedScene[];
  const aspect = renderAspect(b.aspectRatio);
  const brand = b.brand.colors.filter((c) => HEX.test(c));
  const scenes: VideoScene[] = planned.map((s, i) => {
    const visual: SceneVisual =
      brand.length > 0
        ? {
            kind: brand.length > 1 ? 'gradient' : 'solid',
            colors: brand.slice(0, 2),
            motion: i % 2 === 0 ? 'zoom_in' : 'zoom_out',
          }
        : defaultVisual(taskId, i);
    const heading = s.on_screen_text || `Scene ${s.index}`;
    return {
      scene_id: `${taskId}-scene-${s.index}`,
      plan_id: taskId,
      index: i,
      heading,
      narration: s.narration || heading,
      visual_description: s.visual,
      duration_seconds: s.duration_seconds,
      visual,
      voice: {},
    };
  });
  const total = scenes.reduce((a, s) => a + s.duration_seconds, 0);
  const plan: VideoPlan = {
    plan_id: taskId,
    user_id: '',
    title: String(content.title ?? b.topic),
    topic: b.topic,
    format: total <= 60 ? 'short' : 'standard',
    aspect_ratio: aspect,
    target_duration_seconds: total,
    key_points: [],
    scenes: [],
    provider: 'writer',
    model: 'writer',
  };
  return renderJob(plan, scenes, {
    plan_id: taskId,
    resolution: opts.resolution ?? DEFAULT_VIDEO_RESOLUTION,
    fps: opts.fps ?? DEFAULT_FPS,
    subtitles: opts.subtitles ?? 'mux',
    speech_provider: 'auto',
    ...(speechVendor ? {} : { voice: renderVoice(b) }),
  });
}

/** Whether the brief asks for any rendering the studios do. */
export function rendersRequested(b: WriterBrief): { image: boolean; video: boolean } {
  switch (b.kind) {
    case 'post':
      return { image: b.image.requested, video: false };
    case 'article':
      return { image: b.image.requested, video: false };
    case 'carousel':
      return { image: b.renderImages, video: false };
    case 'video_post':
      return { image: false, video: b.render };
    default:
      return { image: false, video: false };
  }
}
