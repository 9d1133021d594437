/**
 * Request bodies of the writers' generation routes, as Document 2 names their
 * fields (plus the few documented extensions: `render`, `render_images`,
 * `render_options`, `target_words`). The API validates them (api/writers/schemas.ts) and
 * domain/writers/briefs.ts turns each into a brief.
 */
import type { RenderOptions } from './render';
import type { WriterPlatform } from './types';

export interface MultimediaRequest {
  include_image?: boolean;
  image_style?: string;
  generate_video?: boolean;
}

/** profnet /generate-post and /generate-article. */
export interface ProfnetPostRequest {
  topic: string;
  industry?: string;
  content_type?: string;
  tone?: string;
  audience?: string;
  include_hashtags?: boolean;
  include_emoji?: boolean;
  research_enabled?: boolean;
  max_length?: number;
  multimedia?: MultimediaRequest;
  /** Articles only (extension): body words wanted. */
  target_words?: number;
}

export interface ProfnetVideoPostRequest {
  topic: string;
  industry?: string;
  style?: string;
  /** `<n>_seconds`, or seconds as a number or text (domain/writers/durations.ts). */
  duration?: string | number;
  aspect_ratio?: string;
  voice_type?: string;
  background_music?: string;
  include_avatar?: boolean;
  script?: string;
  avatar?: { use_personal?: boolean; style?: string };
  voice?: { type?: string; speed?: string; emphasis?: string };
  background?: { type?: string; music?: string };
  branding?: { include_logo?: boolean; end_screen_cta?: string };
  /** Extension: ask for a rendered video (video studio); `generate_video` is the same ask. */
  render?: boolean;
  generate_video?: boolean;
  /** Extension: resolution, frame rate and subtitles of the render. */
  render_options?: RenderOptions;
  research_enabled?: boolean;
}

export interface ProfnetCarouselRequest {
  topic: string;
  slides?: number;
  style?: string;
  cover_slide?: { title?: string; subtitle?: string; background_image?: boolean };
  content_slides?: Array<{ focus?: string; visual_style?: string }>;
  cta_slide?: { action?: string; link?: string };
  /** Extension: ask for rendered slide images (image studio). */
  render_images?: boolean;
  /** Extension: width and height of the slide images. */
  render_options?: RenderOptions;
  research_enabled?: boolean;
}

export interface SocialPostRequest {
  topic: string;
  content_type?: string;
  audience?: string;
  tone?: string;
  include_emoji?: boolean;
  include_hashtags?: boolean;
  multimedia?: MultimediaRequest;
  engagement_hooks?: { include_question?: boolean; include_poll?: boolean; add_cta?: boolean };
  platform_optimization?: { algorithm_focus?: string; posting_strategy?: string };
}

export interface SocialStoryRequest {
  topic: string;
  story_type?: string;
  /** `<n>_seconds`, or seconds as a number or text (domain/writers/durations.ts). */
  duration?: string | number;
  visual_style?: string;
  brand_integration?: string;
  call_to_action?: string;
  interactive_elements?: string[];
}

export interface SocialReelRequest {
  topic: string;
  /** `<n>_seconds`, or seconds as a number or text (domain/writers/durations.ts). */
  duration?: string | number;
  style?: string;
  hook_strength?: string;
  teaching_method?: string;
  music_mood?: string;
  end_screen_cta?: string;
}

export interface SocialCarouselRequest {
  topic: string;
  story_arc?: string;
  visual_theme?: string;
  slide_transitions?: string;
  slides?: number;
  cover_slide?: { title?: string; subtitle?: string; background_style?: string };
  content_distribution?: Record<string, number>;
  render_images?: boolean;
  render_options?: RenderOptions;
}

export interface SocialEventRequest {
  event_details: { name: string; date?: string; duration?: string; type?: string; target_audience?: string };
  content_focus?: string;
  urgency_elements?: string;
  include_social_proof?: boolean;
  follow_up_content?: boolean;
}

export interface SocialGroupPostRequest {
  group_context?: { group_type?: string; group_size?: string; engagement_level?: string };
  content_type?: string;
  topic: string;
  engagement_goal?: string;
  value_proposition?: string;
}

export interface SocialPageAboutRequest {
  business_type: string;
  industry?: string;
  target_audience?: string;
  tone?: string;
  key_differentiators?: string[];
  include_cta?: boolean;
  character_limit?: number;
}

export interface SocialAdCopyRequest {
  campaign_objective?: string;
  target_audience?: string;
  product_service: string;
  ad_format?: string;
  budget_context?: string;
  competition_level?: string;
  key_benefits?: string[];
}

/** The request of each writer's kinds (its route's body, and a batch item's fields). */
export interface WriterRequests {
  profnet: {
    post: ProfnetPostRequest;
    article: ProfnetPostRequest;
    video_post: ProfnetVideoPostRequest;
    carousel: ProfnetCarouselRequest;
  };
  socialnet: {
    post: SocialPostRequest;
    story: SocialStoryRequest;
    reel: SocialReelRequest;
    carousel: SocialCarouselRequest;
    event: SocialEventRequest;
    group_post: SocialGroupPostRequest;
    page_about: SocialPageAboutRequest;
    ad_copy: SocialAdCopyRequest;
  };
}

/** One generation asked of a writer: checking `platform` and `kind` types `body` as that kind's request. */
export type WriterRequest = {
  [P in WriterPlatform]: {
    [K in keyof WriterRequests[P]]: { platform: P; kind: K; body: WriterRequests[P][K] };
  }[keyof WriterRequests[P]];
}[WriterPlatform];

/** The body of any writer's request. */
export type WriterRequestBody = WriterRequest['body'];

/** Body words of a profnet article when the request gives no target_words. */
export const DEFAULT_ARTICLE_WORDS = 900;
/** Seconds of a video post, story or reel when the request gives no duration. */
export const DEFAULT_DURATIONS = { video_post: 60, story: 15, reel: 30 } as const;
/** Slides of a carousel when the request gives no count. */
export const DEFAULT_SLIDES = { profnet: 7, socialnet: 5 } as const;
/** Page-about length when the request gives no character_limit: socialnet's published short-description limit. */
export const DEFAULT_PAGE_ABOUT_LIMIT = 255;
