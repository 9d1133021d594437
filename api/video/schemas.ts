/**
 * JSON Schemas of the video studio (Document 2 leaves every field "not
 * shown"; these are our choices, documented in docs/video.md). Shapes shared
 * with the podcast maker (voice, task record, file entries) live here so the
 * two areas stay consistent.
 */
import { MAX_SCENE_SECONDS, MAX_SCENES, MIN_SCENE_SECONDS, VIDEO_FORMATS } from '../../domain/video/formats';
import { FRAME_RATES, RESOLUTIONS } from '../../domain/media/formats';
import { MAX_RATE, MIN_RATE, SPEECH_PROVIDERS } from '../../domain/media/voices';
import { RENDERED_AS, SCENE_MOTIONS, VISUAL_KINDS } from '../../domain/video/types';
import { SUBTITLE_MODES } from '../../domain/media/subtitles';
import type { JsonSchema } from '../kernel/envelopes/common';
import {
  allRequired,
  arr,
  bool,
  coverageSchema,
  int,
  iso,
  named,
  num,
  params,
  str,
  strings,
  text,
  uuid,
  withRequired,
} from '../kernel/schema';

const seconds = (min: number, max: number, description: string): JsonSchema => ({
  type: 'number',
  minimum: min,
  maximum: max,
  description,
});

/** How a text is spoken (shared with the podcast maker). */
export const voiceSchema: JsonSchema = withRequired(
  {
    voice: str(60, {
      minLength: 1,
      pattern: '^[A-Za-z0-9_.+-]+$',
      description:
        "local: en-us-m1, en-us-f1, en-gb-m1, en-gb-f1, en-us-m2, en-us-f2; tts_vendor: the vendor's voice name (e.g. alloy)",
    }),
    rate: {
      type: 'number',
      minimum: MIN_RATE,
      maximum: MAX_RATE,
      description: 'speaking-rate multiplier (1 = normal)',
    },
    pitch: { type: 'integer', minimum: 0, maximum: 99, description: 'local voices only (espeak-ng scale, 50 neutral)' },
  },
  [],
);

