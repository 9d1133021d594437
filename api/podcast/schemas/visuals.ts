/**
 * Schemas of the podcast maker's picture and video routes (api/podcast/visuals.ts):
 * a scene's image, a scene's video, the combined episode video; request bodies,
 * then the answers.
 */
import { FRAME_RATES, RESOLUTIONS } from '../../../domain/media/formats';
import { SUBTITLE_MODES } from '../../../domain/media/subtitles';
import type { JsonSchema } from '../../kernel/envelopes/common';
import { allRequired, anyString, arr, bool, int, named, num, str, uuid, withRequired } from '../../kernel/schema';
import { d, fileResult, loudnessSchema, sceneId, strs } from './common';

export const imageBody: JsonSchema = withRequired(
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

export const renderVideoBody: JsonSchema = withRequired(
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

export const combineVideosBody: JsonSchema = withRequired(
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

// ---- Response shapes (what the handlers and activities really return; docs/podcast.md) ----

export const sceneVideoResult = fileResult(
  {
    scene_id: anyString,
    width: int,
    height: int,
    fps: int,
    resolution: anyString,
    video_codec: { const: 'h264' },
    audio_codec: { const: 'aac' },
    picture: withRequired(
      {
        kind: { enum: ['image', 'gradient'] },
        image_key: anyString,
        colors: strs('gradient colours'),
      },
      ['kind'],
    ),
    subtitles: allRequired({
      mode: { enum: [...SUBTITLE_MODES] },
      track: d(bool, 'a mov_text subtitle track is in the file'),
      cues: int,
    }),
  },
  ['project_id', 'scene_id', 'duration_seconds', 'width', 'height', 'fps', 'picture', 'subtitles'],
);

export const combineVideosResult = fileResult(
  {
    files: arr(
      named(
        'MediaFile',
        withRequired({ filename: anyString, content_type: anyString, size: int, url: anyString }, ['filename', 'url']),
      ),
      {
        description: 'the MP4 and its SRT and WebVTT subtitles',
      },
    ),
    scenes_seconds: num,
    width: int,
    height: int,
    video_codec: { const: 'h264' },
    audio_codec: { const: 'aac' },
    subtitles: allRequired({
      track: d(bool, 'a mov_text subtitle track is in the file (none when a scene has its captions only burnt in)'),
      burnt: d(bool, 'some scenes have their captions drawn into the picture'),
      cues: int,
    }),
    loudness: loudnessSchema,
  },
  ['project_id', 'files', 'duration_seconds', 'width', 'height', 'subtitles'],
);
