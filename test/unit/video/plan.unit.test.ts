import {
  allocateDurations,
  buildScenes,
  defaultVisual,
  planInput,
  scenesFromDraft,
  keepKeyPoints,
  says,
  wholeSentences,
} from '../../../domain/video/plan';
import { localVideoPlan, sceneHeadings } from '../../../domain/video/local-planner';
import { durationProblem, FORMAT_RULES, sceneCount } from '../../../domain/video/formats';
import { renderJob } from '../../../domain/video/render';
import { frameSize, RESOLUTIONS } from '../../../domain/media/formats';
import { videoPlanPrompt } from '../../../domain/video/prompts';
import { VIDEO_PLAN } from '../../../domain/video/tasks';
import { NARRATION_WORDS_PER_SECOND } from '../../../domain/media/narration';
import { renderVisuals } from '../../../domain/video/types';
import type { VideoPlan } from '../../../domain/video/types';

const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 10) / 10;

describe('video formats', () => {
  it('short 9:16 15–60 s, standard 16:9 60–900 s, long 16:9 from 900 s', () => {
    expect(FORMAT_RULES.short.aspect_ratio).toBe('9:16');
    expect(FORMAT_RULES.standard.aspect_ratio).toBe('16:9');
    expect(FORMAT_RULES.long.aspect_ratio).toBe('16:9');
    expect(durationProblem('short', 15)).toBeUndefined();
    expect(durationProblem('short', 60)).toBeUndefined();
    expect(durationProblem('short', 61)).toMatch(/15 to 60/);
    expect(durationProblem('short', 14)).toBeDefined();
    expect(durationProblem('standard', 59)).toBeDefined();
    expect(durationProblem('standard', 900)).toBeUndefined();
    expect(durationProblem('long', 899)).toBeDefined();
    expect(durationProblem('long', 3600)).toBeUndefined();
  });

  it('scene counts follow the format and stay within the scene-length bounds', () => {
    expect(sceneCount('short', 60)).toBe(8);
    expect(sceneCount('short', 15)).toBe(2);
    expect(sceneCount('standard', 300)).toBe(20);
    expect(sceneCount('long', 7200)).toBe(240);
  });
});

