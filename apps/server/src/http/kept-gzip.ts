import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Large kept answers sent gzip-compressed to clients that accept it, compressed once per kept answer.
 *
 * A kept answer (tickets/list-answers.ts) is the same Buffer on every read until it goes stale, so its gzip copy
 * is made at the first request that accepts gzip (on libuv's thread pool) and kept beside it in a WeakMap: it
 * goes when the answer goes. The kanban's whole answer is the one that needs it: 19,000 cards are 8.7 MB of JSON
 * and 0.9 MB gzipped (level 6), and every browser (the ancestor's client is one) sends `Accept-Encoding: gzip`.
 * Answers under GZIP_MIN_BYTES go as they are (a list page of 40 tickets gains little and pays the latency).
 */

export const GZIP_MIN_BYTES = 256 * 1024;

const gzipAsync = promisify(gzip);
const copies = new WeakMap<Buffer, Promise<Buffer>>();

/** does the header accept gzip (a `q=0` refuses it)? */
export const acceptsGzip = (header: string | string[] | undefined) =>
  String(header ?? '')
    .split(',')
    .some((part) => {
      const [coding, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      if (coding !== 'gzip' && coding !== '*') return false;
      const q = params.find((p) => p.startsWith('q='));

      return q === undefined || Number(q.slice(2)) > 0;
    });

/** the gzip copy of a kept answer, made once */
export const gzipOf = (body: Buffer) => {
  let copy = copies.get(body);
  if (!copy) {
    copy = gzipAsync(body, { level: 6 });
    copies.set(body, copy);
    copy.catch(() => copies.delete(body));
  }

  return copy;
};

/** sends a kept JSON answer, gzipped when it is large and the client accepts it */
export const sendKept = async (request: FastifyRequest, reply: FastifyReply, body: Buffer) => {
  reply.type('application/json; charset=utf-8').header('vary', 'Accept-Encoding');
  if (body.length < GZIP_MIN_BYTES || !acceptsGzip(request.headers['accept-encoding'])) return reply.send(body);

  return reply.header('content-encoding', 'gzip').send(await gzipOf(body));
};
