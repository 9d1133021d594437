/**
 * The podcast maker's shapes (Document 2 leaves every field "not shown"; these
 * are our choices, documented in docs/podcast.md). Voices use the video
 * studio's VoiceSettings so both areas describe speech alike.
 */
import type { VoiceBasis, VoiceGender, VoiceSettings } from '../media/voices';
import type { Cue, SubtitleMode } from '../media/subtitles';
import type { Coverage } from '../generation/compose';

/** About 150 spoken words per minute: the sizing rule of scripts (docs/podcast.md). */
export const WORDS_PER_MINUTE = 150;
export const MIN_DURATION_MINUTES = 0.5;
export const MAX_DURATION_MINUTES = 120;
export const MAX_SPEAKERS = 6;

export interface Speaker {
  /** Stable id used by script lines (`host`, `guest`, ...). */
  id: string;
  name: string;
  role?: string;
  /** The voice's gender: declared, or the one the name is usually given to, or by order (voice_basis). */
  gender?: VoiceGender;
  /** Why the speaker has its voice (domain/media/voices.ts speakerVoices); absent on scripts written before it. */
  voice_basis?: VoiceBasis;
  voice: VoiceSettings;
}

export interface ScriptLine {
  speaker: string;
  text: string;
}

export interface ScriptScene {
  scene_id: string;
  index: number;
  title: string;
  lines: ScriptLine[];
  /** Words this scene was sized to (WORDS_PER_MINUTE × its share of the duration). */
  target_words: number;
  word_count: number;
  /** word_count at WORDS_PER_MINUTE. */
  estimated_seconds: number;
}

export interface PodcastScript {
  title: string;
  idea: string;
  duration_minutes: number;
  words_per_minute: number;
  target_words: number;
  word_count: number;
  estimated_seconds: number;
  speakers: Speaker[];
  scenes: ScriptScene[];
  provider: string;
  model: string;
  offline: boolean;
  /** The offline writer only: what the script was built from and why it is shorter than the duration asks. */
  coverage?: Coverage;
}

/** What a client sends to have a script written. */
/**
 * The speakers of a script asked for by count (`speakers: 2`): a host, then guests, each with the role the
 * script's speaker order gives (voices are chosen by that order unless a speaker names one).
 */
export function speakersOf(count: number): ScriptRequest['speakers'] {
  return Array.from({ length: count }, (_, i) =>
    i === 0 ? { name: 'Host', role: 'host' } : { name: count === 2 ? 'Guest' : `Guest ${i}`, role: 'guest' },
  );
}

export interface ScriptRequest {
  idea: string;
  duration_minutes: number;
  speakers: Array<{ id?: string; name: string; role?: string; gender?: VoiceGender; voice?: VoiceSettings }>;
  research?: string;
  analysis?: string;
  bible?: string;
  tone?: string;
  provider?: 'auto' | 'local' | 'vendor_a' | 'vendor_b';
}

/** A timed line of a scene's audio (measured speech), for subtitles and dubbing. */
export interface TimedLine {
  speaker: string;
  voice: string;
  text: string;
  start: number;
  end: number;
}

/** Files and results attached to a project (the whole workflow state a user resumes from). */
export interface SceneAudioAsset {
  kind: 'scene_audio';
  scene_id: string;
  filename: string;
  duration_seconds: number;
  lines: TimedLine[];
  cues: Cue[];
  provider: string;
  source: 'tts' | 'upload';
  task_id: string;
  created_at: string;
}

export type PodcastAsset =
  | SceneAudioAsset
  | {
      kind: 'combined_audio';
      filename: string;
      duration_seconds: number;
      scene_ids: string[];
      task_id: string;
      created_at: string;
    }
  | {
      kind: 'image';
      scene_id?: string;
      image_key: string;
      width: number;
      height: number;
      provider: string;
      created_at: string;
    }
  | {
      kind: 'scene_video';
      scene_id: string;
      filename: string;
      /** The picture segment (stored, not served) and the scene audio it was made with: combining re-uses both. */
      part: string;
      audio_filename: string;
      duration_seconds: number;
      width: number;
      height: number;
      fps: number;
      cues: Cue[];
      /** How the video shows its captions (absent in videos recorded before modes were kept: `mux`). */
      subtitles?: SubtitleMode;
      task_id: string;
      created_at: string;
    }
  | {
      kind: 'final_video';
      filename: string;
      files: string[];
      duration_seconds: number;
      scene_ids: string[];
      task_id: string;
      created_at: string;
    }
  | { kind: 'avatar'; speaker?: string; image_key: string; operation: string; created_at: string }
  | {
      kind: 'dub';
      filename: string;
      target_language: string;
      duration_seconds: number;
      task_id: string;
      created_at: string;
    };

export type AssetKind = PodcastAsset['kind'];

/** Notes the analysis stage adds to a project. */
export type NoteField = 'enhanced_idea' | 'analysis' | 'queries' | 'research';

export interface PodcastProject {
  project_id: string;
  user_id: string;
  title: string;
  idea: string;
  favorite: boolean;
  /** The client's own workflow state (current step, UI choices): stored as given, returned as stored. */
  state: Record<string, unknown>;
  notes: Partial<Record<NoteField, unknown>>;
  script?: PodcastScript;
  script_version: number;
  script_approved_at?: string;
  assets: PodcastAsset[];
}
