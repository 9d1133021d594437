/**
 * The render's heavy activities: one per scene, then the assembly. Each is a
 * short list of steps; after every step the activity heartbeats a checkpoint
 * (the step's outputs), so an attempt retried after a worker crash resumes
 * after the last step the earlier attempt reported (activities/heartbeat.ts),
 * and finished scenes are never rendered again (they are finished activities
 * in the workflow's history). Cancellation reaches ffmpeg through the
 * activity's cancellation signal (infra/media/process.ts kills it); the
 * workflow then removes the render's files (discardRender).
 * Progress is recorded as VideoRenderProgressed events, once per step, and
 * every heartbeat carries the render's overall `percent` and the last
 * finished step (RenderHeartbeat), so Temporal's view of a running activity
 * shows the same progress as GET /render/{task_id}.
 */
import { Context } from '@temporalio/activity';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { narrationSentences } from '../domain/media/narration';
import { renderPercent } from '../domain/media/timeline';
import { chooseSpeechProvider, voiceProblem } from '../domain/media/voices';
import type { RenderJob, RenderResult, RenderScene, SceneResult } from '../domain/video/render';
import { burnsCaptions, carriesTrack } from '../domain/media/subtitles';
import { renderVisuals, SceneStill } from '../domain/video/types';
import type { EventStore } from '../infra/eventstore';
import {
  joinScenes,
  finish,
  picture,
  soundtrack,
  speak,
  SpeechOutcome,
  Soundtrack,
  writeSubtitles,
} from '../infra/media/engine';
import type { Engine } from '../infra/media/engine';
import type { MediaMeter } from '../infra/media/meter';
import { speechKiloChars } from '../infra/media/meter';
import { MediaInputError } from '../infra/media/process';
import { LOUDNESS } from '../infra/media/tools';
import type { MediaStorage } from '../infra/storage/port';
import { heartbeatProgress, resumePoint, withHeartbeat } from './heartbeat';
import { activityKey } from './tasks';
import { appendRenderEvent } from './video';

export interface VideoRenderActivityDeps {
  store: EventStore;
  engine: Engine;
  storage: MediaStorage;
  workDir: string;
  meter: MediaMeter;
}

interface SceneCheckpoint {
  speech?: SpeechOutcome;
  sound?: Soundtrack;
  picture?: string;
  /** What the picture's still was (recorded with it). */
  still?: SceneStill;
}

/**
 * Heartbeat details of a render activity: the checkpoint (what a retry resumes
 * from) plus how far the render is — `percent` of the whole render (the same
 * figure as the VideoRenderProgressed events and GET /render), the fraction of
 * this activity, and the last finished step.
 */
export interface RenderHeartbeat extends SceneCheckpoint {
  percent: number;
  fraction: number;
  last_step?: string;
}

const filesExist = (...files: string[]) => files.every((f) => existsSync(f));

