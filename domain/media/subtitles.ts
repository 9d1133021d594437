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

/**
 * How burned-in captions are set in a frame of `width` × `height` pixels: the font size in pixels follows the
 * frame's height and, on narrow frames, its width (about 25 characters a line on 9:16, 28 on 1:1, 50 on 16:9), and
 * the margins keep the text inside the title-safe area (7 % of the width on each side, 7 % of the height above the
 * bottom edge). Sizes are in the frame's own pixels: the ASS file says PlayResX/PlayResY = the frame, so libass does
 * not rescale them from its 384 × 288 default (which made a 9:16 caption one word a line).
 */
export function captionStyle(width: number, height: number) {
  const fontSize = Math.max(12, Math.round(Math.min(height / 18, width / 16)));
  return {
    fontSize,
    outline: Math.max(2, Math.round(fontSize / 16)),
    marginH: Math.round(width * 0.07),
    marginV: Math.round(height * 0.07),
  };
}

/** ASS time: H:MM:SS.cc (centiseconds). */
function assStamp(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(cs / 360_000)}:${pad(Math.floor((cs % 360_000) / 6000))}:${pad(Math.floor((cs % 6000) / 100))}.${pad(cs % 100)}`;
}

/**
 * Advanced SubStation Alpha for burning captions into a frame of `width` × `height` (captionStyle): white DejaVu
 * Sans with a black outline, bottom centre, wrapped by libass to the safe area (smart wrapping, so no word is cut).
 * A cue's own line breaks are joined: the frame decides the lines. Override braces and backslashes in the text are
 * replaced, so a caption is always shown as written.
 */
export function toAss(cues: readonly Cue[], width: number, height: number): string {
  const st = captionStyle(width, height);
  const text = (t: string) =>
    t
      .replace(/\s*\r?\n\s*/g, ' ')
      .replace(/\\/g, '/')
      .replace(/\{/g, '(')
      .replace(/\}/g, ')')
      .trim();
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Default,DejaVu Sans,${st.fontSize},&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,${st.outline},0,2,${st.marginH},${st.marginH},${st.marginV},1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...cues.map((c) => `Dialogue: 0,${assStamp(c.start)},${assStamp(c.end)},Default,,0,0,0,,${text(c.text)}`),
    '',
  ].join('\n');
}
