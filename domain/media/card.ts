/**
 * A scene's designed card (pure): its heading and one key line of its narration set on the scene's still, inside
 * the part of the picture every frame shows. The still is drawn BACKGROUND_SCALE (1.2) times the frame and the
 * Ken Burns motion zooms up to MAX_ZOOM (1.15) around the centre, so only the central 1/1.15 of the still is always
 * in the frame; the text stays within the title-safe area of that part (7 % of its width on each side, from the
 * top), and above the burned captions' band at the bottom. Sizes follow the frame: the heading's font is about a
 * fourteenth of the frame's height on wide frames and a twelfth of its width on narrow ones, shrunk until the
 * heading fits in three lines; the key line is 60 % of it, at most three lines. Characters are budgeted at 0.62 em
 * (DejaVu Sans Bold averages under that over English text), so a line never runs past the safe area.
 *
 * Output: an SVG overlay (the card's text, with a soft shadow for contrast) the size of the still, and the boxes of
 * its lines (for the tests that check the safe area).
 */
import { chunkText } from './subtitles';
import { narrationSentences } from './narration';
import { esc, wrap as greedy } from '../image/procedural';

/** The Ken Burns zoom's largest factor (infra/media/ffmpeg.ts stillFilter: 1 → 1.15). */
export const MAX_ZOOM = 1.15;
/** Title-safe margin, as a fraction of the visible picture. */
const SAFE = 0.07;
/** Average advance of a character, in em (a budget: DejaVu Sans Bold averages less over English text). */
const EM_PER_CHAR = 0.62;

export interface CardText {
  heading: string;
  line?: string;
}

export interface CardBox {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CardLayout {
  svg: string;
  lines: CardBox[];
  /** The rectangle (in still pixels) the text must stay inside. */
  safe: { left: number; top: number; right: number; bottom: number };
}

/**
 * The card's key line: the first sentence of the narration that says something beyond the heading (four words or
 * more, not the heading itself), cut at a phrase boundary to 90 characters with an ellipsis when longer.
 */
export function keyLine(heading: string, narration: string): string | undefined {
  const norm = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  const h = norm(heading);
  const s = narrationSentences(narration).find((x) => x.split(/\s+/).length >= 4 && norm(x) !== h);
  if (!s) return undefined;
  if (s.length <= 90) return s;
  return `${chunkText(s, 88)[0].replace(/[,;:]$/, '')}…`;
}

/**
 * Balanced wrap: as few lines as `perLine` allows, made as even as possible (the narrowest width that still needs
 * no more lines), so a heading never ends on a lone word ("Ask the author to read for ten / minutes").
 */
function wrap(text: string, perLine: number): string[] {
  const n = greedy(text, perLine).length;
  let w = perLine;
  while (w > 1 && greedy(text, w - 1).length === n) w--;
  return greedy(text, w);
}

/**
 * The card for a still of `width` × `height` (the oversize still, not the frame) whose frame is `frameWidth` ×
 * `frameHeight`.
 */
export function cardLayout(
  text: CardText,
  still: { width: number; height: number },
  frame: { width: number; height: number },
): CardLayout {
  const scale = still.width / frame.width;
  const visW = still.width / MAX_ZOOM;
  const visH = still.height / MAX_ZOOM;
  const safe = {
    left: (still.width - visW) / 2 + SAFE * visW,
    right: (still.width + visW) / 2 - SAFE * visW,
    top: (still.height - visH) / 2 + SAFE * visH,
    // Above the captions' band: the bottom 7 % margin and two caption lines of about a sixteenth of the frame.
    bottom: (still.height + visH) / 2 - (SAFE + 0.2) * visH,
  };
  const avail = safe.right - safe.left;
  let size = Math.round(Math.min(frame.height / 14, frame.width / 12) * scale);
  const perLine = (px: number) => Math.max(8, Math.floor(avail / (EM_PER_CHAR * px)));
  let head = wrap(text.heading, perLine(size));
  while (head.length > 3 && size > 12) {
    size = Math.round(size * 0.9);
    head = wrap(text.heading, perLine(size));
  }
  const lineSize = Math.round(size * 0.6);
  const body = text.line ? wrap(text.line, perLine(lineSize)).slice(0, 3) : [];
  const lead = 1.2;
  const gap = body.length ? size * 0.6 : 0;
  const blockH = head.length * size * lead + gap + body.length * lineSize * lead;
  // The block sits a little above the middle of the safe area (the eye's resting point), never outside it.
  const mid = safe.top + (safe.bottom - safe.top) * 0.42;
  const top = Math.max(safe.top, Math.min(mid - blockH / 2, safe.bottom - blockH));
  const cx = still.width / 2;
  const lines: CardBox[] = [];
  const rows: string[] = [];
  let y = top;
  const put = (t: string, px: number, weight: string) => {
    const w = Math.min(avail, t.length * EM_PER_CHAR * px);
    lines.push({ text: t, x: cx - w / 2, y, width: w, height: px * lead });
    // Baseline at about 0.8 em below the line's top (DejaVu's ascent).
    rows.push(
      `<text x="${cx.toFixed(1)}" y="${(y + px * 0.95).toFixed(1)}" font-size="${px}" font-weight="${weight}">${esc(t)}</text>`,
    );
    y += px * lead;
  };
  for (const t of head) put(t, size, 'bold');
  y += gap;
  for (const t of body) put(t, lineSize, 'normal');
  const shadow = Math.max(2, Math.round(size / 14));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${still.width}" height="${still.height}">` +
    `<defs><filter id="s" x="-10%" y="-10%" width="120%" height="120%"><feDropShadow dx="0" dy="${shadow}" stdDeviation="${shadow}" flood-color="#000" flood-opacity="0.75"/></filter></defs>` +
    `<g font-family="DejaVu Sans" fill="#ffffff" text-anchor="middle" filter="url(#s)">${rows.join('')}</g></svg>`;
  return { svg, lines, safe };
}
