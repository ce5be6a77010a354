import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** what is worth compressing: text, and only above a size where the headers would outweigh the gain */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest|ico)$/;
const MIN_BYTES = 1024;

/**
 * Writes a brotli (quality 11) and a gzip (level 9) copy beside every compressible file of the build (issue 23
 * item 1), which the server's static files (`@fastify/static` `preCompressed`) send to browsers that accept them,
 * with no compression work per request. Files that already have their copies (the emoji data, vite-emojibase.ts)
 * are left as they are. Compressed in parallel on libuv's thread pool.
 */
export const precompress = (): Plugin => {
  return {
    name: 'zelo-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = resolve(options.dir ?? 'dist');
      const names = new Set(Object.keys(bundle));
      const work = Object.values(bundle).flatMap((item) => {
        const name = item.fileName;
        if (!COMPRESSIBLE.test(name) || names.has(`${name}.br`)) return [];
        const source = item.type === 'chunk' ? Buffer.from(item.code) : Buffer.from(item.source);
        if (source.length < MIN_BYTES) return [];
        const path = join(outDir, name);

        return [
          brotli(source, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }).then((out) => writeFile(`${path}.br`, out)),
          gz(source, { level: 9 }).then((out) => writeFile(`${path}.gz`, out)),
        ];
      });
      await Promise.all(work);
    },
  };
};
