/**
 * Audio routes of the podcast maker: one scene's speech (needs the approved
 * script), a user's audio for a scene (validated with ffprobe, size-limited),
 * the combined episode (two-pass loudness, MP3), and the audio files (Range,
 * ETag; single file names only). The work runs as tasks on the media engine.
 */
import { randomUUID } from 'node:crypto';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConflictError, NotFoundError, PayloadTooLargeError } from '../../domain/errors';
import { requireApprovedScript } from '../../domain/podcast/decide';
import { retakeLines } from '../../domain/podcast/script';
import { voiceProblem, chooseSpeechProvider, VoiceSettings, SpeechProviderChoice } from '../../domain/media/voices';
import { base64Bytes } from '../../infra/image/decode';
import { getPodcastFile } from '../../projections/podcast';
import { podcastAudioWorkflow, podcastCombineAudioWorkflow, podcastUploadWorkflow } from '../../workflows';
import { userIdOf } from '../kernel/handler';
import { defineRoute, RouteDef } from '../kernel/registry';
import { runTask, taskResponses } from '../kernel/tasks';
import { boundErrors } from '../kernel/fair-use';
import { serveStored } from '../video/files';
import { Ctx, currentProject, fileResults, invalid, mediaStorage, PREFIX, tags } from './common';
import { audioBody, audioResult, combineAudioBody, combineAudioResult, uploadBody } from './schemas/audio';
import { filenameParams } from './schemas/common';
import { latest } from './views';
import { ServiceUnavailableError } from '../../domain/errors';
import type { FileFolder } from '../../projections/podcast';

const binary = { type: 'string', format: 'binary' };
const MEDIA_ERRORS = {
  404: "No such project or scene (or not the caller's)",
  409: 'The script is missing or not approved',
  503: 'Background work (Temporal), media storage or the requested speech vendor is not available',
};
/** Longest uploaded scene audio. */
export const MAX_UPLOAD_SECONDS = 3600;

/** The speech provider a request resolves to; an unconfigured vendor is 503, an unknown local voice 400. */
export function speechFor(ctx: Ctx, choice: SpeechProviderChoice | undefined, voices: Array<[string, VoiceSettings]>) {
  const configured = !!ctx.deps.media?.speechVendorConfigured;
  if (choice === 'tts_vendor' && !configured)
    throw new ServiceUnavailableError(
      'tts_vendor is not configured: set TTS_VENDOR_BASE_URL, TTS_VENDOR_API_KEY, TTS_VENDOR_MODEL',
      { provider: 'tts_vendor' },
    );
  const provider = chooseSpeechProvider(choice, configured);
  for (const [where, v] of voices) {
    const problem = provider === 'local' ? voiceProblem('local', v.voice) : undefined;
    if (problem) throw invalid(where, problem, v.voice);
  }
  return provider;
}

/** A file route of the podcast maker: the caller's file of `folder`, from the media storage. */
export function fileRoute(
  route: string,
  folder: FileFolder,
  summary: string,
  contentType: string | string[],
  /** Ownership decided otherwise than by the project's files (dubs: by their task). */
  owns?: (ctx: Ctx, filename: string) => Promise<boolean>,
) {
  return defineRoute<unknown, unknown, { filename: string }>({
    method: 'get',
    path: `${PREFIX}/${route}/{filename}`,
    auth: 'user',
    tags,
    rateScheme: 'status',
    summary,
    description:
      'Honors `Range: bytes=start-end` (206), `If-None-Match` (304) and `If-Range`; file names are single segments (`/`, `\\`, `..` refused).',
    request: { params: filenameParams },
    responses: {
      200: { description: 'The whole file', contentType, data: binary },
      206: { description: 'The requested byte range (Content-Range)', contentType, data: binary },
      304: { description: 'Not modified (If-None-Match matched the ETag)' },
    },
    errors: { 416: 'The range starts past the end of the file', 503: 'Media storage is not configured' },
    async handler(ctx) {
      const storage = mediaStorage(ctx);
      const name = ctx.params.filename;
      const mine = owns ? await owns(ctx, name) : !!(await getPodcastFile(ctx.deps.db, userIdOf(ctx), folder, name));
      const stored = mine && (await storage.stat(`podcast/${folderPath(folder)}/${name}`));
      if (!stored) throw new NotFoundError('File not found');
      return serveStored(ctx, storage, stored);
    },
  });
}

