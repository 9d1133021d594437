/**
 * The offline `local` image provider's renderer: a deterministic SVG composed
 * from the prompt — a palette from its colour and mood words (else from its
 * hash), a gradient sky, motifs its words name (sun/moon, mountains, city,
 * waves, stars, forest), abstract shapes by style preset, a vignette at
 * premium quality, and an optional text overlay (quote and title templates).
 * The same prompt, size, style and seed always give the same SVG; sharp
 * rasterises it (infra/image/raster.ts). It is honest about what it is: no
 * model, no understanding of the prompt beyond these words.
 */
import type { Quality } from './dimensions';

export interface RenderRequest {
  prompt: string;
  width: number;
  height: number;
  seed: number;
  quality: Quality;
  style_preset?: string;
  overlay?: { kind: 'quote' | 'title'; text: string };
}

export interface Rendered {
  svg: string;
  /** What was drawn, for the response metadata. */
  motifs: string[];
  palette: string[];
}

/** FNV-1a 32-bit hash. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32: a small seeded PRNG (the renderer must not use Math.random). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HUES: [RegExp, number][] = [
  [/\b(red|crimson|scarlet|ruby|fire)\b/, 0],
  [/\b(orange|sunset|autumn|amber|warm)\b/, 28],
  [/\b(gold|golden|yellow|sun|sunny|desert|sand)\b/, 48],
  [/\b(green|forest|nature|leaf|leaves|jungle|spring|grass)\b/, 120],
  [/\b(teal|turquoise|lagoon|mint)\b/, 172],
  [/\b(blue|ocean|sea|sky|water|ice|winter|cool)\b/, 210],
  [/\b(navy|indigo|night|midnight)\b/, 235],
  [/\b(purple|violet|lavender|magenta|galaxy|space)\b/, 275],
  [/\b(pink|rose|blossom|candy)\b/, 330],
];

/** Colour names of the hue words above, in the same order (what a description of the drawing calls them). */
const HUE_NAMES = ['red', 'orange', 'gold', 'green', 'teal', 'blue', 'navy', 'purple', 'pink'];

const hsl = (h: number, s: number, l: number) =>
  `hsl(${Math.round(((h % 360) + 360) % 360)},${Math.round(s)}%,${Math.round(l)}%)`;

const isDark = (text: string) => /\b(night|dark|midnight|noir|space|galaxy|moody|storm)\b/.test(text);
const saturationOf = (text: string) =>
  /\b(pastel|soft|muted|calm|minimal|minimalist)\b/.test(text) ? 40 : /\b(neon|vibrant|bold)\b/.test(text) ? 90 : 65;

/** Base hues and lightness from the prompt's colour and mood words. */
function paletteOf(text: string, rnd: () => number): { hues: number[]; dark: boolean; sat: number } {
  const hues = HUES.filter(([re]) => re.test(text)).map(([, h]) => h);
  if (!hues.length) hues.push(Math.floor(rnd() * 360));
  if (hues.length === 1) hues.push(hues[0] + 30 + rnd() * 150);
  return { hues, dark: isDark(text), sat: saturationOf(text) };
}

/** The abstract layer a style preset gets. */
export type Layer = 'bokeh' | 'polygons' | 'lines' | 'circles';

/**
 * What the renderer will draw for a prompt, style and quality, decided by words alone (no seed): the same
 * decisions renderSvg makes, so a description of the drawing (domain/image/enrich.ts) cannot drift from it.
 * Positions, sizes and a colour the prompt does not name depend on the seed.
 */
export interface DrawPlan {
  /** Colour names the prompt's words give (red, orange, gold, ...): the gradient's hues; none = chosen by the seed. */
  colours: string[];
  dark: boolean;
  tone: 'muted' | 'vivid' | 'plain';
  stars: boolean;
  celestial?: 'sun' | 'moon';
  layer: Layer;
  mountains: boolean;
  skyline: boolean;
  waves: boolean;
  trees: boolean;
  vignette: boolean;
  overlay?: { kind: 'quote' | 'title'; text: string };
}

