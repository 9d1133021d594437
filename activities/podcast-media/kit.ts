/**
 * What every podcast media step (activities/podcast-media/*.ts) works with: a
 * scratch folder per run of a step (removed afterwards whatever happens), stored files
 * fetched into it, heartbeats while ffmpeg or the speech provider works, the
 * cancellation signal, metered work (reserved, settled, released), and the
 * one shape of a recorded `scene_audio` asset.
 */
import { Context } from '@temporalio/activity';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { PodcastAsset, SceneAudioAsset } from '../../domain/podcast/types';
import type { AiGateway } from '../../infra/ai/completion';
import type { EventStore } from '../../infra/eventstore';
import type { ImageStorage } from '../../infra/image/storage';
import type { Engine } from '../../infra/media/engine';
import type { MediaMeter, MeteredMedia } from '../../infra/media/meter';
import { speechKiloChars } from '../../infra/media/meter';
import { MediaInputError } from '../../infra/media/process';
import type { MediaStorage } from '../../infra/storage/port';
import type { SpeechSynthesizer } from '../../infra/tts/port';
import type { OfflineTranslator } from '../../infra/translate/apertium';
import { withHeartbeat } from '../heartbeat';
import { appendProjectEvent } from '../podcast';
import { activityKey } from '../tasks';

export interface PodcastMediaActivityDeps {
  store: EventStore;
  engine: Engine;
  storage: MediaStorage;
  /** The image studio's storage (scene pictures and avatars are image-studio images). */
  images?: ImageStorage;
  workDir: string;
  meter: MediaMeter;
  gateway: AiGateway;
  /** espeak-ng in any of its languages (dubbing). */
  dubSpeech: SpeechSynthesizer;
  translator: OfflineTranslator;
}

/** Seconds rounded to the millisecond, as every recorded duration is. */
export const r3 = (x: number) => Math.round(x * 1000) / 1000;
/** The time an asset is recorded (its `created_at`). */
export const now = () => new Date().toISOString();

/** The fields of an asset a task makes (recordAsset adds the task's id and the time). */
type TaskAssetFields<A = Extract<PodcastAsset, { task_id: string }>> = A extends unknown
  ? Omit<A, 'task_id' | 'created_at'>
  : never;

/** The helpers of the podcast media steps, built once from the activities' dependencies. */
export function podcastMediaKit(deps: PodcastMediaActivityDeps) {
  /**
   * A folder of this run of the activity (`<task>/<activity>-<attempt>`), not one per task: an attempt that timed out
   * under load may still be ending (it learns of its cancellation at its next heartbeat) while its retry runs, and
   * with a shared folder its clean-up removed the retry's files mid-work (seen: a dub's sentence WAV gone before
   * ffprobe read it).
   */
  const scratch = async (taskId: string) => {
    const { activityId, attempt } = Context.current().info;
    const dir = path.join(deps.workDir, taskId, `${activityId}-${attempt}`);
    await mkdir(dir, { recursive: true });
    return dir;
  };
  const fetch = async (key: string, file: string) => {
    if (!(await deps.storage.stat(key))) throw new MediaInputError(`${path.basename(key)} is no longer stored`);
    await pipeline(deps.storage.read(key), createWriteStream(file));
    return file;
  };
  const signal = () => Context.current().cancellationSignal;
  const beat = <T>(work: () => Promise<T>) => withHeartbeat(work, 2000);

  /** Runs `work` in a scratch folder of its own, removed afterwards whatever happens (the task's once empty). */
  async function inScratch<T>(taskId: string, work: (dir: string) => Promise<T>): Promise<T> {
    const dir = await scratch(taskId);
    try {
      return await work(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rmdir(path.join(deps.workDir, taskId)).catch(() => undefined); // another run of the task still has files
    }
  }

  /**
   * Metered media work under the activity's key (a retry is charged once): reserved before the work (a plan limit
   * refuses it first), settled with the work's model, released when it fails. No units: nothing is metered.
   */
  async function metered<T>(
    userId: string,
    what: { provider: MeteredMedia; units: number; key: string },
    work: () => Promise<T & { model: string }>,
  ) {
    const reservation =
      what.units > 0
        ? await deps.meter.reserve({
            userId,
            provider: what.provider,
            units: what.units,
            idempotencyKey: activityKey(what.key),
          })
        : undefined;
    try {
      const out = await work();
      if (reservation) await deps.meter.settle(reservation, out.model);
      return out;
    } catch (e) {
      if (reservation) await deps.meter.release(reservation);
      throw e;
    }
  }

  /** Vendor speech is metered per thousand characters; local speech is free. */
  const meteredSpeech = <T>(
    userId: string,
    provider: 'local' | 'tts_vendor',
    chars: number,
    work: () => Promise<T & { model: string }>,
  ) =>
    metered(
      userId,
      { provider: 'tts_vendor', units: provider === 'tts_vendor' ? speechKiloChars(chars) : 0, key: '/speech' },
      work,
    );

  /** Records a file a task made on its project (PodcastAssetRecorded), stamped with the task's id and the time. */
  async function recordAsset(
    a: { taskId: string; userId: string },
    projectId: string,
    asset: TaskAssetFields,
  ): Promise<void> {
    await appendProjectEvent(deps.store, projectId, a.userId, {
      type: 'PodcastAssetRecorded',
      data: {
        project_id: projectId,
        user_id: a.userId,
        asset: { ...asset, task_id: a.taskId, created_at: now() },
      },
    });
  }

  /** A scene's audio (spoken or uploaded) recorded on its project: the one shape of a `scene_audio` asset. */
  async function recordSceneAudio(
    a: { taskId: string; userId: string },
    projectId: string,
    sceneId: string,
    audio: Pick<SceneAudioAsset, 'filename' | 'lines' | 'cues' | 'provider' | 'source'> & { seconds: number },
  ): Promise<void> {
    await recordAsset(a, projectId, {
      kind: 'scene_audio',
      scene_id: sceneId,
      filename: audio.filename,
      duration_seconds: r3(audio.seconds),
      lines: audio.lines,
      cues: audio.cues,
      provider: audio.provider,
      source: audio.source,
    });
  }

  return { deps, fetch, signal, beat, inScratch, metered, meteredSpeech, recordAsset, recordSceneAudio };
}

export type PodcastMediaKit = ReturnType<typeof podcastMediaKit>;
