/**
 * Request schemas of the professional-network and social-network writers
 * (Document 2 field names; extensions documented in docs/writers.md). Fields
 * the user's preferences can fill (tone, industry, include_hashtags,
 * max_length, style, voice_type, background_music) carry no schema default:
 * a default would hide that the client left them out.
 */
import { AD_FORMATS } from '../../domain/writers/ad-formats';
import { DURATION_PATTERN } from '../../domain/writers/durations';
import type { WriterRequest, WriterRequestBody } from '../../domain/writers/requests';
import { WRITER_KINDS, WriterKind, WriterPlatform } from '../../domain/writers/types';
import { FRAME_RATES, RESOLUTIONS } from '../../domain/media/formats';
import { SUBTITLE_MODES } from '../../domain/media/subtitles';
import { bool, httpUrl, nullable, str, strings, text, withRequired } from '../kernel/schema';
import type { JsonSchema } from '../kernel/envelopes/common';

/** Required text that is not blank. */
const required = (max: number, extra = {}) => text(max, { pattern: '\\S', ...extra });
const topic = required(300, { description: 'What the piece is about' });
const duration = (what: string) => ({
  oneOf: [
    { type: 'string', pattern: DURATION_PATTERN },
    { type: 'integer', minimum: 1, maximum: 9999 },
  ],
  description: `Length of the ${what} as <n>_seconds (e.g. 60_seconds); also accepted: the seconds as a number (60) or text ("60", "60s", "60 sec", "60 seconds")`,
});
const multimedia = withRequired(
  {
    include_image: {
      ...bool,
      description: 'Ask for an image (its prompt is returned; rendering needs the image studio)',
    },
    image_style: str(100),
    generate_video: { ...bool, description: 'Ask for a video (rendering needs the video studio)' },
  },
  [],
);

const side = (what: string) => ({
  type: 'integer',
  minimum: 64,
  maximum: 2048,
  description: `${what} of each rendered image in pixels`,
});
/** Extension: sizes of rendered images (carousels). */
const imageRenderOptions = withRequired(
  { width: side('Width (default 1080)'), height: side('Height (default 1080)') },
  [],
  {
    description: 'Extension: size of the rendered images (with render_images)',
  },
);
/** Extension: the video studio's render settings (video posts). */
const videoRenderOptions = withRequired(
  {
    resolution: { enum: [...RESOLUTIONS], description: 'default 720p (16:9 or 9:16 by aspect_ratio)' },
    fps: { enum: [...FRAME_RATES], description: 'default 25' },
    subtitles: {
      enum: [...SUBTITLE_MODES],
      description: 'mux (default: a subtitle track), burn (drawn into the picture), both (drawn and a track) or none',
    },
  },
  [],
  { description: 'Extension: settings of the rendered video (with render or generate_video)' },
);

export const profnetPostBody = withRequired(
  {
    topic,
    industry: str(100),
    content_type: str(100, { description: 'e.g. insight, tips, announcement, story' }),
    tone: str(100),
    audience: str(300),
    include_hashtags: bool,
    include_emoji: bool,
    research_enabled: { ...bool, description: 'Look up research sources for the topic (default true)' },
    max_length: { type: 'integer', minimum: 100, maximum: 3000, description: 'Most characters of the post' },
    multimedia,
  },
  ['topic'],
);

export const profnetArticleBody = withRequired(
  {
    ...profnetPostBody.properties,
    max_length: { type: 'integer', minimum: 500, maximum: 110000, description: 'Most characters of the article' },
    target_words: {
      type: 'integer',
      minimum: 150,
      maximum: 3000,
      description: 'Extension: body words wanted (default 900)',
    },
  },
  ['topic'],
);

export const profnetVideoPostBody = withRequired(
  {
    topic,
    industry: str(100),
    style: str(100),
    duration: duration('video (3 to 600 seconds)'),
    aspect_ratio: { type: 'string', pattern: '^[1-9][0-9]?:[1-9][0-9]?$', description: 'W:H, e.g. 1:1, 9:16, 16:9' },
    voice_type: str(100),
    background_music: str(100),
    include_avatar: bool,
    script: str(10000, { description: 'Your own script: kept word for word and split over the scenes' }),
    avatar: withRequired({ use_personal: bool, style: str(100) }, []),
    voice: withRequired({ type: str(100), speed: str(50), emphasis: str(200) }, []),
    background: withRequired({ type: str(100), music: str(100) }, []),
    branding: withRequired({ include_logo: bool, end_screen_cta: str(200) }, []),
    render: { ...bool, description: 'Extension: ask for a rendered video (video studio)' },
    generate_video: { ...bool, description: 'Ask for a rendered video (video studio); the same as render' },
    render_options: videoRenderOptions,
    research_enabled: bool,
  },
  ['topic'],
);

