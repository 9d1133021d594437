/**
 * Podcast maker media activities (workflows/podcast.ts), on the media engine
 * (infra/media/engine.ts + episode.ts): one scene's audio, an uploaded audio
 * file, the combined MP3, one scene's video, the combined video, and dubbing.
 * Each works in `MEDIA_WORK_DIR/<task_id>/`, heartbeats while ffmpeg or the
 * speech provider works (cancellation kills the child: infra/media/process.ts),
 * stores its deliverables under `podcast/...` in the media storage, records
 * them once on the project's stream, and removes its scratch folder.
 */
import { Context } from '@temporalio/activity';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { chooseSpeechProvider } from '../domain/media/voices';
import type {
  AudioJob,
  CombineAudioJob,
  CombineVideosJob,
  DubbedSegment,
  DubJob,
  SceneVideoJob,
  UploadJob,
} from '../domain/podcast/jobs';
import { PODCAST_TRANSLATE } from '../domain/podcast/tasks';
import type { SceneAudioAsset } from '../domain/podcast/types';
import { narrationSentences } from '../domain/media/narration';
import { speechSeconds } from '../domain/media/timeline';
import type { AiGateway } from '../infra/ai/completion';
import type { EventStore } from '../infra/eventstore';
import type { ImageStorage } from '../infra/image/storage';
import { Engine, finish, joinScenes, speak, writeSubtitles } from '../infra/media/engine';
import { combineAudio, pitchOf, placeSegments, sceneAudio, speakLines, stillVideo } from '../infra/media/episode';
import { normaliseAudio } from '../infra/media/ffmpeg';
import type { MediaMeter, MeteredMedia } from '../infra/media/meter';
import { renderMinutes, speechKiloChars } from '../infra/media/meter';
import { validateInput } from '../infra/media/probe';
import { MediaInputError, runTool } from '../infra/media/process';
import { LOUDNESS } from '../infra/media/tools';
import { renderBackground } from '../infra/media/visuals';
import type { MediaStorage } from '../infra/storage/port';
import type { SpeechSynthesizer } from '../infra/tts/port';
import type { OfflineTranslator } from '../infra/translate/apertium';
import { burnsCaptions, carriesTrack } from '../domain/media/subtitles';
import { storageKeyOf } from '../projections/podcast';
import { ask } from './ai-call';
import { withHeartbeat } from './heartbeat';
import { appendProjectEvent } from './podcast';
import { activityKey } from './tasks';

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

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const now = () => new Date().toISOString();
/** Longest stretch of a dubbed segment: beyond 2× speech is hard to follow (and atempo's single-stage range). */
export const MAX_DUB_TEMPO = 2;

