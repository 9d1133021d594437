/**
 * Podcast dubbing steps: the transcript's segments translated (text vendor
 * through the gateway, else Apertium offline, or not at all), then spoken in
 * the target language and re-timed onto the original segments (MP3).
 */
import path from 'node:path';
import { narrationSentences } from '../../domain/media/narration';
import { speechSeconds } from '../../domain/media/timeline';
import type { DubbedSegment, DubJob } from '../../domain/podcast/jobs';
import { PODCAST_TRANSLATE } from '../../domain/podcast/tasks';
import { Engine, speak } from '../../infra/media/engine';
import { dubSegmentWav, placeSegments } from '../../infra/media/episode';
import { normaliseAudio } from '../../infra/media/ffmpeg';
import { validateInput } from '../../infra/media/probe';
import { MediaInputError } from '../../infra/media/process';
import { storageKeyOf } from '../../projections/podcast';
import { ask } from '../ai-call';
import { activityKey } from '../tasks';
import { PodcastMediaKit, r3 } from './kit';

/** Longest stretch of a dubbed segment: beyond 2× speech is hard to follow (and atempo's single-stage range). */
export const MAX_DUB_TEMPO = 2;

/** The activities of these steps (podcastTranslate, podcastDubSpeech), on the shared kit. */
export function createPodcastDubActivities(kit: PodcastMediaKit) {
  const { deps, signal, beat, inScratch, meteredSpeech, recordAsset } = kit;
  return {
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
          await dubSegmentWav(
            deps.engine.tools,
            sp.sentences.map((x) => x.file),
            file,
            signal(),
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
          await recordAsset(a, job.project_id, {
            kind: 'dub',
            filename,
            target_language: job.target_language,
            duration_seconds: r3(p.duration),
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
