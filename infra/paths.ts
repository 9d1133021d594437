/**
 * The project's root folder (the one holding package.json), found by walking
 * up from this file: the same answer from the TypeScript sources (tsx, jest)
 * and from the compiled code in dist/, whose folders are one level deeper.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

let root: string | undefined;

export function projectRoot(): string {
  if (root) return root;
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = up;
  }
  return (root = dir);
}
