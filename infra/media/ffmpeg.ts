/**
 * The ffmpeg operations of the engine. Video: a still turned into a scene
 * segment (H.264, optional Ken Burns zoom, optional burnt-in subtitles);
 * segments joined without re-encoding; the final MP4 muxed with AAC audio,
 * subtitles as a mov_text track and `faststart` (index first, so players
 * start before the download ends). Audio: a scene's soundtrack built from
 * measured sentences; two-pass EBU R128 loudness normalisation (`loudnorm`:
 * measure, then correct with the measured values) to −16 LUFS / −1.5 dBTP;
 * AAC or MP3 encoding.
 *
 * Long operations report progress through `-progress pipe:1` and honour the
 * caller's AbortSignal (the child is killed; see process.ts).
 */
import { writeFile } from 'node:fs/promises';
import { AUDIO_SAMPLE_RATE } from '../../domain/media/formats';
import { LEAD_SECONDS, PAUSE_SECONDS } from '../../domain/media/timeline';
import { runTool } from './process';
import { LOUDNESS, MediaTools } from './tools';

export interface Progress {
  signal?: AbortSignal;
  /** Fraction 0–1 of the operation done. */
  onProgress?: (fraction: number) => void;
}

/** ffmpeg's `-progress` lines → fraction of `frames` (video) or of `seconds` (out_time). */
function progressParser(total: { frames?: number; seconds?: number }, cb?: (f: number) => void) {
  if (!cb) return undefined;
  return (line: string) => {
    const [k, v] = line.split('=');
    if (k === 'frame' && total.frames) cb(Math.min(1, Number(v) / total.frames));
    else if (k === 'out_time_us' && total.seconds && !total.frames) cb(Math.min(1, Number(v) / 1e6 / total.seconds));
  };
}

/** Arguments every ffmpeg run of the engine starts with: no banner, no stdin, overwrite, errors only. */
export const BASE = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error'];
const PROGRESS = ['-progress', 'pipe:1', '-nostats'];

/** A path as a value inside an ffmpeg filter graph (the subtitles filter's filename). */
export const filterPath = (p: string) => p.replace(/\\/g, '\\\\').replace(/:/g, '\\:').replace(/'/g, "\\'");

export interface StillSegment extends Progress {
  image: string;
  out: string;
  width: number;
  height: number;
  fps: number;
  frames: number;
  /** Ken Burns: a slow 15 % zoom in or out around the centre; `none` = static. */
  motion: 'zoom_in' | 'zoom_out' | 'none';
  /** ASS file burnt into the picture (scene-relative times; its own sizes: domain/media/subtitles.ts toAss). */
  burnSubtitles?: string;
}

/** The video filter chain of a still segment (exported for the benchmark's ffmpeg-alone run). */
export function stillFilter(s: Omit<StillSegment, 'image' | 'out'>): string {
  const n = Math.max(1, s.frames - 1);
  const zoom = s.motion === 'zoom_in' ? `1+0.15*on/${n}` : s.motion === 'zoom_out' ? `1.15-0.15*on/${n}` : undefined;
  const parts = zoom
    ? [
        `zoompan=z='${zoom}':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=${s.frames}:s=${s.width}x${s.height}:fps=${s.fps}`,
      ]
    : [`scale=${s.width}:${s.height}`, `fps=${s.fps}`];
  parts.push('setsar=1', 'format=yuv420p');
  if (s.burnSubtitles) parts.push(`subtitles=filename='${filterPath(s.burnSubtitles)}'`);
  return parts.join(',');
}

/** H.264 settings shared by every segment so they join without re-encoding (exported for the benchmark). */
export function h264Args(tools: MediaTools, fps: number): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    tools.x264Preset,
    '-crf',
    String(tools.crf),
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(fps),
    '-g',
    String(fps * 2),
    '-video_track_timescale',
    String(fps * 1000),
  ];
}

/** A still image as a video segment of exactly `frames` frames (no audio). */
export async function renderStill(tools: MediaTools, s: StillSegment): Promise<void> {
  const input = s.motion === 'none' ? ['-loop', '1', '-framerate', String(s.fps), '-i', s.image] : ['-i', s.image];
  await runTool(
    tools.ffmpeg,
    [
      ...BASE,
      ...input,
      '-vf',
      stillFilter(s),
      '-frames:v',
      String(s.frames),
      ...h264Args(tools, s.fps),
      '-an',
      ...PROGRESS,
      s.out,
    ],
    { signal: s.signal, keepStdout: false, onLine: progressParser({ frames: s.frames }, s.onProgress) },
  );
}

