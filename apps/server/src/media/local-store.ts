/**
 * The local media store (MEDIA_STORE=local, the default): one flat folder, DATA_DIR/media. A stream is written to
 * a hidden `.<name>.part` file and renamed when complete, so a reader never sees half a file; a duplicate is a hard
 * link (each owner may delete its own name without touching the other's).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, opendir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { rangeWithin, type TMediaStore } from './store';

export const createLocalStore = (dir: string): TMediaStore => {
  const pathOf = (name: string) => join(dir, basename(name));
  let made: Promise<unknown> | undefined;
  const ready = () => {
    made ??= mkdir(dir, { recursive: true });
    return made;
  };

  return {
    kind: 'local',
    put: async (name, body) => {
      await ready();
      if (Buffer.isBuffer(body)) {
        await writeFile(pathOf(name), body, { mode: 0o640 });
        return;
      }
      const part = join(dir, `.${basename(name)}.part`);
      try {
        await pipeline(body as Readable, createWriteStream(part, { mode: 0o640 }));
        await rename(part, pathOf(name));
      } catch (err) {
        await rm(part, { force: true });
        throw err;
      }
    },
    read: (name) => readFile(pathOf(name)),
    open: async (name, range) => {
      const info = await stat(pathOf(name)).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      const size = info.size;
      if (!range) {
        return { body: createReadStream(pathOf(name)), length: size, size, lastModified: info.mtime };
      }
      const within = rangeWithin(range, size);
      if (!within) return 'unsatisfiable';
      const { start, end } = within;

      return {
        body: createReadStream(pathOf(name), { start, end }),
        length: end - start + 1,
        size,
        range: { start, end },
        lastModified: info.mtime,
      };
    },
    stat: async (name) => {
      const info = await stat(pathOf(name)).catch(() => undefined);
      return info?.isFile() ? { size: info.size } : undefined;
    },
    remove: async (name) => {
      await unlink(pathOf(name)).catch(() => undefined);
    },
    duplicate: async (source, name, data) => {
      try {
        if (!data.equals(await readFile(pathOf(source)))) return false;
        await link(pathOf(source), pathOf(name));

        return true;
      } catch {
        return false;
      }
    },
    list: async function* () {
      await ready();
      for await (const entry of await opendir(dir)) {
        if (!entry.isFile() || entry.name.startsWith('.')) continue;
        const info = await stat(join(dir, entry.name)).catch(() => undefined);
        if (info) yield { name: entry.name, size: info.size };
      }
    },
    close: () => undefined,
  };
};