export function createVideoRenderActivities(deps: VideoRenderActivityDeps) {
  const progress = (taskId: string, userId: string, percent: number, sceneIndex: number, step: string) =>
    appendRenderEvent(
      deps.store,
      taskId,
      userId,
      {
        type: 'VideoRenderProgressed',
        data: { task_id: taskId, user_id: userId, percent, scene_index: sceneIndex, step },
      },
      `/${step}`,
    );

  return {
    async renderScene(a: {
      taskId: string;
      userId: string;
      job: Omit<RenderJob, 'scenes'>;
      scene: RenderScene;
      weights: number[];
    }): Promise<SceneResult> {
      const { job, scene } = a;
      const signal = Context.current().cancellationSignal;
      const dir = path.join(deps.workDir, a.taskId, `scene-${String(scene.index).padStart(3, '0')}`);
      await mkdir(dir, { recursive: true });
      // What an earlier attempt finished (and whose files are still there: a retry may run on another machine).
      const prior = resumePoint<SceneCheckpoint>() ?? {};
      const cp: SceneCheckpoint = {};
      if (prior.speech && filesExist(...prior.speech.sentences.map((s) => s.file))) cp.speech = prior.speech;
      if (cp.speech && prior.sound && filesExist(prior.sound.file)) cp.sound = prior.sound;
      if (cp.sound && prior.picture && prior.still && filesExist(prior.picture)) {
        cp.picture = prior.picture;
        cp.still = prior.still;
      }
      const resumedAfter = cp.picture ? 'picture' : cp.sound ? 'soundtrack' : cp.speech ? 'speech' : undefined;
      const pct = (fraction: number) => renderPercent(a.weights, scene.index, fraction);
      let fraction = resumedAfter === 'picture' ? 1 : resumedAfter === 'soundtrack' ? 0.3 : resumedAfter ? 0.2 : 0;
      let lastStep = resumedAfter;
      const details = (): RenderHeartbeat => ({
        ...cp,
        percent: pct(fraction),
        fraction,
        ...(lastStep ? { last_step: lastStep } : {}),
      });
      const beat = <T>(work: () => Promise<T>) => withHeartbeat(work, 2000, details);
      const stepDone = async (step: 'speech' | 'soundtrack' | 'picture', at: number) => {
        fraction = at;
        lastStep = step;
        heartbeatProgress(details());
        await progress(a.taskId, a.userId, pct(at), scene.index, `scene-${scene.index}-${step}`);
      };

      if (!cp.speech) {
        const provider = chooseSpeechProvider(job.speech_provider, !!deps.engine.speech.vendor);
        const problem = voiceProblem(provider, scene.voice.voice);
        if (problem) throw new MediaInputError(`scene ${scene.index + 1}: ${problem}`);
        const sentences = narrationSentences(scene.narration);
        const chars = sentences.reduce((n, s) => n + s.length, 0);
        // Vendor speech is metered per scene under this activity's key: a retry is charged once.
        const reservation =
          provider === 'tts_vendor' && chars > 0
            ? await deps.meter.reserve({
                userId: a.userId,
                provider: 'tts_vendor',
                units: speechKiloChars(chars),
                idempotencyKey: activityKey('/speech'),
              })
            : undefined;
        try {
          cp.speech = await beat(() =>
            speak(deps.engine, {
              sentences,
              voice: scene.voice,
              provider,
              dir,
              signal,
              idempotencyKey: activityKey('/speech'),
              onSentence: (n) => (fraction = (0.2 * n) / Math.max(1, sentences.length)),
            }),
          );
        } catch (e) {
          if (reservation) await deps.meter.release(reservation);
          throw e;
        }
        if (reservation) await deps.meter.settle(reservation, cp.speech.model);
        await stepDone('speech', 0.2);
      }
      if (!cp.sound) {
        const speech = cp.speech;
        cp.sound = await beat(() =>
          soundtrack(deps.engine, {
            sentences: speech.sentences,
            plannedSeconds: scene.frames / job.fps,
            fps: job.fps,
            out: path.join(dir, 'soundtrack.wav'),
            signal,
          }),
        );
        await stepDone('soundtrack', 0.3);
      }
      if (!cp.picture) {
        const sound = cp.sound;
        const made = await beat(() =>
          picture(deps.engine, {
            visual: scene.visual,
            description: scene.visual_description ?? scene.heading,
            heading: scene.heading,
            narration: scene.narration,
            width: job.width,
            height: job.height,
            fps: job.fps,
            frames: sound.frames,
            dir,
            burnCues: burnsCaptions(job.subtitles) ? sound.cues : undefined,
            signal,
            onProgress: (f) => (fraction = 0.3 + 0.7 * f),
          }),
        );
        cp.picture = made.file;
        cp.still = made.still;
        await stepDone('picture', 1);
      }
      const s = cp.speech!;
      return {
        index: scene.index,
        picture: cp.picture,
        soundtrack: cp.sound.file,
        frames: cp.sound.frames,
        seconds: cp.sound.seconds,
        tempo: cp.sound.tempo,
        cues: cp.sound.cues,
        visual: cp.still!,
        speech: {
          provider: s.provider,
          voice: s.voice,
          model: s.model,
          pitch_applied: s.pitch_applied,
          sentences: s.sentences.length,
        },
        ...(resumedAfter ? { resumed_after: resumedAfter } : {}),
      };
    },

    /** Joins the scenes, normalises loudness (two passes), writes SRT/WebVTT, muxes, stores, records the files. */
    async assembleVideo(a: {
      taskId: string;
      userId: string;
      job: Omit<RenderJob, 'scenes'>;
      scenes: SceneResult[];
      plannedSeconds: number;
    }): Promise<RenderResult> {
      const { job } = a;
      const signal = Context.current().cancellationSignal;
      const dir = path.join(deps.workDir, a.taskId, 'final');
      await mkdir(dir, { recursive: true });
      const missing = a.scenes.find((s) => !filesExist(s.picture, s.soundtrack));
      if (missing)
        throw new Error(
          `scene ${missing.index + 1}'s files are gone from ${deps.workDir}: MEDIA_WORK_DIR must be shared by all workers`,
        );
      // Percent of the whole render: the assembly is its last 10 % (join up to 93, then loudness and mux).
      let fraction = 0;
      let lastStep: string | undefined;
      const details = () => ({
        percent: Math.min(99, 90 + Math.floor(10 * fraction)),
        fraction,
        ...(lastStep ? { last_step: lastStep } : {}),
      });
      const beat = <T>(work: () => Promise<T>) => withHeartbeat(work, 2000, details);
      const joined = await beat(() =>
        joinScenes(
          deps.engine,
          a.scenes.map((s) => ({ picture: s.picture, soundtrack: s.soundtrack, seconds: s.seconds, cues: s.cues })),
          dir,
          signal,
        ),
      );
      fraction = 0.3;
      lastStep = 'join';
      heartbeatProgress(details());
      await progress(a.taskId, a.userId, 93, -1, 'join');
      const base = path.join(dir, a.taskId);
      const subs = await writeSubtitles(joined.cues, base);
      const out = `${base}.mp4`;
      const probed = await beat(() =>
        finish(deps.engine, {
          video: joined.video,
          audio: joined.audio,
          measure: joined.measure,
          subtitles: carriesTrack(job.subtitles) && joined.cues.length ? subs.srt : undefined,
          seconds: joined.seconds,
          out,
          signal,
          onProgress: (f) => (fraction = 0.3 + 0.6 * f),
        }),
      );
      const v = probed.streams.find((x) => x.codec_type === 'video')!;
      if (v.width !== job.width || v.height !== job.height)
        throw new Error(`rendered ${v.width}x${v.height}, expected ${job.width}x${job.height}`);
      fraction = 0.9;
      lastStep = 'mux';
      heartbeatProgress(details());
      await progress(a.taskId, a.userId, 99, -1, 'mux');
      const stored = [];
      for (const [file, kind] of [
        [out, 'video'],
        [subs.srt, 'subtitles_srt'],
        [subs.vtt, 'subtitles_vtt'],
      ] as const) {
        const o = await deps.storage.put(`videos/${path.basename(file)}`, file);
        stored.push({ filename: path.basename(file), kind, content_type: o.contentType, size: o.size });
      }
      await appendRenderEvent(
        deps.store,
        a.taskId,
        a.userId,
        {
          type: 'VideoRendered',
          data: {
            task_id: a.taskId,
            user_id: a.userId,
            plan_id: job.plan_id,
            duration_seconds: probed.duration,
            files: stored,
          },
        },
        '/rendered',
      );
      const inputI = Number(joined.measure.input_i);
      return {
        plan_id: job.plan_id,
        filename: path.basename(out),
        files: stored,
        duration_seconds: Math.round(probed.duration * 1000) / 1000,
        planned_seconds: a.plannedSeconds,
        width: v.width!,
        height: v.height!,
        fps: job.fps,
        resolution: job.resolution,
        video_codec: 'h264',
        audio_codec: 'aac',
        subtitles: {
          mode: job.subtitles,
          track: carriesTrack(job.subtitles) && joined.cues.length > 0,
          burnt: burnsCaptions(job.subtitles),
          cues: joined.cues.length,
        },
        loudness: {
          target_lufs: LOUDNESS.I,
          target_true_peak_dbtp: LOUDNESS.TP,
          measured_input_lufs: Number.isFinite(inputI) ? inputI : null,
          method: 'ffmpeg loudnorm, two passes (measure, then linear correction)',
        },
        speech: {
          provider: a.scenes[0]?.speech.provider ?? 'local',
          voices: [...new Set(a.scenes.map((s) => s.speech.voice))],
          models: [...new Set(a.scenes.map((s) => s.speech.model))],
          pitch_applied: a.scenes.every((s) => s.speech.pitch_applied),
        },
        visuals: renderVisuals(a.scenes.map((s) => s.visual)),
        scenes: a.scenes.map((s) => ({
          index: s.index,
          seconds: s.seconds,
          tempo: s.tempo,
          visual: s.visual,
          ...(s.resumed_after ? { resumed_after: s.resumed_after } : {}),
        })),
      };
    },
  };
}

export type VideoRenderActivities = ReturnType<typeof createVideoRenderActivities>;