/**
 * Voice processing of narration before loudness normalisation, as in any
 * voice-over chain: a gentle compressor and a peak limiter. Synthetic speech
 * peaks near full scale with a crest factor around 20 dB; without this,
 * reaching −16 LUFS under a −1.5 dBTP ceiling makes loudnorm fall back to
 * heavy dynamic processing that lands up to 1 LU short of the target.
 */
export const VOICE_CHAIN =
  'acompressor=threshold=-24dB:ratio=4:attack=5:release=100:makeup=6dB,alimiter=limit=-3dB:level=false';

export interface SceneAudio extends Progress {
  /** Sentence WAVs in order (any sample rate; resampled to 48 kHz mono). */
  sentences: string[];
  /** Speed-up applied to the speech (1 = none). */
  tempo: number;
  /** Exact length of the soundtrack in samples at 48 kHz. */
  samples: number;
  out: string;
}

/**
 * A scene's soundtrack: lead-in silence, the sentences with a pause after
 * each but the last, sped up by `tempo`, then silence to exactly `samples`
 * (so audio and video of every scene have the same length to the sample).
 */
export async function renderSceneAudio(tools: MediaTools, a: SceneAudio): Promise<void> {
  const fmt = `aresample=${AUDIO_SAMPLE_RATE},aformat=sample_fmts=s16:channel_layouts=mono`;
  const tail = `apad=whole_len=${a.samples},atrim=end_sample=${a.samples}`;
  if (!a.sentences.length) {
    await runTool(
      tools.ffmpeg,
      [
        ...BASE,
        '-f',
        'lavfi',
        '-i',
        `anullsrc=r=${AUDIO_SAMPLE_RATE}:cl=mono`,
        '-af',
        tail,
        '-c:a',
        'pcm_s16le',
        a.out,
      ],
      { signal: a.signal },
    );
    return;
  }
  const last = a.sentences.length - 1;
  const chains = a.sentences.map((_f, i) => `[${i}:a]${fmt}${i < last ? `,apad=pad_dur=${PAUSE_SECONDS}` : ''}[s${i}]`);
  const joined = `${a.sentences.map((_f, i) => `[s${i}]`).join('')}concat=n=${a.sentences.length}:v=0:a=1`;
  const tempo = a.tempo !== 1 ? `,atempo=${a.tempo}` : '';
  const graph = `${chains.join(';')};${joined},${VOICE_CHAIN}${tempo},adelay=${Math.round(LEAD_SECONDS * 1000)}:all=1,${tail}[out]`;
  await runTool(
    tools.ffmpeg,
    [
      ...BASE,
      ...a.sentences.flatMap((f) => ['-i', f]),
      '-filter_complex',
      graph,
      '-map',
      '[out]',
      '-c:a',
      'pcm_s16le',
      a.out,
    ],
    { signal: a.signal },
  );
}

/** Joins files of identical parameters with the concat demuxer, without re-encoding. */
export async function concatCopy(
  tools: MediaTools,
  files: string[],
  listFile: string,
  out: string,
  signal?: AbortSignal,
) {
  await writeFile(listFile, files.map((f) => `file '${f.replace(/'/g, "'\\''")}'`).join('\n') + '\n');
  await runTool(tools.ffmpeg, [...BASE, '-f', 'concat', '-safe', '0', '-i', listFile, '-c', 'copy', out], { signal });
}

/** Values the first loudnorm pass measured (ffmpeg's JSON names). */
export interface LoudnessMeasure {
  input_i: string;
  input_tp: string;
  input_lra: string;
  input_thresh: string;
  target_offset: string;
}

const MEASURED: readonly (keyof LoudnessMeasure)[] = [
  'input_i',
  'input_tp',
  'input_lra',
  'input_thresh',
  'target_offset',
];

const isMeasure = (v: unknown): v is LoudnessMeasure =>
  typeof v === 'object' && v !== null && MEASURED.every((k) => typeof Reflect.get(v, k) === 'string');

