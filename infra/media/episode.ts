/**
 * The media engine's podcast steps, beside engine.ts and built from the same
 * primitives (speak, soundtrack, concat, two-pass loudnorm, the still-segment
 * encoder, the final mux):
 *   speakLines     speaker lines → measured sentences, each line in its speaker's voice
 *   sceneAudio     those sentences → one scene WAV at its natural length (+ cues, line times)
 *   combineAudio   scene WAVs → one loudness-normalised MP3 (or M4A)
 *   stillVideo     an image + a scene's audio → H.264/AAC MP4 with subtitles (and its picture segment)
 *   uploadToWav    an uploaded audio file → a scene WAV (48 kHz mono PCM)
 *   dubSegmentWav  a dubbed segment's sentences → one WAV with pauses (dubbing)
 *   placeSegments  dubbed segments placed on the original timeline (dubbing)
 *   speakerPitch   measured median pitch of time ranges of a file
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AUDIO_SAMPLE_RATE } from '../../domain/media/formats';
import { medianPitchHz } from '../../domain/media/pitch';
import { narrationSentences } from '../../domain/media/narration';
import { burnsCaptions, carriesTrack, cuesFromSentences, Cue, SubtitleMode, toAss } from '../../domain/media/subtitles';
import { fitSpeech, LEAD_SECONDS, speechSeconds, TAIL_SECONDS } from '../../domain/media/timeline';
import type { SpeechProvider, VoiceSettings } from '../../domain/media/voices';
import { Engine, finish, soundtrack, speak, SpokenSentence, writeSubtitles } from './engine';
import { BASE, concatCopy, measureForLoudnorm, normaliseAudio, renderStill, VOICE_CHAIN } from './ffmpeg';
import { measureLoudness, validateInput } from './probe';
import { runTool } from './process';
import type { MediaTools } from './tools';

/** Frame rate of podcast audio timelines: scene audio lengths are whole frames at 25 fps (= video scenes fit exactly). */
export const AUDIO_TIMELINE_FPS = 25;

export interface LineToSpeak {
  speaker: string;
  text: string;
  voice: VoiceSettings;
}

export interface SpokenLine {
  speaker: string;
  voice: string;
  text: string;
  sentences: SpokenSentence[];
  model: string;
  pitch_applied: boolean;
}

/** Each line spoken in its speaker's voice, sentence by sentence, every file measured. */
export async function speakLines(
  engine: Engine,
  o: {
    lines: LineToSpeak[];
    provider: SpeechProvider;
    dir: string;
    signal?: AbortSignal;
    idempotencyKey?: string;
    onLine?: (done: number) => void;
  },
): Promise<SpokenLine[]> {
  const out: SpokenLine[] = [];
  for (const [i, l] of o.lines.entries()) {
    const r = await speak(engine, {
      sentences: narrationSentences(l.text),
      voice: l.voice,
      provider: o.provider,
      dir: path.join(o.dir, `line-${String(i).padStart(3, '0')}`),
      signal: o.signal,
      idempotencyKey: o.idempotencyKey ? `${o.idempotencyKey}/${i}` : undefined,
    });
    out.push({
      speaker: l.speaker,
      voice: r.voice,
      text: l.text,
      sentences: r.sentences,
      model: r.model,
      pitch_applied: r.pitch_applied,
    });
    o.onLine?.(i + 1);
  }
  return out;
}

export interface SceneAudio {
  file: string;
  seconds: number;
  cues: Cue[];
  lines: Array<{ speaker: string; voice: string; text: string; start: number; end: number }>;
}

/** A scene's WAV (48 kHz mono PCM) at its natural length: lead-in, the lines with pauses, the tail. */
export async function sceneAudio(
  engine: Engine,
  o: { lines: SpokenLine[]; out: string; signal?: AbortSignal },
): Promise<SceneAudio> {
  const sentences = o.lines.flatMap((l) => l.sentences);
  const natural = speechSeconds(sentences.map((s) => s.seconds)) + LEAD_SECONDS + TAIL_SECONDS;
  const fit = fitSpeech(sentences, natural, AUDIO_TIMELINE_FPS);
  const track = await soundtrack(engine, {
    sentences,
    plannedSeconds: natural,
    fps: AUDIO_TIMELINE_FPS,
    out: o.out,
    signal: o.signal,
  });
  let k = 0;
  const lines = o.lines.map((l) => {
    const timed = fit.sentences.slice(k, k + l.sentences.length);
    k += l.sentences.length;
    const r = (x: number) => Math.round(x * 1000) / 1000;
    return {
      speaker: l.speaker,
      voice: l.voice,
      text: l.text,
      start: r(timed[0]?.start ?? 0),
      end: r(timed[timed.length - 1]?.end ?? 0),
    };
  });
  return {
    file: track.file,
    seconds: track.seconds,
    cues: track.cues.length ? track.cues : cuesFromSentences(fit.sentences),
    lines,
  };
}