const color = { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' };
export const visualSchema: JsonSchema = withRequired(
  {
    kind: {
      enum: [...VISUAL_KINDS],
      description:
        "image (default of built scenes): a still drawn from visual_description by the image studio's offline renderer; gradient or solid: a plain background of `colors`",
    },
    colors: arr(color, {
      minItems: 1,
      maxItems: 2,
      description: '#rrggbb; two for a gradient (start, end), one for solid; not used by image',
    }),
    motion: { enum: [...SCENE_MOTIONS], description: 'Ken Burns zoom of the still, or none' },
  },
  [],
);

export const planBody: JsonSchema = withRequired(
  {
    topic: text(300, { pattern: '\\S', description: 'what the video is about' }),
    format: {
      enum: [...VIDEO_FORMATS],
      default: 'standard',
      description: 'short: 9:16, 15–60 s; standard: 16:9, 60–900 s; long: 16:9, 900–7200 s',
    },
    duration_seconds: seconds(15, 7200, 'target length; default 30 (short), 120 (standard), 900 (long)'),
    key_points: strings(20, 200, { description: 'points the video should make, one scene each' }),
    audience: str(200),
    tone: str(100),
    style: str(100, { description: 'visual style words used in the scene descriptions' }),
    scene_count: { type: 'integer', minimum: 1, maximum: MAX_SCENES },
    provider: { enum: ['auto', 'local', 'vendor_a', 'vendor_b'], default: 'auto', description: 'text provider' },
  },
  ['topic'],
);

export const planSceneSchema: JsonSchema = allRequired({
  index: int,
  heading: { type: 'string' },
  narration: { type: 'string' },
  visual_description: { type: 'string' },
  duration_seconds: num,
});

export const planSchema: JsonSchema = withRequired(
  {
    plan_id: uuid,
    title: { type: 'string' },
    topic: { type: 'string' },
    format: { enum: [...VIDEO_FORMATS] },
    aspect_ratio: { enum: ['16:9', '9:16'] },
    target_duration_seconds: num,
    total_duration_seconds: num,
    key_points: strings(),
    audience: { type: 'string' },
    tone: { type: 'string' },
    style: { type: 'string' },
    scenes: arr(planSceneSchema),
    provider: { type: 'string' },
    model: { type: 'string' },
    offline: bool,
    coverage: {
      ...coverageSchema,
      description:
        'offline planner only: what the plan was built from (the brief; it reads no sources), which key points it kept, and why the narration is shorter than the duration could hold (it never pads); absent when a vendor wrote the plan',
    },
    scenes_built: bool,
    scene_ids: arr(uuid),
    renders: arr(allRequired({ task_id: { type: 'string' }, created_at: iso })),
    created_at: iso,
    updated_at: iso,
  },
  [
    'plan_id',
    'title',
    'topic',
    'format',
    'aspect_ratio',
    'target_duration_seconds',
    'total_duration_seconds',
    'key_points',
    'scenes',
    'provider',
    'model',
    'offline',
    'scenes_built',
    'scene_ids',
    'renders',
    'created_at',
    'updated_at',
  ],
);

const renderedAs: JsonSchema = {
  enum: Object.values(RENDERED_AS),
  description:
    "what is really drawn: designed_card (the scene's heading and a key line of its narration on the image studio's offline picture of its visual description, not a generative model), image_studio_local (that picture alone), local_gradient, local_solid_colour",
};

export const sceneSchema: JsonSchema = allRequired({
  scene_id: uuid,
  plan_id: uuid,
  index: int,
  heading: { type: 'string' },
  narration: { type: 'string' },
  visual_description: { type: 'string' },
  duration_seconds: num,
  visual: allRequired({
    kind: { enum: [...VISUAL_KINDS] },
    colors: strings(),
    motion: { enum: [...SCENE_MOTIONS] },
    rendered_as: renderedAs,
  }),
  voice: voiceSchema,
  updated_at: iso,
});

export const scenesBody: JsonSchema = withRequired(
  {
    plan_id: uuid,
    rebuild: {
      type: 'boolean',
      default: false,
      description: 'replace existing scenes (and their ids) with fresh ones from the plan',
    },
  },
  ['plan_id'],
);

export const scenesResponse: JsonSchema = allRequired({
  plan_id: uuid,
  created: bool,
  total_duration_seconds: num,
  scenes: arr(sceneSchema),
});

export const sceneUpdateBody: JsonSchema = withRequired(
  {
    heading: text(200),
    narration: text(5000),
    visual_description: text(1000),
    duration_seconds: seconds(MIN_SCENE_SECONDS, MAX_SCENE_SECONDS, "the video's total must stay within its format"),
    visual: visualSchema,
    voice: voiceSchema,
  },
  [],
  { minProperties: 1 },
);

export const renderBody: JsonSchema = withRequired(
  {
    plan_id: uuid,
    resolution: { enum: [...RESOLUTIONS], default: '720p' },
    fps: { enum: [...FRAME_RATES], default: 25 },
    subtitles: {
      enum: [...SUBTITLE_MODES],
      default: 'mux',
      description:
        'mux (default): a subtitle track; burn: drawn into the picture; both: drawn and a track (players that show the track then show the captions twice: ask for it only when a platform needs the track); none. SRT and WebVTT files are written in every case.',
    },
    speech_provider: {
      enum: [...SPEECH_PROVIDERS],
      default: 'auto',
      description: 'auto: tts_vendor when configured, else local (espeak-ng)',
    },
    voice: voiceSchema,
    ken_burns: { type: 'boolean', default: true },
  },
  ['plan_id'],
);

export const renderStarted: JsonSchema = allRequired({
  task_id: str(100),
  status: { const: 'started' },
  plan_id: uuid,
  status_url: { type: 'string' },
});

const fileEntry = named(
  'RenderFile',
  allRequired(
    {
      filename: { type: 'string' },
      kind: { enum: ['video', 'subtitles_srt', 'subtitles_vtt'] },
      content_type: { type: 'string' },
      size: int,
      url: { type: 'string' },
    },
    { additionalProperties: false },
  ),
);

/** Every field of a completed render's result (closed: a field the worker adds must be documented here). */
export const renderResult: JsonSchema = allRequired(
  {
    plan_id: {
      type: 'string',
      description: 'The plan rendered: a video plan id, or the writer task id of a rendered video post',
    },
    video_url: { type: 'string', description: '/api/videonet/videos/<task_id>.mp4 (absolute with PUBLIC_BASE_URL)' },
    filename: { type: 'string' },
    files: arr(fileEntry),
    duration_seconds: { type: 'number', description: 'measured by ffprobe on the delivered MP4' },
    planned_seconds: num,
    width: int,
    height: int,
    fps: { enum: [...FRAME_RATES] },
    resolution: { enum: [...RESOLUTIONS] },
    video_codec: { const: 'h264' },
    audio_codec: { const: 'aac' },
    subtitles: allRequired(
      {
        mode: { enum: [...SUBTITLE_MODES] },
        track: { type: 'boolean', description: 'a mov_text subtitle track is in the MP4' },
        burnt: { type: 'boolean', description: 'subtitles are drawn into the picture' },
        cues: int,
      },
      { additionalProperties: false },
    ),
    loudness: allRequired(
      {
        target_lufs: num,
        target_true_peak_dbtp: num,
        measured_input_lufs: { type: ['number', 'null'], description: 'integrated loudness before normalisation' },
        method: { type: 'string' },
      },
      { additionalProperties: false },
    ),
    speech: allRequired(
      {
        provider: { enum: SPEECH_PROVIDERS.filter((p) => p !== 'auto') },
        voices: strings(),
        models: strings(),
        pitch_applied: { type: 'boolean', description: 'false when a vendor voice (no pitch control) spoke' },
      },
      { additionalProperties: false },
    ),
    visuals: {
      enum: [...Object.values(RENDERED_AS), 'mixed'],
      description: 'the still every scene used, or mixed (then see scenes[].visual)',
    },
    scenes: arr(
      withRequired(
        {
          index: int,
          seconds: { type: 'number', description: 'real length (longer than planned when speech did not fit)' },
          tempo: { type: 'number', description: 'speed-up applied to the speech (1 = none, at most 1.3)' },
          visual: withRequired({ rendered_as: renderedAs, motifs: strings() }, ['rendered_as'], {
            additionalProperties: false,
          }),
          resumed_after: {
            enum: ['speech', 'soundtrack', 'picture'],
            description: 'after a worker crash: the step an earlier attempt had finished',
          },
        },
        ['index', 'seconds', 'tempo'],
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const renderStatus: JsonSchema = withRequired(
  {
    task_id: { type: 'string' },
    status: { enum: ['started', 'in_progress', 'completed', 'failed', 'cancelled'] },
    created_at: iso,
    plan_id: { type: 'string' },
    percent: { type: 'integer', minimum: 0, maximum: 100 },
    current_scene: int,
    total_scenes: int,
    step: { type: ['string', 'null'] },
    progress_messages: arr(allRequired({ timestamp: { type: 'string' }, message: { type: 'string' } })),
    result: renderResult,
    error: allRequired({ code: { type: 'string' }, message: { type: 'string' } }),
  },
  ['task_id', 'status', 'created_at', 'percent', 'current_scene', 'total_scenes', 'progress_messages'],
);

export const planIdParams = params({ id: uuid });
export const sceneIdParams = params({ id: uuid });
export const taskIdParams = params({ task_id: str(100, { pattern: '^[A-Za-z0-9_-]{1,100}$' }) });
export const filenameParams = params({
  filename: str(200, {
    pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*(\\.[A-Za-z0-9]+)*$',
    description: 'a file name of a render (no folders: `/`, `\\` and `..` are refused)',
  }),
});
