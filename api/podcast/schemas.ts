/**
 * JSON Schemas of the podcast maker (Document 2 leaves every field "not
 * shown"; these are our choices, documented in docs/podcast.md). Voices and
 * task records are the video studio's shapes (api/video/schemas.ts).
 */
import { FRAME_RATES, RESOLUTIONS } from '../../domain/media/formats';
import { SPEECH_PROVIDERS } from '../../domain/media/voices';
import { MAX_DURATION_MINUTES, MAX_SPEAKERS, MIN_DURATION_MINUTES } from '../../domain/podcast/types';
import { SUBTITLE_MODES } from '../../domain/media/subtitles';
import type { JsonSchema } from '../kernel/envelopes/common';
import {
  arr,
  bool,
  coverageSchema,
  int,
  iso,
  mapOf,
  named,
  num,
  obj,
  params,
  str,
  strings,
  text,
  uuid,
} from '../kernel/schema';
import { voiceSchema } from '../video/schemas';

export { voiceSchema };
export const textProvider = {
  enum: ['auto', 'local', 'vendor_a', 'vendor_b'],
  default: 'auto',
  description: 'text provider (local: the offline writer)',
};
export const sceneId = str(12, { pattern: '^scene-[0-9]{1,3}$', description: "`scene-<n>` of the project's script" });
export const projectIdField = { ...uuid, description: 'the podcast project' };

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
    gender: {
      enum: ['female', 'male'],
      description:
        "the voice's gender when no voice is named (default: the gender the given name is usually given to, else alternating by order)",
    },
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
    speakers: {
      oneOf: [
        arr(speakerSchema, { minItems: 1, maxItems: MAX_SPEAKERS }),
        { type: 'integer', minimum: 1, maximum: MAX_SPEAKERS },
      ],
      description: `The speakers ({name, role?, voice?}, 1 to ${MAX_SPEAKERS}), or how many (a host, then guests: 2 is Host and Guest); the answer lists them`,
    },
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
    text: text(5000, {
      pattern: '\\S',
      description:
        "What to say in this scene instead of the approved script's lines (a retake with edited words): a line " +
        "starting `Name:` (a speaker of the script, by name or id) is that speaker's, other lines continue the " +
        "speaker before them (at first the scene's first speaker). The answer's `lines` are what was spoken and the " +
        "scene's video captions follow them; the approved script itself is not changed.",
    }),
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
    subtitles: {
      enum: [...SUBTITLE_MODES],
      default: 'mux',
      description:
        "mux (default): a subtitle track; burn: drawn into the picture; both: drawn and a track; none. The episode video keeps the scenes' modes: no track when a scene has its captions only burnt in.",
    },
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
    title: text(300, {
      pattern: '\\S',
      description: 'Default: derived from idea (its first sentence); one of title and idea is required',
    }),
    idea: str(2000),
    state: {
      type: 'object',
      maxProperties: 100,
      description: "the client's own workflow state (step, choices), stored as given",
    },
  },
  [],
  { anyOf: [{ required: ['title'] }, { required: ['idea'] }] },
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

// ---- Response shapes (what the handlers and activities really return; docs/podcast.md) ----

const S = { type: 'string' };
const nullable = (t: string, description?: string): JsonSchema => ({
  type: [t, 'null'],
  ...(description ? { description } : {}),
});
const d = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });
const strs = (description: string): JsonSchema => ({ type: 'array', items: S, description });

/** Which writer answered an AI call (the offline writer `local` says so). */
export const writerFields = {
  provider: d(S, 'the text provider that answered (`local`: the offline writer, not a language model)'),
  model: d(S, 'its model'),
  offline: d(bool, 'true when no vendor was asked'),
};

export const enhancedIdeaSchema: JsonSchema = obj(
  {
    enhanced_idea: d(S, 'the idea restated as an episode pitch'),
    title_suggestions: strs('episode titles'),
    hooks: strs('opening hooks'),
    keywords: strs('content words of the idea'),
  },
  ['enhanced_idea'],
);
export const analysisSchema: JsonSchema = obj(
  {
    audience: d(S, 'who the episode is for'),
    angle: d(S, 'the episode angle'),
    tone: S,
    keywords: strs('content words'),
    segment_outline: arr(
      obj(
        {
          title: S,
          minutes: d(num, 'planned length of the segment'),
          goal: d(S, 'what the segment does for the listener'),
        },
        ['title'],
      ),
      { description: 'segments in order (the offline script writer uses their titles as scene topics)' },
    ),
    questions: strs('questions the episode answers'),
  },
  ['audience', 'angle', 'segment_outline'],
);
export const queriesSchema: JsonSchema = obj({ queries: strs('research queries') }, ['queries']);

