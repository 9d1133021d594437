/**
 * Podcast video steps: one scene's video (its picture, an image studio image or
 * a gradient, held over the scene's audio with subtitles; metered as a render)
 * and the scene videos joined into the episode's MP4 with its subtitle files.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { burnsCaptions, carriesTrack } from '../../domain/media/subtitles';
import type { CombineVideosJob, SceneVideoJob } from '../../domain/podcast/jobs';
import { finish, joinScenes, writeSubtitles } from '../../infra/media/engine';
import { stillVideo } from '../../infra/media/episode';
import { renderMinutes } from '../../infra/media/meter';
import { validateInput } from '../../infra/media/probe';
import { MediaInputError } from '../../infra/media/process';
import { LOUDNESS } from '../../infra/media/tools';
import { renderBackground } from '../../infra/media/visuals';
import { storageKeyOf } from '../../projections/podcast';
import { PodcastMediaKit, r3 } from './kit';

/** The activities of these steps (podcastSceneVideo, podcastCombineVideos), on the shared kit. */
export function createPodcastVideoActivities(kit: PodcastMediaKit) {
  const { deps, fetch, signal, beat, inScratch, metered, recordAsset } = kit;
  return {
    /** One scene's video: picture (image studio image, or a gradient) held over the scene's audio, with subtitles. */
    async podcastSceneVideo(a: { taskId: string; userId: string; job: SceneVideoJob }) {
      const { job } = a;
      return inScratch(a.taskId, async (dir) => {
        const audio = await fetch(storageKeyOf('audio', job.audio.filename), path.join(dir, 'audio.wav'));
        const seconds = (await validateInput(deps.engine.tools, audio, { require: ['audio'] })).duration;
        const image = path.join(dir, 'image.png');
        if (job.image_key) {
          const bytes = await deps.images?.read(job.image_key);
          if (!bytes) throw new MediaInputError(`image ${job.image_key} is no longer stored`);
          // Scaled to cover the frame with 20 % room for the zoom; cropped around the most interesting part.
          await sharp(bytes, { limitInputPixels: 64_000_000 })
            .resize(Math.round(job.width * 1.2), Math.round(job.height * 1.2), {
              fit: 'cover',
              position: sharp.strategy.attention,
            })
            .png()
            .toFile(image);
        } else await renderBackground({ kind: 'gradient', colors: job.colors }, job.width, job.height, image);
        const filename = `${a.taskId}.mp4`;
        const part = `${a.taskId}.picture.mp4`;
        // A render like the video studio's: its started minutes metered as `render` (docs/podcast.md).
        const { v, stored } = await metered(
          a.userId,
          { provider: 'render', units: renderMinutes(seconds), key: '/render' },
          async () => {
            const v = await beat(() =>
              stillVideo(deps.engine, {
                image,
                audio,
                seconds,
                cues: job.audio.cues,
                width: job.width,
                height: job.height,
                fps: job.fps,
                subtitles: job.subtitles,
                dir: path.join(dir, 'work'),
                out: path.join(dir, filename),
                signal: signal(),
              }),
            );
            await deps.storage.put(`podcast/parts/${part}`, v.picture);
            const stored = await deps.storage.put(storageKeyOf('video', filename), path.join(dir, filename));
            return { v, stored, model: `ffmpeg-h264-${job.resolution}` };
          },
        );
        const vs = v.probe.streams.find((s) => s.codec_type === 'video')!;
        const duration = r3(v.probe.duration);
        await recordAsset(a, job.project_id, {
          kind: 'scene_video',
          scene_id: job.scene_id,
          filename,
          part,
          audio_filename: job.audio.filename,
          duration_seconds: duration,
          width: job.width,
          height: job.height,
          fps: job.fps,
          cues: job.audio.cues,
          subtitles: job.subtitles,
        });
        return {
          project_id: job.project_id,
          scene_id: job.scene_id,
          filename,
          content_type: stored.contentType,
          size: stored.size,
          duration_seconds: duration,
          width: vs.width,
          height: vs.height,
          fps: job.fps,
          resolution: job.resolution,
          video_codec: 'h264',
          audio_codec: 'aac',
          picture: job.image_key
            ? { kind: 'image', image_key: job.image_key }
            : { kind: 'gradient', colors: job.colors },
          subtitles: {
            mode: job.subtitles,
            track: carriesTrack(job.subtitles) && job.audio.cues.length > 0,
            cues: job.audio.cues.length,
          },
        };
      });
    },

    /** Scene videos joined (pictures without re-encoding), audio normalised once, subtitles of the whole episode. */
    async podcastCombineVideos(a: { taskId: string; userId: string; job: CombineVideosJob }) {
      const { job } = a;
      return inScratch(a.taskId, async (dir) => {
        const parts: {
          picture: string;
          soundtrack: string;
          seconds: number;
          cues: CombineVideosJob['scenes'][number]['cues'];
        }[] = [];
        for (const [i, s] of job.scenes.entries())
          parts.push({
            picture: await fetch(`podcast/parts/${s.part}`, path.join(dir, `picture-${i}.mp4`)),
            soundtrack: await fetch(storageKeyOf('audio', s.audio_filename), path.join(dir, `sound-${i}.wav`)),
            seconds: s.seconds,
            cues: s.cues,
          });
        // One caption mode in the episode: no track when a scene's picture has its captions burnt in without asking for
        // one too (`burn`: players would show that scene's captions twice); `both` scenes asked for the track.
        const modes = job.scenes.map((s) => s.subtitles ?? 'mux');
        const burnt = modes.some(burnsCaptions);
        const track = !modes.includes('burn') && modes.some(carriesTrack);
        // Scene audio lengths are measured, so subtitles of later scenes land where their speech is.
        for (const p of parts)
          p.seconds = (await validateInput(deps.engine.tools, p.soundtrack, { require: ['audio'] })).duration;
        await mkdir(path.join(dir, 'join'), { recursive: true });
        const joined = await beat(() => joinScenes(deps.engine, parts, path.join(dir, 'join'), signal()));
        const base = path.join(dir, a.taskId);
        const subs = await writeSubtitles(joined.cues, base);
        const out = `${base}.mp4`;
        const probed = await beat(() =>
          finish(deps.engine, {
            video: joined.video,
            audio: joined.audio,
            measure: joined.measure,
            subtitles: track && joined.cues.length ? subs.srt : undefined,
            seconds: joined.seconds,
            out,
            signal: signal(),
          }),
        );
        const files = [];
        for (const f of [out, subs.srt, subs.vtt]) {
          const o = await deps.storage.put(storageKeyOf('final_video', path.basename(f)), f);
          files.push({ filename: path.basename(f), content_type: o.contentType, size: o.size });
        }
        const vs = probed.streams.find((s) => s.codec_type === 'video')!;
        await recordAsset(a, job.project_id, {
          kind: 'final_video',
          filename: path.basename(out),
          files: files.map((f) => f.filename),
          duration_seconds: r3(probed.duration),
          scene_ids: job.scenes.map((s) => s.scene_id),
        });
        return {
          project_id: job.project_id,
          filename: path.basename(out),
          files,
          duration_seconds: r3(probed.duration),
          scenes_seconds: r3(parts.reduce((x, p) => x + p.seconds, 0)),
          width: vs.width,
          height: vs.height,
          video_codec: 'h264',
          audio_codec: 'aac',
          subtitles: { track: track && joined.cues.length > 0, burnt, cues: joined.cues.length },
          loudness: {
            target_lufs: LOUDNESS.I,
            target_true_peak_dbtp: LOUDNESS.TP,
            method: 'ffmpeg loudnorm, two passes',
          },
        };
      });
    },
  };
}
