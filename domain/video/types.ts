/**
 * The video studio's documents: a plan (what the video says and shows, scene
 * by scene, with durations summing to the target) and the editable scenes
 * built from it, which a render takes as its input.
 */
import type { AspectRatio } from '../media/formats';
import type { VoiceSettings } from '../media/voices';
import type { Coverage } from '../generation/compose';
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
  /** The offline planner only: how it met the brief (compose.ts); reported as the plan's `coverage`. */
  coverage?: Coverage;
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
  /** The offline planner only: what the plan was built from and why its narration is shorter than the duration. */
  coverage?: Coverage;
}

export const SCENE_MOTIONS = ['zoom_in', 'zoom_out', 'none'] as const;
export type SceneMotion = (typeof SCENE_MOTIONS)[number];
export const VISUAL_KINDS = ['image', 'gradient', 'solid'] as const;
export type VisualKind = (typeof VISUAL_KINDS)[number];

/**
 * What the renderer really draws; scene views (`visual.rendered_as`) and render results (`visuals`,
 * `scenes[].visual`) report it.
 * - `designed_card`: a scene's `image` still — the image studio's offline `local` renderer's picture of its
 *   visual_description (domain/image/procedural.ts, rasterised with sharp; not a generative model), dimmed, with
 *   the scene's heading and a key line of its narration set in the safe area (domain/media/card.ts).
 * - `image_studio_local`: that picture without a card (a still rendered with no heading).
 * - `local_gradient` / `local_solid_colour`: a plain background drawn with sharp.
 */
export const RENDERED_AS = {
  image: 'image_studio_local',
  card: 'designed_card',
  gradient: 'local_gradient',
  solid: 'local_solid_colour',
} as const satisfies Record<VisualKind | 'card', string>;
export type RenderedAs = (typeof RENDERED_AS)[keyof typeof RENDERED_AS];

/** What a scene of this visual kind is drawn as (a scene has a heading, so its `image` still is a designed card). */
export const sceneRenderedAs = (kind: VisualKind): RenderedAs =>
  kind === 'image' ? RENDERED_AS.card : RENDERED_AS[kind];

/** What a rendered scene's still really was. */
export interface SceneStill {
  rendered_as: RenderedAs;
  /** `image` only: what the offline renderer drew (gradient, circles, sun, waves, …). */
  motifs?: string[];
}

/** The render result's `visuals`: the one kind every scene used, or `mixed` (then see `scenes[].visual`). */
export const renderVisuals = (stills: readonly SceneStill[]): RenderedAs | 'mixed' => {
  const kinds = [...new Set(stills.map((s) => s.rendered_as))];
  return kinds.length === 1 ? kinds[0] : kinds.length === 0 ? RENDERED_AS.image : 'mixed';
};

/**
 * How a scene looks: a still moved by a slow Ken Burns zoom. `image` (the
 * default of built scenes) is the image studio's offline renderer drawing the
 * scene's visual_description; `gradient` and `solid` are plain backgrounds.
 */
export interface SceneVisual {
  kind: VisualKind;
  /** `#rrggbb`; two for a gradient (start, end), one for solid; unused by `image`. */
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
