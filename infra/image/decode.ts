/**
 * Image inputs of the image studio: raw base64 or a `data:image/<type>;base64,`
 * URL, at most `maxBytes` decoded bytes and `maxPixels` pixels, PNG, JPEG or
 * WebP. Everything a client can send wrong — bad base64, another file type,
 * a decompression bomb (a small file whose header claims 30000 x 30000), a
 * truncated file — is refused with a ValidationError naming the field (400
 * `{detail}`), never a crash: sharp's `limitInputPixels` is set on every
 * decode, and the whole image is decoded once (streamed, into a thumbnail) so
 * truncation is found here and not later in a worker.
 */
import sharp from 'sharp';
import type { Metadata } from 'sharp';
import { ValidationError } from '../../domain/errors';

export interface InputLimits {
  /** Largest decoded file (bytes). The spec recommends images under 10 MB. */
  maxBytes: number;
  /** Largest width x height of an input (decompression bombs stop here). */
  maxPixels: number;
}

export const DEFAULT_INPUT_LIMITS: InputLimits = { maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000 };

export type InputFormat = 'png' | 'jpeg' | 'webp';
const FORMATS: readonly string[] = ['png', 'jpeg', 'webp'];

export interface DecodedImage {
  bytes: Buffer;
  format: InputFormat;
  /** Displayed size (EXIF orientation applied). */
  width: number;
  height: number;
  hasAlpha: boolean;
}

const refuse = (field: string, message: string) =>
  new ValidationError([{ location: 'body', path: field, kind: 'constraint', message }]);

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of a base64 text or data URL; ValidationError when it is neither. */
export function base64Bytes(value: string, field: string, maxBytes: number): Buffer {
  let text = value.trim();
  const m = /^data:([^;,]*)(;[^,]*)?,/i.exec(text);
  if (m) {
    const type = m[1].toLowerCase();
    if (!/^image\/(png|jpe?g|webp)$/.test(type))
      throw refuse(field, `unsupported data URL type "${type || 'none'}": send image/png, image/jpeg or image/webp`);
    if (!/;base64$/i.test(m[2] ?? '')) throw refuse(field, 'the data URL must be base64-encoded (;base64,)');
    text = text.slice(m[0].length);
  }
  text = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!text) throw refuse(field, 'is empty');
  if (!B64.test(text) || text.length % 4 === 1) throw refuse(field, 'is not valid base64');
  if (Math.floor((text.length * 3) / 4) > maxBytes + 2)
    throw refuse(field, `is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > maxBytes) throw refuse(field, `is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  return bytes;
}

/** Checks an image file: type, pixel count, and that the whole file decodes. */
export async function inspectImage(bytes: Buffer, field: string, lim: InputLimits): Promise<DecodedImage> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata();
  } catch {
    throw refuse(field, 'is not a readable image (PNG, JPEG or WebP)');
  }
  if (!meta.format || !FORMATS.includes(meta.format))
    throw refuse(field, `has unsupported format "${meta.format ?? 'unknown'}": send PNG, JPEG or WebP`);
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (!w || !h) throw refuse(field, 'has no size');
  if (w * h > lim.maxPixels)
    throw refuse(field, `is ${w}x${h} = ${w * h} pixels; at most ${lim.maxPixels} pixels are accepted`);
  try {
    // A streamed decode of every row into a thumbnail: finds truncated and corrupt data at little memory cost.
    await sharp(bytes, { limitInputPixels: lim.maxPixels, failOn: 'truncated' })
      .resize(16, 16, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch (e) {
    throw refuse(field, `could not be decoded (${(e as Error).message.split('\n')[0].slice(0, 120)})`);
  }
  const swap = (meta.orientation ?? 1) >= 5;
  return {
    bytes,
    format: meta.format as InputFormat,
    width: swap ? h : w,
    height: swap ? w : h,
    hasAlpha: !!meta.hasAlpha,
  };
}

/** base64Bytes + inspectImage: the one way a request's image field becomes an image. */
export async function decodeImageInput(value: string, field: string, lim: InputLimits): Promise<DecodedImage> {
  return inspectImage(base64Bytes(value, field, lim.maxBytes), field, lim);
}
