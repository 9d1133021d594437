/**
 * The finishing step every draft goes through, whichever provider wrote it:
 * the kind's rules (finish-text.ts, finish-media.ts), the engagement model on
 * the piece's feed text (its relevance judged against the brief's topic), the limits that applied, and the rendering status of
 * the media the brief asked for. A requested render whose studio is available
 * is `queued` here; the writer workflow renders it through the image studio or
 * the video studio and replaces the entry with `rendered` or `failed`
 * (domain/writers/render.ts). A studio that is not available is reported as
 * `not_available`, naming what to configure, next to the written plan.
 */
import type { DraftByKind } from './drafts';
import { analyzeEngagement } from './engagement';
import type { EngagementPrediction, FactorResult } from './engagement-model';
import { finishCarousel, finishReel, finishStory, finishVideoPost } from './finish-media';
import { finishAdCopy, finishArticle, finishEvent, finishGroupPost, finishPageAbout, finishPost } from './finish-text';
import type { Finished } from './finish-common';
import { formatLimits, PLATFORM_LIMITS_CHECKED } from './platforms';
import type { Adjustment } from './text-limits';
import type { RenderServices } from './render';
import type { Source, WriterBrief } from './types';

/** One rendered file (a slide image, a post image, a video) or the failure of one. */
export interface RenderedAsset {
  /** Slide number (carousels), else 1. */
  index: number;
  status: 'rendered' | 'failed';
  /** Where the owner fetches it: the image studio's or the video studio's file route. */
  url?: string;
  content_type?: string;
  width?: number;
  height?: number;
  bytes?: number;
  duration_seconds?: number;
  /** Subtitle files of a video (SRT, WebVTT). */
  files?: Array<{ kind: string; url: string; content_type: string }>;
  error?: { code: string; message: string };
}

export interface RenderingStatus {
  asset: 'image' | 'video' | 'slide_images';
  requested: boolean;
  /** `queued` only between the finishing step and the render (never in a result). */
  status: 'not_requested' | 'not_available' | 'queued' | 'rendered' | 'failed';
  /** The service that renders it. */
  service: 'image_studio' | 'video_studio';
  message: string;
  /** What to give the renderer (image prompt, visual notes) when the piece carries one. */
  prompt?: string;
  /** Who rendered it (image provider, or the video studio's speech provider) and whether offline. */
  provider?: string;
  model?: string;
  offline?: boolean;
  /** The studio task of a video render (GET /api/videonet/render/{task_id}). */
  task_id?: string;
  assets?: RenderedAsset[];
}

export interface FinishedPiece {
  text: string;
  content: Record<string, unknown>;
  engagement?: { engagement_prediction: EngagementPrediction; factors: FactorResult[] };
  limits: {
    format: string;
    max_characters: number;
    published: boolean;
    max_hashtags: number;
    max_emoji: number;
    max_line_breaks: number;
    checked_at: string;
    adjustments: Adjustment[];
  };
  rendering: RenderingStatus[];
}

const SERVICE = { image: 'image_studio', slide_images: 'image_studio', video: 'video_studio' } as const;

const NO_SERVICES_REASON = 'no rendering services were given to this generation';

export function renderingStatus(
  asset: RenderingStatus['asset'],
  requested: boolean,
  prompt?: string,
  services?: RenderServices,
  unavailable?: string,
): RenderingStatus {
  const service = SERVICE[asset];
  const s = service === 'image_studio' ? services?.image : services?.video;
  const reason = unavailable ?? (s && !s.available ? s.reason : !s ? NO_SERVICES_REASON : undefined);
  return {
    asset,
    requested,
    status: !requested ? 'not_requested' : reason ? 'not_available' : 'queued',
    service,
    message: !requested
      ? 'Not requested; the written plan is returned.'
      : reason
        ? `Rendering is not available: ${reason}. The written plan is returned.`
        : `Queued for the ${service === 'image_studio' ? 'image' : 'video'} studio.`,
    ...(prompt ? { prompt } : {}),
  };
}

function renderingOf(b: WriterBrief, content: Record<string, unknown>, services?: RenderServices): RenderingStatus[] {
  switch (b.kind) {
    case 'post':
      return [
        renderingStatus('image', b.image.requested, content.image_prompt as string | undefined, services),
        renderingStatus(
          'video',
          b.video.requested,
          undefined,
          services,
          'a post carries no scene plan to render; plan and render a video with /api/profnet/generate-video-post (render: true)',
        ),
      ];
    case 'article':
      return [renderingStatus('image', b.image.requested, undefined, services)];
    case 'video_post':
      return [renderingStatus('video', b.render, undefined, services)];
    case 'carousel':
      return [renderingStatus('slide_images', b.renderImages, undefined, services)];
    default:
      return [];
  }
}

function finishKind(b: WriterBrief, draft: unknown, sources: Source[]): Finished {
  switch (b.kind) {
    case 'post':
      return finishPost(b, draft as DraftByKind['post']);
    case 'article':
      return finishArticle(b, draft as DraftByKind['article'], sources);
    case 'video_post':
      return finishVideoPost(b, draft as DraftByKind['video_post']);
    case 'reel':
      return finishReel(b, draft as DraftByKind['reel']);
    case 'carousel':
      return finishCarousel(b, draft as DraftByKind['carousel']);
    case 'story':
      return finishStory(b, draft as DraftByKind['story']);
    case 'event':
      return finishEvent(b, draft as DraftByKind['event']);
    case 'group_post':
      return finishGroupPost(b, draft as DraftByKind['group_post']);
    case 'page_about':
      return finishPageAbout(b, draft as DraftByKind['page_about']);
    case 'ad_copy':
      return finishAdCopy(b, draft as DraftByKind['ad_copy']);
  }
}

export function finishDraft(
  b: WriterBrief,
  draft: unknown,
  sources: Source[],
  services?: RenderServices,
): FinishedPiece {
  const f = finishKind(b, draft, sources);
  const l = formatLimits(b.platform, b.kind);
  const engagement = f.scored
    ? (() => {
        const e = analyzeEngagement({ content: f.scored, platform: b.platform, kind: b.kind, topic: b.topic });
        return { engagement_prediction: e.engagement_prediction, factors: e.factors };
      })()
    : undefined;
  return {
    text: f.text,
    content: f.content,
    ...(engagement ? { engagement } : {}),
    limits: {
      format: `${b.platform}:${b.kind}`,
      max_characters: b.maxCharacters,
      published: l.published && b.maxCharacters === l.max_characters,
      max_hashtags: b.includeHashtags ? l.max_hashtags : 0,
      max_emoji: b.includeEmoji ? l.max_emoji : 0,
      max_line_breaks: l.max_line_breaks,
      checked_at: PLATFORM_LIMITS_CHECKED,
      adjustments: f.adjustments,
    },
    rendering: renderingOf(b, f.content, services),
  };
}
