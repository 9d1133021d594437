/**
 * Subtitles written from measured timings. The engine synthesises narration
 * one sentence at a time and measures each sentence's audio, so every cue's
 * start and end are where the sentence really is in the soundtrack. A long
 * sentence is cut into cues of at most two lines (CUE_MAX_CHARS), each
 * getting a share of the sentence's time proportional to its characters.
 * Output: SubRip (SRT) and WebVTT.
 */

export interface Cue {
  /** Seconds from the start of the media. */
  start: number;
  end: number;
  text: string;
}

/** A sentence of narration and where its audio is. */
export interface TimedSentence {
  text: string;
  start: number;
  end: number;
}

/** Characters per cue: two lines of 42, the common broadcast guideline. */
export const CUE_MAX_CHARS = 84;
const LINE_CHARS = 42;

/** Splits text into chunks of at most `max` characters at word boundaries (a longer single word stays whole). */
export function chunkText(text: string, max = CUE_MAX_CHARS): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const out: string[] = [];
  let cur = '';
  for (const w of words) {
    if (cur && cur.length + 1 + w.length > max) {
      out.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) out.push(cur);
  return out;
}

/** Breaks a cue's text into at most two lines near the middle (word boundary). */
export function wrapLines(text: string, width = LINE_CHARS): string {
  if (text.length <= width) return text;
  const mid = text.length / 2;
  let best = -1;
  for (let i = 0; i < text.length; i++)
    if (text[i] === ' ' && (best < 0 || Math.abs(i - mid) < Math.abs(best - mid))) best = i;
  return best < 0 ? text : `${text.slice(0, best)}\n${text.slice(best + 1)}`;
}

/** Cues of timed sentences: long sentences are cut, time shared by characters; empty sentences are dropped. */
export function cuesFromSentences(sentences: readonly TimedSentence[], maxChars = CUE_MAX_CHARS): Cue[] {
  const cues: Cue[] = [];
  for (const s of sentences) {
    const chunks = chunkText(s.text, maxChars);
    if (!chunks.length || !(s.end > s.start)) continue;
    const total = chunks.reduce((a, c) => a + c.length, 0);
    let t = s.start;
    for (const [i, c] of chunks.entries()) {
      const end = i === chunks.length - 1 ? s.end : t + ((s.end - s.start) * c.length) / total;
      cues.push({ start: t, end, text: c });
      t = end;
    }
  }
  return cues;
}

/** Cues moved by `offset` seconds (a scene's cues placed on the video's timeline). */
export const shiftCues = (cues: readonly Cue[], offset: number): Cue[] =>
  cues.map((c) => ({ ...c, start: c.start + offset, end: c.end + offset }));

function stamp(seconds: number, sep: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${sep}${pad(ms % 1000, 3)}`;
}

/** A cue's text made safe for both formats: no blank lines (they end a cue), no `-->`. */
const cueText = (t: string) => wrapLines(t.replace(/-->/g, '→').replace(/\r?\n\s*\r?\n/g, '\n'));

/** SubRip: numbered cues, `HH:MM:SS,mmm --> HH:MM:SS,mmm`. */
export function toSrt(cues: readonly Cue[]): string {
  return cues
    .map((c, i) => `${i + 1}\n${stamp(c.start, ',')} --> ${stamp(c.end, ',')}\n${cueText(c.text)}\n`)
    .join('\n');
}

/** WebVTT: `WEBVTT` header, `HH:MM:SS.mmm --> HH:MM:SS.mmm`; `<`, `>` and `&` escaped as the format requires. */
export function toWebVtt(cues: readonly Cue[]): string {
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = cues.map((c) => `${stamp(c.start, '.')} --> ${stamp(c.end, '.')}\n${esc(cueText(c.text))}\n`);
  return `WEBVTT\n\n${body.join('\n')}`;
}
