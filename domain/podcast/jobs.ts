/**
 * What the podcast workflows take and return (plain data: files move as
 * storage keys, never bytes). The API builds jobs from requests and the
 * project's state; activities record results on the project's stream.
 */
import type { TaskType } from '../task-types';
import type { Cue, SubtitleMode } from '../media/subtitles';
import type { SpeechProviderChoice, VoiceSettings } from '../media/voices';
import type { IdeaInput } from './analysis';
import type { ScriptRequest, TimedLine } from './types';

export type TextKind = 'enhance' | 'analyze' | 'queries';

export interface TextJob {
  kind: TextKind;
  project_id?: string;
  input: IdeaInput & { count?: number; previous?: string[] };
  provider?: 'auto' | 'local' | 'vendor_a' | 'vendor_b';
}

/** The task type each text job runs as (the route declares it, the workflow runs under it). */
export const TEXT_TASK_TYPE: Record<TextJob['kind'], TaskType> = {
  enhance: 'podcast_idea',
  analyze: 'podcast_analysis',
  queries: 'podcast_queries',
};

export interface ResearchJob {
  project_id?: string;
  queries: string[];
  limit: number;
}

export interface ScriptJob {
  project_id: string;
  /** Not read any more: the version is numbered when the script is stored (activities/podcast.ts). */
  version?: number;
  request: ScriptRequest;
}

export interface AudioJob {
  project_id: string;
  scene_id: string;
  lines: Array<{ speaker: string; text: string; voice: VoiceSettings }>;
  speech_provider: SpeechProviderChoice;
}

export interface UploadJob {
  project_id: string;
  scene_id?: string;
  /** Where the API put the bytes (media storage key under podcast/uploads/). */
  upload_key: string;
  max_seconds: number;
}

export interface CombineAudioJob {
  project_id: string;
  scenes: Array<{ scene_id: string; filename: string; lines: TimedLine[] }>;
  codec: 'mp3' | 'aac';
}

export interface SceneVideoJob {
  project_id: string;
  scene_id: string;
  audio: { filename: string; cues: Cue[] };
  /** Image studio key of the picture; absent: a gradient background. */
  image_key?: string;
  colors: [string, string];
  width: number;
  height: number;
  fps: number;
  resolution: string;
  subtitles: SubtitleMode;
}

export interface CombineVideosJob {
  project_id: string;
  scenes: Array<{
    scene_id: string;
    filename: string;
    part: string;
    audio_filename: string;
    seconds: number;
    cues: Cue[];
    /** How the scene's video shows its captions (absent for videos recorded before modes were kept: `mux`). */
    subtitles?: SubtitleMode;
  }>;
}

export interface DubSegment {
  text: string;
  /** Original timing (seconds); absent when the transcript has none (the dub is then not re-timed). */
  start?: number;
  end?: number;
  speaker?: string;
}

export interface DubJob {
  project_id?: string;
  segments: DubSegment[];
  source_language: string;
  target_language: string;
  /** espeak-ng voice `<language>[+<variant>]` (local) or a vendor voice name. */
  voice: string;
  speech_provider: 'local' | 'tts_vendor';
  translate: boolean;
  /** Length of the original (seconds), when the segments are timed. */
  original_seconds?: number;
}

export interface DubbedSegment {
  index: number;
  source_text: string;
  text: string;
  start: number;
  end: number;
  speech_seconds: number;
  tempo: number;
  speaker?: string;
}

export type { TimedLine };
