/**
 * Dubbing (Document 2, /api/podcast/dub/...): POST /dub/audio starts a dubbing
 * task — transcript from the project's scene audio (measured line timings) or
 * script, or from the request; translation through the text vendor (gateway)
 * or offline with Apertium; speech in the target language (espeak-ng, or the
 * speech vendor); each segment re-timed onto its original slot — polled at
 * GET /dub/{task_id}/result; POST /dub/estimate prices one. Languages and
 * voices are what this machine's speech provider really offers (dub-voices.ts,
 * with voice cloning).
 */
import { defineTaskType, taskRecordOf } from '../kernel/task-catalogue';
import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError } from '../../domain/errors';
import { taskStream } from '../../domain/events/tasks';
import { matchLanguage, parseDubVoice } from '../../domain/media/speech-languages';
import type { DubJob, DubSegment } from '../../domain/podcast/jobs';
import { countWords } from '../../domain/podcast/script';
import type { PodcastProject } from '../../domain/podcast/types';
import { WORDS_PER_MINUTE } from '../../domain/podcast/types';
import { requestCost } from '../../domain/pricing';
import { podcastDubWorkflow } from '../../workflows';
import { callerOf, settle, settleWrittenBy, userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { startWorkflow } from '../kernel/workflows';
import { boundErrors } from '../kernel/fair-use';
import { ownTask, pollHeaders, presentResultsOf, presentTask } from '../kernel/tasks';
import { fileRoute } from './audio';
import { Ctx, currentProject, invalid, mediaStorage, PREFIX, tags, urlOf } from './common';
import { taskIdParams } from './schemas/common';
import { dubBody, dubResultSchema, estimateBody, estimateSchema, startedSchema } from './schemas/dub';
import { latest } from './views';
import { getProject } from '../../projections/podcast';

export const DUB_TASK = defineTaskType({ type: 'podcast_dub', result: dubResultSchema }).type;
/** A dub's result as clients see it, wherever it is read: with the URL of its audio. */
presentResultsOf(DUB_TASK, (ctx, r) =>
  typeof r.filename === 'string' ? { ...r, audio_url: urlOf(ctx, 'dub/audio', r.filename) } : r,
);

/** The podcast maker's speech catalogue and translator adapters; 503 when this API has none. */
export function adapters(ctx: Ctx) {
  const a = ctx.deps.podcast;
  if (!a)
    throw new ServiceUnavailableError('The podcast maker has no speech catalogue configured on this API', {
      service: 'podcast',
    });
  return a;
}

/** The project's transcript: its scenes' measured lines on the episode's timeline, or the script's lines untimed. */
export function transcriptOf(p: PodcastProject): { segments: DubSegment[]; seconds?: number } {
  const scenes = p.script?.scenes ?? [];
  const audios = scenes.map((s) => latest(p, 'scene_audio', s.scene_id));
  if (scenes.length && audios.every((a) => a && a.lines.length)) {
    let t = 0;
    const segments: DubSegment[] = [];
    for (const a of audios) {
      for (const l of a!.lines) segments.push({ text: l.text, start: t + l.start, end: t + l.end, speaker: l.speaker });
      t += a!.duration_seconds;
    }
    return { segments, seconds: Math.round(t * 1000) / 1000 };
  }
  return { segments: scenes.flatMap((s) => s.lines.map((l) => ({ text: l.text, speaker: l.speaker }))) };
}

/** Which translator a pair gets: the text vendor, Apertium offline, none (already translated), or nothing (undefined). */
async function translatorFor(ctx: Ctx, from: string, to: string, translate: boolean) {
  if (!translate) return 'none';
  const a = adapters(ctx);
  if (a.textVendorConfigured) return 'text_vendor';
  const pair = `${from.split('-')[0]}-${to.split('-')[0]}`;
  return (await a.translationPairs()).includes(pair) ? 'apertium' : undefined;
}

/** The dubbing routes: start, status, the dubbed file, the estimate (dub-voices.ts has the languages and voices). */
export const dubRoutes: RouteDef[] = [
  defineRoute<{
    project_id?: string;
    segments?: DubSegment[];
    source_language: string;
    target_language: string;
    voice?: string;
    speech_provider: 'auto' | 'local' | 'tts_vendor';
    translate: boolean;
  }>({
    method: 'post',
    path: `${PREFIX}/dub/audio`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Start dubbing an episode (or a transcript) into another language',
    description:
      "Asynchronous: answers 202 with the task; poll GET /api/podcast/dub/{task_id}/result; cancel with POST /api/story/task/{task_id}/cancel. The transcript is the project's scene audio lines (with their measured times: each dubbed line starts where the original did and is sped up, at most 2×, to end before the next one) or, without audio, its script (untimed), or `segments`. Translation: the text vendor when configured, else Apertium offline (English–Spanish is installed by scripts/media-tools), or none with `translate: false`; speech: espeak-ng in the target language (GET /dub/voices) or the speech vendor.",
    request: { body: dubBody },
    responses: { 202: { description: 'Dubbing started', data: startedSchema } },
    errors: {
      404: "No such project (or not the caller's)",
      503: 'Background work (Temporal), media storage, the speech vendor or a translator for the pair is not available',
      ...boundErrors(DUB_TASK),
    },
    async handler(ctx) {
      const b = ctx.body;
      mediaStorage(ctx);
      const a = adapters(ctx);
      if (!b.project_id && !b.segments) throw invalid('segments', 'give project_id or segments');
      const { languages } = await a.speech();
      const configured = !!ctx.deps.media?.speechVendorConfigured;
      if (b.speech_provider === 'tts_vendor' && !configured)
        throw new ServiceUnavailableError(
          'tts_vendor is not configured: set TTS_VENDOR_BASE_URL, TTS_VENDOR_API_KEY, TTS_VENDOR_MODEL',
          { provider: 'tts_vendor' },
        );
      const provider = b.speech_provider === 'local' || !configured ? 'local' : 'tts_vendor';
      let voice = b.voice;
      if (provider === 'local') {
        const lang = matchLanguage(b.target_language, languages);
        if (!lang)
          throw invalid(
            'target_language',
            `espeak-ng has no "${b.target_language}" voice (GET /api/podcast/dub/languages)`,
            b.target_language,
          );
        voice ??= lang.code;
        const v = parseDubVoice(voice);
        if (!v || !matchLanguage(v.language, languages))
          throw invalid(
            'voice',
            `"${voice}" is not a local dubbing voice: <language>[+<variant>] (GET /api/podcast/dub/voices)`,
            voice,
          );
      }
      voice ??= 'alloy';
      const translator = await translatorFor(ctx, b.source_language, b.target_language, b.translate);
      if (!translator)
        throw new ServiceUnavailableError(
          `no translator for ${b.source_language} → ${b.target_language}: configure a text vendor (VENDOR_A_BASE_URL, VENDOR_A_API_KEY, VENDOR_A_MODEL), install the Apertium pair, or send translate: false with a transcript already in ${b.target_language}`,
          {
            reason: 'TRANSLATION_NOT_AVAILABLE',
            configure: ['VENDOR_A_BASE_URL', 'VENDOR_A_API_KEY', 'VENDOR_A_MODEL'],
          },
        );
      let segments = b.segments;
      let seconds: number | undefined;
      if (b.project_id) {
        const p = await currentProject(ctx, b.project_id);
        if (!segments) {
          const t = transcriptOf(p);
          if (!t.segments.length) throw invalid('project_id', 'the project has no script to dub yet');
          segments = t.segments;
          seconds = t.seconds;
        }
      }
      const timed = segments!.every((s) => s.start !== undefined && s.end !== undefined);
      if (timed) seconds ??= Math.max(...segments!.map((s) => s.end!));
      const job: DubJob = {
        ...(b.project_id ? { project_id: b.project_id } : {}),
        segments: timed ? segments! : segments!.map(({ text, speaker }) => ({ text, ...(speaker ? { speaker } : {}) })),
        source_language: b.source_language,
        target_language: b.target_language,
        voice,
        speech_provider: provider,
        translate: b.translate,
        ...(timed && seconds ? { original_seconds: seconds } : {}),
      };
      const userId = userIdOf(ctx);
      const taskId = `podcast-dub-${randomUUID()}`;
      await startWorkflow(ctx.deps, podcastDubWorkflow, {
        workflowId: taskId,
        args: [{ taskId, userId, request: job }],
        task: { userId, plan: callerOf(ctx).plan, taskType: DUB_TASK },
      });
      await settle(ctx, 'task-status', [{ streamId: taskStream(taskId), streamPosition: 0 }]);
      return {
        status: 202,
        data: { task_id: taskId, task_type: DUB_TASK, status: 'started', status_url: `${PREFIX}/dub/${taskId}/result` },
      };
    },
  }),

  defineRoute<unknown, unknown, { task_id: string }>({
    method: 'get',
    path: `${PREFIX}/dub/{task_id}/result`,
    auth: 'user',
    successBody: 'bare',
    tags,
    rateScheme: 'status',
    summary: 'A dubbing task: status, progress and (when completed) the dubbed audio',
    description:
      "The task record of a POST /dub/audio; when completed, `result` holds the dub's segments, translation and speech facts and `audio_url` (GET /dub/audio/{filename}). A task of another user or of another type is 404; cancel with POST /api/story/task/{task_id}/cancel.",
    request: { params: taskIdParams },
    responses: {
      200: { description: 'The task record; `result.audio_url` when completed', data: taskRecordOf(DUB_TASK) },
    },
    errors: { 503: 'A task not recorded yet cannot be looked up: background work (Temporal) is not available' },
    etag: true,
    async handler(ctx) {
      const t = await ownTask(ctx, ctx.params.task_id, DUB_TASK);
      const r = t.result as { filename?: string; project_id?: string } | undefined;
      // Read-your-writes of the finished dub (its file on the project), before the client fetches it.
      if (r?.filename) await settleWrittenBy(ctx, t.task_id);
      return { data: presentTask(t, [], ctx), headers: pollHeaders(t.status) };
    },
  }),

  // A dub's file is named after its task: ownership is the task's (dubs of a transcript belong to no project);
  // a dub of a project is no longer served once the project is deleted, like the project's other files.
  fileRoute('dub/audio', 'dub', 'Serve a dubbed audio file (MP3)', 'audio/mpeg', async (ctx, filename) => {
    const taskId = filename.replace(/\.mp3$/, '');
    if (taskId === filename) return false;
    const t = await ownTask(ctx, taskId, DUB_TASK).catch(() => undefined);
    const r = t?.result as { filename?: string; project_id?: string | null } | undefined;
    if (r?.filename !== filename) return false;
    return !r.project_id || !!(await getProject(ctx.deps.db, userIdOf(ctx), r.project_id));
  }),

  defineRoute<{
    project_id?: string;
    text?: string;
    target_language: string;
    source_language: string;
    speech_provider: 'auto' | 'local' | 'tts_vendor';
  }>({
    method: 'post',
    path: `${PREFIX}/dub/estimate`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Estimate the cost and duration of a dub',
    description:
      "Characters and words of the transcript (the project's, or `text`), its spoken duration at 150 words a minute, the translator and speech provider the dub would use, and their cost in US dollars: espeak-ng and Apertium are free; vendor speech is $0.015 per started 1,000 characters; a text-vendor translation is priced by tokens (estimated at 4 characters a token in and out).",
    request: { body: { ...estimateBody, anyOf: [{ required: ['project_id'] }, { required: ['text'] }] } },
    responses: { 200: { description: 'The estimate', data: estimateSchema } },
    errors: { 404: "No such project (or not the caller's)", 503: 'The speech catalogue is not available' },
    async handler(ctx) {
      const b = ctx.body;
      const a = adapters(ctx);
      let text = b.text ?? '';
      if (b.project_id) {
        const p = await currentProject(ctx, b.project_id);
        text ||= transcriptOf(p)
          .segments.map((s) => s.text)
          .join(' ');
      }
      const chars = text.length;
      const words = countWords(text);
      const vendorSpeech =
        b.speech_provider === 'tts_vendor' ||
        (b.speech_provider === 'auto' && !!ctx.deps.media?.speechVendorConfigured);
      const translator = await translatorFor(ctx, b.source_language, b.target_language, true);
      const speechCost = vendorSpeech ? requestCost('tts_vendor', Math.max(1, Math.ceil(chars / 1000))) : 0;
      // A rough price of a vendor translation: input and output each ~chars/4 tokens at a small model's $2/M tokens.
      const translationCost = translator === 'text_vendor' ? Math.round((chars / 4) * 2 * 2e-6 * 1e6) / 1e6 : 0;
      const local = (await a.speech()).languages;
      return {
        data: {
          characters: chars,
          words,
          estimated_seconds: Math.round((words / WORDS_PER_MINUTE) * 600) / 10,
          words_per_minute: WORDS_PER_MINUTE,
          target_language: b.target_language,
          translation: { method: translator ?? 'unavailable', cost_usd: translationCost },
          speech: {
            provider: vendorSpeech ? 'tts_vendor' : 'local',
            available: vendorSpeech ? true : !!matchLanguage(b.target_language, local),
            units: vendorSpeech ? Math.max(1, Math.ceil(chars / 1000)) : 0,
            unit: vendorSpeech ? 'started 1,000 characters' : 'free (espeak-ng)',
            cost_usd: speechCost,
          },
          total_cost_usd: Math.round((speechCost + translationCost) * 1e6) / 1e6,
        },
      };
    },
  }),
];
