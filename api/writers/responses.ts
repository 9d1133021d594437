/**
 * Response schemas both writers share (OpenAPI; the shapes of
 * domain/writers/result.ts). Types only, no length limits: generated text is
 * bounded by the platform limits, which the `limits` block reports.
 */
import { AD_FORMATS } from '../../domain/writers/ad-formats';
import { FACTOR_WEIGHTS } from '../../domain/writers/engagement';
import type { JsonSchema } from '../kernel/envelopes/common';

const s = { type: 'string' };
const n = { type: 'number' };
const i = { type: 'integer' };
const b = { type: 'boolean' };
const arr = (items: JsonSchema) => ({ type: 'array', items });
const o = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});

export const sourceOut = o(
  {
    title: s,
    url: s,
    excerpt: s,
    credibility_score: n,
    published_at: s,
    index: i,
    source_type: s,
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

const rendering = o(
  {
    asset: { enum: ['image', 'video', 'slide_images'] },
    requested: b,
    status: { enum: ['not_requested', 'not_available'] },
    service: { enum: ['image_studio', 'video_studio'] },
    message: s,
    prompt: s,
  },
  ['asset', 'requested', 'status', 'service', 'message'],
);

/** One generation (both writers, every kind). */
export const writerResultSchema = o(
  {
    success: { const: true },
    task_id: s,
    platform: { enum: ['profnet', 'socialnet'] },
    content_type: {
      enum: [
        'post',
        'article',
        'video_post',
        'carousel',
        'story',
        'reel',
        'event',
        'group_post',
        'page_about',
        'ad_copy',
      ],
    },
    text: { ...s, description: 'The whole piece as one plain text' },
    content: {
      type: 'object',
      description:
        'The structured piece; its fields depend on content_type (docs/writers.md "Response shapes"): post {hook, body, question, poll, call_to_action, hashtags}, article {title, sections, markdown, references}, video_post/reel {scenes with start_seconds and duration_seconds, script, caption}, carousel {slides with kind, title, body, visual_notes}, story {frames}, event {title, description, announcement_post, ...}, group_post, page_about {text, character_limit}, ad_copy {ad_format, format_limits, variants}',
    },
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
    metadata: o({
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
    }),
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

/** 202: the work goes on; poll the task. */
export const acceptedSchema = o({
  success: { const: true },
  task_id: s,
  status: { enum: ['started', 'in_progress'] },
  status_url: s,
  message: s,
});

export const taskRecordSchema = o(
  {
    task_id: s,
    task_type: s,
    status: { enum: ['started', 'in_progress', 'completed', 'failed', 'cancelled'] },
    created_at: s,
    progress_messages: arr(o({ timestamp: s, message: s })),
    result: { type: 'object' },
    error: o({ code: s, message: s }),
  },
  ['task_id', 'task_type', 'status', 'created_at', 'progress_messages'],
);

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