export function drawPlan(r: Pick<RenderRequest, 'prompt' | 'style_preset' | 'quality' | 'overlay'>): DrawPlan {
  const text = `${r.prompt} ${r.style_preset ?? ''}`.toLowerCase();
  const style = (r.style_preset ?? '').toLowerCase();
  const sat = saturationOf(text);
  const celestial = /\b(sun|sunset|sunrise|moon|dawn|dusk)\b/.test(text)
    ? /\b(moon|night)\b/.test(text)
      ? 'moon'
      : 'sun'
    : undefined;
  return {
    colours: HUES.map(([re], i) => (re.test(text) ? HUE_NAMES[i] : '')).filter(Boolean),
    dark: isDark(text),
    tone: sat === 40 ? 'muted' : sat === 90 ? 'vivid' : 'plain',
    stars: /\b(stars?|night|galaxy|space)\b/.test(text),
    ...(celestial ? { celestial } : {}),
    layer: /photo|cinematic|analog|film/.test(style)
      ? 'bokeh'
      : /digital|vibrant|neon|comic|anime|3d|fantasy/.test(style)
        ? 'polygons'
        : /line|sketch|minimal/.test(style)
          ? 'lines'
          : 'circles',
    mountains: /\b(mountains?|hills?|peaks?|alps|landscape)\b/.test(text),
    skyline: /\b(city|skyline|urban|buildings?|downtown)\b/.test(text),
    waves: /\b(waves?|ocean|sea|beach|water|lake|river)\b/.test(text),
    trees: /\b(forest|trees?|woods|pine)\b/.test(text),
    vignette: r.quality === 'premium',
    ...(r.overlay && r.overlay.text ? { overlay: r.overlay } : {}),
  };
}

/** Text made safe inside SVG markup and attributes. */
export const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** Words of `text` wrapped into lines of at most `max` characters (a longer word gets a line of its own). */
export function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + w.length > max) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}

/** The text an overlay shows: for quotes the first quoted passage, else the prompt; at most 160 characters. */
export function overlayText(kind: 'quote' | 'title', prompt: string): string {
  const quoted = /["“](.{3,}?)["”]/.exec(prompt)?.[1];
  const t = (kind === 'quote' && quoted ? quoted : prompt).replace(/\s+/g, ' ').trim();
  return t.length > 160 ? `${t.slice(0, 157).trimEnd()}…` : t;
}