describe('plan durations', () => {
  it('allocation sums exactly to the target, in tenths, each scene at least 2 s', () => {
    for (const [w, total] of [
      [[1, 1, 1], 10],
      [[3, 1, 1, 7], 61.3],
      [[1, 1, 1, 1, 1, 1, 1], 60],
      [[0, -1, NaN], 9],
    ] as [number[], number][]) {
      const d = allocateDurations(w, total);
      expect(sum(d)).toBe(total);
      for (const x of d) {
        expect(x).toBeGreaterThanOrEqual(2);
        expect(Math.round(x * 10)).toBeCloseTo(x * 10, 6);
      }
    }
    expect(() => allocateDurations([1, 1, 1], 5)).toThrow(RangeError);
  });

  it('a vendor draft is fitted to the target whatever durations it gave', () => {
    const input = planInput({ topic: 'Tea', format: 'short', duration_seconds: 45 });
    const scenes = scenesFromDraft(
      {
        title: 'Tea',
        scenes: [
          { heading: 'A', narration: '**Tea** is old [1].', duration_seconds: 50 },
          { heading: 'B', narration: 'It is loved.', duration_seconds: 50 },
          { narration: '   ' },
        ],
      },
      input,
    );
    expect(scenes).toHaveLength(2);
    expect(sum(scenes.map((s) => s.duration_seconds))).toBe(45);
    expect(scenes[0].narration).toBe('Tea is old.');
    expect(scenes[1].visual_description).toContain('B');
    expect(() => scenesFromDraft({ title: 'x', scenes: [{ narration: '' }] }, input)).toThrow(RangeError);
    // The task says so to the gateway, which asks again with it rather than pass on a plan nothing can voice.
    expect(VIDEO_PLAN.usable!({ title: 'x', scenes: [{ narration: '** **' }] }, input)).toBe(
      'the plan has no scene with narration',
    );
    expect(VIDEO_PLAN.usable!({ title: 'x', scenes: [{ narration: 'Tea is old.' }] }, input)).toBeUndefined();
  });

  it('a model draft keeps the brief: missing key points said, cuts only at sentence ends, durations follow speech', () => {
    const input = planInput({
      topic: 'Author nights at an independent bookshop',
      format: 'short',
      duration_seconds: 40,
      key_points: [
        'Host a monthly author night in the back room',
        'Ask the author to read for ten minutes',
        'Sell signed copies at the till',
      ],
    });
    // A model that said one key point, ran a sentence over the cut and ignored the rest.
    const scenes = scenesFromDraft(
      {
        title: 'Author nights',
        scenes: [
          {
            heading: 'Why author nights',
            narration: 'Readers love meeting writers, and a monthly author night in',
            duration_seconds: 30,
          },
          {
            heading: 'The evening',
            narration: 'the back room works well. Ask the author to read for ten minutes.',
            duration_seconds: 5,
          },
          { heading: 'Wrap-up', narration: 'See you there', duration_seconds: 5 },
        ],
      },
      input,
    );
    const narration = scenes.map((s) => s.narration);
    // Every scene ends on a sentence end: the sentence run over the cut is whole in the first scene.
    expect(narration[0]).toBe('Readers love meeting writers, and a monthly author night in the back room works well.');
    for (const n of narration) expect(n).toMatch(/[.!?]$/);
    // The point no scene said gets its own scene before the closing (the plan has room for one).
    expect(scenes.map((s) => s.heading)).toEqual([
      'Why author nights',
      'The evening',
      'Sell signed copies at the till',
      'Wrap-up',
    ]);
    for (const p of input.key_points) expect(narration.some((n) => says(n, p))).toBe(true);
    // Durations by words, not by the model's own numbers (30/5/5): the longest narration gets the most time.
    const perWord = scenes.map((s) => s.duration_seconds / s.narration.split(' ').length);
    expect(Math.max(...perWord) / Math.min(...perWord)).toBeLessThan(2);
    expect(sum(scenes.map((s) => s.duration_seconds))).toBe(40);
    // No room for another scene: the point joins the scene that shares its words.
    const full = keepKeyPoints(
      [
        { heading: 'Signed copies', narration: 'Copies sell well.', visual_description: '' },
        { heading: 'Close', narration: 'Bye.', visual_description: '' },
      ],
      ['Sell signed copies at the till'],
      2,
    );
    expect(full[0].narration).toBe('Copies sell well. Sell signed copies at the till.');
    expect(wholeSentences(['One, two', 'three. Four.', 'five'])).toEqual(['One, two three.', 'Four.', 'five.']);
  });
});

