/**
 * Timing arithmetic of a scene (pure): how many frames it has, how its
 * narration fits in it, and where each sentence lands.
 *
 * A scene's narration is a run of sentences, each synthesised and measured
 * on its own, joined with a short pause, after a lead-in and before a tail of
 * silence. When the speech does not fit the planned duration it is sped up
 * (ffmpeg `atempo`) by at most MAX_TEMPO; what still does not fit lengthens
 * the scene, and the render reports the real duration.
 */
import type { TimedSentence } from './subtitles';

export const LEAD_SECONDS = 0.3;
export const TAIL_SECONDS = 0.3;
export const PAUSE_SECONDS = 0.25;
/** Faster than this and synthetic speech gets hard to follow. */
export const MAX_TEMPO = 1.3;

/** Frames of a scene (at least one). */
export const sceneFrames = (seconds: number, fps: number): number => Math.max(1, Math.round(seconds * fps));

/** Length of the spoken part: sentences plus the pauses between them. */
export function speechSeconds(sentenceSeconds: readonly number[]): number {
  if (!sentenceSeconds.length) return 0;
  return sentenceSeconds.reduce((a, b) => a + b, 0) + PAUSE_SECONDS * (sentenceSeconds.length - 1);
}

export interface SpeechFit {
  /** atempo factor applied to the speech (1 = unchanged). */
  tempo: number;
  /** Frames of the scene after fitting (≥ the planned frames). */
  frames: number;
  /** Scene length in seconds (= frames / fps). */
  seconds: number;
  /** Sentences on the scene's timeline, after the tempo change. */
  sentences: TimedSentence[];
}

/** Fits measured sentences into a scene of `plannedSeconds` at `fps`. */
export function fitSpeech(
  sentences: readonly { text: string; seconds: number }[],
  plannedSeconds: number,
  fps: number,
): SpeechFit {
  const speech = speechSeconds(sentences.map((s) => s.seconds));
  const room = Math.max(0.1, plannedSeconds - LEAD_SECONDS - TAIL_SECONDS);
  const tempo = speech > room ? Math.min(MAX_TEMPO, speech / room) : 1;
  const needed = speech / tempo + LEAD_SECONDS + TAIL_SECONDS;
  const frames = Math.max(sceneFrames(plannedSeconds, fps), speech > 0 ? Math.ceil(needed * fps) : 0);
  const timed: TimedSentence[] = [];
  let t = LEAD_SECONDS;
  for (const [i, s] of sentences.entries()) {
    const len = s.seconds / tempo;
    timed.push({ text: s.text, start: t, end: t + len });
    t += len + (i < sentences.length - 1 ? PAUSE_SECONDS / tempo : 0);
  }
  return { tempo: Math.round(tempo * 10000) / 10000, frames, seconds: frames / fps, sentences: timed };
}

/**
 * Percent of a render done: scenes take 90 % weighted by their length, the
 * final assembly (join, loudness, mux) the last 10 %.
 */
export function renderPercent(sceneSeconds: readonly number[], sceneIndex: number, sceneFraction: number): number {
  const total = sceneSeconds.reduce((a, b) => a + b, 0) || 1;
  const before = sceneSeconds.slice(0, sceneIndex).reduce((a, b) => a + b, 0);
  const within = (sceneSeconds[sceneIndex] ?? 0) * Math.min(1, Math.max(0, sceneFraction));
  return Math.min(90, Math.floor((90 * (before + within)) / total));
}