export const researchSourceSchema: JsonSchema = obj(
  {
    title: S,
    url: S,
    excerpt: d(S, 'the passage found'),
    credibility_score: nullable('number', 'null: no credibility claimed (sample documents of the research corpus)'),
    published_at: S,
    index: int,
    source_type: d(S, 'web, academic, industry, government, or sample (a sample document written for this platform)'),
    sample_of: d(S, 'for sample documents: the kind of source the sample is written as'),
  },
  ['title', 'url'],
);
export const researchSchema: JsonSchema = obj(
  {
    source: d(S, '`corpus`, or `<vendor>+corpus` when a web-search vendor is configured'),
    web_search_vendor: nullable('string', 'the web-search vendor asked (null: none configured)'),
    offline: d(bool, 'true when only the local corpus was searched'),
    results: arr(obj({ query: S, sources: arr(researchSourceSchema) }), {
      description: "each query's sources (a source found by an earlier query is listed once)",
    }),
    total_sources: int,
  },
  ['source', 'web_search_vendor', 'offline', 'results', 'total_sources'],
);

const cueSchema: JsonSchema = obj({ start: num, end: num, text: S });
export const timedLineSchema: JsonSchema = obj(
  {
    speaker: d(S, 'speaker id'),
    voice: S,
    text: S,
    start: d(num, 'seconds from the start of the scene (measured)'),
    end: num,
  },
  ['speaker', 'text', 'start', 'end'],
);

const speakerOut: JsonSchema = obj(
  {
    id: S,
    name: S,
    role: S,
    gender: d({ enum: ['female', 'male'] }, "the voice's gender"),
    voice_basis: d(
      { enum: ['voice', 'gender', 'name', 'order'] },
      'why the speaker has this voice: named, by declared gender, by the given name, or by order',
    ),
    voice: obj({ voice: S, rate: num, pitch: num }, []),
  },
  ['id', 'name', 'voice'],
);
export const scriptSchema: JsonSchema = obj(
  {
    title: S,
    idea: S,
    duration_minutes: num,
    words_per_minute: d(int, '150'),
    target_words: d(int, 'duration_minutes × words_per_minute'),
    word_count: int,
    estimated_seconds: d(num, 'word_count at words_per_minute'),
    speakers: arr(speakerOut),
    scenes: arr(
      obj({
        scene_id: d(S, '`scene-<n>`'),
        index: int,
        title: S,
        lines: arr(obj({ speaker: d(S, 'speaker id'), text: S })),
        target_words: int,
        word_count: int,
        estimated_seconds: num,
      }),
    ),
    provider: S,
    model: S,
    offline: bool,
    coverage: d(
      coverageSchema,
      'offline writer only: what the script was built from (outline segments as key points, research sentences as sources) and why it is shorter than the duration asks (it never pads); absent when a vendor wrote it',
    ),
  },
  [
    'title',
    'idea',
    'duration_minutes',
    'words_per_minute',
    'target_words',
    'word_count',
    'estimated_seconds',
    'speakers',
    'scenes',
    'provider',
    'model',
    'offline',
  ],
);

const assetBase = { created_at: iso, url: d(S, 'where the file is served (absent for assets without a file route)') };
const kind = (k: string) => ({ const: k });
export const assetSchema: JsonSchema = {
  oneOf: [
    obj(
      {
        kind: kind('scene_audio'),
        scene_id: S,
        filename: S,
        duration_seconds: num,
        lines: arr(timedLineSchema),
        cues: arr(cueSchema),
        provider: d(S, '`local`, `tts_vendor` or `upload`'),
        source: { enum: ['tts', 'upload'] },
        task_id: S,
        ...assetBase,
      },
      ['kind', 'scene_id', 'filename', 'duration_seconds', 'lines', 'provider', 'source', 'created_at'],
    ),
    obj(
      {
        kind: kind('combined_audio'),
        filename: S,
        duration_seconds: num,
        scene_ids: arr(S),
        task_id: S,
        ...assetBase,
      },
      ['kind', 'filename', 'duration_seconds', 'scene_ids', 'created_at'],
    ),
    obj(
      {
        kind: kind('image'),
        scene_id: S,
        image_key: S,
        width: int,
        height: int,
        provider: S,
        ...assetBase,
      },
      ['kind', 'image_key', 'width', 'height', 'provider', 'created_at'],
    ),
    obj(
      {
        kind: kind('scene_video'),
        scene_id: S,
        filename: S,
        part: d(S, 'the stored picture segment (not served; combining re-uses it)'),
        audio_filename: S,
        duration_seconds: num,
        width: int,
        height: int,
        fps: int,
        cues: arr(cueSchema),
        task_id: S,
        ...assetBase,
      },
      ['kind', 'scene_id', 'filename', 'duration_seconds', 'width', 'height', 'fps', 'created_at'],
    ),
    obj(
      {
        kind: kind('final_video'),
        filename: S,
        files: strs('the MP4 and its SRT and WebVTT subtitles'),
        duration_seconds: num,
        scene_ids: arr(S),
        task_id: S,
        ...assetBase,
      },
      ['kind', 'filename', 'files', 'duration_seconds', 'scene_ids', 'created_at'],
    ),
    obj(
      {
        kind: kind('avatar'),
        speaker: S,
        image_key: S,
        operation: d(S, '`upload`, `make_presentable` or `generate`'),
        ...assetBase,
      },
      ['kind', 'image_key', 'operation', 'created_at'],
    ),
    obj(
      {
        kind: kind('dub'),
        filename: S,
        target_language: S,
        duration_seconds: num,
        task_id: S,
        ...assetBase,
      },
      ['kind', 'filename', 'target_language', 'duration_seconds', 'created_at'],
    ),
  ],
  description: 'a file or image made for the project, by `kind`',
};