export const profnetCarouselBody = withRequired(
  {
    topic,
    slides: {
      type: 'integer',
      minimum: 3,
      maximum: 20,
      description: 'All slides, cover and call to action included (default 7)',
    },
    style: str(100),
    cover_slide: withRequired({ title: str(120), subtitle: str(200), background_image: bool }, []),
    content_slides: {
      type: 'array',
      maxItems: 18,
      items: withRequired({ focus: str(200), visual_style: str(100) }, []),
    },
    cta_slide: withRequired({ action: str(120), link: httpUrl() }, []),
    render_images: { ...bool, description: 'Extension: ask for rendered slide images (image studio)' },
    render_options: imageRenderOptions,
    research_enabled: bool,
  },
  ['topic'],
);

export const socialPostBody = withRequired(
  {
    topic,
    content_type: str(100),
    audience: str(300),
    tone: str(100),
    include_emoji: bool,
    include_hashtags: bool,
    multimedia,
    engagement_hooks: withRequired({ include_question: bool, include_poll: bool, add_cta: bool }, []),
    platform_optimization: withRequired({ algorithm_focus: str(100), posting_strategy: str(200) }, []),
  },
  ['topic'],
);

export const socialStoryBody = withRequired(
  {
    topic,
    story_type: str(100),
    duration: duration('story (5 to 120 seconds)'),
    visual_style: str(100),
    brand_integration: str(200),
    call_to_action: str(200),
    interactive_elements: strings(10, 50, {
      description: 'poll, quiz, question, countdown, slider, link (each on its own frame)',
    }),
  },
  ['topic'],
);

export const socialReelBody = withRequired(
  {
    topic,
    duration: duration('reel (3 to 90 seconds)'),
    style: str(100),
    hook_strength: str(50, { description: 'soft, medium (default) or strong' }),
    teaching_method: str(100, { description: 'e.g. step by step, tips, myth vs fact' }),
    music_mood: str(100),
    end_screen_cta: str(200),
  },
  ['topic'],
);

export const socialCarouselBody = withRequired(
  {
    topic,
    story_arc: str(200),
    visual_theme: str(100),
    slide_transitions: str(100),
    slides: {
      type: 'integer',
      minimum: 2,
      maximum: 10,
      description: 'All cards, cover and call to action included (default 5)',
    },
    cover_slide: withRequired({ title: str(120), subtitle: str(200), background_style: str(100) }, []),
    content_distribution: {
      type: 'object',
      maxProperties: 10,
      additionalProperties: { type: 'integer', minimum: 0, maximum: 10 },
      description: 'Content slides per focus, e.g. {"tips": 2, "examples": 1}',
    },
    render_images: { ...bool, description: 'Extension: ask for rendered card images (image studio)' },
    render_options: imageRenderOptions,
  },
  ['topic'],
);

export const socialEventBody = withRequired(
  {
    event_details: withRequired(
      {
        name: required(64),
        date: { type: 'string', format: 'date-time' },
        duration: str(100),
        type: str(100),
        target_audience: str(300),
      },
      ['name'],
    ),
    content_focus: str(300),
    urgency_elements: str(300),
    include_social_proof: bool,
    follow_up_content: bool,
  },
  ['event_details'],
);

export const socialGroupPostBody = withRequired(
  {
    group_context: withRequired({ group_type: str(100), group_size: str(50), engagement_level: str(50) }, []),
    content_type: str(100),
    topic,
    engagement_goal: str(100, { description: 'discussion (default), feedback or advice' }),
    value_proposition: str(300),
  },
  ['topic'],
);

export const socialPageAboutBody = withRequired(
  {
    business_type: required(100),
    industry: str(100),
    target_audience: str(300),
    tone: str(100),
    key_differentiators: strings(10, 200),
    include_cta: bool,
    character_limit: {
      type: 'integer',
      minimum: 20,
      maximum: 2000,
      description: 'Most characters of the text (default 255, the platform short-description limit)',
    },
  },
  ['business_type'],
);

