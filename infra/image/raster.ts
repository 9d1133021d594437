/**
 * Raster work on sharp (libvips): rasterising the offline renderer's SVG,
 * cropping and resizing for platform formats, safe-zone overlays, encoding
 * under a size limit, and local upscaling. sharp works on its own thread
 * pool, so the API's event loop stays free while it runs; every decode sets
 * `limitInputPixels`.
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

/** The crop box (in the scaled image) that keeps `focal` as central as the edges allow. */
export function focalBox(
  srcW: number,
  srcH: number,
  W: number,
  H: number,
  focal: { x: number; y: number },
): { scaledW: number; scaledH: number; left: number; top: number } {
  const scale = Math.max(W / srcW, H / srcH);
  const scaledW = Math.max(W, Math.round(srcW * scale));
  const scaledH = Math.max(H, Math.round(srcH * scale));
  const clamp = (v: number, max: number) => Math.min(Math.max(0, Math.round(v)), max);
  return {
    scaledW,
    scaledH,
    left: clamp(focal.x * scaledW - W / 2, scaledW - W),
    top: clamp(focal.y * scaledH - H / 2, scaledH - H),
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
 * A pipeline giving `input` at exactly the format's size: `smart` crops around
 * the focal point or libvips' attention (saliency) strategy, `center` crops
 * the middle, `fit` keeps the whole image and letterboxes it with its mean
 * colour. With `showSafeZones` the safe-zone overlay is drawn on top.
 */
async function formatPipeline(
  input: Buffer,
  meta: { width: number; height: number },
  f: Pick<PlatformFormat, 'width' | 'height' | 'safe_zone'>,
  o: FitOptions,
): Promise<Sharp> {
  const { width: W, height: H } = f;
  let p = sharp(input, { limitInputPixels: o.limitInputPixels, failOn: 'truncated' }).rotate();
  if (o.crop === 'fit') {
    const background = await meanColour(input, o.limitInputPixels);
    p = p.resize(W, H, { fit: 'contain', background, kernel: 'lanczos3' });
  } else if (o.crop === 'smart' && o.focal) {
    const box = focalBox(meta.width, meta.height, W, H, o.focal);
    // Resize and extract in two pipelines: sharp applies one extract per pipeline, after the resize.
    const scaled = await p
      .resize(box.scaledW, box.scaledH, { fit: 'fill', kernel: 'lanczos3' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    p = sharp(scaled.data, { raw: rawOf(scaled.info) }).extract({ left: box.left, top: box.top, width: W, height: H });
  } else {
    p = p.resize(W, H, {
      fit: 'cover',
      position: o.crop === 'smart' ? sharp.strategy.attention : 'centre',
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
