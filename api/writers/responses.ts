/**
 * Response schemas both writers share (OpenAPI; the shapes of
 * domain/writers/result.ts). Types only, no length limits: generated text is
 * bounded by the platform limits, which the `limits` block reports. Each kind's
 * `content` is in content-schemas.ts, the batches' answers in batch-responses.ts.
 */
import { AD_FORMATS } from '../../domain/writers/ad-formats';
import { FACTOR_WEIGHTS } from '../../domain/writers/engagement-model';
import { coverageSchema, named } from '../kernel/schema';
import { CONTENT_SCHEMAS, KINDS, sourceOut } from './content-schemas';
import { arr, b, i, n, o, s } from './response-shorthand';

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
