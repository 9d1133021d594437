/**
 * Local directory adapter of the image storage port: `<dir>/<aa>/<bb>/<key>`
 * (two levels of fan-out keep directories small). Writes go to a temporary
 * file renamed into place, so a reader never sees half a file and two writers
 * of the same key are harmless. API and worker must see the same directory.
 */
import { mkdir, open, rename, stat, writeFile, readFile, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { assertKey, describe, ImageExt, ImageStorage, keyOf, StoredImage } from './port';

export function createLocalImageStorage(dir: string): ImageStorage {
  const root = path.resolve(dir);
  const fileOf = (key: string) => {
    assertKey(key);
    return path.join(root, key.slice(0, 2), key.slice(2, 4), key);
  };
  return {
    kind: 'local',
    async put(bytes: Buffer, ext: ImageExt): Promise<StoredImage> {
      const { key } = keyOf(bytes, ext);
      const file = fileOf(key);
      try {
        const s = await stat(file);
        if (s.size === bytes.length) return describe(key, s.size);
      } catch {
        /* not stored yet */
      }
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, file);
      return describe(key, bytes.length);
    },
    async stat(key: string) {
      try {
        const s = await stat(fileOf(key));
        return describe(key, s.size);
      } catch {
        return undefined;
      }
    },
    async read(key: string, range?: { start: number; end: number }) {
      const file = fileOf(key);
      try {
        if (!range) return await readFile(file);
        const fh = await open(file, 'r');
        try {
          const buf = Buffer.alloc(range.end - range.start + 1);
          const { bytesRead } = await fh.read(buf, 0, buf.length, range.start);
          return buf.subarray(0, bytesRead);
        } finally {
          await fh.close();
        }
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
    },
    async check() {
      await mkdir(root, { recursive: true });
      const probe = path.join(root, `.probe-${randomBytes(4).toString('hex')}`);
      await writeFile(probe, 'ok');
      await rm(probe, { force: true });
    },
  };
}
