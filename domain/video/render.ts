/**
 * A render as a job (pure): the request of POST /render, the snapshot of the
 * plan's scenes the workflow renders (later scene edits do not change a
 * running render), and what the workflow hands back.
 */
import type { TaskType } from '../task-types';
import { AspectRatio, DEFAULT_FPS, frameSize, Resolution } from '../media/formats';
import type { Cue, SubtitleMode } from '../media/subtitles';
import type { SpeechProvider, SpeechProviderChoice, VoiceSettings } from '../media/voices';
import type { VideoFormat } from './formats';
import type { RenderedAs, SceneStill, SceneVisual, VideoPlan, VideoScene } from './types';

/** The task type of a video render (the route's task and a writer's child render alike). */
export const VIDEO_RENDER_TASK_TYPE: TaskType = 'video_render';

export interface RenderRequest {
  plan_id: string;
  resolution?: Resolution;
  fps?: number;
  /** SUBTITLE_MODES: `mux` (default), `burn`, `both` or `none`. SRT and WebVTT files are written in every case. */
  subtitles?: SubtitleMode;
  /** `auto` (default): the speech vendor when configured, else local espeak-ng. */
  speech_provider?: SpeechProviderChoice;
  /** Voice of scenes that name none. */
  voice?: VoiceSettings;
  /** Ken Burns motion on (default) or every scene static. */
  ken_burns?: boolean;
}

export interface RenderScene {
  scene_id: string;
  index: number;
  heading: string;
  narration: string;
  /** The prompt of an `image` still (absent in jobs started before stills were drawn from it). */
  visual_description?: string;
  duration_seconds: number;
  /**
   * Frames of the scene, rounded on the video's running time (not per scene),
   * so the whole video is within half a frame of the plan however many scenes it has.
   */
  frames: number;
  visual: SceneVisual;
  voice: VoiceSettings;
}

export interface RenderJob {
  plan_id: string;
  title: string;
  format: VideoFormat;
  resolution: Resolution;
  aspect_ratio: AspectRatio;
  width: number;
  height: number;
  fps: number;
  subtitles: SubtitleMode;
  speech_provider: SpeechProviderChoice;
  scenes: RenderScene[];
}

export const DEFAULT_RESOLUTION: Resolution = '720p';

/** The job of rendering `scenes` of `plan` as `r` asks. */
export function renderJob(plan: VideoPlan, scenes: readonly VideoScene[], r: RenderRequest): RenderJob {
  const resolution = r.resolution ?? DEFAULT_RESOLUTION;
  const { width, height } = frameSize(resolution, plan.aspect_ratio);
  const fps = r.fps ?? DEFAULT_FPS;
  const ordered = [...scenes].sort((a, b) => a.index - b.index);
  let clock = 0;
  const frames = ordered.map((s) => {
    const start = Math.round(clock * fps);
    clock += s.duration_seconds;
    return Math.max(1, Math.round(clock * fps) - start);
  });
  return {
    plan_id: plan.plan_id,
    title: plan.title,
    format: plan.format,
    resolution,
    aspect_ratio: plan.aspect_ratio,
    width,
    height,
    fps,
    subtitles: r.subtitles ?? 'mux',
    speech_provider: r.speech_provider ?? 'auto',
    scenes: ordered.map((s, i) => ({
      scene_id: s.scene_id,
      index: s.index,
      heading: s.heading,
      narration: s.narration,
      visual_description: s.visual_description,
      duration_seconds: s.duration_seconds,
      frames: frames[i],
      visual: r.ken_burns === false ? { ...s.visual, motion: 'none' } : s.visual,
      voice: { ...(r.voice ?? {}), ...s.voice },
    })),
  };
}

/** What one scene activity hands to the assembly (paths are in the render's scratch folder). */
export interface SceneResult {
  index: number;
  picture: string;
  soundtrack: string;
  frames: number;
  seconds: number;
  tempo: number;
  cues: Cue[];
  /** What the scene's still really was. */
  visual: SceneStill;
  speech: { provider: SpeechProvider; voice: string; model: string; pitch_applied: boolean; sentences: number };
  /** The step an earlier attempt of this scene had finished (after a worker crash), if any. */
  resumed_after?: string;
}

export interface RenderedFile {
  filename: string;
  kind: 'video' | 'subtitles_srt' | 'subtitles_vtt';
  content_type: string;
  size: number;
}

/** The task result of a render (the API adds URLs). */
export interface RenderResult extends Record<string, unknown> {
  plan_id: string;
  filename: string;
  files: RenderedFile[];
  duration_seconds: number;
  planned_seconds: number;
  width: number;
  height: number;
  fps: number;
  resolution: Resolution;
  video_codec: string;
  audio_codec: string;
  subtitles: { mode: SubtitleMode; track: boolean; burnt: boolean; cues: number };
  loudness: { target_lufs: number; target_true_peak_dbtp: number; measured_input_lufs: number | null; method: string };
  speech: { provider: SpeechProvider; voices: string[]; models: string[]; pitch_applied: boolean };
  /** The one still kind every scene used, or `mixed` (then per scene in `scenes[].visual`). */
  visuals: RenderedAs | 'mixed';
  scenes: Array<{ index: number; seconds: number; tempo: number; visual: SceneStill; resumed_after?: string }>;
}
