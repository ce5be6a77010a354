import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../test/harness';
import { deliver, inbound, setupInbox } from '../../test/inbox';
import { chooseEncoding, COMPRESS_MIN_BYTES } from './compress';

/**
 * API answers over real HTTP as a browser gets them (compress.ts): the ticket list and a CSV export compressed
 * for a client that accepts it and decompressing to exactly the plain answer; small answers, clients that refuse
 * and the media and web files left as they are.
 */

let server: TTestServer;
let inbox: Awaited<ReturnType<typeof setupInbox>>;
beforeAll(async () => {
  server = await startTestServer();
  inbox = await setupInbox(server, 'Compress');
  // a page of pending tickets well above the threshold
  for (let i = 0; i < 12; i++) {
    await deliver(server, inbound(inbox.connectionId, `55119888700${String(i).padStart(2, '0')}`, { body: `oi ${i}` }));
  }
});
afterAll(() => server.close());

type TRaw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };
const fetchRaw = (path: string, headers: Record<string, string>) =>
  new Promise<TRaw>((done, fail) => {
    get(`${server.url}${path}`, { headers: { authorization: `Bearer ${inbox.tenant.token}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    }).on('error', fail);
  });

const decode = (raw: TRaw) => {
  const encoding = raw.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(raw.body);
  if (encoding === 'gzip') return gunzipSync(raw.body);
  return raw.body;
};

describe('API compression', () => {
  it('sends the ticket list brotli or gzip as accepted, the same bytes once decompressed', async () => {
    const path = '/api/tickets?status=pending&showAll=true';
    const plain = await fetchRaw(path, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    expect(JSON.parse(plain.body.toString()).tickets).toHaveLength(12);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);

    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['*', 'br'],
      ['identity', undefined],
      ['br;q=0, gzip;q=0', undefined],
    ] as const) {
      // twice: the second answer is the kept one, compressed once and remembered
      for (let i = 0; i < 2; i++) {
        const res = await fetchRaw(path, { 'accept-encoding': accept });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(encoding);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(decode(res).equals(plain.body), `${accept}: decompresses to the plain answer`).toBe(true);
        if (encoding) expect(res.body.length, accept).toBeLessThan(plain.body.length / 3);
      }
    }
  });

  it('leaves small answers plain', async () => {
    const res = await fetchRaw('/api/auth/me', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString()).id).toBe(inbox.tenant.user.id);
  });

  it('streams a CSV export compressed, and keeps an error answer readable', async () => {
    // a day either side: the report reads days in the company's time zone, which is behind UTC in the evening
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const path = `/api/reports/export?report=tickets&format=csv&from=${day(-1)}&to=${day(1)}&lang=en`;
    const plain = await fetchRaw(path, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^text\/csv/);
    const compressed = await fetchRaw(path, { 'accept-encoding': 'br' });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['content-disposition']).toBe(plain.headers['content-disposition']);
    expect(decode(compressed).toString()).toBe(plain.body.toString());
    expect(plain.body.toString().split('\n').length).toBeGreaterThan(12);

    const refused = await fetchRaw('/api/tickets?status=nonsense', { 'accept-encoding': 'br' });
    expect(refused.status).toBe(400);
    expect(JSON.parse(decode(refused).toString()).error).toBeTruthy();
  });

  it('chooses what the client accepts', () => {
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('')).toBeNull();
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('BR;q=0.2, gzip;q=0.9')).toBe('br');
    expect(chooseEncoding('deflate')).toBeNull();
    expect(chooseEncoding('*;q=0')).toBeNull();
    expect(chooseEncoding('*, br;q=0')).toBe('gzip');
  });
});
