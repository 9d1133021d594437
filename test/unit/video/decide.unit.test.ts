import { fold } from '../../../domain/decider';
import { ConflictError, NotFoundError, ValidationError } from '../../../domain/errors';
import { videoPlanDecider } from '../../../domain/video/decide';
import type { VideoPlan } from '../../../domain/video/types';

const plan: VideoPlan = {
  plan_id: 'p1',
  user_id: 'alice',
  title: 'T',
  topic: 't',
  format: 'short',
  aspect_ratio: '9:16',
  target_duration_seconds: 30,
  key_points: [],
  scenes: [
    { index: 0, heading: 'a', narration: 'A.', visual_description: 'x', duration_seconds: 15 },
    { index: 1, heading: 'b', narration: 'B.', visual_description: 'y', duration_seconds: 15 },
  ],
  provider: 'local',
  model: 'm',
};

describe('video plan decider', () => {
  const created = fold(videoPlanDecider, videoPlanDecider.decide({ kind: 'create', plan }, {}));
  const built = fold(videoPlanDecider, [
    ...videoPlanDecider.decide({ kind: 'create', plan }, {}),
    ...videoPlanDecider.decide(
      { kind: 'build_scenes', user_id: 'alice', scene_ids: ['s1', 's2'], rebuild: false },
      created,
    ),
  ]);

  it('creates once; a second create conflicts', () => {
    expect(created.plan?.plan_id).toBe('p1');
    expect(() => videoPlanDecider.decide({ kind: 'create', plan }, created)).toThrow(ConflictError);
  });

  it('builds scenes once (again: nothing to do), rebuild replaces them naming the old ids', () => {
    expect(built.scenes?.map((s) => s.scene_id)).toEqual(['s1', 's2']);
    expect(
      videoPlanDecider.decide({ kind: 'build_scenes', user_id: 'alice', scene_ids: ['x', 'y'], rebuild: false }, built),
    ).toEqual([]);
    const again = videoPlanDecider.decide(
      { kind: 'build_scenes', user_id: 'alice', scene_ids: ['x', 'y'], rebuild: true },
      built,
    );
    expect(again[0]).toMatchObject({ type: 'VideoScenesBuilt', data: { replaced_scene_ids: ['s1', 's2'] } });
  });

  it("another user's plan and unknown scenes are not found", () => {
    expect(() =>
      videoPlanDecider.decide({ kind: 'build_scenes', user_id: 'bob', scene_ids: ['x', 'y'], rebuild: false }, created),
    ).toThrow(NotFoundError);
    expect(() =>
      videoPlanDecider.decide(
        { kind: 'update_scene', user_id: 'bob', scene_id: 's1', changes: { heading: 'h' } },
        built,
      ),
    ).toThrow(NotFoundError);
    expect(() =>
      videoPlanDecider.decide(
        { kind: 'update_scene', user_id: 'alice', scene_id: 'nope', changes: { heading: 'h' } },
        built,
      ),
    ).toThrow(NotFoundError);
    expect(() =>
      videoPlanDecider.decide(
        { kind: 'update_scene', user_id: 'alice', scene_id: 's1', changes: { heading: 'h' } },
        created,
      ),
    ).toThrow(NotFoundError);
  });

  it('updates one scene, naming the changed fields; an unchanged update decides nothing', () => {
    const [e] = videoPlanDecider.decide(
      {
        kind: 'update_scene',
        user_id: 'alice',
        scene_id: 's2',
        changes: { narration: ' New words. ', visual: { motion: 'none' } },
      },
      built,
    );
    expect(e).toMatchObject({ type: 'VideoSceneUpdated', data: { changed: ['narration', 'visual'] } });
    const after = videoPlanDecider.evolve(built, e);
    expect(after.scenes![1].narration).toBe('New words.');
    expect(after.scenes![1].visual.motion).toBe('none');
    expect(after.scenes![1].visual.colors).toEqual(built.scenes![1].visual.colors);
    expect(
      videoPlanDecider.decide(
        { kind: 'update_scene', user_id: 'alice', scene_id: 's1', changes: { heading: 'a' } },
        built,
      ),
    ).toEqual([]);
  });

  it("the video's total must stay inside its format; a gradient needs two colours", () => {
    expect(() =>
      videoPlanDecider.decide(
        { kind: 'update_scene', user_id: 'alice', scene_id: 's1', changes: { duration_seconds: 50 } },
        built,
      ),
    ).toThrow(ValidationError);
    expect(
      videoPlanDecider.decide(
        { kind: 'update_scene', user_id: 'alice', scene_id: 's1', changes: { duration_seconds: 40 } },
        built,
      ),
    ).toHaveLength(1);
    expect(() =>
      videoPlanDecider.decide(
        {
          kind: 'update_scene',
          user_id: 'alice',
          scene_id: 's1',
          changes: { visual: { kind: 'gradient', colors: ['#000000'] } },
        },
        built,
      ),
    ).toThrow(/two colours/);
    // An image still does not draw its colours: one is fine.
    expect(
      videoPlanDecider.decide(
        { kind: 'update_scene', user_id: 'alice', scene_id: 's1', changes: { visual: { colors: ['#000000'] } } },
        built,
      ),
    ).toHaveLength(1);
    expect(
      videoPlanDecider.decide(
        {
          kind: 'update_scene',
          user_id: 'alice',
          scene_id: 's1',
          changes: { visual: { kind: 'solid', colors: ['#000000'] } },
        },
        built,
      ),
    ).toHaveLength(1);
  });
});
