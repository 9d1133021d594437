/**
 * Schemas of the podcast maker's dubbing and voice routes (api/podcast/dub.ts):
 * a dub, its estimate, a voice clone, the started task; the dub's result, the
 * estimate and the voices list.
 */
import type { JsonSchema } from '../../kernel/envelopes/common';
import {
  allRequired,
  anyString,
  arr,
  bool,
  int,
  mapOf,
  nullable,
  num,
  str,
  text,
  uuid,
  withRequired,
} from '../../kernel/schema';
import { d } from './common';

export const dubBody: JsonSchema = withRequired(
  {
    project_id: {
      ...uuid,
      description: "dub the project's scene audio (its measured line timings) or, without audio, its script",
    },
    segments: arr(
      withRequired(
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

export const estimateBody: JsonSchema = withRequired(
  {
    project_id: uuid,
    text: str(200000),
    target_language: str(20, { pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$' }),
    source_language: str(20, { pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$', default: 'en' }),
    speech_provider: { enum: ['auto', 'local', 'tts_vendor'], default: 'auto' },
  },
  ['target_language'],
);

export const cloneBody: JsonSchema = withRequired(
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

export const startedSchema: JsonSchema = allRequired({
  task_id: { type: 'string' },
  task_type: { type: 'string' },
  status: { const: 'started' },
  status_url: { type: 'string' },
});

// ---- Response shapes (what the handlers and activities really return; docs/podcast.md) ----

export const dubResultSchema: JsonSchema = withRequired(
  {
    filename: anyString,
    audio_url: d(anyString, 'GET /dub/audio/{filename}'),
    content_type: anyString,
    size: int,
    duration_seconds: num,
    original_seconds: d(nullable(num), 'length of the timed original (null: untimed transcript)'),
    project_id: nullable(anyString),
    source_language: anyString,
    target_language: anyString,
    segments: arr(
      withRequired(
        {
          index: int,
          source_text: anyString,
          text: d(anyString, 'as spoken (translated)'),
          start: num,
          end: num,
          speech_seconds: d(num, 'natural length of the speech before re-timing'),
          tempo: d(num, 'speed-up applied to fit the original slot (1–2)'),
          speaker: anyString,
        },
        ['index', 'source_text', 'text', 'start', 'end', 'speech_seconds', 'tempo'],
      ),
    ),
    speech: allRequired({ provider: anyString, model: anyString, voice: anyString, language: anyString }),
    translation: allRequired({
      provider: d(anyString, '`local` (Apertium), a text vendor, or `none`'),
      model: nullable(anyString),
      method: anyString,
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

export const estimateSchema: JsonSchema = allRequired({
  characters: int,
  words: int,
  estimated_seconds: d(num, 'words at words_per_minute'),
  words_per_minute: int,
  target_language: anyString,
  translation: allRequired({
    method: { enum: ['text_vendor', 'apertium', 'unavailable'] },
    cost_usd: num,
  }),
  speech: allRequired({
    provider: { enum: ['local', 'tts_vendor'] },
    available: d(bool, 'the provider can speak the target language'),
    units: d(int, 'metered units'),
    unit: anyString,
    cost_usd: num,
  }),
  total_cost_usd: num,
});

const GENDER: JsonSchema = { enum: ['male', 'female', 'unspecified'] };
export const voicesSchema: JsonSchema = allRequired({
  provider: { const: 'local' },
  model: { const: 'espeak-ng' },
  variants: arr(withRequired({ id: anyString, name: anyString, gender: GENDER }, ['id', 'name'])),
  voices: arr(
    withRequired(
      {
        voice: d(anyString, '`<language>` or `<language>+<variant>`'),
        name: anyString,
        language: anyString,
        gender: GENDER,
      },
      ['voice', 'name', 'language'],
    ),
  ),
  cloned: d(
    arr(mapOf({}, { description: 'a cloned voice as its vendor would describe it' })),
    'cloned voices (always empty: no cloning vendor adapter exists)',
  ),
  tts_vendor: allRequired({
    configured: bool,
    voices_listed: d(bool, 'the OpenAI-compatible protocol has no voice list'),
  }),
});
