/**
 * Configuration variables of the media engine and video studio (infra/media/,
 * infra/tts/, infra/storage/; docs/video.md): storage folders, ffmpeg and
 * speech.
 * Part of CONFIG_VARS (infra/config/index.ts).
 */
import type { VarSpec } from './spec';

export const MEDIA_VARS = {
  MEDIA_STORAGE_DIR: {
    type: 'string',
    default: '',
    description:
      'Folder of finished media files (videos, subtitles, audio) that the API serves; the API and every worker must see the same folder; empty = .run/media of the project',
  },
  MEDIA_WORK_DIR: {
    type: 'string',
    default: '',
    description:
      'Scratch folder of running renders (per task, removed when the render ends); shared by all workers of a deployment so a scene retried on another worker finds its checkpoint; empty = .run/media-work of the project',
  },
  FFMPEG_PATH: { type: 'string', default: 'ffmpeg', description: 'ffmpeg binary (Debian package ffmpeg)' },
  FFPROBE_PATH: { type: 'string', default: 'ffprobe', description: 'ffprobe binary (Debian package ffmpeg)' },
  ESPEAK_PATH: {
    type: 'string',
    default: 'espeak-ng',
    description: 'espeak-ng binary, the offline speech provider `local` (Debian package espeak-ng)',
  },
  MEDIA_X264_PRESET: {
    type: 'string',
    default: 'veryfast',
    description: 'x264 preset of every H.264 encode (slower = smaller files for the same quality)',
    schema: {
      enum: ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'],
    },
  },
  MEDIA_X264_CRF: {
    type: 'integer',
    default: 23,
    description: 'x264 constant rate factor (quality: lower is better and bigger)',
    schema: { minimum: 0, maximum: 51 },
  },
  MEDIA_MAX_INPUT_BYTES: {
    type: 'integer',
    default: 536870912,
    description: 'Largest media file the engine accepts as an input (checked with ffprobe before use)',
    schema: { minimum: 1024 },
  },
  TTS_VENDOR_BASE_URL: {
    type: 'string',
    default: '',
    description:
      'OpenAI-compatible base URL of the speech vendor `tts_vendor` (POST {base}/audio/speech, e.g. https://api.openai.com/v1); empty = offline espeak-ng only',
    schema: { pattern: '^(|https?://.+)$' },
  },
  TTS_VENDOR_API_KEY: { type: 'string', default: '', description: 'Bearer key of the speech vendor' },
  TTS_VENDOR_MODEL: {
    type: 'string',
    default: 'tts-1',
    description: 'Speech model sent to the vendor; metered per started 1,000 characters (domain/pricing.ts)',
  },
} as const satisfies Record<string, VarSpec>;
