/**
 * What the professional-network and social-network writers work with. A
 * route's request (Document 2 fields) is turned into a *brief* once, in the
 * API, with the user's stored preferences applied as defaults
 * (domain/writers/briefs.ts); the workflow, the vendor prompt, the local
 * writer and the finishing rules all read the brief, never the raw request.
 */
import type { Source } from '../analysis/types';
import type { RenderOptions, RenderServices } from './render';

export type { Source };

export type WriterPlatform = 'profnet' | 'socialnet';

export type WriterKind =
  'post' | 'article' | 'video_post' | 'carousel' | 'story' | 'reel' | 'event' | 'group_post' | 'page_about' | 'ad_copy';

/** Kinds each writer offers (its routes and its batch `type` values). */
export const WRITER_KINDS: Record<WriterPlatform, readonly WriterKind[]> = {
  profnet: ['post', 'article', 'video_post', 'carousel'],
  socialnet: ['post', 'story', 'reel', 'carousel', 'event', 'group_post', 'page_about', 'ad_copy'],
};

/** Where a default came from: the user's stored preferences (field path in them). */
export interface AppliedDefault {
  /** Brief field that received the value, named as in the request (`tone`, `voice_type`, ...). */
  field: string;
  /** Preference it came from (`content_defaults.tone`). */
  from: string;
  value: unknown;
}

export interface BrandNotes {
  voice?: string;
  colors: string[];
  logoUrl?: string;
}

interface BriefBase {
  platform: WriterPlatform;
  topic: string;
  tone: string;
  audience: string;
  industry: string;
  includeHashtags: boolean;
  includeEmoji: boolean;
  /** Most characters the main text may have: the request's max_length, else the format's published limit. */
  maxCharacters: number;
  brand: BrandNotes;
  /** Look up research sources for the topic (profnet `research_enabled`, default true). */
  research: boolean;
}

export interface MediaRequest {
  requested: boolean;
  style?: string;
}

export interface PostBrief extends BriefBase {
  kind: 'post';
  contentType: string;
  question: boolean;
  poll: boolean;
  cta: boolean;
  image: MediaRequest;
  video: MediaRequest;
  algorithmFocus?: string;
  postingStrategy?: string;
}

export interface ArticleBrief extends BriefBase {
  kind: 'article';
  contentType: string;
  targetWords: number;
  image: MediaRequest;
}

export interface ScenePlanBrief extends BriefBase {
  /** Total length the scenes must sum to, seconds. */
  durationSeconds: number;
  style: string;
  endScreenCta: string;
}

export interface VideoPostBrief extends ScenePlanBrief {
  kind: 'video_post';
  aspectRatio: string;
  voice: { type: string; speed?: string; emphasis?: string };
  backgroundMusic: string;
  background: { type?: string; music?: string };
  avatar: { include: boolean; usePersonal: boolean; style?: string };
  includeLogo: boolean;
  /** A script the client wrote: it is split over the scenes instead of writing one. */
  script?: string;
  /** A rendered video was asked for (`render` or `generate_video`). */
  render: boolean;
  renderOptions: RenderOptions;
}

export interface ReelBrief extends ScenePlanBrief {
  kind: 'reel';
  hookStrength: 'soft' | 'medium' | 'strong';
  teachingMethod: string;
  musicMood: string;
}

export interface CarouselBrief extends BriefBase {
  kind: 'carousel';
  slides: number;
  style: string;
  cover: { title?: string; subtitle?: string; backgroundImage?: boolean; backgroundStyle?: string };
  /** Focus and visual style of each content slide the client described (may be fewer than the slides). */
  contentSlides: Array<{ focus?: string; visualStyle?: string }>;
  cta: { action?: string; link?: string };
  storyArc?: string;
  transitions?: string;
  renderImages: boolean;
  renderOptions: RenderOptions;
}

export interface StoryBrief extends BriefBase {
  kind: 'story';
  storyType: string;
  durationSeconds: number;
  visualStyle: string;
  brandIntegration: string;
  callToAction: string;
  interactiveElements: string[];
}

export interface EventBrief extends BriefBase {
  kind: 'event';
  event: { name: string; date?: string; duration?: string; type?: string; targetAudience?: string };
  contentFocus: string;
  urgency: string;
  socialProof: boolean;
  followUp: boolean;
}

export interface GroupPostBrief extends BriefBase {
  kind: 'group_post';
  group: { type?: string; size?: string; engagementLevel?: string };
  contentType: string;
  goal: string;
  valueProposition: string;
}

export interface PageAboutBrief extends BriefBase {
  kind: 'page_about';
  businessType: string;
  differentiators: string[];
  includeCta: boolean;
  characterLimit: number;
}

export interface AdCopyBrief extends BriefBase {
  kind: 'ad_copy';
  objective: string;
  product: string;
  adFormat: string;
  budgetContext: string;
  competitionLevel: string;
  benefits: string[];
}

export type WriterBrief =
  | PostBrief
  | ArticleBrief
  | VideoPostBrief
  | ReelBrief
  | CarouselBrief
  | StoryBrief
  | EventBrief
  | GroupPostBrief
  | PageAboutBrief
  | AdCopyBrief;

/** One generation as the workflow receives it. */
export interface WriterJob {
  brief: WriterBrief;
  defaultsApplied: AppliedDefault[];
  /** What the studios offer for this generation's renders (set by the API; absent: none). */
  render?: RenderServices;
}
