/**
 * Output formats of the media engine: the three render resolutions of the
 * spec (480p, 720p, 1080p) in either orientation. The short side is the
 * resolution's number; the long side keeps 16:9 and is rounded to an even
 * number of pixels, because H.264 with 4:2:0 chroma needs even dimensions.
 */
export const RESOLUTIONS = ['480p', '720p', '1080p'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const ASPECT_RATIOS = ['16:9', '9:16'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/** Frame rates a render may use; 25 (the default) is plenty for stills with slow motion and the cheapest to encode. */
export const FRAME_RATES = [24, 25, 30] as const;
export type FrameRate = (typeof FRAME_RATES)[number];
export const DEFAULT_FPS: FrameRate = 25;

const SHORT_SIDE: Record<Resolution, number> = { '480p': 480, '720p': 720, '1080p': 1080 };

export interface FrameSize {
  width: number;
  height: number;
}

/** Pixel size of a resolution in an orientation: 1080p 16:9 = 1920×1080, 1080p 9:16 = 1080×1920, 480p 16:9 = 854×480. */
export function frameSize(resolution: Resolution, aspect: AspectRatio): FrameSize {
  const short = SHORT_SIDE[resolution];
  const long = Math.round((short * 16) / 9 / 2) * 2;
  return aspect === '16:9' ? { width: long, height: short } : { width: short, height: long };
}

/** Audio of every render and podcast: 48 kHz (AAC's native rate), 1 / 25 / 30 / 24 fps divide it exactly. */
export const AUDIO_SAMPLE_RATE = 48000;
