/**
 * Estimated rendered width of a title in a search result.
 *
 * Result titles are set in Arial at about 20 px and cut off near 600 px.
 * We sum per-character advance widths of Arial (in 1/1000 em, from the
 * font's published metrics) scaled to 20 px. Characters not in the table
 * count as an average lower-case letter (556). Kerning is ignored, so the
 * estimate is typically within a few pixels for Latin text.
 */

export const TITLE_FONT_PX = 20;
export const TITLE_MAX_PX = 600;

const WIDTHS: Record<string, number> = {};
const assign = (chars: string, w: number): void => {
  for (const c of chars) WIDTHS[c] = w;
};
assign('ijl', 222);
assign('|', 260);
assign(' ftI.,:;!/\\[]', 278);
assign("'", 191);
assign('"', 355);
assign('r()-', 333);
assign('*', 389);
assign('^', 469);
assign('ckvxyzsJ', 500);
assign('abdeghnopqu0123456789$#_?L~', 556);
assign('+<>=', 584);
assign('FTZ', 611);
assign('ABEKPSVXY&', 667);
assign('CDHNRUw', 722);
assign('GOQ', 778);
assign('mM', 833);
assign('%', 889);
assign('W', 944);
assign('@', 1015);
assign('–', 556);
assign('—', 1000);
assign('…', 1000);

/** Estimated width in pixels of `text` at `fontPx` (default 20 px Arial). */
export function textWidthPx(text: string, fontPx = TITLE_FONT_PX): number {
  let units = 0;
  for (const ch of text) {
    const base = ch.normalize('NFKD')[0] ?? ch; // accented letters take their base width
    units += WIDTHS[ch] ?? WIDTHS[base] ?? 556;
  }
  return (units * fontPx) / 1000;
}

export function fitsTitleWidth(text: string, maxPx = TITLE_MAX_PX): boolean {
  return textWidthPx(text) <= maxPx;
}

/** Cut `text` at a word boundary so it fits `maxPx`; no ellipsis is added. */
export function truncateToWidth(text: string, maxPx = TITLE_MAX_PX): string {
  if (fitsTitleWidth(text, maxPx)) return text;
  const words = text.split(/\s+/);
  let out = '';
  for (const w of words) {
    const next = out ? `${out} ${w}` : w;
    if (!fitsTitleWidth(next, maxPx)) break;
    out = next;
  }
  if (out === '') {
    // a single over-long word: cut by characters
    for (const ch of text) {
      if (!fitsTitleWidth(out + ch, maxPx)) break;
      out += ch;
    }
  }
  return out.replace(/[\s,;:–—-]+$/, '');
}
