/** Response bodies of the podcast maker, shaped from the projection's records. */
import type { PodcastAsset, PodcastProject } from '../../domain/podcast/types';
import type { ProjectRecord } from '../../projections/podcast';
import { Ctx, urlOf } from './common';

type Of<K extends PodcastAsset['kind']> = Extract<PodcastAsset, { kind: K }>;

/** The newest asset of `kind` (of one scene when given). */
export function latest<K extends PodcastAsset['kind']>(
  p: PodcastProject,
  kind: K,
  sceneId?: string,
): Of<K> | undefined {
  for (let i = p.assets.length - 1; i >= 0; i--) {
    const a = p.assets[i];
    if (a.kind === kind && (sceneId === undefined || (a as { scene_id?: string }).scene_id === sceneId))
      return a as Of<K>;
  }
  return undefined;
}

/** Where a project stands, so a client resuming it knows the next call to make. */
export function nextStep(p: PodcastProject) {
  if (!p.script) return 'script';
  if (!p.script_approved_at) return 'approve_script';
  const scenes = p.script.scenes;
  if (scenes.some((s) => !latest(p, 'scene_audio', s.scene_id))) return 'audio';
  if (!latest(p, 'combined_audio')) return 'combine_audio';
  if (scenes.some((s) => !latest(p, 'scene_video', s.scene_id))) return 'video';
  if (!latest(p, 'final_video')) return 'combine_videos';
  return 'done';
}

const ROUTE: Partial<Record<PodcastAsset['kind'], string>> = {
  scene_audio: 'audio',
  combined_audio: 'audio',
  scene_video: 'videos',
  final_video: 'final-videos',
  dub: 'dub/audio',
  image: 'images',
  avatar: 'images',
};

/** An asset with the URL it is served at. */
export function assetView(ctx: Ctx, a: PodcastAsset) {
  const route = ROUTE[a.kind];
  const name = 'filename' in a ? a.filename : 'image_key' in a ? a.image_key : undefined;
  return route && name ? { ...a, url: urlOf(ctx, route, name) } : a;
}

export function projectView(ctx: Ctx, r: ProjectRecord) {
  return {
    project_id: r.project_id,
    title: r.title,
    idea: r.idea,
    favorite: r.favorite,
    state: r.state,
    notes: r.notes,
    ...(r.script ? { script: r.script } : {}),
    script_version: r.script_version,
    script_approved: !!r.script_approved_at,
    ...(r.script_approved_at ? { script_approved_at: r.script_approved_at } : {}),
    assets: r.assets.map((a) => assetView(ctx, a)),
    next_step: nextStep(r),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