export function renderSvg(r: RenderRequest): Rendered {
  const { width: W, height: H } = r;
  const text = `${r.prompt} ${r.style_preset ?? ''}`.toLowerCase();
  const rnd = prng(hash32(`${r.prompt}|${r.style_preset ?? ''}`) ^ (r.seed >>> 0));
  const plan = drawPlan(r);
  const density = r.quality === 'draft' ? 0.5 : r.quality === 'premium' ? 1.5 : 1;
  const { hues, dark, sat } = paletteOf(text, rnd);
  const [h1, h2] = hues;
  const skyTop = hsl(h1, sat, dark ? 12 : 70);
  const skyBottom = hsl(h2, sat, dark ? 28 : 88);
  const accent = hsl(h2 + 180, Math.min(95, sat + 20), dark ? 65 : 50);
  const ground = hsl(h1 + 20, sat * 0.7, dark ? 10 : 35);
  const palette = [skyTop, skyBottom, accent, ground];
  const motifs: string[] = ['gradient'];
  const defs: string[] = [
    `<linearGradient id="sky" x1="0" y1="0" x2="${rnd() * 0.4}" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyBottom}"/></linearGradient>`,
    // Soft glows are radial gradients, not blur filters: librsvg rasterises them many times faster.
    `<radialGradient id="glow"><stop offset="0" stop-color="#fff" stop-opacity="0.9"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>`,
  ];
  const body: string[] = [`<rect width="${W}" height="${H}" fill="url(#sky)"/>`];
  const n = (base: number) => Math.max(1, Math.round(base * density));
  const S = Math.min(W, H);

  if (plan.stars) {
    motifs.push('stars');
    for (let i = 0; i < n(60); i++)
      body.push(
        `<circle cx="${(rnd() * W).toFixed(1)}" cy="${(rnd() * H * 0.6).toFixed(1)}" r="${(rnd() * S * 0.004 + 0.6).toFixed(2)}" fill="#fff" opacity="${(0.4 + rnd() * 0.6).toFixed(2)}"/>`,
      );
  }
  if (plan.celestial) {
    const moon = plan.celestial === 'moon';
    motifs.push(moon ? 'moon' : 'sun');
    const cx = W * (0.25 + rnd() * 0.5);
    const cy = H * (0.2 + rnd() * 0.25);
    const rr = S * (0.08 + rnd() * 0.06);
    const c = moon ? '#f4f1e1' : hsl(40, 95, 60);
    defs.push(
      `<radialGradient id="halo"><stop offset="0.4" stop-color="${c}" stop-opacity="0.6"/><stop offset="1" stop-color="${c}" stop-opacity="0"/></radialGradient>`,
    );
    body.push(`<circle cx="${cx}" cy="${cy}" r="${rr * 2.2}" fill="url(#halo)"/>`);
    body.push(`<circle cx="${cx}" cy="${cy}" r="${rr}" fill="${c}"/>`);
  }
  // Abstract layer by style: glows for photographic/cinematic, polygons for digital art, lines for line art.
  if (plan.layer === 'bokeh') {
    motifs.push('bokeh');
    for (let i = 0; i < n(14); i++)
      body.push(
        `<circle cx="${rnd() * W}" cy="${rnd() * H}" r="${S * (0.02 + rnd() * 0.08)}" fill="url(#glow)" opacity="${(0.2 + rnd() * 0.4).toFixed(2)}"/>`,
      );
  } else if (plan.layer === 'polygons') {
    motifs.push('polygons');
    for (let i = 0; i < n(10); i++) {
      const cx = rnd() * W;
      const cy = rnd() * H;
      const rr = S * (0.05 + rnd() * 0.15);
      const k = 3 + Math.floor(rnd() * 4);
      const pts = Array.from({ length: k }, (_, j) => {
        const a = (j / k) * Math.PI * 2 + rnd();
        return `${(cx + Math.cos(a) * rr).toFixed(1)},${(cy + Math.sin(a) * rr).toFixed(1)}`;
      }).join(' ');
      body.push(
        `<polygon points="${pts}" fill="${hsl(h1 + rnd() * 120, Math.min(95, sat + 15), 55)}" opacity="${(0.35 + rnd() * 0.4).toFixed(2)}"/>`,
      );
    }
  } else if (plan.layer === 'lines') {
    motifs.push('lines');
    for (let i = 0; i < n(6); i++)
      body.push(
        `<line x1="${rnd() * W}" y1="${rnd() * H}" x2="${rnd() * W}" y2="${rnd() * H}" stroke="${accent}" stroke-width="${S * 0.004}" opacity="0.6"/>`,
      );
  } else {
    motifs.push('circles');
    for (let i = 0; i < n(8); i++)
      body.push(
        `<circle cx="${rnd() * W}" cy="${rnd() * H}" r="${S * (0.03 + rnd() * 0.12)}" fill="${hsl(h1 + rnd() * 90, sat, 60)}" opacity="${(0.2 + rnd() * 0.35).toFixed(2)}"/>`,
      );
  }
  if (plan.mountains) {
    motifs.push('mountains');
    for (let layer = 0; layer < 2; layer++) {
      const base = H * (0.55 + layer * 0.15);
      const pts = [`0,${H}`];
      const k = n(6) + 2;
      for (let j = 0; j <= k; j++) pts.push(`${((j / k) * W).toFixed(1)},${(base - rnd() * H * 0.3).toFixed(1)}`);
      pts.push(`${W},${H}`);
      body.push(
        `<polygon points="${pts.join(' ')}" fill="${hsl(h1 + 10, sat * 0.5, (dark ? 14 : 40) - layer * 10)}"/>`,
      );
    }
  }
  if (plan.skyline) {
    motifs.push('skyline');
    let x = 0;
    while (x < W) {
      const bw = W * (0.04 + rnd() * 0.06);
      const bh = H * (0.15 + rnd() * 0.35);
      body.push(
        `<rect x="${x.toFixed(1)}" y="${(H - bh).toFixed(1)}" width="${(bw + 1).toFixed(1)}" height="${bh.toFixed(1)}" fill="${ground}"/>`,
      );
      x += bw;
    }
  }
  if (plan.waves) {
    motifs.push('waves');
    for (let layer = 0; layer < 3; layer++) {
      const y0 = H * (0.72 + layer * 0.09);
      const amp = H * 0.015 * (1 + rnd());
      const len = W / (3 + Math.floor(rnd() * 4));
      let d = `M0,${y0.toFixed(1)}`;
      for (let x = 0, k = 0; x < W + len; x += len, k++)
        d += ` Q${(x + len / 2).toFixed(1)},${(y0 + (k % 2 ? amp : -amp)).toFixed(1)} ${(x + len).toFixed(1)},${y0.toFixed(1)}`;
      d += ` L${(W + len).toFixed(1)},${H} L0,${H} Z`;
      body.push(`<path d="${d}" fill="${hsl(200 + layer * 8, sat, (dark ? 20 : 45) - layer * 6)}" opacity="0.9"/>`);
    }
  }
  if (plan.trees) {
    motifs.push('trees');
    for (let i = 0; i < n(18); i++) {
      const x = rnd() * W;
      const th = H * (0.12 + rnd() * 0.15);
      const tw = th * 0.45;
      const y = H - rnd() * H * 0.08;
      body.push(
        `<polygon points="${x},${y - th} ${x - tw / 2},${y} ${x + tw / 2},${y}" fill="${hsl(125 + rnd() * 20, 45, dark ? 12 : 25 + rnd() * 10)}"/>`,
      );
    }
  }
  if (plan.vignette) {
    // Premium adds a vignette (a radial darkening of the corners) for depth.
    motifs.push('vignette');
    defs.push(
      `<radialGradient id="vignette" cx="0.5" cy="0.5" r="0.75"><stop offset="0.6" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/></radialGradient>`,
    );
    body.push(`<rect width="${W}" height="${H}" fill="url(#vignette)"/>`);
  }
  if (r.overlay && r.overlay.text) {
    motifs.push(`${r.overlay.kind} text`);
    const size = Math.max(12, Math.round(S * (r.overlay.kind === 'quote' ? 0.065 : 0.09)));
    const lines = wrap(r.overlay.text, Math.max(8, Math.floor((W * 0.8) / (size * 0.55)))).slice(0, 6);
    const lh = size * 1.25;
    const top = H / 2 - (lines.length * lh) / 2;
    body.push(
      `<rect x="${W * 0.06}" y="${top - size * 0.6}" width="${W * 0.88}" height="${lines.length * lh + size * 0.8}" rx="${size * 0.3}" fill="#000" opacity="0.35"/>`,
    );
    const content = r.overlay.kind === 'quote' ? lines.map((l, i) => (i === 0 ? `“${l}` : l)) : lines;
    if (r.overlay.kind === 'quote') content[content.length - 1] += '”';
    content.forEach((l, i) =>
      body.push(
        `<text x="${W / 2}" y="${(top + i * lh + size * 0.35).toFixed(1)}" font-family="DejaVu Sans, sans-serif" font-size="${size}" font-weight="bold" fill="#fff" text-anchor="middle" dominant-baseline="middle">${esc(l)}</text>`,
      ),
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs.join('')}</defs>${body.join('')}</svg>`;
  return { svg, motifs, palette };
}
