/**
 * Raster work on sharp (libvips): rasterising the offline renderer's SVG,
 * cropping and resizing for platform formats, safe-zone overlays, encoding
 * under a size limit, and local upscaling. sharp works on its own thread
 * pool, so the API's event loop stays free while it runs; every decode sets
 * `limitInputPixels`, and a format's crop is cut from the input before it is
 * enlarged, so the work follows the output size (formatPipeline).
 */
import sharp from 'sharp';
import type { OutputInfo, Sharp } from 'sharp';
import type { PlatformFormat, SafeZone } from '../../domain/image/formats';

export type OutputType = 'png' | 'jpg';
export const CONTENT_TYPE: Record<OutputType | 'webp', string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
};

export interface Encoded {
  bytes: Buffer;
  width: number;
  height: number;
  type: OutputType;
  /** JPEG quality or PNG palette colours used to meet the size limit (undefined: lossless PNG). */
  quality?: number;
}

/** The raw-pixel description sharp takes back from an OutputInfo. */
export const rawOf = (i: OutputInfo) => ({ width: i.width, height: i.height, channels: i.channels });

/** JPEG qualities tried in turn until the file fits. */
const JPEG_STEPS = [88, 80, 72, 64, 56, 48, 40, 32, 24];
/** PNG palette sizes tried when the lossless file is too large. */
const PNG_COLOURS = [256, 128, 64, 32];

export class SizeLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the image cannot be encoded under ${(maxBytes / 1024 / 1024).toFixed(2)} MB`);
    this.name = 'SizeLimitError';
  }
}

/**
 * Encodes raw pixels as `type`, lowering JPEG quality (or quantising a PNG to
 * a palette) until the file is at most `maxBytes`. JPEG flattens alpha on white.
 */
export async function encodeUnder(
  raw: { data: Buffer; info: OutputInfo },
  type: OutputType,
  maxBytes: number,
): Promise<Encoded> {
  const { width, height } = raw.info;
  const src = () => sharp(raw.data, { raw: rawOf(raw.info) });
  if (type === 'jpg') {
    for (const q of JPEG_STEPS.slice(1)) {
      const bytes = await src().flatten({ background: '#ffffff' }).jpeg({ quality: q, mozjpeg: false }).toBuffer();
      if (bytes.length <= maxBytes) return { bytes, width, height, type, quality: q };
    }
    throw new SizeLimitError(maxBytes);
  }
  const lossless = await src().png({ compressionLevel: 6 }).toBuffer();
  if (lossless.length <= maxBytes) return { bytes: lossless, width, height, type };
  for (const colours of PNG_COLOURS) {
    const bytes = await src().png({ palette: true, colours, compressionLevel: 9 }).toBuffer();
    if (bytes.length <= maxBytes) return { bytes, width, height, type, quality: colours };
  }
  throw new SizeLimitError(maxBytes);
}

/** Rasterises an SVG document to PNG. */
export async function renderSvgToPng(svg: string): Promise<{ bytes: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(Buffer.from(svg), { limitInputPixels: 64_000_000 })
    .png({ compressionLevel: 6 })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}

export type CropMode = 'smart' | 'center' | 'fit';

export interface FitOptions {
  crop: CropMode;
  /** 0-1 from the left/top: the point kept in view by `smart` (instead of libvips' attention strategy). */
  focal?: { x: number; y: number };
  showSafeZones: boolean;
  limitInputPixels: number;
}

/** `v` rounded into 0..max. */
const clampInt = (v: number, max: number) => Math.min(Math.max(0, Math.round(v)), max);

/** The scale at which a `srcW` x `srcH` image covers a `W` x `H` format. */
export const coverScale = (srcW: number, srcH: number, W: number, H: number): number => Math.max(W / srcW, H / srcH);

/** The crop box (in the scaled image) that keeps `focal` as central as the edges allow. */
export function focalBox(
  srcW: number,
  srcH: number,
  W: number,
  H: number,
  focal: { x: number; y: number },
): { scaledW: number; scaledH: number; left: number; top: number } {
  const scale = coverScale(srcW, srcH, W, H);
  const scaledW = Math.max(W, Math.round(srcW * scale));
  const scaledH = Math.max(H, Math.round(srcH * scale));
  return {
    scaledW,
    scaledH,
    left: clampInt(focal.x * scaledW - W / 2, scaledW - W),
    top: clampInt(focal.y * scaledH - H / 2, scaledH - H),
  };
}

/** A rectangle in source pixels. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The crop of a `W` x `H` format in source pixels: the largest box of the
 * format's aspect ratio inside the `srcW` x `srcH` image (at least 1 x 1),
 * placed so that `at` (0-1 from the left/top; default the centre) is as
 * central as the edges allow. What `focalBox` cuts from the scaled image,
 * before scaling.
 */
export function sourceBox(
  srcW: number,
  srcH: number,
  W: number,
  H: number,
  at: { x: number; y: number } = { x: 0.5, y: 0.5 },
): Box {
  const scale = coverScale(srcW, srcH, W, H);
  const width = Math.min(srcW, Math.max(1, Math.round(W / scale)));
  const height = Math.min(srcH, Math.max(1, Math.round(H / scale)));
  return {
    left: clampInt(at.x * srcW - width / 2, srcW - width),
    top: clampInt(at.y * srcH - height / 2, srcH - height),
    width,
    height,
  };
}

/** An SVG the size of the format: unsafe margins tinted red, the safe area outlined with a dashed line. */
export function safeZoneSvg(W: number, H: number, z: SafeZone): string {
  const [t, b, l, r] = [z.top * H, z.bottom * H, z.left * W, z.right * W].map((v) => Math.round(v));
  const stroke = Math.max(2, Math.round(Math.min(W, H) / 200));
  const rects = [
    t ? `<rect x="0" y="0" width="${W}" height="${t}"/>` : '',
    b ? `<rect x="0" y="${H - b}" width="${W}" height="${b}"/>` : '',
    l ? `<rect x="0" y="${t}" width="${l}" height="${H - t - b}"/>` : '',
    r ? `<rect x="${W - r}" y="${t}" width="${r}" height="${H - t - b}"/>` : '',
  ].join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><g fill="#ff0000" fill-opacity="0.35">${rects}</g><rect x="${l + stroke / 2}" y="${t + stroke / 2}" width="${Math.max(1, W - l - r - stroke)}" height="${Math.max(1, H - t - b - stroke)}" fill="none" stroke="#00ff66" stroke-width="${stroke}" stroke-dasharray="${stroke * 4},${stroke * 3}"/></svg>`;
}

