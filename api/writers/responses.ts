/**
 * Response schemas both writers share (OpenAPI; the shapes of
 * domain/writers/result.ts). Types only, no length limits: generated text is
 * bounded by the platform limits, which the `limits` block reports. Each kind's
 * `content` is in content-schemas.ts, the batches' answers in batch-responses.ts.
 */
import { AD_FORMATS } from '../../domain/writers/ad-formats';
import { FACTOR_WEIGHTS } from '../../domain/writers/engagement-model';
import {
  allRequired,
  anyString,
  arr,
  bool,
  coverageSchema,
  int,
  type JsonSchema,
  named,
  num,
  withRequired,
} from '../kernel/schema';
import { CONTENT_SCHEMAS, KINDS, sourceOut } from './content-schemas';

export const predictionSchema = allRequired({
  overall_score: { type: 'number', minimum: 0, maximum: 100 },
  like_probability: { type: 'number', minimum: 0, maximum: 1 },
  comment_probability: { type: 'number', minimum: 0, maximum: 1 },
  share_probability: { type: 'number', minimum: 0, maximum: 1 },
  save_probability: { type: 'number', minimum: 0, maximum: 1 },
});

export const factorSchema = allRequired({
  factor: { enum: [...Object.keys(FACTOR_WEIGHTS), 'historical_performance'] },
  measured: num,
  score: { type: 'number', minimum: 0, maximum: 1 },
  weight: num,
  contribution: { type: 'number', description: 'Points added to (negative: taken from) the neutral 50' },
  explanation: anyString,
});

const adjustment = allRequired({
  field: anyString,
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
  before: num,
  after: num,
  detail: anyString,
});

const renderedAsset = withRequired(
  {
    index: { ...int, description: 'Slide number (carousels), else 1' },
    status: { enum: ['rendered', 'failed'] },
    url: { ...anyString, description: "The file through the studio's file route (the same user's API key)" },
    content_type: anyString,
    width: int,
    height: int,
    bytes: int,
    duration_seconds: { ...num, description: 'Measured by ffprobe (videos)' },
    files: arr(allRequired({ kind: anyString, url: anyString, content_type: anyString })),
    error: allRequired({ code: anyString, message: anyString }),
  },
  ['index', 'status'],
);

const rendering = withRequired(
  {
    asset: { enum: ['image', 'video', 'slide_images'] },
    requested: bool,
    status: { enum: ['not_requested', 'not_available', 'rendered', 'failed'] },
    service: { enum: ['image_studio', 'video_studio'] },
    message: anyString,
    prompt: anyString,
    provider: { ...anyString, description: 'Image provider, or the speech provider of a video' },
    model: anyString,
    offline: { ...bool, description: 'true: rendered by the offline renderers (procedural images, espeak-ng voice)' },
    task_id: { ...anyString, description: 'The video render task (GET /api/videonet/render/{task_id})' },
    assets: arr(renderedAsset),
  },
  ['asset', 'requested', 'status', 'service', 'message'],
);

/** One generation (both writers, every kind). */
export const writerResultSchema: JsonSchema = withRequired(
  {
    success: { const: true },
    task_id: anyString,
    platform: { enum: ['profnet', 'socialnet'] },
    content_type: { enum: KINDS },
    text: { ...anyString, description: 'The whole piece as one plain text' },
    content: { type: 'object', description: 'The structured piece: its shape depends on content_type (oneOf below)' },
    engagement_prediction: predictionSchema,
    engagement_factors: arr(factorSchema),
    limits: allRequired({
      format: anyString,
      max_characters: int,
      published: bool,
      max_hashtags: int,
      max_emoji: int,
      max_line_breaks: int,
      checked_at: anyString,
      adjustments: arr(adjustment),
    }),
    rendering: arr(rendering),
    sources: arr(sourceOut),
    defaults_applied: arr(allRequired({ field: anyString, from: anyString, value: {} })),
    metadata: withRequired(
      {
        provider: anyString,
        model: anyString,
        offline: bool,
        tokens_in: int,
        tokens_out: int,
        cost: num,
        token_source: anyString,
        research_provider: anyString,
        generated_at: anyString,
        workflow_id: anyString,
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
export const acceptedSchema = allRequired({
  success: { const: true },
  task_id: anyString,
  status: { enum: ['started', 'in_progress'] },
  status_url: anyString,
  message: anyString,
});

const prefsOut = allRequired({
  content_defaults: withRequired({ tone: anyString, industry: anyString, include_hashtags: bool, max_length: int }, []),
  multimedia_defaults: withRequired(
    { video_style: anyString, avatar_preference: anyString, voice_preference: anyString, background_music: anyString },
    [],
  ),
  brand_settings: withRequired({ colors: arr(anyString), logo_url: anyString, brand_voice: anyString }, []),
});

export const preferencesSchema = withRequired(
  {
    success: { const: true },
    preferences: prefsOut,
    saved: { ...bool, description: 'false: nothing was saved yet (all fields empty, writer defaults apply)' },
    version: { ...int, description: 'Saves that changed the preferences' },
    updated_at: { type: ['string', 'null'] },
    changed: arr(anyString),
  },
  ['success', 'preferences', 'saved', 'version', 'updated_at'],
);

export const engagementSchema = withRequired(
  {
    success: { const: true },
    platform: anyString,
    content_type: anyString,
    model: anyString,
    engagement_prediction: predictionSchema,
    optimization_suggestions: arr(anyString),
    content_improvements: allRequired({
      readability_score: num,
      emotional_engagement: num,
      call_to_action_strength: num,
    }),
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

export const healthSchema = withRequired(
  {
    status: { enum: ['healthy', 'degraded'] },
    timestamp: { type: 'string', format: 'date-time' },
    version: anyString,
    services: { type: 'object', additionalProperties: anyString },
    modules: { type: 'object', additionalProperties: anyString },
    providers: { type: 'object', additionalProperties: anyString },
    ad_formats: arr({ enum: [...AD_FORMATS] }),
  },
  ['status', 'timestamp', 'version', 'services', 'modules', 'providers'],
);
