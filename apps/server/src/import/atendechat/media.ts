/**
 * Media from the ancestor's `backend/public` folder into Zelo's media store (media/store.ts: DATA_DIR/media or the bucket). A stored path is
 * resolved inside `--media` only (a `../` or an absolute path that leaves it is refused), its bytes are typed
 * by content like any upload (resolveType: an HTML or SVG file is kept as inert `.txt`/`.bin`), and it is
 * stored under a name derived from its content, so a rerun or two messages with one file store it once.
 */
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import type { TConfig } from '../../config';
import { mediaStore } from '../../media/store';
import { cleanFileName, resolveType, storedExtension } from '../../modules/messages/media';

export type TCopied = { stored: string; name: string; mime: string } | { problem: string };

/**
 * Copies one stored path; `folders` are the sub-folders of public/ the ancestor may have put it in
 * (`quickMessage`, `announcements`, `fileList/<id>`…), tried in order before public/ itself.
 */
export type TMediaCopier = (storedPath: unknown, folders?: string[]) => Promise<TCopied | null>;

export const MEDIA_PROBLEMS = {
  outside: 'media path leaves the media folder',
  missing: 'media file missing',
  noFolder: 'no --media folder given',
} as const;

export const createMediaCopier = (config: TConfig, root: string | undefined, dryRun: boolean): TMediaCopier => {
  const base = root ? resolve(root) : undefined;
  let realBase: string | undefined;

  const within = (file: string) => {
    const inside = relative(base!, file);

    return inside !== '' && inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside);
  };

  return async (storedPath, folders = []) => {
    if (typeof storedPath !== 'string' || storedPath.trim() === '') return null;
    if (!base) return { problem: MEDIA_PROBLEMS.noFolder };
    // the ancestor stores a file name (`1699999-photo.jpg`), some versions a path below public/ (`company1/x.jpg`)
    const path = storedPath.trim().replace(/^\/?public\//, '');
    const candidates = [...folders.map((f) => resolve(base, f, path)), resolve(base, path)];
    if (!candidates.every(within)) return { problem: MEDIA_PROBLEMS.outside };
    let file: string | undefined;
    for (const candidate of candidates) {
      if ((await stat(candidate).catch(() => undefined))?.isFile()) {
        file = candidate;
        break;
      }
    }
    if (!file) return { problem: MEDIA_PROBLEMS.missing };
    // a link inside public/ that points elsewhere is refused like a `../`
    realBase ??= await realpath(base);
    const fromBase = relative(realBase, await realpath(file));
    if (fromBase.startsWith('..') || isAbsolute(fromBase)) return { problem: MEDIA_PROBLEMS.outside };
    const name = cleanFileName(basename(path), 'file');
    const data = await readFile(file);
    const type = resolveType(data, name);
    const stored = `${createHash('sha256').update(data).digest('hex').slice(0, 32)}.${storedExtension(type.ext)}`;
    if (!dryRun) {
      const store = await mediaStore(config);
      if (!(await store.stat(stored))) await store.put(stored, data);
    }

    return { stored, name, mime: type.mime };
  };
};