/** Mean colour of an image (a 1x1 reduction), the letterbox colour of `fit`. */
async function meanColour(
  input: Buffer,
  limitInputPixels: number,
): Promise<{ r: number; g: number; b: number; alpha: number }> {
  const { data } = await sharp(input, { limitInputPixels })
    .removeAlpha()
    .resize(1, 1, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { r: data[0], g: data[1], b: data[2], alpha: 1 };
}

/**
 * The largest image libvips' attention strategy analyses (smartcrop holds it
 * whole in memory): 4x the format's pixels, at least 4 MP (12 MB of RGB).
 */
const attentionPixels = (W: number, H: number) => Math.max(4 * W * H, 4_000_000);

/**
 * Where libvips' attention strategy puts the format's crop, in source pixels.
 * The analysis runs on the image scaled by at most the cover scale and at
 * most 1, to at most attentionPixels; its offsets are scaled back to source
 * pixels.
 */
async function attentionBox(
  input: Buffer,
  meta: { width: number; height: number },
  W: number,
  H: number,
  limitInputPixels: number,
): Promise<Box> {
  const { width: sw, height: sh } = meta;
  const box = sourceBox(sw, sh, W, H);
  const a = Math.min(1, coverScale(sw, sh, W, H), Math.sqrt(attentionPixels(W, H) / (sw * sh)));
  const bw = Math.max(1, Math.round(box.width * a));
  const bh = Math.max(1, Math.round(box.height * a));
  const { info } = await sharp(input, { limitInputPixels, failOn: 'truncated' })
    .rotate()
    .resize(bw, bh, { fit: 'cover', position: sharp.strategy.attention })
    .raw()
    .toBuffer({ resolveWithObject: true });
  // sharp's scale for this cover; libvips reports the offsets negated (its origin convention).
  const scale = coverScale(sw, sh, bw, bh);
  return {
    ...box,
    left: clampInt(Math.abs(info.cropOffsetLeft ?? 0) / scale, sw - box.width),
    top: clampInt(Math.abs(info.cropOffsetTop ?? 0) / scale, sh - box.height),
  };
}

/**
 * A pipeline giving `input` at exactly the format's size: `smart` crops around
 * the focal point or libvips' attention (saliency) strategy, `center` crops
 * the middle, `fit` keeps the whole image and letterboxes it with its mean
 * colour. With `showSafeZones` the safe-zone overlay is drawn on top.
 *
 * Memory is bounded by the format, not by how far the input must be scaled:
 * when the format covers the input at a scale above 1 (a small or very
 * elongated input: 1000x2 to 1200x627 is x313), the crop box is cut in source
 * pixels first and only that box is enlarged. Downscaling keeps libvips' one
 * pass (resize, then crop; JPEG shrink-on-load), whose scaled image is never
 * larger than the input and is computed lazily, except for the attention
 * strategy over attentionPixels (see attentionBox).
 */
async function formatPipeline(
  input: Buffer,
  meta: { width: number; height: number },
  f: Pick<PlatformFormat, 'width' | 'height' | 'safe_zone'>,
  o: FitOptions,
): Promise<Sharp> {
  const { width: W, height: H } = f;
  let p = sharp(input, { limitInputPixels: o.limitInputPixels, failOn: 'truncated' }).rotate();
  const scale = coverScale(meta.width, meta.height, W, H);
  const attention = o.crop === 'smart' && !o.focal;
  const onePass = scale <= 1 && (!attention || meta.width * meta.height * scale * scale <= attentionPixels(W, H));
  if (o.crop === 'fit') {
    const background = await meanColour(input, o.limitInputPixels);
    p = p.resize(W, H, { fit: 'contain', background, kernel: 'lanczos3' });
  } else if (!onePass) {
    const box = attention
      ? await attentionBox(input, meta, W, H, o.limitInputPixels)
      : sourceBox(meta.width, meta.height, W, H, o.crop === 'smart' ? o.focal : undefined);
    // Rounding the box to whole pixels may leave it a fraction off the format's ratio: cover trims that.
    p = p.extract(box).resize(W, H, { fit: 'cover', kernel: 'lanczos3' });
  } else if (o.crop === 'smart' && o.focal) {
    const box = focalBox(meta.width, meta.height, W, H, o.focal);
    // An extract after the resize applies to the scaled image.
    p = p
      .resize(box.scaledW, box.scaledH, { fit: 'fill', kernel: 'lanczos3' })
      .extract({ left: box.left, top: box.top, width: W, height: H });
  } else {
    p = p.resize(W, H, {
      fit: 'cover',
      position: attention ? sharp.strategy.attention : 'centre',
      kernel: 'lanczos3',
    });
  }
  if (o.showSafeZones) {
    const flat = await p.raw().toBuffer({ resolveWithObject: true });
    p = sharp(flat.data, { raw: rawOf(flat.info) }).composite([{ input: Buffer.from(safeZoneSvg(W, H, f.safe_zone)) }]);
  }
  return p;
}

/** The pixels of `input` at exactly the format's size (see formatPipeline). */
export async function fitToFormat(
  input: Buffer,
  meta: { width: number; height: number },
  f: Pick<PlatformFormat, 'width' | 'height' | 'safe_zone'>,
  o: FitOptions,
): Promise<{ data: Buffer; info: OutputInfo }> {
  return (await formatPipeline(input, meta, f, o)).raw().toBuffer({ resolveWithObject: true });
}

/**
 * `input` in a platform format, encoded as `type` under `maxBytes`. The usual
 * case is one libvips pass (decode with shrink-on-load, resize, encode at the
 * first quality); only a file over the limit is redone from raw pixels with
 * lower quality (encodeUnder).
 */
export async function renderFormat(
  input: Buffer,
  meta: { width: number; height: number },
  f: Pick<PlatformFormat, 'width' | 'height' | 'safe_zone'>,
  o: FitOptions,
  type: OutputType,
  maxBytes: number,
): Promise<Encoded> {
  const p = await formatPipeline(input, meta, f, o);
  const first =
    type === 'jpg'
      ? p.flatten({ background: '#ffffff' }).jpeg({ quality: JPEG_STEPS[0], mozjpeg: false })
      : p.png({ compressionLevel: 6 });
  const { data, info } = await first.toBuffer({ resolveWithObject: true });
  if (data.length <= maxBytes)
    return {
      bytes: data,
      width: info.width,
      height: info.height,
      type,
      quality: type === 'jpg' ? JPEG_STEPS[0] : undefined,
    };
  const raw = await fitToFormat(input, meta, f, o);
  const out = await encodeUnder(raw, type, maxBytes);
  return out;
}

/** Local upscaling: Lanczos3 to the target size; `conservative` adds mild sharpening against the softness of interpolation. */
export async function upscaleLocal(
  input: Buffer,
  target: { width: number; height: number },
  mode: 'fast' | 'conservative',
  limitInputPixels: number,
): Promise<{ bytes: Buffer; width: number; height: number }> {
  let p = sharp(input, { limitInputPixels, failOn: 'truncated' })
    .rotate()
    .resize(target.width, target.height, { fit: 'fill', kernel: 'lanczos3' });
  if (mode === 'conservative') p = p.sharpen({ sigma: 0.8, m1: 0.6, m2: 1.5 });
  const { data, info } = await p.png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}

/** Re-encodes an image as PNG or JPEG (vendor answers, local results) and reports its size. */
export async function encodeAs(
  input: Buffer,
  type: OutputType,
  limitInputPixels: number,
  resize?: { width: number; height: number },
): Promise<{ bytes: Buffer; width: number; height: number }> {
  let p = sharp(input, { limitInputPixels }).rotate();
  if (resize) p = p.resize(resize.width, resize.height, { fit: 'cover', position: 'centre', kernel: 'lanczos3' });
  p = type === 'jpg' ? p.flatten({ background: '#ffffff' }).jpeg({ quality: 90 }) : p.png({ compressionLevel: 6 });
  const { data, info } = await p.toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}
