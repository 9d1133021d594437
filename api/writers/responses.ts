/**
 * Response schemas both writers share (OpenAPI; the shapes of
 * domain/writers/result.ts). Types only, no length limits: generated text is
 * bounded by the platform limits, which the `limits` block reports.
 */
import { AD_FORMATS } from '../../domain/writers/ad-formats';
import { FACTOR_WEIGHTS } from '../../domain/writers/engagement-model';
import type { WriterKind } from '../../domain/writers/types';
import type { JsonSchema } from '../kernel/envelopes/common';
import { coverageSchema, named } from '../kernel/schema';

const s = { type: 'string' };
const n = { type: 'number' };
const i = { type: 'integer' };
const b = { type: 'boolean' };
const arr = (items: JsonSchema) => ({ type: 'array', items });
const o = (properties: Record<string, unknown>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
});

export const sourceOut = o(
  {
    title: s,
    url: s,
    excerpt: s,
    credibility_score: { type: ['number', 'null'], description: 'null: no credibility claimed (sample documents)' },
    published_at: s,
    index: i,
    source_type: { ...s, description: 'web, academic, industry, government, or sample (a sample document)' },
    sample_of: { ...s, description: 'for sample documents: the kind of source the sample is written as' },
  },
  ['title', 'url'],
);

export const predictionSchema = o({
  overall_score: { type: 'number', minimum: 0, maximum: 100 },
  like_probability: { type: 'number', minimum: 0, maximum: 1 },
  comment_probability: { type: 'number', minimum: 0, maximum: 1 },
  share_probability: { type: 'number', minimum: 0, maximum: 1 },
  save_probability: { type: 'number', minimum: 0, maximum: 1 },
});

export const factorSchema = o({
  factor: { enum: [...Object.keys(FACTOR_WEIGHTS), 'historical_performance'] },
  measured: n,
  score: { type: 'number', minimum: 0, maximum: 1 },
  weight: n,
  contribution: { type: 'number', description: 'Points added to (negative: taken from) the neutral 50' },
  explanation: s,
});

const adjustment = o({
  field: s,
  rule: {
    enum: [
      'max_characters',
      'max_hashtags',
      'max_emoji',
      'max_line_breaks',
      'max_words',
      'duration',
      'slides',
      'variants',
      'not_shown',
    ],
  },
  before: n,
  after: n,
  detail: s,
});

const renderedAsset = o(
  {
    index: { ...i, description: 'Slide number (carousels), else 1' },
    status: { enum: ['rendered', 'failed'] },
    url: { ...s, description: "The file through the studio's file route (the same user's API key)" },
    content_type: s,
    width: i,
    height: i,
    bytes: i,
    duration_seconds: { ...n, description: 'Measured by ffprobe (videos)' },
    files: arr(o({ kind: s, url: s, content_type: s })),
    error: o({ code: s, message: s }),
  },
  ['index', 'status'],
);

const rendering = o(
  {
    asset: { enum: ['image', 'video', 'slide_images'] },
    requested: b,
    status: { enum: ['not_requested', 'not_available', 'rendered', 'failed'] },
    service: { enum: ['image_studio', 'video_studio'] },
    message: s,
    prompt: s,
    provider: { ...s, description: 'Image provider, or the speech provider of a video' },
    model: s,
    offline: { ...b, description: 'true: rendered by the offline renderers (procedural images, espeak-ng voice)' },
    task_id: { ...s, description: 'The video render task (GET /api/videonet/render/{task_id})' },
    assets: arr(renderedAsset),
  },
  ['asset', 'requested', 'status', 'service', 'message'],
);

const strs = arr(s);
const nullableS = { type: ['string', 'null'] };
const sceneOut = o({
  index: i,
  start_seconds: i,
  duration_seconds: { ...i, minimum: 1 },
  narration: s,
  visual: s,
  on_screen_text: s,
});