export const socialAdCopyBody = withRequired(
  {
    campaign_objective: str(100),
    target_audience: str(300),
    product_service: required(200),
    ad_format: { enum: [...AD_FORMATS], description: 'default single_image' },
    budget_context: str(200),
    competition_level: str(50),
    key_benefits: strings(10, 200),
  },
  ['product_service'],
);

/** Body schema of each generation, by writer and kind. */
export const BODIES: Record<WriterPlatform, Partial<Record<string, JsonSchema>>> = {
  profnet: {
    post: profnetPostBody,
    article: profnetArticleBody,
    video_post: profnetVideoPostBody,
    carousel: profnetCarouselBody,
  },
  socialnet: {
    post: socialPostBody,
    story: socialStoryBody,
    reel: socialReelBody,
    carousel: socialCarouselBody,
    event: socialEventBody,
    group_post: socialGroupPostBody,
    page_about: socialPageAboutBody,
    ad_copy: socialAdCopyBody,
  },
};

/**
 * A generation's body (a route's, or a batch item's fields) as the request of its writer and kind. The kernel
 * validated it against `BODIES[platform][kind]`, the schema of that kind's request: the compiler sees only that it
 * is some writer's request, not which.
 */
export const writerRequest = (platform: WriterPlatform, kind: WriterKind, body: WriterRequestBody): WriterRequest =>
  ({ platform, kind, body }) as WriterRequest;

/** Most items of one batch. */
export const MAX_BATCH_ITEMS = 50;

/** A batch: `requests[]` each with a `type` and the fields of that type's route. */
export function batchBody(platform: WriterPlatform): JsonSchema {
  const kinds = WRITER_KINDS[platform];
  return withRequired(
    {
      requests: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_BATCH_ITEMS,
        items: {
          type: 'object',
          properties: { type: { enum: [...kinds] } },
          required: ['type'],
          allOf: kinds.map((k) => ({ if: { properties: { type: { const: k } } }, then: BODIES[platform][k] })),
        },
      },
      options: withRequired(
        {
          parallel_processing: { ...bool, default: false },
          priority: { enum: ['low', 'normal', 'high'], default: 'normal' },
          notification_webhook: httpUrl({ description: 'Receives one signed message when the batch is done' }),
          notification_secret: str(256, {
            description: 'Extension: the signing secret (whsec_<base64> or 16–256 characters); generated when absent',
          }),
        },
        [],
      ),
    },
    ['requests'],
  );
}

/** Preferences as POST replaces them. */
export const preferencesBody = withRequired(
  {
    content_defaults: withRequired(
      {
        tone: str(100),
        industry: str(100),
        include_hashtags: bool,
        max_length: { type: 'integer', minimum: 100, maximum: 110000 },
      },
      [],
    ),
    multimedia_defaults: withRequired(
      { video_style: str(100), avatar_preference: str(100), voice_preference: str(100), background_music: str(100) },
      [],
    ),
    brand_settings: withRequired({ colors: strings(10, 30), logo_url: httpUrl(), brand_voice: str(300) }, []),
  },
  [],
);

/** Preferences as PUT merges them: a field (or group) given as null is cleared. */
export const preferencesPatchBody = withRequired(
  Object.fromEntries(
    Object.entries(preferencesBody.properties).map(([g, schema]) => {
      const group = schema as { properties: Record<string, JsonSchema> };
      return [
        g,
        nullable(
          withRequired(Object.fromEntries(Object.entries(group.properties).map(([k, v]) => [k, nullable(v)])), []),
        ),
      ];
    }),
  ),
  [],
);

export const engagementBody = withRequired(
  {
    content: required(20000),
    platform_context: str(300, {
      description:
        'Names the platform (profnet, socialnet, photonet, microblog, videonet; default socialnet) and optionally the format',
    }),
    audience_demographics: withRequired({ age_range: str(50), interests: strings(20, 100) }, []),
    historical_performance: withRequired(
      {
        similar_content_avg_engagement: {
          type: 'number',
          minimum: 0,
          maximum: 100,
          description: 'Average engagement rate of similar content, percent',
        },
        platform_benchmarks: withRequired({ industry: str(100), content_type: str(100) }, []),
      },
      [],
    ),
  },
  ['content'],
);
