/**
 * The image storage port: content-addressed files. A key is the SHA-256 of
 * the bytes plus the type's extension (`<64 hex>.png|jpg|webp`), so the same
 * image is stored once, a key never changes meaning, and the ETag is the hash.
 * Anything that is not such a key is refused before it reaches an adapter
 * (no path traversal, no other buckets' objects).
 */
import { createHash } from 'node:crypto';

export type ImageExt = 'png' | 'jpg' | 'webp';
export const EXT_CONTENT_TYPE: Record<ImageExt, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };
export const KEY_PATTERN = '^[0-9a-f]{64}\\.(png|jpg|webp)$';
const KEY = new RegExp(KEY_PATTERN);

export interface StoredImage {
  key: string;
  contentType: string;
  bytes: number;
  /** Strong ETag: the quoted SHA-256. */
  etag: string;
}

export interface ImageStorage {
  /** `local` or `s3`: where the files are. */
  readonly kind: string;
  /** Stores `bytes` (idempotent: the same bytes are the same key). */
  put(bytes: Buffer, ext: ImageExt): Promise<StoredImage>;
  /** Size and type of a stored file, or undefined. */
  stat(key: string): Promise<StoredImage | undefined>;
  /** The whole file, or the inclusive byte range [start, end]; undefined when missing. */
  read(key: string, range?: { start: number; end: number }): Promise<Buffer | undefined>;
  /** A quick check that the storage answers (health). */
  check(): Promise<void>;
}

export const isImageKey = (key: string): boolean => KEY.test(key);

export function keyOf(bytes: Buffer, ext: ImageExt): { key: string; hash: string } {
  const hash = createHash('sha256').update(bytes).digest('hex');
  return { key: `${hash}.${ext}`, hash };
}

export function describe(key: string, size: number): StoredImage {
  const ext = key.slice(key.lastIndexOf('.') + 1) as ImageExt;
  return { key, contentType: EXT_CONTENT_TYPE[ext], bytes: size, etag: `"${key.slice(0, 64)}"` };
}

/** Throws on anything that is not a storage key (callers answer 404). */
export function assertKey(key: string): void {
  if (!isImageKey(key)) throw new Error(`not an image key: ${JSON.stringify(key.slice(0, 80))}`);
}
