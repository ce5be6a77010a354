import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { LANGUAGES } from '../../packages/shared/src/constants';
import { EMOJIBASE_FILES, EMOJIBASE_PATH } from './src/features/tickets/emojibase';

/**
 * Serves the emoji picker's Emojibase files from our own origin (issue 11): `EMOJIBASE_PATH/<lang>/<file>` for
 * the app's languages, read from the installed `emojibase-data` package, never committed. The dev server answers
 * them from node_modules; a build writes them into dist with a brotli and a gzip copy (data.json is 790 KB,
 * 70 KB as brotli), which the server's static files send to browsers that accept them.
 */
export const emojibase = (): Plugin => {
  const root = dirname(createRequire(import.meta.url).resolve('emojibase-data/package.json'));
  const source = (lang: string, file: string) => readFileSync(join(root, lang, file));
  const isServed = (lang: string, file: string) =>
    (LANGUAGES as readonly string[]).includes(lang) && (EMOJIBASE_FILES as readonly string[]).includes(file);

  return {
    name: 'zelo-emojibase',
    configureServer(server) {
      server.middlewares.use(EMOJIBASE_PATH, (req, res, next) => {
        const [lang = '', file = ''] = (req.url ?? '').split('?')[0].split('/').filter(Boolean);
        if (!isServed(lang, file)) {
          next();

          return;
        }
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.end(source(lang, file));
      });
    },
    generateBundle() {
      for (const lang of LANGUAGES) {
        for (const file of EMOJIBASE_FILES) {
          const fileName = `${EMOJIBASE_PATH.slice(1)}/${lang}/${file}`;
          const json = source(lang, file);
          this.emitFile({ type: 'asset', fileName, source: json });
          this.emitFile({ type: 'asset', fileName: `${fileName}.gz`, source: gzipSync(json, { level: 9 }) });
          this.emitFile({
            type: 'asset',
            fileName: `${fileName}.br`,
            source: brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          });
        }
      }
    },
  };
};