/** Scene WAVs joined (no re-encode) and normalised in two passes to −16 LUFS / −1.5 dBTP; probed and measured. */
export async function combineAudio(
  engine: Engine,
  o: { files: string[]; dir: string; out: string; codec: 'mp3' | 'aac'; signal?: AbortSignal },
) {
  await mkdir(o.dir, { recursive: true });
  const joined = path.join(o.dir, 'joined.wav');
  await concatCopy(engine.tools, o.files, path.join(o.dir, 'audio.txt'), joined, o.signal);
  const input = await validateInput(engine.tools, joined, { require: ['audio'] }, o.signal);
  const measure = await normaliseAudio(engine.tools, joined, o.out, o.codec, o.signal);
  const out = await validateInput(
    engine.tools,
    o.out,
    { require: ['audio'], codecs: { audio: [o.codec === 'mp3' ? 'mp3' : 'aac'] } },
    o.signal,
  );
  const loud = await measureLoudness(engine.tools, o.out, o.signal);
  return { input_seconds: input.duration, probe: out, measure, loudness: loud };
}

/**
 * A scene video: the image (already sized to width×height) held for the
 * audio's length (slow zoom), the audio normalised (two passes) as AAC,
 * subtitles as a mov_text track or burnt in; faststart. Returns the final
 * file and the picture segment (kept to join scenes later without re-encoding).
 */
export async function stillVideo(
  engine: Engine,
  o: {
    image: string;
    audio: string;
    seconds: number;
    cues: Cue[];
    width: number;
    height: number;
    fps: number;
    subtitles: SubtitleMode;
    dir: string;
    out: string;
    signal?: AbortSignal;
    onProgress?: (f: number) => void;
  },
) {
  await mkdir(o.dir, { recursive: true });
  const pictureFile = path.join(o.dir, 'picture.mp4');
  let burn: string | undefined;
  if (burnsCaptions(o.subtitles) && o.cues.length) {
    burn = path.join(o.dir, 'burn.ass');
    await writeFile(burn, toAss(o.cues, o.width, o.height));
  }
  const frames = Math.max(1, Math.round(o.seconds * o.fps));
  await renderStill(engine.tools, {
    image: o.image,
    out: pictureFile,
    width: o.width,
    height: o.height,
    fps: o.fps,
    frames,
    motion: 'zoom_in',
    burnSubtitles: burn,
    signal: o.signal,
    onProgress: (f) => o.onProgress?.(0.8 * f),
  });
  await validateInput(engine.tools, pictureFile, { require: ['video'], codecs: { video: ['h264'] } }, o.signal);
  const subs = await writeSubtitles(o.cues, path.join(o.dir, 'subtitles'));
  const measure = await measureForLoudnorm(engine.tools, o.audio, o.signal);
  const probed = await finish(engine, {
    video: pictureFile,
    audio: o.audio,
    measure,
    subtitles: carriesTrack(o.subtitles) && o.cues.length ? subs.srt : undefined,
    seconds: frames / o.fps,
    out: o.out,
    signal: o.signal,
    onProgress: (f) => o.onProgress?.(0.8 + 0.2 * f),
  });
  return { picture: pictureFile, probe: probed, frames };
}

/** An uploaded audio file in the scenes' WAV format: its first audio stream, 48 kHz mono PCM. */
export function uploadToWav(tools: MediaTools, input: string, out: string, signal?: AbortSignal) {
  return runTool(
    tools.ffmpeg,
    [...BASE, '-i', input, '-map', '0:a:0', '-ac', '1', '-ar', '48000', '-c:a', 'pcm_s16le', out],
    { signal },
  );
}

