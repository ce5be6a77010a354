import { basename, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The built web app (`apps/web/dist`) as a production web server delivers it (issue 23 item 1), with no reverse
 * proxy in front:
 * - compressed: the build writes a brotli and a gzip copy of every text file (apps/web/vite-precompress.ts), sent
 *   to browsers that accept them (`preCompressed`; `Vary: Accept-Encoding`), so no request pays for compression;
 * - cached: a file whose name carries the build's content hash (`assets/index-DB1pTHL5.js`) never changes, so it is
 *   `public, max-age=31536000, immutable`; everything else (`index.html`, the emoji data, the icons) is `no-cache`:
 *   kept, but revalidated with its ETag on every use, so a new release is seen at the next load.
 */

/** Vite's `[name]-[hash].[ext]` under assets/: the hash is 8 characters of [A-Za-z0-9_-] */
const HASHED = /-[A-Za-z0-9_-]{8}\.[a-z0-9]+(\.br|\.gz)?$/;

export const cacheControlOf = (path: string) =>
  path.includes(`${sep}assets${sep}`) && HASHED.test(basename(path))
    ? 'public, max-age=31536000, immutable'
    : 'no-cache';

export const registerWebApp = async (app: FastifyInstance, root: string) => {
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, path) => {
      res.setHeader('cache-control', cacheControlOf(path));
      // the same URL answers brotli, gzip or plain bytes: shared caches must keep them apart
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
};