const folderPath = (f: FileFolder) =>
  ({ audio: 'audio', video: 'videos', final_video: 'final-videos', dub: 'dub', voice: 'voices' })[f];

/** The audio tasks: their results carry their file's URL (fileResults). */
const UPLOAD = fileResults('podcast_audio_upload', 'audio');
const SPEAK = fileResults('podcast_audio', 'audio');
const COMBINE = fileResults('podcast_combine_audio', 'audio');

export const audioRoutes: RouteDef[] = [
  defineRoute<{ project_id: string; scene_id: string; audio_base64: string; filename?: string }>({
    method: 'post',
    path: `${PREFIX}/audio/upload`,
    auth: 'user',
    successBody: 'bare',
    tags,
    bodyLimitBytes: 24 * 1024 * 1024,
    summary: "Upload a scene's audio (replaces its speech)",
    description:
      "Any audio ffprobe reads (wav, mp3, m4a, ogg, flac), base64 or a data URL, at most 16 MB decoded (413 beyond) and 1 hour; it is validated with ffprobe (400 naming what is wrong) and converted to the scenes' format (48 kHz mono WAV) so it joins the episode like spoken scenes.",
    request: { body: uploadBody },
    responses: taskResponses('The stored scene audio', { taskType: UPLOAD, result: audioResult }),
    errors: { ...MEDIA_ERRORS, 413: 'The audio is larger than 16 MB', ...boundErrors('podcast_audio_upload') },
    async handler(ctx) {
      const b = ctx.body;
      const storage = mediaStorage(ctx);
      const p = await currentProject(ctx, b.project_id);
      if (!p.script?.scenes.some((s) => s.scene_id === b.scene_id))
        throw new NotFoundError(`scene ${b.scene_id} not found in the script`);
      const limit = ctx.deps.podcast?.maxUploadBytes ?? 16 * 1024 * 1024;
      const raw = b.audio_base64.trim().replace(/^data:audio\/[A-Za-z0-9.+-]+(;[^,]*)?,/i, '');
      let bytes: Buffer;
      try {
        bytes = base64Bytes(raw, 'audio_base64', limit);
      } catch (e) {
        if (/larger than/.test((e as Error).message))
          throw new PayloadTooLargeError(limit, `audio_base64 is larger than ${limit} bytes`);
        throw e;
      }
      const dir = await mkdtemp(path.join(tmpdir(), 'podcast-upload-'));
      const key = `podcast/uploads/${randomUUID()}.bin`;
      try {
        await writeFile(path.join(dir, 'upload.bin'), bytes);
        await storage.put(key, path.join(dir, 'upload.bin'));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      return runTask(
        ctx,
        {
          workflow: podcastUploadWorkflow,
          taskType: UPLOAD,
          idPrefix: 'podcast-upload',
        },
        { project_id: b.project_id, scene_id: b.scene_id, upload_key: key, max_seconds: MAX_UPLOAD_SECONDS },
      );
    },
  }),

  defineRoute<{
    project_id: string;
    scene_id: string;
    speech_provider?: SpeechProviderChoice;
    voices?: Record<string, VoiceSettings>;
    text?: string;
  }>({
    method: 'post',
    path: `${PREFIX}/audio`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: "Speak one scene of the approved script (each speaker's own voice)",
    description:
      "Each line is spoken in its speaker's voice (the script's, or `voices[speaker_id]`), sentence by sentence, every sentence measured with ffprobe; the scene's WAV (48 kHz mono) has a 0.3 s lead-in and tail and 0.25 s between sentences. The answer lists each line's measured start and end. `text` retakes the scene with the client's own words. 409 until the current script is approved. Metered: vendor speech per started 1,000 characters; espeak-ng is free.",
    request: { body: audioBody },
    responses: taskResponses('The scene audio', { taskType: SPEAK, result: audioResult }),
    errors: {
      ...MEDIA_ERRORS,
      400: 'Unknown speaker in voices, or a voice the provider cannot speak',
      ...boundErrors('podcast_audio'),
    } as Record<number, string>,
    async handler(ctx) {
      const b = ctx.body;
      mediaStorage(ctx);
      const p = await currentProject(ctx, b.project_id);
      const script = requireApprovedScript(p);
      const scene = script.scenes.find((s) => s.scene_id === b.scene_id);
      if (!scene) throw new NotFoundError(`scene ${b.scene_id} not found in the script`);
      for (const id of Object.keys(b.voices ?? {}))
        if (!script.speakers.some((s) => s.id === id))
          throw invalid(
            `voices.${id}`,
            `no speaker "${id}" in the script (${script.speakers.map((s) => s.id).join(', ')})`,
          );
      const voiceOf = (id: string) => ({
        ...(script.speakers.find((s) => s.id === id)?.voice ?? {}),
        ...(b.voices?.[id] ?? {}),
      });
      speechFor(
        ctx,
        b.speech_provider,
        script.speakers.map((s) => [`voices.${s.id}`, voiceOf(s.id)] as [string, VoiceSettings]),
      );
      return runTask(
        ctx,
        {
          workflow: podcastAudioWorkflow,
          taskType: SPEAK,
          idPrefix: 'podcast-audio',
        },
        {
          project_id: p.project_id,
          scene_id: scene.scene_id,
          lines: (b.text === undefined ? scene.lines : retakeLines(b.text, scene, script.speakers)).map((l) => ({
            speaker: l.speaker,
            text: l.text,
            voice: voiceOf(l.speaker),
          })),
          speech_provider: b.speech_provider ?? 'auto',
        },
      );
    },
  }),

  defineRoute<{ project_id: string; scene_ids?: string[]; format: 'mp3' | 'm4a' }>({
    method: 'post',
    path: `${PREFIX}/combine-audio`,
    auth: 'user',
    successBody: 'bare',
    tags,
    summary: "Join the scenes' audio into the episode (loudness-normalised MP3)",
    description:
      "The latest audio of each scene (every scene of the script by default, in order) joined without gaps or re-encoding, normalised in two passes to −16 LUFS / −1.5 dBTP and encoded as MP3 128 kb/s (or AAC 160 kb/s in M4A). The answer gives the measured duration and the sum of the scenes', the measured loudness, and each speaker's measured pitch.",
    request: { body: combineAudioBody },
    responses: taskResponses('The episode audio', { taskType: COMBINE, result: combineAudioResult }),
    errors: { ...MEDIA_ERRORS, 409: 'A scene has no audio yet', ...boundErrors('podcast_combine_audio') },
    async handler(ctx) {
      const b = ctx.body;
      mediaStorage(ctx);
      const p = await currentProject(ctx, b.project_id);
      const script = requireApprovedScript(p);
      const ids = b.scene_ids ?? script.scenes.map((s) => s.scene_id);
      const scenes = ids.map((id) => {
        if (!script.scenes.some((s) => s.scene_id === id))
          throw new NotFoundError(`scene ${id} not found in the script`);
        const a = latest(p, 'scene_audio', id);
        if (!a)
          throw new ConflictError(`scene ${id} has no audio yet: POST /api/podcast/audio first`, {
            reason: 'NO_AUDIO',
            scene_id: id,
          });
        return { scene_id: id, filename: a.filename, lines: a.lines };
      });
      return runTask(
        ctx,
        {
          workflow: podcastCombineAudioWorkflow,
          taskType: COMBINE,
          idPrefix: 'podcast-episode',
        },
        { project_id: p.project_id, scenes, codec: b.format === 'm4a' ? 'aac' : 'mp3' },
      );
    },
  }),

  fileRoute('audio', 'audio', 'Serve a podcast audio file (scene WAV, episode MP3/M4A)', [
    'audio/wav',
    'audio/mpeg',
    'audio/mp4',
  ]),
];