describe('the offline planner', () => {
  it('a 60-second short: an opening, one scene per key point, a closing; speakable in time, durations summing to 60', () => {
    const input = planInput({
      topic: 'morning routines',
      format: 'short',
      duration_seconds: 60,
      key_points: ['Drink water first', 'Plan three priorities'],
      tone: 'friendly',
    });
    const draft = localVideoPlan(input);
    const scenes = scenesFromDraft(draft, input);
    // Fewer scenes than the format's 8: nothing is said that the brief does not give.
    expect(input.scene_count).toBe(8);
    expect(scenes.map((s) => s.heading)).toEqual([
      'Introducing morning routines',
      'Drink water first',
      'Plan three priorities',
      'Wrap-up: morning routines',
    ]);
    expect(scenes.map((s) => s.narration)).toEqual([
      'Here is a quick look at morning routines.',
      'Drink water first.',
      'Plan three priorities.',
      'Thanks for watching, and good luck with morning routines.',
    ]);
    expect(sum(scenes.map((s) => s.duration_seconds))).toBe(60);
    for (const s of scenes) {
      const words = s.narration.split(/\s+/).length;
      expect(words / s.duration_seconds).toBeLessThanOrEqual(NARRATION_WORDS_PER_SECOND * 1.1);
      expect(s.visual_description).toMatch(/illustration/);
    }
    expect(localVideoPlan(input)).toEqual(draft); // deterministic
  });

  it('every key point is said once, as written; a short video groups them, dropping the framing first', () => {
    const key_points = [
      'Riverside Books hosts an author reading every Thursday evening',
      "children's story time runs on Saturday mornings",
      'seats are free but limited, so booking ahead matters',
    ];
    const brief = {
      topic: 'author events at an independent bookshop',
      key_points,
      audience: 'local readers and families',
    };
    for (const seconds of [15, 45]) {
      const input = planInput({ ...brief, format: 'short', duration_seconds: seconds });
      const scenes = scenesFromDraft(localVideoPlan(input), input);
      const text = scenes.map((s) => s.narration).join(' ');
      expect(text).toContain('Riverside Books hosts an author reading every Thursday evening.');
      expect(text).toContain("Children's story time runs on Saturday mornings.");
      expect(text).toContain('Seats are free but limited, so booking ahead matters.');
      expect(new Set(scenes.map((s) => s.narration)).size).toBe(scenes.length);
      expect(sum(scenes.map((s) => s.duration_seconds))).toBe(seconds);
      for (const s of scenes)
        expect(s.narration.split(/\s+/).length / s.duration_seconds).toBeLessThanOrEqual(NARRATION_WORDS_PER_SECOND);
    }
    // 15 s holds the three points in its two scenes but not the opening and closing.
    const short = planInput({ ...brief, format: 'short', duration_seconds: 15 });
    expect(scenesFromDraft(localVideoPlan(short), short).map((s) => s.narration)).toEqual([
      'Riverside Books hosts an author reading every Thursday evening.',
      "Children's story time runs on Saturday mornings. Seats are free but limited, so booking ahead matters.",
    ]);
    // 45 s: the opening names the topic and audience after prepositions, the closing the topic.
    const long = planInput({ ...brief, format: 'short', duration_seconds: 45 });
    const scenes = scenesFromDraft(localVideoPlan(long), long);
    expect(scenes[0].narration).toBe(
      'This video covers author events at an independent bookshop for local readers and families.',
    );
    expect(scenes).toHaveLength(5);
  });

  it('headings: opening, key points, closing; no generic aspect scenes', () => {
    expect(sceneHeadings('tea', ['Brew'], 4)).toEqual(['Introducing tea', 'Brew', 'Wrap-up: tea']);
    expect(sceneHeadings('tea', ['Brew', 'Steep', 'Pour'], 3)).toEqual([
      'Introducing tea',
      'Brew; Steep; Pour',
      'Wrap-up: tea',
    ]);
    expect(sceneHeadings('tea', [], 6)).toEqual(['Introducing tea', 'Wrap-up: tea']);
    expect(sceneHeadings('tea', [], 1)).toEqual(['Tea']);
  });

  it('the vendor prompt names the duration, the scene count and the JSON shape', () => {
    const p = videoPlanPrompt(planInput({ topic: 'tea', format: 'standard', duration_seconds: 120, scene_count: 6 }));
    expect(p[1].content).toMatch(/exactly 120 seconds in 6 scenes/);
    expect(p[1].content).toMatch(/duration_seconds/);
  });
});