/** The `content` of each kind (docs/writers.md "Response shapes"); both writers use the same shape per kind. */
export const CONTENT_SCHEMAS: Record<WriterKind, JsonSchema> = {
  post: o(
    {
      hook: s,
      body: s,
      question: s,
      poll: o({ question: s, options: strs }),
      call_to_action: s,
      hashtags: strs,
      content_type: { ...s, description: "The request's content_type (tips, insight, ...)" },
      image_prompt: { ...s, description: 'When multimedia.include_image was asked' },
    },
    ['hook', 'body', 'hashtags', 'content_type'],
  ),
  article: o({
    title: s,
    sections: arr(o({ heading: s, body: s })),
    markdown: s,
    word_count: i,
    hashtags: strs,
    references: arr(sourceOut),
    content_type: s,
  }),
  video_post: o({
    title: s,
    hook: s,
    script: s,
    scenes: arr(sceneOut),
    total_duration_seconds: i,
    aspect_ratio: s,
    caption: s,
    hashtags: strs,
    voice_notes: s,
    branding_notes: s,
    audio: o({ voice: o({ type: s, speed: s, emphasis: s }, ['type']), background_music: s }),
    avatar: o({ include: b, use_personal: b, style: { type: ['string', 'null'] } }),
  }),
  reel: o({
    hook: s,
    script: s,
    scenes: arr(sceneOut),
    total_duration_seconds: i,
    caption: s,
    hashtags: strs,
    music_notes: s,
    end_screen_cta: s,
    hook_strength: { enum: ['soft', 'medium', 'strong'] },
    teaching_method: s,
  }),
  carousel: o(
    {
      slides: arr(o({ index: i, kind: { enum: ['cover', 'content', 'cta'] }, title: s, body: s, visual_notes: s })),
      slide_count: i,
      style: s,
      transitions: s,
      cta_link: s,
      caption: s,
      hashtags: strs,
    },
    ['slides', 'slide_count', 'style', 'caption', 'hashtags'],
  ),
  story: o({
    story_type: s,
    frames: arr(
      o(
        {
          index: i,
          start_seconds: i,
          duration_seconds: { ...i, minimum: 1 },
          text: s,
          visual_notes: s,
          interactive_element: o({ type: s, prompt: s, options: strs }, ['type', 'prompt']),
        },
        ['index', 'start_seconds', 'duration_seconds', 'text', 'visual_notes'],
      ),
    ),
    total_duration_seconds: i,
    call_to_action: s,
  }),
  event: o(
    {
      title: s,
      description: s,
      schedule: o({ date: nullableS, duration: nullableS, type: nullableS }),
      highlights: strs,
      urgency_line: s,
      social_proof: { ...s, description: 'A quoted source sentence (include_social_proof), never an invented number' },
      announcement_post: s,
      reminder_post: s,
      follow_up_posts: strs,
      hashtags: strs,
    },
    [
      'title',
      'description',
      'schedule',
      'highlights',
      'announcement_post',
      'reminder_post',
      'follow_up_posts',
      'hashtags',
    ],
  ),
  group_post: o(
    {
      title: s,
      opening: s,
      body: s,
      discussion_question: s,
      call_to_action: s,
      hashtags: strs,
      engagement_goal: s,
    },
    ['opening', 'body', 'discussion_question', 'hashtags', 'engagement_goal'],
  ),
  page_about: o({ text: s, character_limit: i, character_count: i }),
  ad_copy: o({
    ad_format: { enum: [...AD_FORMATS] },
    campaign_objective: s,
    format_limits: o({ primary_text: i, headline: i, description: i, variants: i, checked_at: s, source: s }),
    variants: arr(
      o(
        {
          index: i,
          angle: s,
          primary_text: s,
          headline: s,
          description: s,
          call_to_action: s,
          character_counts: o({ primary_text: i, headline: i, description: i }, ['primary_text', 'headline']),
        },
        ['index', 'angle', 'primary_text', 'headline', 'call_to_action', 'character_counts'],
      ),
    ),
  }),
};

const KINDS = Object.keys(CONTENT_SCHEMAS) as WriterKind[];

/** One generation (both writers, every kind). */
export const writerResultSchema = o(
  {
    success: { const: true },
    task_id: s,
    platform: { enum: ['profnet', 'socialnet'] },
    content_type: { enum: KINDS },
    text: { ...s, description: 'The whole piece as one plain text' },
    content: { type: 'object', description: 'The structured piece: its shape depends on content_type (oneOf below)' },
    engagement_prediction: predictionSchema,
    engagement_factors: arr(factorSchema),
    limits: o({
      format: s,
      max_characters: i,
      published: b,
      max_hashtags: i,
      max_emoji: i,
      max_line_breaks: i,
      checked_at: s,
      adjustments: arr(adjustment),
    }),
    rendering: arr(rendering),
    sources: arr(sourceOut),
    defaults_applied: arr(o({ field: s, from: s, value: {} })),
    metadata: o(
      {
        provider: s,
        model: s,
        offline: b,
        tokens_in: i,
        tokens_out: i,
        cost: n,
        token_source: s,
        research_provider: s,
        generated_at: s,
        workflow_id: s,
        coverage: coverageSchema,
      },
      [
        'provider',
        'model',
        'offline',
        'tokens_in',
        'tokens_out',
        'cost',
        'token_source',
        'research_provider',
        'generated_at',
        'workflow_id',
      ],
    ),
  },
  [
    'success',
    'task_id',
    'platform',
    'content_type',
    'text',
    'content',
    'limits',
    'rendering',
    'sources',
    'defaults_applied',
    'metadata',
  ],
);
// Per kind, `content` has that kind's shape; the consts of content_type are distinct, so exactly one branch matches.
// Each kind's answer is named (`WriterPostResult`, …): generated clients build one type per kind (openapi-python-client
// leaves the types of unnamed branches of a named union out of the package).
writerResultSchema.oneOf = KINDS.map((k) =>
  named(`Writer${k.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())}Result`, {
    properties: { content_type: { const: k }, content: CONTENT_SCHEMAS[k] },
    required: ['content_type', 'content'],
  }),
);

