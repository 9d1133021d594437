/**
 * JSON Schemas of the podcast maker (Document 2 leaves every field "not
 * shown"; these are our choices, documented in docs/podcast.md). Voices and
 * task records are the video studio's shapes (api/video/schemas.ts).
 */
import { FRAME_RATES, RESOLUTIONS } from '../../domain/media/formats';
import { SPEECH_PROVIDERS } from '../../domain/media/voices';
import { MAX_DURATION_MINUTES, MAX_SPEAKERS, MIN_DURATION_MINUTES } from '../../domain/podcast/types';
import { SUBTITLE_MODES } from '../../domain/video/render';
import type { JsonSchema } from '../kernel/envelopes/common';
import { arr, bool, int, iso, num, obj, params, str, strings, text, uuid } from '../kernel/schema';
import { voiceSchema } from '../video/schemas';

export { voiceSchema };
export const textProvider = {
  enum: ['auto', 'local', 'vendor_a', 'vendor_b'],
  default: 'auto',
  description: 'text provider (local: the offline writer)',
};
export const sceneId = str(12, { pattern: '^scene-[0-9]{1,3}$', description: "`scene-<n>` of the project's script" });
export const projectIdField = { ...uuid, description: 'the podcast project' };
const anyObj: JsonSchema = { type: 'object' };

export const ideaBody: JsonSchema = obj(
  {
    idea: text(2000, { pattern: '\\S' }),
    project_id: projectIdField,
    audience: str(300),
    tone: str(100),
    duration_minutes: { type: 'number', minimum: MIN_DURATION_MINUTES, maximum: MAX_DURATION_MINUTES },
    context: str(8000, { description: 'notes the writer may use (previous analysis, show bible)' }),
    provider: textProvider,
  },
  ['idea'],
);

export const queriesBody: JsonSchema = obj(
  {
    ...(ideaBody.properties as object),
    count: { type: 'integer', minimum: 1, maximum: 20, default: 6 },
    previous: strings(50, 300, { description: 'queries to avoid repeating' }),
  },
  ['idea'],
);

export const researchBody: JsonSchema = obj(
  {
    queries: strings(10, 300, { minItems: 1, items: { type: 'string', minLength: 1, maxLength: 300, pattern: '\\S' } }),
    project_id: projectIdField,
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 12, description: 'sources in all' },
  },
  ['queries'],
);

export const speakerSchema: JsonSchema = obj(
  {
    id: str(40, { pattern: '^[a-z0-9_]{1,40}$' }),
    name: text(80, { pattern: '\\S' }),
    role: str(120),
    voice: voiceSchema,
  },
  ['name'],
);

export const scriptBody: JsonSchema = obj(
  {
    idea: text(2000, { pattern: '\\S' }),
    duration_minutes: {
      type: 'number',
      minimum: MIN_DURATION_MINUTES,
      maximum: MAX_DURATION_MINUTES,
      description: 'sized at 150 spoken words a minute',
    },
    speakers: arr(speakerSchema, { minItems: 1, maxItems: MAX_SPEAKERS }),
    project_id: { ...uuid, description: 'the project to write into (a new project is created when absent)' },
    research: str(20000),
    analysis: str(20000),
    bible: str(20000, { description: 'show bible: recurring segments, style, facts about the show' }),
    tone: str(100),
    provider: textProvider,
  },
  ['idea', 'duration_minutes', 'speakers'],
);

export const approveBody: JsonSchema = obj(
  {
    project_id: uuid,
    version: { type: 'integer', minimum: 1, description: 'the script version approved (default: the current one)' },
  },
  ['project_id'],
);

export const audioBody: JsonSchema = obj(
  {
    project_id: uuid,
    scene_id: sceneId,
    speech_provider: {
      enum: [...SPEECH_PROVIDERS],
      default: 'auto',
      description: 'auto: tts_vendor when configured, else local (espeak-ng)',
    },
    voices: {
      type: 'object',
      maxProperties: 6,
      additionalProperties: voiceSchema,
      description: "voice per speaker id, overriding the script's",
    },
  },
  ['project_id', 'scene_id'],
);

export const uploadBody: JsonSchema = obj(
  {
    project_id: uuid,
    scene_id: sceneId,
    audio_base64: {
      type: 'string',
      minLength: 8,
      description: 'the audio file, base64 or a data URL (any format ffprobe reads: wav, mp3, m4a, ogg, flac)',
    },
    filename: str(200),
  },
  ['project_id', 'scene_id', 'audio_base64'],
);

export const combineAudioBody: JsonSchema = obj(
  {
    project_id: uuid,
    scene_ids: arr(sceneId, {
      minItems: 1,
      maxItems: 200,
      description: 'default: every scene of the script, in order',
    }),
    format: { enum: ['mp3', 'm4a'], default: 'mp3' },
  },
  ['project_id'],
);

export const imageBody: JsonSchema = obj(
  {
    project_id: uuid,
    scene_id: sceneId,
    prompt: str(4000, { description: "default: the scene's title and first line" }),
    provider: { enum: ['auto', 'local', 'vendor_a', 'vendor_c', 'vendor_d', 'vendor_e'], default: 'auto' },
    aspect_ratio: { enum: ['16:9', '9:16', '1:1'], default: '16:9' },
    style_preset: str(50, { pattern: '^[A-Za-z0-9_-]*$' }),
  },
  ['project_id'],
);

