/**
 * Step-level resume of a scene: a retried renderScene attempt reads the
 * checkpoint its predecessor heartbeated and skips the finished steps (no
 * second synthesis), unless the checkpoint's files are gone (a retry on a
 * worker that cannot see them), in which case it redoes them.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createVideoRenderActivities } from '../../../activities/video-render';
import { createEventStore } from '../../../infra/eventstore';
import { DEFAULT_TOOLS } from '../../../infra/media/tools';
import { noopMediaMeter } from '../../../infra/media/meter';
import { createEspeakSynthesizer } from '../../../infra/tts/espeak';
import type { SpeechSynthesizer } from '../../../infra/tts/port';
import { createLocalDirStorage } from '../../../infra/storage/local-dir';
import { buildScenes } from '../../../domain/video/plan';
import { renderJob, SceneResult } from '../../../domain/video/render';
import type { VideoPlan } from '../../../domain/video/types';
import { isolatedSchema, IsolatedSchema } from '../../support/schema';
import { mediaFolders } from '../../support/video-worker';

jest.setTimeout(180000);

describe('a scene resumes from its last heartbeated step', () => {
  let s: IsolatedSchema;
  const folders = mediaFolders();
  let calls = 0;
  const espeak = createEspeakSynthesizer();
  const counting: SpeechSynthesizer = {
    provider: 'local',
    model: espeak.model,
    synthesize: (r) => {
      calls++;
      return espeak.synthesize(r);
    },
  };

  beforeAll(async () => {
    s = await isolatedSchema();
  });
  afterAll(async () => {
    await s.drop();
    folders.remove();
  });

  it('skips finished steps when their files exist, redoes them when they do not', async () => {
    const acts = createVideoRenderActivities({
      store: createEventStore(s.db),
      engine: { tools: { ...DEFAULT_TOOLS, x264Preset: 'ultrafast' }, speech: { local: counting } },
      storage: createLocalDirStorage(folders.storageDir),
      workDir: folders.workDir,
      meter: noopMediaMeter,
    });
    const plan: VideoPlan = {
      plan_id: randomUUID(),
      user_id: 'u',
      title: 't',
      topic: 't',
      format: 'short',
      aspect_ratio: '9:16',
      target_duration_seconds: 4,
      key_points: [],
      scenes: [
        {
          index: 0,
          heading: 'h',
          narration: 'One sentence. And another.',
          visual_description: 'v',
          duration_seconds: 4,
        },
      ],
      provider: 'local',
      model: 'm',
    };
    const { scenes, ...job } = renderJob(plan, buildScenes(plan.plan_id, plan.scenes, [randomUUID()]), {
      plan_id: plan.plan_id,
      resolution: '480p',
    });
    const taskId = `video-render-${randomUUID()}`;
    const info = { workflowExecution: { workflowId: taskId, runId: 'run' }, activityId: '5' };
    const args = { taskId, userId: 'u', job, scene: scenes[0], weights: [4] };

    const first = new MockActivityEnvironment(info);
    let checkpoint: { speech?: unknown; sound?: unknown; picture?: string; still?: unknown } = {};
    const beats: { percent: number; last_step?: string }[] = [];
    first.on('heartbeat', (d) => {
      if (!d) return;
      checkpoint = d;
      beats.push(d);
    });
    const done = (await first.run(acts.renderScene, args)) as SceneResult;
    expect(calls).toBe(2); // one synthesis per sentence
    expect(done.resumed_after).toBeUndefined();
    expect(checkpoint.speech && checkpoint.sound && checkpoint.picture && checkpoint.still).toBeTruthy();
    expect(done.visual).toEqual({ rendered_as: 'designed_card', motifs: expect.any(Array) });
    // Every heartbeat carries the render's overall percent (never going down) and the last finished step.
    expect(beats.every((b) => Number.isInteger(b.percent))).toBe(true);
    for (let i = 1; i < beats.length; i++) expect(beats[i].percent).toBeGreaterThanOrEqual(beats[i - 1].percent);
    expect(beats.map((b) => b.last_step).filter((x, i, all) => x && all.indexOf(x) === i)).toEqual([
      'speech',
      'soundtrack',
      'picture',
    ]);
    expect(beats[beats.length - 1]).toMatchObject({ percent: 90, last_step: 'picture' });

    // A retry whose predecessor finished the speech: no new synthesis, the rest is rendered.
    const retry = new MockActivityEnvironment({ ...info, attempt: 2, heartbeatDetails: { speech: checkpoint.speech } });
    const resumed = (await retry.run(acts.renderScene, args)) as SceneResult;
    expect(calls).toBe(2);
    expect(resumed.resumed_after).toBe('speech');
    expect(resumed.frames).toBe(done.frames);

    // The checkpoint's files are gone: the speech is synthesised again.
    rmSync(folders.workDir, { recursive: true, force: true });
    const elsewhere = new MockActivityEnvironment({ ...info, attempt: 3, heartbeatDetails: checkpoint });
    const redone = (await elsewhere.run(acts.renderScene, args)) as SceneResult;
    expect(calls).toBe(4);
    expect(redone.resumed_after).toBeUndefined();

    // Progress events of the steps were appended once, whatever the attempts.
    const progress = await s
      .db('es_events')
      .where({ stream_id: `videorender-${taskId}`, type: 'VideoRenderProgressed' });
    expect(progress.map((e) => e.data.step).sort()).toEqual([
      'scene-0-picture',
      'scene-0-soundtrack',
      'scene-0-speech',
    ]);
  });
});
