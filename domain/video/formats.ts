/**
 * The video studio's formats (Document 2, "Video studio"): short is vertical
 * 9:16 of 15 to 60 seconds, standard is horizontal 16:9 of 1 to 15 minutes,
 * long is 15 minutes and more. The upper bound of long (2 hours) is our
 * choice: a render is one durable job on the platform's workers.
 */
import type { AspectRatio } from '../media/formats';

export const VIDEO_FORMATS = ['short', 'standard', 'long'] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

export interface FormatRule {
  aspect_ratio: AspectRatio;
  min_seconds: number;
  max_seconds: number;
  /** Typical scene length the planners aim for. */
  scene_seconds: number;
  /** Duration when the request gives none. */
  default_seconds: number;
}

export const FORMAT_RULES: Record<VideoFormat, FormatRule> = {
  short: { aspect_ratio: '9:16', min_seconds: 15, max_seconds: 60, scene_seconds: 8, default_seconds: 30 },
  standard: { aspect_ratio: '16:9', min_seconds: 60, max_seconds: 900, scene_seconds: 15, default_seconds: 120 },
  long: { aspect_ratio: '16:9', min_seconds: 900, max_seconds: 7200, scene_seconds: 30, default_seconds: 900 },
};

/** Shortest and longest scene a plan or an update may have. */
export const MIN_SCENE_SECONDS = 2;
export const MAX_SCENE_SECONDS = 120;
/** Most scenes in one plan. */
export const MAX_SCENES = 240;

/** Why `seconds` is not a valid length for `format`, or undefined. */
export function durationProblem(format: VideoFormat, seconds: number): string | undefined {
  const r = FORMAT_RULES[format];
  if (seconds < r.min_seconds || seconds > r.max_seconds)
    return `a ${format} video lasts ${r.min_seconds} to ${r.max_seconds} seconds; this one would last ${seconds}`;
  return undefined;
}

/** Scenes a plan of `seconds` gets: about one per `scene_seconds`, at least 2, within the scene-length bounds. */
export function sceneCount(format: VideoFormat, seconds: number): number {
  const r = FORMAT_RULES[format];
  const n = Math.round(seconds / r.scene_seconds);
  const min = Math.max(2, Math.ceil(seconds / MAX_SCENE_SECONDS));
  const max = Math.min(MAX_SCENES, Math.floor(seconds / MIN_SCENE_SECONDS));
  return Math.min(max, Math.max(min, n));
}