describe('scenes and render jobs', () => {
  const plan: VideoPlan = {
    plan_id: 'p1',
    user_id: 'u1',
    title: 'T',
    topic: 't',
    format: 'short',
    aspect_ratio: '9:16',
    target_duration_seconds: 20,
    key_points: [],
    scenes: [
      { index: 0, heading: 'a', narration: 'A.', visual_description: 'x', duration_seconds: 10 },
      { index: 1, heading: 'b', narration: 'B.', visual_description: 'y', duration_seconds: 10 },
    ],
    provider: 'local',
    model: 'm',
  };

  it('built scenes get image stills (colours stable per plan and index) and alternate zoom in/out', () => {
    const s = buildScenes('p1', plan.scenes, ['s1', 's2']);
    expect(s.map((x) => x.scene_id)).toEqual(['s1', 's2']);
    expect(s[0].visual).toEqual(defaultVisual('p1', 0));
    expect(s.map((x) => x.visual.kind)).toEqual(['image', 'image']);
    expect(s.map((x) => x.visual.motion)).toEqual(['zoom_in', 'zoom_out']);
    expect(s[0].visual.colors).toHaveLength(2);
  });

  it('a render job: frame size of the resolution, defaults, ken_burns off, voices merged', () => {
    const scenes = buildScenes('p1', plan.scenes, ['s1', 's2']);
    scenes[1].voice = { voice: 'en-us-f1' };
    const j = renderJob(plan, scenes, {
      plan_id: 'p1',
      resolution: '1080p',
      ken_burns: false,
      voice: { voice: 'en-gb-m1', rate: 1.2 },
    });
    expect([j.width, j.height, j.fps, j.subtitles, j.speech_provider]).toEqual([1080, 1920, 25, 'mux', 'auto']);
    expect(j.scenes.map((s) => s.visual.motion)).toEqual(['none', 'none']);
    expect(j.scenes[0].voice).toEqual({ voice: 'en-gb-m1', rate: 1.2 });
    expect(j.scenes[1].voice).toEqual({ voice: 'en-us-f1', rate: 1.2 });
    expect(renderJob(plan, scenes, { plan_id: 'p1' }).resolution).toBe('720p');
    // Each scene's description travels with the job: it is the prompt of the scene's still.
    expect(j.scenes.map((s) => s.visual_description)).toEqual(['x', 'y']);
  });

  it("the result's visuals: the one still kind every scene used, else mixed", () => {
    expect(renderVisuals([{ rendered_as: 'image_studio_local' }, { rendered_as: 'image_studio_local' }])).toBe(
      'image_studio_local',
    );
    expect(renderVisuals([{ rendered_as: 'local_solid_colour' }])).toBe('local_solid_colour');
    expect(renderVisuals([{ rendered_as: 'image_studio_local' }, { rendered_as: 'local_gradient' }])).toBe('mixed');
  });

  it('frames are rounded on the running time: the video is within half a frame of the plan, each scene within one', () => {
    // Seven scenes of 2.3 s at 25 fps: 57.5 frames each; rounding per scene would give 7 × 58 = 406 (16.24 s).
    const scenes = buildScenes(
      'p1',
      Array.from({ length: 7 }, (_, i) => ({
        index: i,
        heading: `h${i}`,
        narration: 'N.',
        visual_description: 'v',
        duration_seconds: 2.3,
      })),
      Array.from({ length: 7 }, (_, i) => `s${i}`),
    );
    const j = renderJob({ ...plan, target_duration_seconds: 16.1 }, scenes, { plan_id: 'p1', fps: 25 });
    const frames = j.scenes.map((s) => s.frames);
    expect(frames.reduce((a, b) => a + b, 0)).toBe(403);
    for (const n of frames) expect(Math.abs(n - 57.5)).toBeLessThanOrEqual(1);
    expect(new Set(frames)).toEqual(new Set([57, 58]));
  });

  it('scenes are rendered in plan order whatever order they are given in', () => {
    const scenes = buildScenes('p1', plan.scenes, ['s1', 's2']).reverse();
    expect(renderJob(plan, scenes, { plan_id: 'p1' }).scenes.map((s) => s.scene_id)).toEqual(['s1', 's2']);
  });
});

describe('frame sizes', () => {
  it('every resolution in both orientations: the short side is the resolution, 16:9 long side even', () => {
    expect(RESOLUTIONS.map((r) => frameSize(r, '16:9'))).toEqual([
      { width: 854, height: 480 },
      { width: 1280, height: 720 },
      { width: 1920, height: 1080 },
    ]);
    for (const r of RESOLUTIONS) {
      const h = frameSize(r, '16:9');
      expect(frameSize(r, '9:16')).toEqual({ width: h.height, height: h.width });
      expect(h.width % 2).toBe(0);
    }
  });
});
