import { readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { ROOT_DIR } from '../support/paths';

/**
 * The built web app as `npm start` delivers it (issue 23 item 1, apps/server/src/http/web-app.ts): every hashed
 * file compressed at build time and sent brotli or gzip to a client that accepts it, plain to one that does not,
 * kept a year (immutable); index.html and the client-side routes revalidated with their ETag. Raw HTTP, so the
 * answer's bytes are checked as they travel, then decompressed and compared with the file.
 */

const DIST = join(ROOT_DIR, 'apps/web/dist');

type TAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };
const fetchRaw = (path: string, headers: Record<string, string> = {}) =>
  new Promise<TAnswer>((done, fail) => {
    get(`${inject('baseUrl')}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    }).on('error', fail);
  });

const assets = readdirSync(join(DIST, 'assets')).filter((name) => /\.(js|css)$/.test(name));
const biggest = [...assets]
  .sort((a, b) => readFileSync(join(DIST, 'assets', b)).length - readFileSync(join(DIST, 'assets', a)).length)
  .slice(0, 6);
const smallCss = assets.find((name) => name.endsWith('.css'));

describe('the built web app through the server', () => {
  it('sends each hashed file brotli, gzip or plain as the client accepts, with its type, kept a year', async () => {
    for (const name of [...new Set([...biggest, ...(smallCss ? [smallCss] : [])])]) {
      const file = readFileSync(join(DIST, 'assets', name));
      const type = name.endsWith('.css') ? /^text\/css/ : /^(application|text)\/javascript/;
      for (const [accept, encoding, decode] of [
        ['br, gzip, deflate', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
        ['', undefined, (b: Buffer) => b],
      ] as const) {
        const res = await fetchRaw(`/assets/${name}`, accept ? { 'accept-encoding': accept } : {});
        expect(res.status, `${name} ${accept}`).toBe(200);
        expect(res.headers['content-type'], name).toMatch(type);
        expect(res.headers['content-encoding'], `${name} ${accept}`).toBe(encoding);
        expect(res.headers['cache-control'], name).toBe('public, max-age=31536000, immutable');
        expect(res.headers.vary, name).toMatch(/accept-encoding/i);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(decode(res.body).equals(file), `${name} ${accept}: the bytes decompress to the file`).toBe(true);
        if (encoding) expect(res.body.length, `${name} ${accept}: smaller`).toBeLessThan(file.length);
      }
    }
  });

  it('revalidates index.html and the client-side routes with their ETag', async () => {
    const index = readFileSync(join(DIST, 'index.html'));
    for (const path of ['/', '/tickets', '/reports']) {
      const res = await fetchRaw(path, { 'accept-encoding': 'br, gzip' });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], path).toBe('no-cache');
      const etag = res.headers.etag as string;
      expect(etag, path).toBeTruthy();
      const body = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.body) : res.body;
      expect(body.equals(index), path).toBe(true);
      const again = await fetchRaw(path, { 'if-none-match': etag });
      expect(again.status, `${path} revalidated`).toBe(304);
    }
  });
});
