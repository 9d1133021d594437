/**
 * Scene stills, made 20 % larger than the frame so the Ken Burns zoom never
 * shows an edge:
 * - `image`: a designed card — the image studio's offline `local` renderer's
 *   picture of the scene's visual_description (domain/image/procedural.ts
 *   composes an SVG, infra/image/raster.ts rasterises it with sharp), dimmed,
 *   with the scene's heading and one key line of its narration set in the
 *   part of the frame every zoom shows (domain/media/card.ts). Deterministic:
 *   the same scene and size give the same still.
 * - `gradient` / `solid`: a plain background drawn with sharp (also used by
 *   the podcast maker when a scene has no picture).
 * Every still is dithered (a seeded ±2-level noise before it is stored), so a
 * gradient enlarged to a 1080×1920 frame shows no bands. What was drawn is
 * returned (`rendered_as`, the renderer's motifs) so that render results say
 * what each scene really shows.
 */
import sharp, { Sharp } from 'sharp';
import { cardLayout, keyLine } from '../../domain/media/card';
import { hash32, prng, renderSvg } from '../../domain/image/procedural';
import { RENDERED_AS, SceneStill, SceneVisual } from '../../domain/video/types';
import { renderSvgToPng } from '../image/raster';

/** Oversize factor of a background relative to the frame. */
export const BACKGROUND_SCALE = 1.2;

const hex = (c: string) => (/^#[0-9a-fA-F]{6}$/.test(c) ? c : '#000000');
const oversize = (side: number) => Math.ceil((side * BACKGROUND_SCALE) / 2) * 2;

/** A plain background: a diagonal two-colour gradient or a solid colour. */
export async function renderBackground(
  visual: Pick<SceneVisual, 'colors'> & Partial<Pick<SceneVisual, 'motion'>> & { kind: 'gradient' | 'solid' },
  width: number,
  height: number,
  out: string,
): Promise<void> {
  const w = oversize(width);
  const h = oversize(height);
  const [a, b] = [hex(visual.colors[0] ?? '#000000'), hex(visual.colors[1] ?? visual.colors[0] ?? '#000000')];
  const fill =
    visual.kind === 'solid'
      ? `<rect width="100%" height="100%" fill="${a}"/>`
      : `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/>` +
        `<stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${fill}</svg>`;
  await dithered(sharp(Buffer.from(svg)).flatten({ background: a }), out, hash32(`${a}${b}${w}x${h}`));
}

/** Side of the noise tile the dithering repeats over a still (px). */
const NOISE_TILE = 256;

/**
 * Writes the image as a PNG with noise: each channel moved by -2..+2 levels (triangular, from the image studio's
 * seeded PRNG, so the same still is the same file). An 8-bit gradient stretched over 2,000 pixels has steps a few
 * dozen pixels wide, which read as bands once enlarged; the noise breaks their edges up.
 *
 * libvips does the per-pixel work (every pixel lowered by 2, then a tile of 0..+4 noise added), off the event loop:
 * the same loop in JavaScript over a 1296×2304 still took seconds of main-thread time per scene, long enough to stall
 * the worker's heartbeats, Kafka sessions and HTTP connections of the process. Only the tile's 196,608 values come
 * from the PRNG; a 256-px repeat of ±2-level noise is invisible.
 */
async function dithered(img: Sharp, out: string, seed: number): Promise<void> {
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  // A tile no larger than the picture (libvips composites nothing larger).
  const [tw, th] = [Math.min(NOISE_TILE, info.width), Math.min(NOISE_TILE, info.height)];
  const random = prng(seed);
  const tile = Buffer.alloc(tw * th * 3);
  for (let i = 0; i < tile.length; i++) {
    // Two draws of 0..3 summed, less 3: -3..+3 (triangular around 0), clamped to ±2, stored +2 (0..4).
    const n = Math.floor(random() * 4) + Math.floor(random() * 4) - 3;
    tile[i] = (n > 2 ? 2 : n < -2 ? -2 : n) + 2;
  }
  // The picture was materialised first: a pipeline has one composite list, and a card's text is already one.
  await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .linear(1, -2)
    .composite([{ input: tile, raw: { width: tw, height: th, channels: 3 }, tile: true, blend: 'add' }])
    .png({ compressionLevel: 3 })
    .toFile(out);
}

/** What a scene's still really is. */
export type StillInfo = SceneStill;

/** The prompt of an `image` still when a scene has no description. */
const FALLBACK_PROMPT = 'abstract illustration';

/**
 * A scene's still (PNG at frame size × BACKGROUND_SCALE) written to `out`; says what was drawn. An `image` still is
 * the scene's designed card when a heading is given (its key line from `narration`).
 */
export async function renderSceneStill(o: {
  visual: SceneVisual;
  description?: string;
  heading?: string;
  narration?: string;
  width: number;
  height: number;
  out: string;
}): Promise<StillInfo> {
  if (o.visual.kind !== 'image') {
    await renderBackground({ kind: o.visual.kind, colors: o.visual.colors }, o.width, o.height, o.out);
    return { rendered_as: RENDERED_AS[o.visual.kind] };
  }
  const prompt = o.description?.trim() || FALLBACK_PROMPT;
  // Seeded by the description itself: the same scene text always gives the same still.
  const r = renderSvg({
    prompt,
    width: oversize(o.width),
    height: oversize(o.height),
    seed: hash32(prompt),
    quality: 'standard',
  });
  const png = await renderSvgToPng(r.svg);
  const heading = o.heading?.trim();
  if (!heading) {
    await dithered(sharp(png.bytes), o.out, hash32(prompt));
    return { rendered_as: RENDERED_AS.image, motifs: r.motifs };
  }
  const still = { width: oversize(o.width), height: oversize(o.height) };
  const card = cardLayout({ heading, line: keyLine(heading, o.narration ?? '') }, still, o);
  // The picture dimmed so white text reads on any palette (its mean luminance at most about 90 of 255, and never
  // above two thirds of its own), then the card's text over it.
  const picture = sharp(png.bytes).resize(still.width, still.height);
  const { channels } = await picture.clone().stats();
  const luminance = 0.2126 * channels[0].mean + 0.7152 * channels[1].mean + 0.0722 * channels[2].mean;
  const base = await picture.linear(Math.min(0.66, 90 / Math.max(1, luminance)), 0).toBuffer();
  await dithered(
    sharp(base).composite([{ input: Buffer.from(card.svg), top: 0, left: 0 }]),
    o.out,
    hash32(`${prompt}\n${heading}`),
  );
  return { rendered_as: RENDERED_AS.card, motifs: r.motifs };
}
