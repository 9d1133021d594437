/**
 * The video studio's documents: a plan (what the video says and shows, scene
 * by scene, with durations summing to the target) and the editable scenes
 * built from it, which a render takes as its input.
 */
import type { AspectRatio } from '../media/formats';
import type { VoiceSettings } from '../media/voices';
import type { VideoFormat } from './formats';

export interface PlanScene {
  index: number;
  heading: string;
  narration: string;
  visual_description: string;
  duration_seconds: number;
}

/** What POST /plan asks for. */
export interface PlanRequest {
  topic: string;
  format: VideoFormat;
  duration_seconds?: number;
  key_points?: string[];
  audience?: string;
  tone?: string;
  style?: string;
  scene_count?: number;
  provider?: 'auto' | 'local' | 'vendor_a' | 'vendor_b';
}

/** The input of a planner (local or vendor): the request with its duration and scene count settled. */
export interface PlanInput {
  topic: string;
  format: VideoFormat;
  duration_seconds: number;
  scene_count: number;
  key_points: string[];
  audience?: string;
  tone?: string;
  style?: string;
}

/** A planner's answer (the JSON shape vendors are asked for). */
export interface PlanDraft {
  title: string;
  scenes: Array<{ heading?: string; narration: string; visual_description?: string; duration_seconds?: number }>;
}

export interface VideoPlan {
  plan_id: string;
  user_id: string;
  title: string;
  topic: string;
  format: VideoFormat;
  aspect_ratio: AspectRatio;
  target_duration_seconds: number;
  key_points: string[];
  audience?: string;
  tone?: string;
  style?: string;
  scenes: PlanScene[];
  /** Text provider that wrote the plan (`local` = the offline template writer) and its model. */
  provider: string;
  model: string;
}

export const SCENE_MOTIONS = ['zoom_in', 'zoom_out', 'none'] as const;
export type SceneMotion = (typeof SCENE_MOTIONS)[number];
export const VISUAL_KINDS = ['gradient', 'solid'] as const;

/**
 * How a scene looks. Until an image studio provides pictures, a scene's
 * visual is a background rendered locally: a two-colour gradient or a solid
 * colour, moved by a slow Ken Burns zoom.
 */
export interface SceneVisual {
  kind: (typeof VISUAL_KINDS)[number];
  /** `#rrggbb`; two for a gradient (start, end), one for solid. */
  colors: string[];
  motion: SceneMotion;
}

export interface VideoScene {
  scene_id: string;
  plan_id: string;
  index: number;
  heading: string;
  narration: string;
  visual_description: string;
  duration_seconds: number;
  visual: SceneVisual;
  voice: VoiceSettings;
}

/** Fields POST /scenes/{id}/update may change. */
export interface SceneChanges {
  heading?: string;
  narration?: string;
  visual_description?: string;
  duration_seconds?: number;
  visual?: Partial<SceneVisual>;
  voice?: VoiceSettings;
}
