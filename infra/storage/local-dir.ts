/**
 * The storage port on a local directory (MEDIA_STORAGE_DIR). `put` renames
 * the finished file into place (copying first when it lives on another file
 * system), so a reader never sees half a file. Every key is checked
 * (port.ts) and the resolved path must stay inside the root: path traversal
 * is refused twice over.
 */
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { checkKey, contentTypeOf, MediaStorage, StorageKeyError, StoredObject } from './port';

export function createLocalDirStorage(root: string): MediaStorage {
  const base = path.resolve(root);
  const resolve = (key: string) => {
    const p = path.resolve(base, checkKey(key));
    if (!p.startsWith(base + path.sep)) throw new StorageKeyError(key);
    return p;
  };
  const describe = async (key: string): Promise<StoredObject | undefined> => {
    try {
      const s = await stat(resolve(key));
      if (!s.isFile()) return undefined;
      return {
        key,
        size: s.size,
        etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`,
        contentType: contentTypeOf(key),
        modifiedAt: s.mtime,
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR')
        return undefined;
      throw e;
    }
  };
  const walk = async (dir: string): Promise<string[]> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const out: string[] = [];
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) out.push(...(await walk(p)));
      else out.push(path.relative(base, p).split(path.sep).join('/'));
    }
    return out;
  };
  const list = async (prefix: string) => {
    // A prefix is a folder ("renders/x/") or a file-name prefix ("videos/video-render-1"): list its folder, filter.
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    if (folder) checkKey(folder);
    return (await walk(folder ? path.join(base, folder) : base)).filter((k) => k.startsWith(prefix)).sort();
  };
  return {
    async put(key, fromFile) {
      const dest = resolve(key);
      await mkdir(path.dirname(dest), { recursive: true });
      try {
        await rename(fromFile, dest);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
        const tmp = `${dest}.part-${process.pid}`;
        await copyFile(fromFile, tmp);
        await rename(tmp, dest);
        await unlink(fromFile);
      }
      return (await describe(key))!;
    },
    stat: describe,
    read(key, range) {
      return createReadStream(resolve(key), range ? { start: range.start, end: range.end } : {});
    },
    async remove(key) {
      try {
        await unlink(resolve(key));
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw e;
      }
    },
    async removePrefix(prefix) {
      const keys = await list(prefix);
      for (const k of keys) await rm(resolve(k), { force: true });
      return keys.length;
    },
    list,
  };
}