/** The measurement loudnorm printed last on stderr (a JSON object with every value as text). */
function lastMeasure(stderr: string): LoudnessMeasure {
  const end = stderr.lastIndexOf('}');
  const start = stderr.lastIndexOf('{', end);
  if (start < 0 || end < 0) throw new Error('loudnorm printed no measurement');
  const measure: unknown = JSON.parse(stderr.slice(start, end + 1));
  if (!isMeasure(measure)) throw new Error(`loudnorm printed no measurement of ${MEASURED.join(', ')}`);
  return measure;
}

/** Pass 1 of loudnorm: measures integrated loudness, true peak, range and threshold. */
export async function measureForLoudnorm(
  tools: MediaTools,
  file: string,
  signal?: AbortSignal,
): Promise<LoudnessMeasure> {
  const { stderr } = await runTool(
    tools.ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-nostats',
      '-i',
      file,
      '-map',
      '0:a:0',
      '-af',
      `loudnorm=I=${LOUDNESS.I}:TP=${LOUDNESS.TP}:LRA=${LOUDNESS.LRA}:print_format=json`,
      '-f',
      'null',
      '-',
    ],
    { signal, keepStdout: false },
  );
  return lastMeasure(stderr);
}

/**
 * The pass-2 filter: corrects with the measured values (linear when the
 * measurement allows it), then back to 48 kHz (loudnorm works at 192 kHz).
 * Silence (nothing measurable) passes unchanged.
 */
export function loudnormFilter(m: LoudnessMeasure): string {
  // WAVs joined by the concat demuxer carry no channel layout; aformat gives them one the encoders accept.
  const out = `aresample=${AUDIO_SAMPLE_RATE},aformat=channel_layouts=mono|stereo`;
  if (!Number.isFinite(Number(m.input_i)) || Number(m.input_i) < -70) return out;
  return (
    `loudnorm=I=${LOUDNESS.I}:TP=${LOUDNESS.TP}:LRA=${LOUDNESS.LRA}:measured_I=${m.input_i}:measured_TP=${m.input_tp}` +
    `:measured_LRA=${m.input_lra}:measured_thresh=${m.input_thresh}:offset=${m.target_offset}:linear=true:print_format=json,` +
    out
  );
}

export interface FinalMux extends Progress {
  video: string;
  audio: string;
  measure: LoudnessMeasure;
  /** SRT muxed as a mov_text track (absent: no subtitle track). */
  subtitles?: string;
  seconds: number;
  out: string;
}

/** The deliverable: video copied, audio normalised (pass 2) and AAC-encoded, subtitles as mov_text, faststart. */
export async function muxFinal(tools: MediaTools, m: FinalMux): Promise<void> {
  const subs = m.subtitles ? ['-i', m.subtitles] : [];
  const subMap = m.subtitles
    ? [
        '-map',
        '2:s',
        '-c:s',
        'mov_text',
        '-metadata:s:s:0',
        'language=eng',
        '-metadata:s:s:0',
        'handler_name=Narration',
      ]
    : [];
  await runTool(
    tools.ffmpeg,
    [
      ...BASE,
      '-i',
      m.video,
      '-i',
      m.audio,
      ...subs,
      '-map',
      '0:v',
      '-map',
      '1:a',
      ...subMap,
      '-c:v',
      'copy',
      '-af',
      loudnormFilter(m.measure),
      '-c:a',
      'aac',
      '-b:a',
      '160k',
      '-ar',
      String(AUDIO_SAMPLE_RATE),
      '-movflags',
      '+faststart',
      ...PROGRESS,
      m.out,
    ],
    { signal: m.signal, keepStdout: false, onLine: progressParser({ seconds: m.seconds }, m.onProgress) },
  );
}

/** A normalised audio deliverable (podcast episodes): two-pass loudnorm, then MP3 (128 kb/s) or AAC in M4A (160 kb/s). */
export async function normaliseAudio(
  tools: MediaTools,
  input: string,
  out: string,
  codec: 'mp3' | 'aac',
  signal?: AbortSignal,
): Promise<LoudnessMeasure> {
  const measure = await measureForLoudnorm(tools, input, signal);
  const enc =
    codec === 'mp3'
      ? ['-c:a', 'libmp3lame', '-b:a', '128k']
      : ['-c:a', 'aac', '-b:a', '160k', '-movflags', '+faststart'];
  await runTool(tools.ffmpeg, [...BASE, '-i', input, '-map', '0:a:0', '-af', loudnormFilter(measure), ...enc, out], {
    signal,
  });
  return measure;
}
