/**
 * ffprobe: what a media file is. Every file the engine reads (synthesised
 * speech, uploaded audio, rendered segments) is probed and checked against
 * rules (kind, codecs, duration, size) before use, so a wrong input fails
 * early with a clear message instead of deep inside an ffmpeg filter graph.
 */
import { stat } from 'node:fs/promises';
import { MediaInputError, runTool } from './process';
import type { MediaTools } from './tools';

export interface ProbeStream {
  index: number;
  codec_type: 'audio' | 'video' | 'subtitle' | 'data' | string;
  codec_name: string;
  width?: number;
  height?: number;
  sample_rate?: number;
  channels?: number;
  duration?: number;
}

export interface ProbeResult {
  format: string;
  /** Seconds (the container's duration). */
  duration: number;
  size: number;
  streams: ProbeStream[];
}

interface RawProbe {
  format?: { format_name?: string; duration?: string; size?: string };
  streams?: Array<Record<string, unknown>>;
}

export async function probe(tools: MediaTools, file: string, signal?: AbortSignal): Promise<ProbeResult> {
  let out: string;
  try {
    out = (
      await runTool(tools.ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
        signal,
      })
    ).stdout;
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new MediaInputError(`${file.split('/').pop()} is not a readable media file: ${(e as Error).message}`);
  }
  const raw = JSON.parse(out) as RawProbe;
  const num = (v: unknown) => (v === undefined || v === null || v === 'N/A' ? undefined : Number(v));
  return {
    format: raw.format?.format_name ?? '',
    duration: num(raw.format?.duration) ?? 0,
    size: num(raw.format?.size) ?? (await stat(file)).size,
    streams: (raw.streams ?? []).map((s) => ({
      index: Number(s.index),
      codec_type: String(s.codec_type),
      codec_name: String(s.codec_name),
      ...(s.width !== undefined ? { width: Number(s.width), height: Number(s.height) } : {}),
      ...(s.sample_rate !== undefined ? { sample_rate: Number(s.sample_rate), channels: Number(s.channels) } : {}),
      ...(num(s.duration) !== undefined ? { duration: num(s.duration) } : {}),
    })),
  };
}

export interface InputRules {
  /** Stream kinds that must be present. */
  require: Array<'audio' | 'video'>;
  /** Accepted codecs per kind (absent = any). */
  codecs?: Partial<Record<'audio' | 'video', string[]>>;
  minSeconds?: number;
  maxSeconds?: number;
  /** Default: the tools' maxInputBytes. */
  maxBytes?: number;
}

/** Probes `file` and checks it against `rules`; throws MediaInputError naming what is wrong. */
export async function validateInput(
  tools: MediaTools,
  file: string,
  rules: InputRules,
  signal?: AbortSignal,
): Promise<ProbeResult> {
  const name = file.split('/').pop();
  const size = (await stat(file)).size;
  const maxBytes = rules.maxBytes ?? tools.maxInputBytes;
  if (size > maxBytes) throw new MediaInputError(`${name} is ${size} bytes; at most ${maxBytes} are accepted`);
  if (size === 0) throw new MediaInputError(`${name} is empty`);
  const p = await probe(tools, file, signal);
  for (const kind of rules.require) {
    const s = p.streams.find((x) => x.codec_type === kind);
    if (!s) throw new MediaInputError(`${name} has no ${kind} stream`);
    const ok = rules.codecs?.[kind];
    if (ok && !ok.includes(s.codec_name))
      throw new MediaInputError(`${name}: ${kind} codec ${s.codec_name} is not accepted (${ok.join(', ')})`);
  }
  if (rules.minSeconds !== undefined && p.duration < rules.minSeconds)
    throw new MediaInputError(`${name} lasts ${p.duration.toFixed(2)} s; at least ${rules.minSeconds} s are needed`);
  if (rules.maxSeconds !== undefined && p.duration > rules.maxSeconds)
    throw new MediaInputError(`${name} lasts ${p.duration.toFixed(2)} s; at most ${rules.maxSeconds} s are accepted`);
  return p;
}

/** Integrated loudness (LUFS) and true peak (dBTP) of a file, measured with ffmpeg's EBU R128 meter. */
export async function measureLoudness(
  tools: MediaTools,
  file: string,
  signal?: AbortSignal,
): Promise<{ integrated_lufs: number; true_peak_dbtp: number }> {
  const { stderr } = await runTool(
    tools.ffmpeg,
    ['-hide_banner', '-nostats', '-i', file, '-map', '0:a:0', '-af', 'ebur128=peak=true', '-f', 'null', '-'],
    { signal, keepStdout: false },
  );
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const i = /I:\s+(-?[\d.]+|-inf)\s+LUFS/.exec(summary)?.[1];
  const tp = /Peak:\s+(-?[\d.]+|-inf)\s+dBFS/.exec(summary)?.[1];
  const n = (v?: string) => (v === undefined || v === '-inf' ? -Infinity : Number(v));
  return { integrated_lufs: n(i), true_peak_dbtp: n(tp) };
}
