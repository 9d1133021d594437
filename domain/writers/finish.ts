/**
 * The finishing step every draft goes through, whichever provider wrote it:
 * the kind's rules (finish-text.ts, finish-media.ts), the engagement model on
 * the piece's feed text, the limits that applied, and the rendering status of
 * the media the brief asked for. The image studio and the video studio are not
 * part of this deployment, so a requested render is reported as
 * `not_available` next to the written plan (never faked).
 */
import type { DraftByKind } from './drafts';
import { analyzeEngagement, EngagementPrediction, FactorResult } from './engagement';
import { finishCarousel, finishReel, finishStory, finishVideoPost } from './finish-media';
import { finishAdCopy, finishArticle, finishEvent, finishGroupPost, finishPageAbout, finishPost } from './finish-text';
import type { Finished } from './finish-common';
import { formatLimits, PLATFORM_LIMITS_CHECKED } from './platforms';
import type { Adjustment } from './text-limits';
import type { Source, WriterBrief } from './types';

export interface RenderingStatus {
  asset: 'image' | 'video' | 'slide_images';
  requested: boolean;
  status: 'not_requested' | 'not_available';
  /** The service that would render it. */
  service: 'image_studio' | 'video_studio';
  message: string;
  /** What to give the renderer (image prompt, visual notes) when the piece carries one. */
  prompt?: string;
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
const SERVICE_NAME = { image_studio: 'the image studio', video_studio: 'the video studio' } as const;

export function renderingStatus(asset: RenderingStatus['asset'], requested: boolean, prompt?: string): RenderingStatus {
  const service = SERVICE[asset];
  return {
    asset,
    requested,
    status: requested ? 'not_available' : 'not_requested',
    service,
    message: requested
      ? `Rendering is not available: ${SERVICE_NAME[service]} is not part of this deployment. The written plan is returned; render it with your own tools or request it again once rendering is offered.`
      : `Not requested; the written plan is returned.`,
    ...(prompt ? { prompt } : {}),
  };
}

function renderingOf(b: WriterBrief, content: Record<string, unknown>): RenderingStatus[] {
  switch (b.kind) {
    case 'post':
      return [
        renderingStatus('image', b.image.requested, content.image_prompt as string | undefined),
        renderingStatus('video', b.video.requested),
      ];
    case 'article':
      return [renderingStatus('image', b.image.requested)];
    case 'video_post':
      return [renderingStatus('video', b.render)];
    case 'carousel':
      return [renderingStatus('slide_images', b.renderImages)];
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

export function finishDraft(b: WriterBrief, draft: unknown, sources: Source[]): FinishedPiece {
  const f = finishKind(b, draft, sources);
  const l = formatLimits(b.platform, b.kind);
  const engagement = f.scored
    ? (() => {
        const e = analyzeEngagement({ content: f.scored, platform: b.platform, kind: b.kind });
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
    rendering: renderingOf(b, f.content),
  };
}
