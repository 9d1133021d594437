/**
 * Decisions on a video plan's stream (`videoplan-<plan_id>`): create the
 * plan, build its scenes, update one scene. Only the plan's owner may act on
 * it: another user's plan is "not found". An update must leave the video's
 * total length inside its format's bounds.
 */
import type { Decider, Stored } from '../decider';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { DomainEvent } from '../events';
import { durationProblem } from './formats';
import { buildScenes } from './plan';
import type { SceneChanges, VideoPlan, VideoScene } from './types';

export interface VideoPlanState {
  plan?: VideoPlan;
  /** Built scenes (absent until POST /scenes). */
  scenes?: VideoScene[];
}

export type VideoPlanCommand =
  | { kind: 'create'; plan: VideoPlan }
  | { kind: 'build_scenes'; user_id: string; scene_ids: string[]; rebuild: boolean }
  | { kind: 'update_scene'; user_id: string; scene_id: string; changes: SceneChanges };

/** The caller's plan, or 404. */
export function ownPlan(s: VideoPlanState, userId: string): VideoPlan {
  if (!s.plan || s.plan.user_id !== userId) throw new NotFoundError('Video plan not found');
  return s.plan;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** A scene with the changes applied (pure). */
export function applyChanges(scene: VideoScene, c: SceneChanges): VideoScene {
  return {
    ...scene,
    ...(c.heading !== undefined ? { heading: c.heading.trim() } : {}),
    ...(c.narration !== undefined ? { narration: c.narration.trim() } : {}),
    ...(c.visual_description !== undefined ? { visual_description: c.visual_description.trim() } : {}),
    ...(c.duration_seconds !== undefined ? { duration_seconds: round1(c.duration_seconds) } : {}),
    visual: { ...scene.visual, ...(c.visual ?? {}) },
    voice: { ...scene.voice, ...(c.voice ?? {}) },
  };
}

/** Names of the fields whose value differs. */
function changedFields(a: VideoScene, b: VideoScene): string[] {
  return (['heading', 'narration', 'visual_description', 'duration_seconds', 'visual', 'voice'] as const).filter(
    (k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]),
  );
}

export const videoPlanDecider: Decider<VideoPlanCommand, VideoPlanState> = {
  initialState: {},
  evolve(s, e: Stored): VideoPlanState {
    switch (e.type) {
      case 'VideoPlanCreated':
        return { plan: e.data.plan };
      case 'VideoScenesBuilt':
        return { ...s, scenes: e.data.scenes };
      case 'VideoSceneUpdated':
        return { ...s, scenes: (s.scenes ?? []).map((x) => (x.scene_id === e.data.scene.scene_id ? e.data.scene : x)) };
      default:
        return s;
    }
  },
  decide(c, s): DomainEvent[] {
    switch (c.kind) {
      case 'create':
        if (s.plan) throw new ConflictError('A plan with this id exists already', { plan_id: c.plan.plan_id });
        return [{ type: 'VideoPlanCreated', data: { plan_id: c.plan.plan_id, user_id: c.plan.user_id, plan: c.plan } }];
      case 'build_scenes': {
        const plan = ownPlan(s, c.user_id);
        if (s.scenes && !c.rebuild) return [];
        if (c.scene_ids.length < plan.scenes.length) throw new RangeError('one scene id per plan scene is needed');
        return [
          {
            type: 'VideoScenesBuilt',
            data: {
              plan_id: plan.plan_id,
              user_id: plan.user_id,
              scenes: buildScenes(plan.plan_id, plan.scenes, c.scene_ids),
              replaced_scene_ids: (s.scenes ?? []).map((x) => x.scene_id),
            },
          },
        ];
      }
      case 'update_scene': {
        const plan = ownPlan(s, c.user_id);
        const scene = s.scenes?.find((x) => x.scene_id === c.scene_id);
        if (!scene) throw new NotFoundError('Scene not found');
        const next = applyChanges(scene, c.changes);
        const changed = changedFields(scene, next);
        if (!changed.length) return [];
        if (next.visual.kind === 'gradient' && next.visual.colors.length < 2)
          throw new ValidationError([
            { location: 'body', path: 'visual.colors', kind: 'constraint', message: 'a gradient needs two colours' },
          ]);
        const total = round1(
          (s.scenes ?? []).reduce((a, x) => a + (x.scene_id === c.scene_id ? next : x).duration_seconds, 0),
        );
        const problem = durationProblem(plan.format, total);
        if (problem)
          throw new ValidationError([
            {
              location: 'body',
              path: 'duration_seconds',
              kind: 'constraint',
              message: problem,
              provided_value: c.changes.duration_seconds,
            },
          ]);
        return [
          { type: 'VideoSceneUpdated', data: { plan_id: plan.plan_id, user_id: plan.user_id, scene: next, changed } },
        ];
      }
    }
  },
};
