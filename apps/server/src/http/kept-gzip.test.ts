import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip, GZIP_MIN_BYTES, gzipOf, sendKept } from './kept-gzip';

describe('kept answers gzipped once for clients that accept it', () => {
  const big = Buffer.from(
    JSON.stringify({ tickets: Array.from({ length: 20000 }, (_, id) => ({ id, text: `card ${id}` })) }),
  );
  const small = Buffer.from('{"tickets":[],"count":0,"hasMore":false}');
  const app = Fastify();
  app.get('/big', (request, reply) => sendKept(request, reply, big));
  app.get('/small', (request, reply) => sendKept(request, reply, small));
  beforeAll(() => app.ready());
  afterAll(() => app.close());

  it('reads Accept-Encoding as browsers and proxies write it', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it('sends a large answer gzipped (the same bytes once unzipped) and the plain bytes otherwise', async () => {
    expect(big.length).toBeGreaterThan(GZIP_MIN_BYTES);
    const zipped = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers).toMatchObject({
      'content-encoding': 'gzip',
      'content-type': 'application/json; charset=utf-8',
      vary: 'Accept-Encoding',
    });
    expect(gunzipSync(zipped.rawPayload).equals(big)).toBe(true);
    const plain = await app.inject({ url: '/big', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(big)).toBe(true);
    const tiny = await app.inject({ url: '/small', headers: { 'accept-encoding': 'gzip' } });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe(small.toString());
  });

  it('compresses a kept answer once, however many read it', async () => {
    const first = gzipOf(big);
    expect(gzipOf(big)).toBe(first);
    expect(await gzipOf(Buffer.from(big))).toEqual(await first);
  });
});
