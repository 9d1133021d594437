/** Response bodies of the video studio, shaped from the projection's records and the task record. */
import { sceneRenderedAs, VideoScene } from '../../domain/video/types';
import type { PlanRecord } from '../../projections/video';

const round1 = (x: number) => Math.round(x * 10) / 10;

export function planView(r: PlanRecord, renders: { task_id: string; created_at: string }[] = []) {
  const p = r.plan;
  return {
    plan_id: p.plan_id,
    title: p.title,
    topic: p.topic,
    format: p.format,
    aspect_ratio: p.aspect_ratio,
    target_duration_seconds: p.target_duration_seconds,
    total_duration_seconds: round1(p.scenes.reduce((a, s) => a + s.duration_seconds, 0)),
    key_points: p.key_points,
    ...(p.audience !== undefined ? { audience: p.audience } : {}),
    ...(p.tone !== undefined ? { tone: p.tone } : {}),
    ...(p.style !== undefined ? { style: p.style } : {}),
    scenes: p.scenes,
    provider: p.provider,
    model: p.model,
    offline: p.provider === 'local',
    ...(p.coverage ? { coverage: p.coverage } : {}),
    scenes_built: r.scene_ids.length > 0,
    scene_ids: r.scene_ids,
    renders,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/**
 * A scene; `visual.rendered_as` says honestly what the renderer draws: a designed card on the image studio's offline
 * still (`designed_card`, no generative model) or a plain local background.
 */
export function sceneView(s: VideoScene, updatedAt: string) {
  return {
    scene_id: s.scene_id,
    plan_id: s.plan_id,
    index: s.index,
    heading: s.heading,
    narration: s.narration,
    visual_description: s.visual_description,
    duration_seconds: s.duration_seconds,
    visual: { ...s.visual, rendered_as: sceneRenderedAs(s.visual.kind) },
    voice: s.voice,
    updated_at: updatedAt,
  };
}

export const totalSeconds = (scenes: readonly { duration_seconds: number }[]) =>
  round1(scenes.reduce((a, s) => a + s.duration_seconds, 0));