/** 202: the work goes on; poll the task. */
export const acceptedSchema = o({
  success: { const: true },
  task_id: s,
  status: { enum: ['started', 'in_progress'] },
  status_url: s,
  message: s,
});

/** A batch task's result (domain/writers/result.ts BatchResult): how each item ended. */
export const batchResultSchema = o({
  batch_id: s,
  platform: { enum: ['profnet', 'socialnet'] },
  total: i,
  succeeded: i,
  failed: i,
  items: arr(
    o(
      {
        index: i,
        type: { enum: KINDS },
        task_id: s,
        status: { enum: ['completed', 'failed'] },
        error: o({ code: s, message: s }),
      },
      ['index', 'type', 'task_id', 'status'],
    ),
  ),
});

const batchItem = o(
  {
    index: i,
    type: s,
    task_id: s,
    status: { enum: ['pending', 'started', 'in_progress', 'completed', 'failed', 'cancelled'] },
    result: writerResultSchema,
    error: o({ code: s, message: s }),
  },
  ['index', 'type', 'task_id', 'status'],
);

const notification = o(
  {
    url: s,
    status: { enum: ['pending', 'retrying', 'delivered', 'failed'] },
    message_id: { type: ['string', 'null'] },
    attempts: i,
    last_status_code: { type: ['integer', 'null'] },
    last_error: { type: ['string', 'null'] },
    delivered_at: { type: ['string', 'null'] },
  },
  ['url', 'status', 'attempts'],
);

export const batchAcceptedSchema = o(
  {
    success: { const: true },
    batch_id: s,
    status: { const: 'started' },
    total: i,
    status_url: s,
    notification: o(
      {
        url: s,
        secret: { ...s, description: 'The signing secret of the notification; shown only here' },
        event_type: { const: 'writer.batch.completed' },
      },
      ['url', 'secret', 'event_type'],
    ),
  },
  ['success', 'batch_id', 'status', 'total', 'status_url'],
);

export const batchStatusSchema = o(
  {
    success: { const: true },
    batch_id: s,
    platform: s,
    status: { enum: ['started', 'in_progress', 'completed', 'failed', 'cancelled'] },
    created_at: s,
    total: i,
    succeeded: i,
    failed: i,
    pending: i,
    items: arr(batchItem),
    progress_messages: arr(o({ timestamp: s, message: s })),
    notification,
    error: o({ code: s, message: s }),
  },
  [
    'success',
    'batch_id',
    'platform',
    'status',
    'created_at',
    'total',
    'succeeded',
    'failed',
    'pending',
    'items',
    'progress_messages',
  ],
);

const prefsOut = o({
  content_defaults: o({ tone: s, industry: s, include_hashtags: b, max_length: i }, []),
  multimedia_defaults: o({ video_style: s, avatar_preference: s, voice_preference: s, background_music: s }, []),
  brand_settings: o({ colors: arr(s), logo_url: s, brand_voice: s }, []),
});

export const preferencesSchema = o(
  {
    success: { const: true },
    preferences: prefsOut,
    saved: { ...b, description: 'false: nothing was saved yet (all fields empty, writer defaults apply)' },
    version: { ...i, description: 'Saves that changed the preferences' },
    updated_at: { type: ['string', 'null'] },
    changed: arr(s),
  },
  ['success', 'preferences', 'saved', 'version', 'updated_at'],
);

export const engagementSchema = o(
  {
    success: { const: true },
    platform: s,
    content_type: s,
    model: s,
    engagement_prediction: predictionSchema,
    optimization_suggestions: arr(s),
    content_improvements: o({ readability_score: n, emotional_engagement: n, call_to_action_strength: n }),
    factors: arr(factorSchema),
  },
  [
    'success',
    'platform',
    'model',
    'engagement_prediction',
    'optimization_suggestions',
    'content_improvements',
    'factors',
  ],
);

export const healthSchema = o(
  {
    status: { enum: ['healthy', 'degraded'] },
    timestamp: { type: 'string', format: 'date-time' },
    version: s,
    services: { type: 'object', additionalProperties: s },
    modules: { type: 'object', additionalProperties: s },
    providers: { type: 'object', additionalProperties: s },
    ad_formats: arr({ enum: [...AD_FORMATS] }),
  },
  ['status', 'timestamp', 'version', 'services', 'modules', 'providers'],
);