export const renderVideoBody: JsonSchema = obj(
  {
    project_id: uuid,
    scene_id: sceneId,
    audio_url: str(2048, { description: "the scene audio (its URL or file name); default: the scene's latest audio" }),
    image_key: str(80, {
      pattern: '^[0-9a-f]{64}\\.(png|jpg|webp)$',
      description: 'an image of POST /image or the image studio',
    }),
    prompt: str(4000, { description: 'generate the picture from this prompt first (image studio) when no image_key' }),
    resolution: { enum: [...RESOLUTIONS], default: '480p' },
    fps: { enum: [...FRAME_RATES], default: 25 },
    subtitles: { enum: [...SUBTITLE_MODES], default: 'mux' },
  },
  ['project_id', 'scene_id'],
);

export const combineVideosBody: JsonSchema = obj(
  {
    project_id: uuid,
    scene_ids: arr(sceneId, {
      minItems: 1,
      maxItems: 200,
      description: 'default: every scene with a video, in script order',
    }),
  },
  ['project_id'],
);

export const projectBody: JsonSchema = obj(
  {
    title: text(300, { pattern: '\\S' }),
    idea: str(2000),
    state: {
      type: 'object',
      maxProperties: 100,
      description: "the client's own workflow state (step, choices), stored as given",
    },
  },
  ['title'],
);
export const projectUpdateBody: JsonSchema = obj(
  {
    title: text(300, { pattern: '\\S' }),
    idea: str(2000),
    state: projectBody.properties && (projectBody.properties as Record<string, JsonSchema>).state,
  },
  [],
  { minProperties: 1 },
);
export const favoriteBody: JsonSchema = obj({ favorite: { type: 'boolean', default: true } }, []);
export const listQuery: JsonSchema = obj(
  {
    favorite: { type: 'boolean' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    offset: { type: 'integer', minimum: 0, maximum: 100000, default: 0 },
  },
  [],
);

export const projectSchema: JsonSchema = obj(
  {
    project_id: uuid,
    title: { type: 'string' },
    idea: { type: 'string' },
    favorite: bool,
    state: anyObj,
    notes: anyObj,
    script: anyObj,
    script_version: int,
    script_approved: bool,
    script_approved_at: iso,
    assets: arr(anyObj),
    next_step: { enum: ['script', 'approve_script', 'audio', 'combine_audio', 'video', 'combine_videos', 'done'] },
    created_at: iso,
    updated_at: iso,
  },
  [
    'project_id',
    'title',
    'idea',
    'favorite',
    'state',
    'notes',
    'script_version',
    'script_approved',
    'assets',
    'next_step',
    'created_at',
    'updated_at',
  ],
);

export const scriptResult: JsonSchema = obj({ project_id: uuid, version: int, script: anyObj }, [
  'project_id',
  'version',
  'script',
]);
export const fileResult = (extra: Record<string, unknown> = {}, required: string[] = []): JsonSchema =>
  obj({ filename: { type: 'string' }, url: { type: 'string' }, duration_seconds: num, ...extra }, [
    'filename',
    'url',
    ...required,
  ]);

export const projectIdParams = params({ project_id: uuid });
export const taskIdParams = params({ task_id: str(100, { pattern: '^[A-Za-z0-9_-]{1,100}$' }) });
export const filenameParams = params({
  filename: str(200, {
    pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*(\\.[A-Za-z0-9]+)*$',
    description: 'a single file name: `/`, `\\` and `..` are refused',
  }),
});
export const imagePathParams = params({
  path: str(80, { pattern: '^[0-9a-f]{64}\\.(png|jpg|webp)$', description: 'an image key' }),
});

export const dubBody: JsonSchema = obj(
  {
    project_id: {
      ...uuid,
      description: "dub the project's scene audio (its measured line timings) or, without audio, its script",
    },
    segments: arr(
      obj(
        {
          text: text(2000, { pattern: '\\S' }),
          start: { type: 'number', minimum: 0, maximum: 14400 },
          end: { type: 'number', minimum: 0, maximum: 14400 },
          speaker: str(40),
        },
        ['text'],
      ),
      { minItems: 1, maxItems: 500, description: 'a transcript to dub instead of a project' },
    ),
    source_language: str(20, { pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$', default: 'en' }),
    target_language: str(20, { pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$' }),
    voice: str(60, {
      pattern: '^[A-Za-z0-9_.+-]+$',
      description: 'local: <language>[+<variant>] (GET /dub/voices); default: the target language',
    }),
    speech_provider: { enum: ['auto', 'local', 'tts_vendor'], default: 'auto' },
    translate: {
      type: 'boolean',
      default: true,
      description: 'false: the transcript is already in the target language',
    },
  },
  ['target_language'],
);

export const estimateBody: JsonSchema = obj(
  {
    project_id: uuid,
    text: str(200000),
    target_language: str(20, { pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$' }),
    source_language: str(20, { pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$', default: 'en' }),
    speech_provider: { enum: ['auto', 'local', 'tts_vendor'], default: 'auto' },
  },
  ['target_language'],
);

export const cloneBody: JsonSchema = obj(
  {
    name: text(100, { pattern: '\\S' }),
    description: str(500),
    sample_base64: {
      type: 'string',
      minLength: 8,
      description: 'a voice sample (30 s to 5 min of clean speech), base64 or a data URL',
    },
    language: str(20),
  },
  ['name', 'sample_base64'],
);

export const startedSchema: JsonSchema = obj({
  task_id: { type: 'string' },
  task_type: { type: 'string' },
  status: { const: 'started' },
  status_url: { type: 'string' },
});
export const audioResult = fileResult({ scene_id: { type: 'string' }, lines: arr(anyObj), speech: anyObj }, [
  'duration_seconds',
]);
export const anyResult: JsonSchema = anyObj;
export { bool, int, num, arr, obj, str };
