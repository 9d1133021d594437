/**
 * Subtitles written from measured timings. The engine synthesises narration
 * one sentence at a time and measures each sentence's audio, so every cue's
 * start and end are where the sentence really is in the soundtrack. A long
 * sentence is cut at phrase boundaries (chunkText) into cues of at most two
 * lines (CUE_MAX_CHARS; burned captions: two lines of the frame, captionChars),
 * each getting a share of the sentence's time proportional to its characters.
 * Output: SubRip (SRT), WebVTT and ASS (burned captions).
 */

/**
 * How captions reach the viewer (docs/video.md, "Captions"): `mux` a mov_text track (the default), `burn` drawn
 * into the picture, `both` the picture and a track (only on request: MP4 marks its one subtitle track enabled, so
 * a player that shows enabled tracks shows the captions twice), `none`. SRT and WebVTT files are written in every case.
 */
export const SUBTITLE_MODES = ['mux', 'burn', 'both', 'none'] as const;
export type SubtitleMode = (typeof SUBTITLE_MODES)[number];

/** Whether a mode draws the captions into the picture. */
export const burnsCaptions = (m: SubtitleMode | undefined): boolean => m === 'burn' || m === 'both';
/** Whether a mode adds a mov_text track (`mux` is the default). */
export const carriesTrack = (m: SubtitleMode | undefined): boolean => m === undefined || m === 'mux' || m === 'both';

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

/** Words a cue should not end on: what follows them belongs to them ("a monthly author night in" | "the shop."). */
const WEAK_END = new Set(
  (
    'a an the of to in on at for with by from into onto about as than and or but nor so yet if that which who whose ' +
    'my your our their its his her this these those is are was were be been being am will would can could shall ' +
    'should may might must do does did has have had not no very more most less such every each any some own'
  ).split(' '),
);
/** Words a phrase begins with: a cue may start on them. */
const CLAUSE_START = new Set(
  'and but or so yet because which who whom whose when while where whereas if although though since unless until then'.split(
    ' ',
  ),
);
const PREPOSITION = new Set(
  'with without for to in on at by from into onto about through during before after over under between across'.split(
    ' ',
  ),
);
/** Words a noun phrase begins with: a break before them keeps the phrase whole ("can host | a monthly author night"). */
const DETERMINER = new Set('a an the this these those my your our their his her its every each some any no'.split(' '));
const bare = (w: string) => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** How bad a break between `left` and `right` reads (0: a sentence ends; large: it splits a phrase). */
function breakCost(left: string, right: string): number {
  if (/[.!?…]["'”’)]*$/.test(left)) return 0;
  if (/[,;:)\]"”’]$/.test(left) || /^[(\[“"—–]/.test(right) || right === '-' || right === '—') return 2;
  if (WEAK_END.has(bare(left))) return 40;
  if (CLAUSE_START.has(bare(right))) return 4;
  if (PREPOSITION.has(bare(right))) return 7;
  if (DETERMINER.has(bare(right))) return 8;
  return 12;
}

/**
 * Splits text into chunks of at most `max` characters at the best places to pause: after a sentence, then after a
 * comma or colon, before a clause ("and", "because", "which") or a preposition, never after an article or a
 * preposition, and never inside a word (a word longer than `max` stays whole). Among the splits that fit, the one
 * with the fewest and best-placed breaks and no stub chunks wins (a dynamic programme over the word boundaries).
 */
export function chunkText(text: string, max = CUE_MAX_CHARS): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const n = words.length;
  if (!n) return [];
  const best: number[] = [0, ...Array<number>(n).fill(Infinity)];
  const from: number[] = Array<number>(n + 1).fill(0);
  for (let j = 1; j <= n; j++) {
    let len = -1;
    for (let i = j - 1; i >= 0; i--) {
      len += words[i].length + 1;
      if (len > max && i < j - 1) break;
      const stub = len < max * 0.3 && n > 1 ? 15 : 0;
      const brk = j < n ? breakCost(words[j - 1], words[j]) : 0;
      const c = best[i] + 10 + stub + brk;
      if (c < best[j]) {
        best[j] = c;
        from[j] = i;
      }
    }
  }
  const out: string[] = [];
  for (let j = n; j > 0; j = from[j]) out.unshift(words.slice(from[j], j).join(' '));
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

/** A stretch of text at its times cut into cues of at most `max` characters (chunkText), time shared by characters. */
function splitTimed(s: TimedSentence, max: number): Cue[] {
  const chunks = chunkText(s.text, max);
  if (!chunks.length || !(s.end > s.start)) return [];
  const total = chunks.reduce((a, c) => a + c.length, 0);
  const cues: Cue[] = [];
  let t = s.start;
  for (const [i, c] of chunks.entries()) {
    const end = i === chunks.length - 1 ? s.end : t + ((s.end - s.start) * c.length) / total;
    cues.push({ start: t, end, text: c });
    t = end;
  }
  return cues;
}

/** Cues of timed sentences: long sentences are cut at phrase boundaries, time shared by characters; empty ones dropped. */
export const cuesFromSentences = (sentences: readonly TimedSentence[], maxChars = CUE_MAX_CHARS): Cue[] =>
  sentences.flatMap((s) => splitTimed(s, maxChars));

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

/**
 * How many characters a burned caption line and cue may hold in a frame (captionStyle): the safe width over 0.6 em
 * a character (DejaVu Sans averages about 0.55 em over English text, capitals and wide letters included), at most
 * 42 a line (the broadcast guideline), and two lines a cue. About 22 a line on 9:16, 25 on 1:1, 42 on 16:9.
 */
export function captionChars(width: number, height: number): { line: number; cue: number } {
  const st = captionStyle(width, height);
  const line = Math.min(LINE_CHARS, Math.floor((width - 2 * st.marginH) / (0.6 * st.fontSize)));
  return { line, cue: 2 * line };
}

/** ASS time: H:MM:SS.cc (centiseconds). */
function assStamp(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(cs / 360_000)}:${pad(Math.floor((cs % 360_000) / 6000))}:${pad(Math.floor((cs % 6000) / 100))}.${pad(cs % 100)}`;
}

/**
 * Advanced SubStation Alpha for burning captions into a frame of `width` × `height` (captionStyle): white DejaVu
 * Sans with a black outline, bottom centre, wrapped by libass to the safe area (smart wrapping, so no word is cut),
 * at most two lines a cue (captionChars: longer cues are cut at phrase boundaries, time shared by characters).
 * A cue's own line breaks are joined: the frame decides the lines. Override braces and backslashes in the text are
 * replaced, so a caption is always shown as written.
 */
export function toAss(cues: readonly Cue[], width: number, height: number): string {
  const st = captionStyle(width, height);
  // Cues longer than two of the frame's lines are cut again at phrase boundaries (narrow frames hold fewer words).
  const perCue = captionChars(width, height).cue;
  const fitted = cues.flatMap((c) => splitTimed(c, perCue));
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
    ...fitted.map((c) => `Dialogue: 0,${assStamp(c.start)},${assStamp(c.end)},Default,,0,0,0,,${text(c.text)}`),
    '',
  ].join('\n');
}
