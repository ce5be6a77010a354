import { Readable } from 'node:stream';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  gzipSync,
} from 'node:zlib';
import { promisify } from 'node:util';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * API answers compressed for clients that accept it (issue 23 item 1): lists, conversation pages, reports and CSV
 * exports travel as brotli (or gzip) — a page of 40 tickets is ~26 KB of JSON and ~2.7 KB of brotli, 80 ms less
 * on a phone's 1.6 Mbit/s. The web app's own files are compressed at build time (web-app.ts) and media never
 * (already compressed formats, and served by media/serve.ts).
 *
 * - **What**: `/api/` answers of a textual type (`application/json`, `text/csv`, `text/plain`) of at least
 *   `COMPRESS_MIN_BYTES`. Below that (a ticket, a settings row, an error) the saving is under one TCP segment, so
 *   it buys no round trip and costs CPU (measured: BENCHMARKS.md, "API compression").
 * - **How**: brotli at quality 1, else gzip level 1 — the cheapest levels, ~8× smaller for a list page (with
 *   quality 4 / level 6 the agents' lists under 50 customer messages a second lost 8 ms of p95, BENCHMARKS.md);
 *   synchronously up to `SYNC_MAX_BYTES` (the thread pool's hand-off costs more than
 *   that work), on the thread pool above it, streamed for streams (the CSV exports; XLSX files are zip already).
 * - **Kept answers cost nothing again**: the ticket list and other kept answers are the same Buffer for every
 *   reader until a change, so each Buffer's compressed forms are remembered beside it (a WeakMap: they go with it).
 */

export const COMPRESS_MIN_BYTES = 2048;
const SYNC_MAX_BYTES = 128 * 1024;
const TEXTUAL = /^(application\/json|text\/csv|text\/plain)\b/i;
const BROTLI_PARAMS = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };
const GZIP_OPTIONS = { level: 1 };

type TEncoding = 'br' | 'gzip';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** `br` when accepted, else `gzip` when accepted, else nothing (q=0 refuses; `*` accepts both) */
export const chooseEncoding = (header: string | undefined): TEncoding | null => {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const takes = (name: TEncoding) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (takes('br')) return 'br';
  if (takes('gzip')) return 'gzip';

  return null;
};

const compressedForms = new WeakMap<Buffer, Partial<Record<TEncoding, Promise<Buffer>>>>();

const compressBytes = async (bytes: Buffer, encoding: TEncoding): Promise<Buffer> => {
  if (bytes.length <= SYNC_MAX_BYTES) {
    return encoding === 'br' ? brotliCompressSync(bytes, BROTLI_PARAMS) : gzipSync(bytes, GZIP_OPTIONS);
  }

  return encoding === 'br' ? brotliAsync(bytes, BROTLI_PARAMS) : gzipAsync(bytes, GZIP_OPTIONS);
};

/** a kept Buffer's compressed form, made once (readers arriving while it is made wait for the same work) */
const compressKept = (bytes: Buffer, encoding: TEncoding) => {
  let forms = compressedForms.get(bytes);
  if (!forms) {
    forms = {};
    compressedForms.set(bytes, forms);
  }
  const made = forms[encoding] ?? compressBytes(bytes, encoding);
  if (!forms[encoding]) {
    forms[encoding] = made;
    made.catch(() => {
      if (forms[encoding] === made) delete forms[encoding];
    });
  }

  return made;
};

const markEncoded = (reply: FastifyReply, encoding: TEncoding) => {
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
};

const compressible = (request: FastifyRequest, reply: FastifyReply) => {
  if (!request.url.startsWith('/api/') || request.method === 'HEAD') return false;
  if (reply.statusCode === 204 || reply.statusCode === 304 || reply.hasHeader('content-encoding')) return false;

  return TEXTUAL.test(String(reply.getHeader('content-type') ?? ''));
};

export const installApiCompression = (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!compressible(request, reply)) return payload;
    // the answer differs by what the client accepts, whether or not this one was compressed
    reply.header('vary', appendVary(reply.getHeader('vary')));
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;

    if (payload instanceof Readable) {
      markEncoded(reply, encoding);
      const compressor = encoding === 'br' ? createBrotliCompress(BROTLI_PARAMS) : createGzip(GZIP_OPTIONS);
      payload.on('error', (err) => compressor.destroy(err));

      return payload.pipe(compressor);
    }
    if (typeof payload === 'string') {
      if (Buffer.byteLength(payload) < COMPRESS_MIN_BYTES) return payload;
      markEncoded(reply, encoding);

      return compressBytes(Buffer.from(payload), encoding);
    }
    if (Buffer.isBuffer(payload)) {
      if (payload.length < COMPRESS_MIN_BYTES) return payload;
      markEncoded(reply, encoding);

      return compressKept(payload, encoding);
    }

    return payload;
  });
};

const appendVary = (current: unknown) => {
  const values = String(current ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.some((v) => v === '*' || v.toLowerCase() === 'accept-encoding')) return values.join(', ');

  return [...values, 'Accept-Encoding'].join(', ');
};
