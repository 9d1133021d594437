/** Where the media tools are and how they encode (built from the configuration in workers/adapters.ts). */
export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
  /** x264 preset of every H.264 encode (`veryfast` by default: a fair size/speed balance on small machines). */
  x264Preset: string;
  /** x264 constant rate factor (quality; lower is better and bigger). */
  crf: number;
  /** Largest input file accepted by validateInput (bytes). */
  maxInputBytes: number;
}

export const DEFAULT_TOOLS: MediaTools = {
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffprobe',
  x264Preset: 'veryfast',
  crf: 23,
  maxInputBytes: 512 * 1024 * 1024,
};

/** Loudness target of every render and podcast: −16 LUFS integrated, −1.5 dBTP true peak (podcast/streaming norm). */
export const LOUDNESS = { I: -16, TP: -1.5, LRA: 11 } as const;
