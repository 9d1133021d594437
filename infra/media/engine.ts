/**
 * The media engine's steps, free of Temporal so that activities (video now,
 * podcast next) and the benchmark run the very same code:
 *   speak      narration → one measured WAV per sentence (TTS port + ffprobe)
 *   soundtrack sentences → a scene's WAV of an exact length (timeline.fitSpeech)
 *   picture    a scene's still (image studio offline renderer, or a plain
 *              background) → an H.264 segment of exact frames
 *   assemble   segments + soundtracks → MP4 (loudness, subtitles, faststart)
 * Every file a step reads was validated with ffprobe (probe.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AUDIO_SAMPLE_RATE } from '../../domain/media/formats';
import { Cue, cuesFromSentences, shiftCues, toAss, toSrt, toWebVtt } from '../../domain/media/subtitles';
import { fitSpeech } from '../../domain/media/timeline';
import type { SpeechProvider, VoiceSettings } from '../../domain/media/voices';
import type { SceneVisual } from '../../domain/video/types';
import type { SpeechEngines } from '../tts/port';
import { VendorNotConfiguredError } from '../ai/errors';
import { concatCopy, LoudnessMeasure, measureForLoudnorm, muxFinal, renderSceneAudio, renderStill } from './ffmpeg';
import { validateInput } from './probe';
import type { MediaTools } from './tools';
import { renderSceneStill, StillInfo } from './visuals';

export interface Engine {
  tools: MediaTools;
  speech: SpeechEngines;
}

export const SPEECH_VENDOR_VARIABLES = ['TTS_VENDOR_BASE_URL', 'TTS_VENDOR_API_KEY', 'TTS_VENDOR_MODEL'];

export interface SpokenSentence {
  text: string;
  file: string;
  seconds: number;
}

export interface SpeechOutcome {
  sentences: SpokenSentence[];
  provider: SpeechProvider;
  voice: string;
  model: string;
  pitch_applied: boolean;
  chars: number;
}

/** Longest audio accepted for one sentence (a vendor answering with minutes of audio is a wrong answer). */
const MAX_SENTENCE_SECONDS = 90;

/** Synthesises each sentence to `dir/sentence-<n>.wav` and measures it. */
export async function speak(
  engine: Engine,
  o: {
    sentences: string[];
    voice: VoiceSettings;
    provider: SpeechProvider;
    dir: string;
    signal?: AbortSignal;
    idempotencyKey?: string;
    onSentence?: (done: number) => void;
  },
): Promise<SpeechOutcome> {
  const synth = o.provider === 'local' ? engine.speech.local : engine.speech.vendor;
  if (!synth) throw new VendorNotConfiguredError('tts_vendor', SPEECH_VENDOR_VARIABLES);
  await mkdir(o.dir, { recursive: true });
  const out: SpokenSentence[] = [];
  let meta = { voice: o.voice.voice ?? '', model: synth.model, pitch_applied: true };
  for (const [i, text] of o.sentences.entries()) {
    const file = path.join(o.dir, `sentence-${String(i).padStart(3, '0')}.wav`);
    const r = await synth.synthesize({
      text,
      voice: o.voice,
      out: file,
      signal: o.signal,
      idempotencyKey: o.idempotencyKey ? `${o.idempotencyKey}/${i}` : undefined,
    });
    meta = { voice: r.voice, model: r.model, pitch_applied: r.pitch_applied };
    const p = await validateInput(
      engine.tools,
      file,
      { require: ['audio'], maxSeconds: MAX_SENTENCE_SECONDS },
      o.signal,
    );
    out.push({ text, file, seconds: p.duration });
    o.onSentence?.(i + 1);
  }
  return { sentences: out, provider: o.provider, ...meta, chars: o.sentences.reduce((a, s) => a + s.length, 0) };
}

export interface Soundtrack {
  file: string;
  frames: number;
  seconds: number;
  tempo: number;
  /** Scene-relative subtitle cues from the measured sentences. */
  cues: Cue[];
}

/** A scene's soundtrack fitted to its planned length (see domain/media/timeline.ts). */
export async function soundtrack(
  engine: Engine,
  o: { sentences: SpokenSentence[]; plannedSeconds: number; fps: number; out: string; signal?: AbortSignal },
): Promise<Soundtrack> {
  const fit = fitSpeech(o.sentences, o.plannedSeconds, o.fps);
  const samples = Math.round((fit.frames / o.fps) * AUDIO_SAMPLE_RATE);
  await renderSceneAudio(engine.tools, {
    sentences: o.sentences.map((s) => s.file),
    tempo: fit.tempo,
    samples,
    out: o.out,
    signal: o.signal,
  });
  await validateInput(engine.tools, o.out, { require: ['audio'], codecs: { audio: ['pcm_s16le'] } }, o.signal);
  return {
    file: o.out,
    frames: fit.frames,
    seconds: fit.seconds,
    tempo: fit.tempo,
    cues: cuesFromSentences(fit.sentences),
  };
}

export interface PictureOutcome {
  /** The scene's H.264 segment. */
  file: string;
  /** What the still really is (the image studio's offline renderer or a plain background). */
  still: StillInfo;
}

