/**
 * `/public/<name>`: the media files, served through Zelo on every store. The local folder is served by
 * @fastify/static as before; a bucket by this route, which streams the object (a Range asked is passed to the
 * store and answered 206, an unsatisfiable one 416, an `If-None-Match` matching the object's ETag 304). The
 * browser-facing headers are not set here: http/security-headers.ts decides them for both in its onSend hook
 * from the route and the stored name (inline only the listed media types, otherwise `attachment` with a
 * sandboxing CSP; nosniff always), so the rules are the same whichever store holds the file.
 */
import { mkdir } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TConfig } from '../config';
import { INLINE_MEDIA_TYPES } from '../http/security-headers';
import { isMediaName, mediaConfigOf, mediaStore, type TByteRange } from './store';

/** the type of a stored extension that is not shown inline (sent as an attachment) */
const DOWNLOAD_TYPES: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

const typeOf = (name: string) => {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return INLINE_MEDIA_TYPES[ext] ?? DOWNLOAD_TYPES[ext] ?? 'application/octet-stream';
};

/** one `bytes=a-b`, `bytes=a-` or `bytes=-n` range; anything else (several ranges, other units) is ignored */
export const parseRange = (header: string | undefined): TByteRange | undefined => {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') return { suffix: Number(m[2]) };

  return { start: Number(m[1]), end: m[2] === '' ? undefined : Number(m[2]) };
};

const notFound = (reply: FastifyReply) =>
  reply.status(404).send({ error: 'ERR_ROUTE_NOT_FOUND', message: 'Not found' });

export const registerMediaRoute = async (app: FastifyInstance, config: TConfig) => {
  const media = mediaConfigOf(config);
  if (media.store === 'local') {
    await mkdir(media.dir, { recursive: true });
    await app.register(fastifyStatic, { root: media.dir, prefix: '/public/', decorateReply: false, index: false });
    return;
  }
  const store = await mediaStore(config);
  app.route({
    method: ['GET', 'HEAD'],
    url: '/public/*',
    config: { decl: { auth: 'public' } },
    handler: async (request, reply) => {
      const name = (request.params as { '*'?: string })['*'] ?? '';
      if (!isMediaName(name)) return notFound(reply);
      const range = parseRange(request.headers.range);
      const file = await store.open(name, range);
      if (file === undefined) return notFound(reply);
      if (file === 'unsatisfiable') {
        const whole = await store.stat(name);
        return reply
          .status(416)
          .header('content-range', `bytes */${whole?.size ?? 0}`)
          .send({ error: 'ERR_ROUTE_NOT_FOUND', message: 'Range not satisfiable' });
      }
      reply.header('accept-ranges', 'bytes').header('cache-control', 'public, max-age=0');
      if (file.etag) reply.header('etag', file.etag);
      if (file.lastModified) reply.header('last-modified', file.lastModified.toUTCString());
      if (!file.range && file.etag && request.headers['if-none-match'] === file.etag) {
        file.body.destroy();
        return reply.status(304).send();
      }
      reply.header('content-type', typeOf(name)).header('content-length', String(file.length));
      if (file.range) {
        reply.status(206).header('content-range', `bytes ${file.range.start}-${file.range.end}/${file.size}`);
      }
      if (request.method === 'HEAD') {
        file.body.destroy();
        return reply.send();
      }

      return reply.send(file.body);
    },
  });
};
