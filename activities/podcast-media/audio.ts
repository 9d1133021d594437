/**
 * Podcast audio steps: one scene's speech (every line in its speaker's voice,
 * joined into the scene's WAV), a user's uploaded audio for a scene, and the
 * scenes combined into the episode's loudness-normalised MP3 (or M4A).
 */
import path from 'node:path';
import { chooseSpeechProvider } from '../../domain/media/voices';
import type { AudioJob, CombineAudioJob, UploadJob } from '../../domain/podcast/jobs';
import { combineAudio, pitchOf, sceneAudio, speakLines, uploadToWav } from '../../infra/media/episode';
import { validateInput } from '../../infra/media/probe';
import { LOUDNESS } from '../../infra/media/tools';
import { storageKeyOf } from '../../projections/podcast';
import { activityKey } from '../tasks';
import { PodcastMediaKit, r3 } from './kit';

/** The activities of these steps (podcastSceneAudio, podcastUploadAudio, podcastCombineAudio), on the shared kit. */
export function createPodcastAudioActivities(kit: PodcastMediaKit) {
  const { deps, fetch, signal, beat, inScratch, meteredSpeech, recordAsset, recordSceneAudio } = kit;
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
          await beat(() => uploadToWav(deps.engine.tools, input, out, signal()));
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
        await recordAsset(a, job.project_id, {
          kind: 'combined_audio',
          filename,
          duration_seconds: r3(r.probe.duration),
          scene_ids: job.scenes.map((s) => s.scene_id),
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
  };
}
