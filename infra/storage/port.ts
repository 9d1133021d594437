/**
 * The media storage port: finished files (videos, subtitles, audio) by key,
 * e.g. `videos/video-render-<uuid>.mp4`. Kept small on purpose so it can be
 * merged with the image studio's storage port: put a finished file, read its
 * metadata, stream it (whole or a byte range), remove by key or prefix.
 * Keys are relative, `/`-separated, without `.` or `..` segments; anything
 * else is refused with StorageKeyError before any file system call.
 */
import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  size: number;
  /** Strong validator: changes whenever the content could have (size + modification time). */
  etag: string;
  contentType: string;
  modifiedAt: Date;
}

export interface MediaStorage {
  /** Moves a finished local file in under `key` (atomically: readers see all of it or nothing). */
  put(key: string, fromFile: string): Promise<StoredObject>;
  /** Metadata, or undefined when there is no such key. */
  stat(key: string): Promise<StoredObject | undefined>;
  /** The bytes of `key`, all or `start`..`end` inclusive. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** Removes one key; true when something was removed. */
  remove(key: string): Promise<boolean>;
  /** Removes every key under `prefix` (a folder or a file-name prefix); returns how many. */
  removePrefix(prefix: string): Promise<number>;
  /** Keys under `prefix`. */
  list(prefix: string): Promise<string[]>;
}

export class StorageKeyError extends Error {
  readonly code = 'INVALID_REQUEST';
  constructor(key: string) {
    super(`invalid storage key "${key.slice(0, 200)}": relative path segments of letters, digits, . _ - only`);
    this.name = 'StorageKeyError';
  }
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** Throws StorageKeyError unless `key` is a safe relative key (no `..`, no absolute path, no backslash, no NUL). */
export function checkKey(key: string): string {
  const parts = key.split('/');
  if (!key || parts.length > 8 || parts.some((p) => !SEGMENT.test(p) || p === '.' || p === '..'))
    throw new StorageKeyError(key);
  return key;
}

/** Content type by file extension (what the file route answers with). */
export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return (
    {
      mp4: 'video/mp4',
      m4a: 'audio/mp4',
      mp3: 'audio/mpeg',
      wav: 'audio/wav',
      vtt: 'text/vtt; charset=utf-8',
      srt: 'application/x-subrip; charset=utf-8',
      png: 'image/png',
      jpg: 'image/jpeg',
      json: 'application/json',
    }[ext] ?? 'application/octet-stream'
  );
}
