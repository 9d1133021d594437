/**
 * What dubbing can speak here (Document 2, /api/podcast/dub/...): the
 * languages of this machine's espeak-ng with the translations to them, the
 * voices (languages × variants), and voice cloning, which needs a vendor this
 * build has no adapter for: the clone route always answers 503 saying so, and
 * its task and preview routes find nothing.
 */
import { ServiceUnavailableError } from '../../domain/errors';
import { matchLanguage } from '../../domain/media/speech-languages';
import { defineRoute, RouteDef } from '../kernel/registry';
import { allRequired, arr, bool, str, withRequired } from '../kernel/schema';
import { defineTaskType, taskRecordOf } from '../kernel/task-catalogue';
import { ownTask, pollHeaders, presentTask } from '../kernel/tasks';
import { fileRoute } from './audio';
import { invalid, PREFIX, tags } from './common';
import { adapters } from './dub';
import { taskIdParams } from './schemas/common';
import { cloneBody, cloneResultSchema, startedSchema, voicesSchema } from './schemas/dub';

export const CLONE_TASK = defineTaskType({ type: 'podcast_voice_clone', result: cloneResultSchema }).type;

const languagesSchema = allRequired({
  languages: arr(
    allRequired({
      code: { type: 'string' },
      name: { type: 'string' },
      speech: allRequired({ local: bool, tts_vendor: bool }),
      translation_from_en: allRequired({ offline: bool, text_vendor: bool }),
    }),
  ),
  total: { type: 'integer' },
  speech_provider: { type: 'string' },
  offline_translation_pairs: arr(),
});

/** The routes after the dubbing ones (routes.ts lists them in this order): languages, voices, cloning. */
export const dubVoiceRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path: `${PREFIX}/dub/languages`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Languages dubbing can speak here (and translate to offline)',
    description:
      "Every language of this machine's espeak-ng (asked of espeak-ng itself), with whether English can be translated to it offline (Apertium pairs installed) or by the configured text vendor.",
    responses: { 200: { description: 'Languages', data: languagesSchema } },
    errors: { 503: 'The speech catalogue is not available' },
    async handler(ctx) {
      const a = adapters(ctx);
      const [{ languages }, pairs] = await Promise.all([a.speech(), a.translationPairs()]);
      const vendorSpeech = !!ctx.deps.media?.speechVendorConfigured;
      return {
        data: {
          languages: languages.map((l) => ({
            code: l.code,
            name: l.name,
            speech: { local: true, tts_vendor: vendorSpeech },
            translation_from_en: {
              offline: pairs.includes(`en-${l.code.split('-')[0]}`),
              text_vendor: a.textVendorConfigured,
            },
          })),
          total: languages.length,
          speech_provider: vendorSpeech ? 'tts_vendor+local' : 'local',
          offline_translation_pairs: pairs,
        },
      };
    },
  }),

  defineRoute<unknown, { language?: string }>({
    method: 'get',
    path: `${PREFIX}/dub/voices`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: 'Voices dubbing can use (espeak-ng languages × variants)',
    description:
      "A local dubbing voice is `<language>` or `<language>+<variant>` (e.g. `es+f3`): every espeak-ng variant works with every language. With `language`, the voices of that language are listed one by one. The OpenAI-compatible speech vendor's protocol has no voice listing: its voices are not listed.",
    request: { query: withRequired({ language: str(20, { pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$' }) }, []) },
    responses: { 200: { description: 'Voices', data: voicesSchema } },
    errors: { 503: 'The speech catalogue is not available' },
    async handler(ctx) {
      const a = adapters(ctx);
      const { languages, variants } = await a.speech();
      const lang = ctx.query.language ? matchLanguage(ctx.query.language, languages) : undefined;
      if (ctx.query.language && !lang)
        throw invalid('language', `espeak-ng has no "${ctx.query.language}" voice`, ctx.query.language);
      return {
        data: {
          provider: 'local',
          model: 'espeak-ng',
          variants: variants.map((v) => ({ id: v.id, name: v.name, gender: v.gender })),
          voices: lang
            ? [
                { voice: lang.code, name: lang.name, language: lang.code, gender: lang.gender },
                ...variants.map((v) => ({
                  voice: `${lang.code}+${v.id}`,
                  name: `${lang.name} (${v.name})`,
                  language: lang.code,
                  gender: v.gender,
                })),
              ]
            : languages.map((l) => ({ voice: l.code, name: l.name, language: l.code, gender: l.gender })),
          cloned: [],
          tts_vendor: { configured: !!ctx.deps.media?.speechVendorConfigured, voices_listed: false },
        },
      };
    },
  }),

  defineRoute<{ name: string; sample_base64: string }>({
    method: 'post',
    path: `${PREFIX}/dub/voices/clone`,
    auth: 'user',
    successBody: 'bare',
    tags,
    bodyLimitBytes: 24 * 1024 * 1024,
    summary: 'Clone a voice from a sample (needs a voice-cloning vendor)',
    description:
      'Voice cloning is done only by a speech vendor that supports it. Neither the offline provider (espeak-ng) nor the OpenAI-compatible speech protocol (TTS_VENDOR_*) can clone voices, and this build has no adapter for a cloning vendor, so there is no setting that enables it: the route always answers 503 SERVICE_UNAVAILABLE with `details.reason: VOICE_CLONING_NOT_CONFIGURED`, `details.adapter_available: false` and `details.configure: []`. The 202 below is what the route will answer once a cloning-vendor adapter exists (a task read at GET /dub/voices/{task_id}/result, preview audio at GET /dub/voices/audio/{filename}).',
    request: { body: cloneBody },
    responses: { 202: { description: 'Cloning started (with a cloning vendor)', data: startedSchema } },
    errors: { 503: 'Voice cloning is not available: this build has no cloning-vendor adapter (nothing to configure)' },
    async handler() {
      throw new ServiceUnavailableError(
        'voice cloning needs a speech vendor that supports it, and this build has no adapter for one, so no setting enables it: espeak-ng (local) cannot clone voices and the OpenAI-compatible speech protocol (TTS_VENDOR_BASE_URL, TTS_VENDOR_API_KEY, TTS_VENDOR_MODEL) has no cloning call. Use a listed voice (GET /api/podcast/dub/voices).',
        {
          reason: 'VOICE_CLONING_NOT_CONFIGURED',
          provider: 'voice_clone',
          adapter_available: false,
          configure: [],
          not_capable: ['local (espeak-ng)', 'tts_vendor (OpenAI-compatible /audio/speech)'],
          alternative: 'GET /api/podcast/dub/voices',
        },
      );
    },
  }),

  defineRoute<unknown, unknown, { task_id: string }>({
    method: 'get',
    path: `${PREFIX}/dub/voices/{task_id}/result`,
    auth: 'user',
    successBody: 'bare',
    tags,
    rateScheme: 'status',
    summary: 'A voice-cloning task and its result',
    description:
      'The task record of a cloning task of the caller (404 for any other task: without a cloning vendor there are none).',
    request: { params: taskIdParams },
    responses: { 200: { description: 'The task record', data: taskRecordOf(CLONE_TASK) } },
    errors: { 503: 'Background work (Temporal) is not available' },
    etag: true,
    async handler(ctx) {
      const t = await ownTask(ctx, ctx.params.task_id, CLONE_TASK);
      return { data: presentTask(t, [], ctx), headers: pollHeaders(t.status) };
    },
  }),

  fileRoute('dub/voices/audio', 'voice', 'Serve a cloned voice preview (MP3)', 'audio/mpeg'),
];