/** A scene's picture: its still (visuals.ts), then the H.264 segment (subtitles burnt in when given). */
export async function picture(
  engine: Engine,
  o: {
    visual: SceneVisual;
    /** The scene's visual_description: the prompt of an `image` still. */
    description?: string;
    /** The scene's heading and narration: the text of an `image` still's designed card. */
    heading?: string;
    narration?: string;
    width: number;
    height: number;
    fps: number;
    frames: number;
    dir: string;
    burnCues?: Cue[];
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
  },
): Promise<PictureOutcome> {
  const image = path.join(o.dir, 'background.png');
  const out = path.join(o.dir, 'picture.mp4');
  const still = await renderSceneStill({
    visual: o.visual,
    description: o.description,
    heading: o.heading,
    narration: o.narration,
    width: o.width,
    height: o.height,
    out: image,
  });
  await validateInput(engine.tools, image, { require: ['video'], codecs: { video: ['png'] } }, o.signal);
  let burn: string | undefined;
  if (o.burnCues?.length) {
    burn = path.join(o.dir, 'burn.ass');
    await writeFile(burn, toAss(o.burnCues, o.width, o.height));
  }
  await renderStill(engine.tools, {
    image,
    out,
    width: o.width,
    height: o.height,
    fps: o.fps,
    frames: o.frames,
    motion: o.visual.motion,
    burnSubtitles: burn,
    signal: o.signal,
    onProgress: o.onProgress,
  });
  await validateInput(engine.tools, out, { require: ['video'], codecs: { video: ['h264'] } }, o.signal);
  return { file: out, still };
}

export interface SceneParts {
  picture: string;
  soundtrack: string;
  seconds: number;
  cues: Cue[];
}

/**
 * How far a joined file's length may be from the scenes' total: 0.5 s, plus half a frame at 24 fps per scene for
 * callers whose segments are rounded to frames scene by scene (the podcast's); under the shortest scene (2 s) for
 * any plan of up to 70 scenes.
 */
const joinTolerance = (scenes: number) => 0.5 + scenes / 48;

/**
 * Size bound of files the engine made itself from validated parts (joined scenes, the deliverable): their size
 * follows from the plan's length (a 2-hour narration WAV is ~700 MB), so MEDIA_MAX_INPUT_BYTES, meant for files
 * from outside (uploads, vendor answers), does not apply to them.
 */
const OWN_FILE_MAX_BYTES = Number.MAX_SAFE_INTEGER;

/** Joined picture and sound of every scene, the subtitle cues on the video's timeline, and the loudness measure. */
export async function joinScenes(
  engine: Engine,
  scenes: SceneParts[],
  dir: string,
  signal?: AbortSignal,
): Promise<{ video: string; audio: string; cues: Cue[]; seconds: number; measure: LoudnessMeasure }> {
  const video = path.join(dir, 'joined.mp4');
  const audio = path.join(dir, 'joined.wav');
  await concatCopy(
    engine.tools,
    scenes.map((s) => s.picture),
    path.join(dir, 'pictures.txt'),
    video,
    signal,
  );
  await concatCopy(
    engine.tools,
    scenes.map((s) => s.soundtrack),
    path.join(dir, 'sounds.txt'),
    audio,
    signal,
  );
  const cues: Cue[] = [];
  let t = 0;
  for (const s of scenes) {
    cues.push(...shiftCues(s.cues, t));
    t += s.seconds;
  }
  // The joined files are inputs of the loudness pass and the mux: probed like every input, and as long as the
  // scenes together (a scene lost by the concat demuxer would otherwise surface as a short video).
  const tolerance = joinTolerance(scenes.length);
  const length = { minSeconds: Math.max(0, t - tolerance), maxSeconds: t + tolerance, maxBytes: OWN_FILE_MAX_BYTES };
  await validateInput(engine.tools, video, { require: ['video'], codecs: { video: ['h264'] }, ...length }, signal);
  // Any PCM the callers' soundtracks were validated as (the video studio's are pcm_s16le) is joined as is.
  await validateInput(engine.tools, audio, { require: ['audio'], ...length }, signal);
  const measure = await measureForLoudnorm(engine.tools, audio, signal);
  return { video, audio, cues, seconds: t, measure };
}

/** Writes SRT and WebVTT of `cues` next to each other; returns their paths. */
export async function writeSubtitles(cues: Cue[], base: string): Promise<{ srt: string; vtt: string }> {
  const srt = `${base}.srt`;
  const vtt = `${base}.vtt`;
  await writeFile(srt, toSrt(cues));
  await writeFile(vtt, toWebVtt(cues));
  return { srt, vtt };
}

/** The final MP4 (pass 2 of loudnorm, AAC, mov_text subtitles when given, faststart), validated. */
export async function finish(
  engine: Engine,
  o: {
    video: string;
    audio: string;
    measure: LoudnessMeasure;
    subtitles?: string;
    seconds: number;
    out: string;
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
  },
) {
  await muxFinal(engine.tools, o);
  return validateInput(
    engine.tools,
    o.out,
    { require: ['video', 'audio'], codecs: { video: ['h264'], audio: ['aac'] }, maxBytes: OWN_FILE_MAX_BYTES },
    o.signal,
  );
}