/** A dubbed segment's sentence WAVs joined into one (48 kHz mono PCM), a 0.25 s pause after each but the last. */
export function dubSegmentWav(tools: MediaTools, sentences: string[], out: string, signal?: AbortSignal) {
  return runTool(
    tools.ffmpeg,
    [
      ...BASE,
      ...sentences.flatMap((file) => ['-i', file]),
      '-filter_complex',
      `${sentences.map((_x, k) => `[${k}:a]aresample=48000,aformat=channel_layouts=mono${k < sentences.length - 1 ? ',apad=pad_dur=0.25' : ''}[a${k}]`).join(';')};${sentences.map((_x, k) => `[a${k}]`).join('')}concat=n=${sentences.length}:v=0:a=1[o]`,
      '-map',
      '[o]',
      '-c:a',
      'pcm_s16le',
      out,
    ],
    { signal },
  );
}

/**
 * Dubbed segments on the original timeline: each segment's speech, sped up by
 * its `tempo` (≤ 2, ffmpeg's atempo range in one stage), starts where the
 * original segment started; silence elsewhere; exactly `seconds` long; the
 * voice chain applied as for narration. Output: 48 kHz mono WAV.
 */
export async function placeSegments(
  tools: MediaTools,
  o: {
    segments: Array<{ file: string; start: number; tempo: number }>;
    seconds: number;
    out: string;
    signal?: AbortSignal;
  },
) {
  const samples = Math.round(o.seconds * AUDIO_SAMPLE_RATE);
  const fmt = `aresample=${AUDIO_SAMPLE_RATE},aformat=sample_fmts=s16:channel_layouts=mono`;
  const tail = `apad=whole_len=${samples},atrim=end_sample=${samples}`;
  const chains = o.segments.map(
    (s, i) =>
      `[${i + 1}:a]${fmt}${s.tempo !== 1 ? `,atempo=${Math.min(2, Math.max(0.5, s.tempo)).toFixed(4)}` : ''},adelay=${Math.round(s.start * 1000)}:all=1[s${i}]`,
  );
  const mix = `[0:a]${o.segments.map((_s, i) => `[s${i}]`).join('')}amix=inputs=${o.segments.length + 1}:normalize=0:duration=longest,${VOICE_CHAIN},${tail}[out]`;
  await runTool(
    tools.ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-y',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-t',
      String(o.seconds),
      '-i',
      `anullsrc=r=${AUDIO_SAMPLE_RATE}:cl=mono`,
      ...o.segments.flatMap((s) => ['-i', s.file]),
      '-filter_complex',
      `${chains.join(';')}${chains.length ? ';' : ''}${mix}`,
      '-map',
      '[out]',
      '-c:a',
      'pcm_s16le',
      o.out,
    ],
    { signal: o.signal },
  );
  return validateInput(tools, o.out, { require: ['audio'] }, o.signal);
}

/** Median pitch (Hz) of the audio between `start` and `end` seconds (decoded to 16 kHz mono). */
export async function pitchOf(
  tools: MediaTools,
  file: string,
  ranges: Array<{ start: number; end: number }>,
  signal?: AbortSignal,
) {
  const rate = 16000;
  const parts: number[] = [];
  for (const r of ranges) {
    const { stdout } = await runRaw(tools, file, r.start, r.end - r.start, rate, signal);
    const pcm = new Int16Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.length / 2));
    for (const v of pcm) parts.push(v);
  }
  return medianPitchHz(parts, rate);
}

/** Raw s16le mono samples of a time range (a buffer, not text: runTool keeps text). */
function runRaw(tools: MediaTools, file: string, start: number, seconds: number, rate: number, signal?: AbortSignal) {
  return new Promise<{ stdout: Buffer }>((resolve, reject) => {
    const child = spawn(tools.ffmpeg, [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-ss',
      String(start),
      '-t',
      String(Math.max(0.05, seconds)),
      '-i',
      file,
      '-ac',
      '1',
      '-ar',
      String(rate),
      '-f',
      's16le',
      '-',
    ]);
    const chunks: Buffer[] = [];
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(signal.reason);
      if (code !== 0) return reject(new Error(`ffmpeg could not decode ${path.basename(file)} (exit ${code})`));
      resolve({ stdout: Buffer.concat(chunks) });
    });
  });
}
