/**
 * Edits the platform does itself, with sharp and a little pixel work:
 *
 * - outpaint (`edge-extend-v1`): the canvas grows by the expand_* pixels; the
 *   new area repeats the image's edges mirrored, and a blurred copy takes over
 *   linearly with the distance from the original, so the extension
 *   continues the edge colours and structure without hard seams. It invents
 *   nothing: vendors paint new content, this extends what is there.
 * - remove_background (`flood-fill-v1`): for flat or solid backgrounds. The
 *   background colour is the median of the border pixels; every pixel
 *   connected to the border whose colour is within `tolerance` (RGB distance,
 *   default 48 of 441) becomes transparent, pixels up to 1.5x the tolerance
 *   next to them half transparent (a soft edge). When fewer than 60 % of the
 *   border pixels are near that colour the background is not flat and the
 *   operation is refused: a vendor that segments subjects is needed.
 */
import sharp from 'sharp';
import { ValidationError } from '../../domain/errors';
import { rawOf } from './raster';

/** Largest image the local flood fill works on (its pixel loop runs in the worker's JavaScript thread). */
export const FLOOD_FILL_MAX_PIXELS = 16_000_000;
export const DEFAULT_TOLERANCE = 48;
/** Share of border pixels that must match the background colour. */
export const MIN_BORDER_MATCH = 0.6;

export interface Expansion {
  left: number;
  right: number;
  up: number;
  down: number;
}

export async function outpaintLocal(
  input: Buffer,
  e: Expansion,
  limitInputPixels: number,
): Promise<{ bytes: Buffer; width: number; height: number }> {
  const base = sharp(input, { limitInputPixels, failOn: 'truncated' }).rotate().ensureAlpha();
  const orig = await base.clone().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = orig.info;
  const extended = await sharp(orig.data, { raw: rawOf(orig.info) })
    .extend({ top: e.up, bottom: e.down, left: e.left, right: e.right, extendWith: 'mirror' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const W = extended.info.width;
  const H = extended.info.height;
  const reach = Math.max(e.left, e.right, e.up, e.down);
  const blurred = await sharp(extended.data, { raw: rawOf(extended.info) })
    .blur(Math.max(1, Math.min(60, reach / 6)))
    .raw()
    .toBuffer();
  // Mirror near the original, blur further out: the weight of the mirrored pixels falls linearly with the
  // distance from the original over half the largest expansion, so the seam is invisible.
  const feather = Math.max(1, reach / 2);
  const out = Buffer.alloc(W * H * 4);
  const a = extended.data;
  for (let y = 0, i = 0; y < H; y++) {
    const dy = Math.max(e.up - y, y - (e.up + h - 1), 0);
    for (let x = 0; x < W; x++, i += 4) {
      const dx = Math.max(e.left - x, x - (e.left + w - 1), 0);
      const m = dx === 0 && dy === 0 ? 1 : Math.max(0, 1 - Math.hypot(dx, dy) / feather);
      for (let c = 0; c < 4; c++) out[i + c] = Math.round(a[i + c] * m + blurred[i + c] * (1 - m));
    }
  }
  const { data, info } = await sharp(out, { raw: { width: W, height: H, channels: 4 } })
    .png({ compressionLevel: 6 })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((p, q) => p - q);
  return s[Math.floor(s.length / 2)];
};

export interface BackgroundRemoval {
  bytes: Buffer;
  width: number;
  height: number;
  /** The background colour found, `#rrggbb`. */
  background: string;
  /** Share of pixels made transparent. */
  removed: number;
}

export async function removeBackgroundLocal(
  input: Buffer,
  limitInputPixels: number,
  tolerance = DEFAULT_TOLERANCE,
): Promise<BackgroundRemoval> {
  const meta = await sharp(input, { limitInputPixels }).metadata();
  if ((meta.width ?? 0) * (meta.height ?? 0) > FLOOD_FILL_MAX_PIXELS)
    throw new ValidationError([
      {
        location: 'body',
        path: 'image_base64',
        kind: 'constraint',
        message: `the local background removal works on images of at most ${FLOOD_FILL_MAX_PIXELS} pixels`,
      },
    ]);
  const { data, info } = await sharp(input, { limitInputPixels, failOn: 'truncated' })
    .rotate()
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const W = info.width;
  const H = info.height;
  const border: number[] = [];
  for (let x = 0; x < W; x++) border.push(x, (H - 1) * W + x);
  for (let y = 1; y < H - 1; y++) border.push(y * W, y * W + W - 1);
  const bg = [0, 1, 2].map((c) => median(border.map((p) => data[p * 4 + c])));
  const dist = (p: number) => {
    const i = p * 4;
    return Math.hypot(data[i] - bg[0], data[i + 1] - bg[1], data[i + 2] - bg[2]);
  };
  const matching = border.filter((p) => dist(p) <= tolerance).length / border.length;
  if (matching < MIN_BORDER_MATCH)
    throw new ValidationError([
      {
        location: 'body',
        path: 'image_base64',
        kind: 'constraint',
        message: `the local provider removes flat or solid backgrounds only: ${Math.round(matching * 100)} % of the border matches one colour (at least ${MIN_BORDER_MATCH * 100} % needed); configure vendor_c (IMAGE_VENDOR_C_API_KEY) for subject segmentation`,
      },
    ]);
  // Breadth-first flood fill from every matching border pixel, 4-connected.
  const state = new Uint8Array(W * H); // 0 unseen, 1 background, 2 edge
  const queue = new Int32Array(W * H);
  let head = 0;
  let tail = 0;
  for (const p of border)
    if (!state[p] && dist(p) <= tolerance) {
      state[p] = 1;
      queue[tail++] = p;
    }
  while (head < tail) {
    const p = queue[head++];
    const x = p % W;
    const nbrs = [x > 0 ? p - 1 : -1, x < W - 1 ? p + 1 : -1, p - W, p + W];
    for (const q of nbrs) {
      if (q < 0 || q >= W * H || state[q]) continue;
      const d = dist(q);
      if (d <= tolerance) {
        state[q] = 1;
        queue[tail++] = q;
      } else if (d <= tolerance * 1.5) state[q] = 2;
    }
  }
  let removed = 0;
  for (let p = 0; p < W * H; p++) {
    if (state[p] === 1) {
      data[p * 4 + 3] = 0;
      removed++;
    } else if (state[p] === 2) data[p * 4 + 3] = Math.min(data[p * 4 + 3], 128);
  }
  const out = await sharp(data, { raw: { width: W, height: H, channels: 4 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
  const hex = `#${bg.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  return { bytes: out, width: W, height: H, background: hex, removed: removed / (W * H) };
}
