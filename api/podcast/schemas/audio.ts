/**
 * Schemas of the podcast maker's audio routes (api/podcast/audio.ts): a scene's
 * speech, an uploaded scene audio, the combined episode audio; request bodies,
 * then the answers.
 */
import { SPEECH_PROVIDERS } from '../../../domain/media/voices';
import type { JsonSchema } from '../../kernel/envelopes/common';
import {
  allRequired,
  anyString,
  arr,
  bool,
  int,
  nullable,
  num,
  str,
  text,
  uuid,
  withRequired,
} from '../../kernel/schema';
import { voiceSchema } from '../../video/schemas';
import { d, fileResult, loudnessSchema, sceneId, strs, timedLineSchema } from './common';

export const audioBody: JsonSchema = withRequired(
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

export const uploadBody: JsonSchema = withRequired(
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

export const combineAudioBody: JsonSchema = withRequired(
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

// ---- Response shapes (what the handlers and activities really return; docs/podcast.md) ----

export const audioResult = fileResult(
  {
    scene_id: anyString,
    lines: d(arr(timedLineSchema), "each line's measured start and end in the scene (spoken scenes)"),
    cues: d(int, 'subtitle cues made from the measured lines'),
    speech: withRequired(
      {
        provider: d(anyString, '`local` (espeak-ng) or `tts_vendor`'),
        model: anyString,
        voices: strs('voices used'),
        pitch_applied: d(bool, 'every voice pitch was applied'),
      },
      ['provider', 'model', 'voices'],
    ),
    original: d(
      withRequired(
        {
          format: anyString,
          codec: anyString,
          sample_rate: nullable(int),
          channels: nullable(int),
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
    scene_ids: arr(anyString),
    loudness: loudnessSchema,
    speakers: arr(
      allRequired({
        speaker: anyString,
        voice: anyString,
        measured_pitch_hz: d(nullable(num), "median pitch over the speaker's lines, measured on the delivered file"),
      }),
    ),
  },
  ['project_id', 'duration_seconds', 'codec', 'scenes_seconds', 'scene_ids', 'loudness', 'speakers'],
);