export function createPodcastMediaActivities(deps: PodcastMediaActivityDeps) {
  const scratch = async (taskId: string) => {
    const dir = path.join(deps.workDir, taskId);
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
  const clean = (taskId: string) => rm(path.join(deps.workDir, taskId), { recursive: true, force: true });

  /** Runs `work` in the task's scratch folder, removed afterwards whatever happens. */
  async function inScratch<T>(taskId: string, work: (dir: string) => Promise<T>): Promise<T> {
    try {
      return await work(await scratch(taskId));
    } finally {
      await clean(taskId);
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

  /** A scene's audio (spoken or uploaded) recorded on its project: the one shape of a `scene_audio` asset. */
  async function recordSceneAudio(
    a: { taskId: string; userId: string },
    projectId: string,
    sceneId: string,
    audio: Pick<SceneAudioAsset, 'filename' | 'lines' | 'cues' | 'provider' | 'source'> & { seconds: number },
  ): Promise<void> {
    await appendProjectEvent(deps.store, projectId, a.userId, {
      type: 'PodcastAssetRecorded',
      data: {
        project_id: projectId,
        user_id: a.userId,
        asset: {
          kind: 'scene_audio',
          scene_id: sceneId,
          filename: audio.filename,
          duration_seconds: r3(audio.seconds),
          lines: audio.lines,
          cues: audio.cues,
          provider: audio.provider,
          source: audio.source,
          task_id: a.taskId,
          created_at: now(),
        },
      },
    });
  }

  return {
    /** One scene: every line in its speaker's voice, measured, joined at natural length (WAV), recorded. */
    async podcastSceneAudio(a: { taskId: string; userId: string; job: AudioJob }) {
      const { job } = a;
      const provider = chooseSpeechProvider(job.speech_provider, !!deps.engine.speech.vendor);
      const chars = job.lines.reduce((n, l) => n + l.text.length, 0);
      return inScratch(a.taskId, async (dir) => {
        const spoken = await meteredSpeech(a.userId, provider, chars, async () => {
          const lines = await beat(() =>
            speakLines(deps.engine, {
              lines: job.lines,
              provider,
              dir,
              signal: signal(),
              idempotencyKey: activityKey('/speech'),
            }),
          );
          return { lines, model: lines[0]?.model ?? '' };
        });
        const filename = `${a.taskId}.wav`;
        const audio = await beat(() =>
          sceneAudio(deps.engine, { lines: spoken.lines, out: path.join(dir, filename), signal: signal() }),
        );
        const stored = await deps.storage.put(storageKeyOf('audio', filename), audio.file);
        const lines = audio.lines;
        await recordSceneAudio(a, job.project_id, job.scene_id, {
          filename,
          seconds: audio.seconds,
          lines,
          cues: audio.cues,
          provider,
          source: 'tts',
        });
        return {
          project_id: job.project_id,
          scene_id: job.scene_id,
          filename,
          content_type: stored.contentType,
          size: stored.size,
          duration_seconds: r3(audio.seconds),
          lines,
          cues: audio.cues.length,
          speech: {
            provider,
            model: spoken.model,
            voices: [...new Set(spoken.lines.map((l) => l.voice))],
            pitch_applied: spoken.lines.every((l) => l.pitch_applied),
          },
        };
      });
    },

    /** A user's audio for a scene: validated with ffprobe, converted to the scenes' WAV format, recorded. */
    async podcastUploadAudio(a: { taskId: string; userId: string; job: UploadJob }) {
      const { job } = a;
      return inScratch(a.taskId, async (dir) => {
        try {
          const input = await fetch(job.upload_key, path.join(dir, 'upload.bin'));
          const p = await validateInput(
            deps.engine.tools,
            input,
            { require: ['audio'], minSeconds: 0.1, maxSeconds: job.max_seconds },
            signal(),
          );
          const filename = `${a.taskId}.wav`;
          const out = path.join(dir, filename);
          await beat(() =>
            runTool(
              deps.engine.tools.ffmpeg,
              [
                '-hide_banner',
                '-nostdin',
                '-y',
                '-loglevel',
                'error',
                '-i',
                input,
                '-map',
                '0:a:0',
                '-ac',
                '1',
                '-ar',
                '48000',
                '-c:a',
                'pcm_s16le',
                out,
              ],
              { signal: signal() },
            ),
          );
          const wav = await validateInput(deps.engine.tools, out, { require: ['audio'] }, signal());
          const stored = await deps.storage.put(storageKeyOf('audio', filename), out);
          const source = p.streams.find((s) => s.codec_type === 'audio')!;
          await recordSceneAudio(a, job.project_id, job.scene_id!, {
            filename,
            seconds: wav.duration,
            lines: [],
            cues: [],
            provider: 'upload',
            source: 'upload',
          });
          return {
            project_id: job.project_id,
            scene_id: job.scene_id,
            filename,
            content_type: stored.contentType,
            size: stored.size,
            duration_seconds: r3(wav.duration),
            original: {
              format: p.format,
              codec: source.codec_name,
              sample_rate: source.sample_rate ?? null,
              channels: source.channels ?? null,
              bytes: p.size,
            },
          };
        } finally {
          await deps.storage.remove(job.upload_key);
        }
      });
    },

    /** Scene WAVs → one MP3 (or M4A) at −16 LUFS; durations, loudness and each speaker's pitch measured. */
    async podcastCombineAudio(a: { taskId: string; userId: string; job: CombineAudioJob }) {
      const { job } = a;
      return inScratch(a.taskId, async (dir) => {
        const files: string[] = [];
        for (const [i, s] of job.scenes.entries())
          files.push(await fetch(storageKeyOf('audio', s.filename), path.join(dir, `scene-${i}.wav`)));
        const ext = job.codec === 'mp3' ? 'mp3' : 'm4a';
        const filename = `${a.taskId}.${ext}`;
        const out = path.join(dir, filename);
        const scenesSeconds: number[] = [];
        for (const f of files)
          scenesSeconds.push((await validateInput(deps.engine.tools, f, { require: ['audio'] })).duration);
        const r = await beat(() =>
          combineAudio(deps.engine, { files, dir: path.join(dir, 'work'), out, codec: job.codec, signal: signal() }),
        );
        // Each speaker's lines on the episode's timeline, their pitch measured on the delivered file.
        const ranges = new Map<string, { voice: string; ranges: { start: number; end: number }[] }>();
        let offset = 0;
        job.scenes.forEach((s, i) => {
          for (const l of s.lines) {
            const e = ranges.get(l.speaker) ?? { voice: l.voice, ranges: [] };
            e.ranges.push({ start: offset + l.start, end: offset + l.end });
            ranges.set(l.speaker, e);
          }
          offset += scenesSeconds[i];
        });
        const speakers = [];
        for (const [speaker, e] of ranges)
          speakers.push({
            speaker,
            voice: e.voice,
            measured_pitch_hz: (await pitchOf(deps.engine.tools, out, e.ranges.slice(0, 12), signal())) ?? null,
          });
        const stored = await deps.storage.put(storageKeyOf('audio', filename), out);
        const sum = scenesSeconds.reduce((x, y) => x + y, 0);
        await appendProjectEvent(deps.store, job.project_id, a.userId, {
          type: 'PodcastAssetRecorded',
          data: {
            project_id: job.project_id,
            user_id: a.userId,
            asset: {
              kind: 'combined_audio',
              filename,
              duration_seconds: r3(r.probe.duration),
              scene_ids: job.scenes.map((s) => s.scene_id),
              task_id: a.taskId,
              created_at: now(),
            },
          },
        });
        const inputI = Number(r.measure.input_i);
        return {
          project_id: job.project_id,
          filename,
          content_type: stored.contentType,
          size: stored.size,
          codec: job.codec,
          bitrate_kbps: job.codec === 'mp3' ? 128 : 160,
          duration_seconds: r3(r.probe.duration),
          scenes_seconds: r3(sum),
          scene_ids: job.scenes.map((s) => s.scene_id),
          loudness: {
            target_lufs: LOUDNESS.I,
            target_true_peak_dbtp: LOUDNESS.TP,
            measured_input_lufs: Number.isFinite(inputI) ? inputI : null,
            measured_output_lufs: Number.isFinite(r.loudness.integrated_lufs) ? r.loudness.integrated_lufs : null,
            method: 'ffmpeg loudnorm, two passes (measure, then linear correction)',
          },
          speakers,
        };
      });
    },

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
        await appendProjectEvent(deps.store, job.project_id, a.userId, {
          type: 'PodcastAssetRecorded',
          data: {
            project_id: job.project_id,
            user_id: a.userId,
            asset: {
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
              task_id: a.taskId,
              created_at: now(),
            },
          },
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
        await appendProjectEvent(deps.store, job.project_id, a.userId, {
          type: 'PodcastAssetRecorded',
          data: {
            project_id: job.project_id,
            user_id: a.userId,
            asset: {
              kind: 'final_video',
              filename: path.basename(out),
              files: files.map((f) => f.filename),
              duration_seconds: r3(probed.duration),
              scene_ids: job.scenes.map((s) => s.scene_id),
              task_id: a.taskId,
              created_at: now(),
            },
          },
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

    /** Translation (vendor through the gateway, else Apertium offline, or none when asked) of every segment. */
    async podcastTranslate(a: { taskId: string; userId: string; job: DubJob }) {
      const { job } = a;
      const texts = job.segments.map((s) => s.text);
      if (!job.translate)
        return {
          texts,
          translation: {
            provider: 'none',
            model: null,
            method: 'none: the transcript is already in the target language',
            translated: false,
          },
        };
      if (deps.gateway.resolve('auto') !== 'local') {
        const { output: out, response: resp } = await ask(
          deps.gateway,
          PODCAST_TRANSLATE,
          { texts, from: job.source_language, to: job.target_language },
          { userId: a.userId, idempotencyKey: activityKey() },
        );
        if (out.translations.length !== texts.length)
          throw new MediaInputError(
            `the translation has ${out.translations.length} segments, expected ${texts.length}`,
          );
        return {
          texts: out.translations,
          translation: { provider: resp.provider, model: resp.model, method: 'text vendor', translated: true },
        };
      }
      const mode = await deps.translator.mode(job.source_language, job.target_language);
      if (!mode)
        throw new MediaInputError(
          `no translator for ${job.source_language} → ${job.target_language}: configure VENDOR_A_* (or VENDOR_B_*), or install the Apertium pair`,
        );
      const outTexts = [];
      for (const t of texts)
        outTexts.push(
          await beat(() => deps.translator.translate(t, job.source_language, job.target_language, signal())),
        );
      return {
        texts: outTexts,
        translation: {
          provider: 'local',
          model: `apertium-${mode}`,
          method: `apertium ${mode} (rule-based machine translation, offline)`,
          translated: true,
        },
      };
    },

    /** Speech of the translated segments in the target language, re-timed onto the original segments; MP3. */
    async podcastDubSpeech(a: { taskId: string; userId: string; job: DubJob; texts: string[] }) {
      const { job } = a;
      const synth = job.speech_provider === 'local' ? deps.dubSpeech : deps.engine.speech.vendor;
      if (!synth) throw new MediaInputError('tts_vendor is not configured');
      const engine: Engine = { ...deps.engine, speech: { local: deps.dubSpeech, vendor: deps.engine.speech.vendor } };
      const chars = a.texts.reduce((n, t) => n + t.length, 0);
      return inScratch(a.taskId, async (dir) => {
        const spoken = await meteredSpeech(a.userId, job.speech_provider, chars, async () => {
          const out = [];
          for (const [i, text] of a.texts.entries())
            out.push(
              await beat(() =>
                speak(engine, {
                  sentences: narrationSentences(text),
                  voice: { voice: job.voice },
                  provider: job.speech_provider,
                  dir: path.join(dir, `seg-${i}`),
                  signal: signal(),
                  idempotencyKey: `${activityKey('/speech')}/${i}`,
                }),
              ),
            );
          return { out, model: out[0]?.model ?? synth.model };
        });
        // One WAV per segment (its sentences with pauses), measured.
        const segs: DubbedSegment[] = [];
        const placed: { file: string; start: number; tempo: number }[] = [];
        let cursor = 0;
        for (const [i, s] of job.segments.entries()) {
          const sp = spoken.out[i];
          const file = path.join(dir, `seg-${i}.wav`);
          // A segment with nothing speakable (only punctuation) keeps its place in the list but adds no sound.
          if (!sp.sentences.length) {
            segs.push({
              index: i,
              source_text: s.text,
              text: a.texts[i],
              start: r3(s.start ?? cursor),
              end: r3(s.start ?? cursor),
              speech_seconds: 0,
              tempo: 1,
              ...(s.speaker ? { speaker: s.speaker } : {}),
            });
            continue;
          }
          const natural = speechSeconds(sp.sentences.map((x) => x.seconds));
          await runTool(
            deps.engine.tools.ffmpeg,
            [
              '-hide_banner',
              '-nostdin',
              '-y',
              '-loglevel',
              'error',
              ...sp.sentences.flatMap((x) => ['-i', x.file]),
              '-filter_complex',
              `${sp.sentences.map((_x, k) => `[${k}:a]aresample=48000,aformat=channel_layouts=mono${k < sp.sentences.length - 1 ? ',apad=pad_dur=0.25' : ''}[a${k}]`).join(';')};${sp.sentences.map((_x, k) => `[a${k}]`).join('')}concat=n=${sp.sentences.length}:v=0:a=1[o]`,
              '-map',
              '[o]',
              '-c:a',
              'pcm_s16le',
              file,
            ],
            { signal: signal() },
          );
          const timed = s.start !== undefined && s.end !== undefined;
          const start = timed ? s.start! : cursor;
          const next = job.segments[i + 1]?.start;
          const slot = timed ? Math.max(0.2, (next ?? job.original_seconds ?? s.end!) - start) : natural;
          const tempo = natural > slot ? Math.min(MAX_DUB_TEMPO, natural / slot) : 1;
          placed.push({ file, start, tempo: Math.round(tempo * 10000) / 10000 });
          segs.push({
            index: i,
            source_text: s.text,
            text: a.texts[i],
            start: r3(start),
            end: r3(start + natural / tempo),
            speech_seconds: r3(natural),
            tempo: Math.round(tempo * 10000) / 10000,
            ...(s.speaker ? { speaker: s.speaker } : {}),
          });
          cursor = start + natural / tempo + 0.25;
        }
        const total = Math.max(job.original_seconds ?? 0, ...segs.map((x) => x.end + 0.3));
        const wav = path.join(dir, 'dub.wav');
        await beat(() =>
          placeSegments(deps.engine.tools, { segments: placed, seconds: total, out: wav, signal: signal() }),
        );
        const filename = `${a.taskId}.mp3`;
        const out = path.join(dir, filename);
        await beat(() => normaliseAudio(deps.engine.tools, wav, out, 'mp3', signal()));
        const p = await validateInput(
          deps.engine.tools,
          out,
          { require: ['audio'], codecs: { audio: ['mp3'] } },
          signal(),
        );
        const stored = await deps.storage.put(storageKeyOf('dub', filename), out);
        if (job.project_id)
          await appendProjectEvent(deps.store, job.project_id, a.userId, {
            type: 'PodcastAssetRecorded',
            data: {
              project_id: job.project_id,
              user_id: a.userId,
              asset: {
                kind: 'dub',
                filename,
                target_language: job.target_language,
                duration_seconds: r3(p.duration),
                task_id: a.taskId,
                created_at: now(),
              },
            },
          });
        return {
          filename,
          content_type: stored.contentType,
          size: stored.size,
          duration_seconds: r3(p.duration),
          original_seconds: job.original_seconds ?? null,
          segments: segs,
          speech: {
            provider: job.speech_provider,
            model: spoken.model,
            voice: job.voice,
            language: job.target_language,
          },
        };
      });
    },
  };
}

export type PodcastMediaActivities = ReturnType<typeof createPodcastMediaActivities>;