export const projectSchema: JsonSchema = obj(
  {
    project_id: uuid,
    title: { type: 'string' },
    idea: { type: 'string' },
    favorite: bool,
    state: mapOf(
      {},
      { description: "the client's own workflow state (step, choices), as it last sent it (`{}` if never)" },
    ),
    notes: obj(
      {
        enhanced_idea: d(enhancedIdeaSchema, 'the last POST /idea/enhance with this project_id'),
        analysis: d(analysisSchema, 'the last POST /analyze'),
        queries: d(queriesSchema, 'the last POST /regenerate-queries'),
        research: d(researchSchema, 'the last POST /research/exa'),
      },
      [],
      { description: 'results of the analysis routes run with this project_id' },
    ),
    script: d(scriptSchema, 'the current script version (absent before POST /script)'),
    script_version: int,
    script_approved: bool,
    script_approved_at: iso,
    assets: arr(assetSchema),
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

export const scriptResult: JsonSchema = obj({ project_id: uuid, version: int, script: scriptSchema }, [
  'project_id',
  'version',
  'script',
]);
export const fileResult = (extra: Record<string, unknown> = {}, required: string[] = []): JsonSchema =>
  obj(
    {
      project_id: nullable('string', 'the project the file was recorded on'),
      filename: S,
      url: d(S, 'where the file is served'),
      content_type: S,
      size: d(int, 'bytes'),
      duration_seconds: d(num, 'measured with ffprobe'),
      ...extra,
    },
    ['filename', 'url', ...required],
  );
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
const loudnessSchema: JsonSchema = obj(
  {
    target_lufs: d(num, 'integrated loudness aimed at (−16)'),
    target_true_peak_dbtp: num,
    measured_input_lufs: nullable('number', 'first pass: the joined input (null when unmeasurable)'),
    measured_output_lufs: nullable('number', 'the delivered file, measured again'),
    method: S,
  },
  ['target_lufs', 'target_true_peak_dbtp', 'method'],
);

export const audioResult = fileResult(
  {
    scene_id: S,
    lines: d(arr(timedLineSchema), "each line's measured start and end in the scene (spoken scenes)"),
    cues: d(int, 'subtitle cues made from the measured lines'),
    speech: obj(
      {
        provider: d(S, '`local` (espeak-ng) or `tts_vendor`'),
        model: S,
        voices: strs('voices used'),
        pitch_applied: d(bool, 'every voice pitch was applied'),
      },
      ['provider', 'model', 'voices'],
    ),
    original: d(
      obj(
        {
          format: S,
          codec: S,
          sample_rate: nullable('integer'),
          channels: nullable('integer'),
          bytes: int,
        },
        ['format', 'codec'],
      ),
      'uploads: what ffprobe found in the uploaded file',
    ),
  },
  ['project_id', 'scene_id', 'duration_seconds'],
);

export const combineAudioResult = fileResult(
  {
    codec: { enum: ['mp3', 'aac'] },
    bitrate_kbps: int,
    scenes_seconds: d(num, "sum of the scenes' measured lengths"),
    scene_ids: arr(S),
    loudness: loudnessSchema,
    speakers: arr(
      obj({
        speaker: S,
        voice: S,
        measured_pitch_hz: nullable('number', "median pitch over the speaker's lines, measured on the delivered file"),
      }),
    ),
  },
  ['project_id', 'duration_seconds', 'codec', 'scenes_seconds', 'scene_ids', 'loudness', 'speakers'],
);

export const sceneVideoResult = fileResult(
  {
    scene_id: S,
    width: int,
    height: int,
    fps: int,
    resolution: S,
    video_codec: { const: 'h264' },
    audio_codec: { const: 'aac' },
    picture: obj(
      {
        kind: { enum: ['image', 'gradient'] },
        image_key: S,
        colors: strs('gradient colours'),
      },
      ['kind'],
    ),
    subtitles: obj({
      mode: { enum: [...SUBTITLE_MODES] },
      track: d(bool, 'a mov_text subtitle track is in the file'),
      cues: int,
    }),
  },
  ['project_id', 'scene_id', 'duration_seconds', 'width', 'height', 'fps', 'picture', 'subtitles'],
);

export const combineVideosResult = fileResult(
  {
    files: arr(named('MediaFile', obj({ filename: S, content_type: S, size: int, url: S }, ['filename', 'url'])), {
      description: 'the MP4 and its SRT and WebVTT subtitles',
    }),
    scenes_seconds: num,
    width: int,
    height: int,
    video_codec: { const: 'h264' },
    audio_codec: { const: 'aac' },
    subtitles: obj({
      track: d(bool, 'a mov_text subtitle track is in the file (none when a scene has its captions only burnt in)'),
      burnt: d(bool, 'some scenes have their captions drawn into the picture'),
      cues: int,
    }),
    loudness: loudnessSchema,
  },
  ['project_id', 'files', 'duration_seconds', 'width', 'height', 'subtitles'],
);

export const dubResultSchema: JsonSchema = obj(
  {
    filename: S,
    audio_url: d(S, 'GET /dub/audio/{filename}'),
    content_type: S,
    size: int,
    duration_seconds: num,
    original_seconds: nullable('number', 'length of the timed original (null: untimed transcript)'),
    project_id: nullable('string'),
    source_language: S,
    target_language: S,
    segments: arr(
      obj(
        {
          index: int,
          source_text: S,
          text: d(S, 'as spoken (translated)'),
          start: num,
          end: num,
          speech_seconds: d(num, 'natural length of the speech before re-timing'),
          tempo: d(num, 'speed-up applied to fit the original slot (1–2)'),
          speaker: S,
        },
        ['index', 'source_text', 'text', 'start', 'end', 'speech_seconds', 'tempo'],
      ),
    ),
    speech: obj({ provider: S, model: S, voice: S, language: S }),
    translation: obj({
      provider: d(S, '`local` (Apertium), a text vendor, or `none`'),
      model: nullable('string'),
      method: S,
      translated: bool,
    }),
  },
  ['filename', 'duration_seconds', 'segments', 'speech', 'translation'],
);

/** A cloned voice: what the cloning vendor answers (no cloning vendor is supported yet, so no such task runs). */
export const cloneResultSchema: JsonSchema = {
  type: 'object',
  additionalProperties: {},
  description: "The cloning vendor's answer (vendor-specific)",
};

export const estimateSchema: JsonSchema = obj({
  characters: int,
  words: int,
  estimated_seconds: d(num, 'words at words_per_minute'),
  words_per_minute: int,
  target_language: S,
  translation: obj({
    method: { enum: ['text_vendor', 'apertium', 'unavailable'] },
    cost_usd: num,
  }),
  speech: obj({
    provider: { enum: ['local', 'tts_vendor'] },
    available: d(bool, 'the provider can speak the target language'),
    units: d(int, 'metered units'),
    unit: S,
    cost_usd: num,
  }),
  total_cost_usd: num,
});

const GENDER: JsonSchema = { enum: ['male', 'female', 'unspecified'] };
export const voicesSchema: JsonSchema = obj({
  provider: { const: 'local' },
  model: { const: 'espeak-ng' },
  variants: arr(obj({ id: S, name: S, gender: GENDER }, ['id', 'name'])),
  voices: arr(
    obj(
      {
        voice: d(S, '`<language>` or `<language>+<variant>`'),
        name: S,
        language: S,
        gender: GENDER,
      },
      ['voice', 'name', 'language'],
    ),
  ),
  cloned: d(
    arr(mapOf({}, { description: 'a cloned voice as its vendor would describe it' })),
    'cloned voices (always empty: no cloning vendor adapter exists)',
  ),
  tts_vendor: obj({ configured: bool, voices_listed: d(bool, 'the OpenAI-compatible protocol has no voice list') }),
});
export { bool, int, num, arr, obj, str };
