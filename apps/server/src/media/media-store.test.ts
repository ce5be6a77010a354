process.env.SANDBOX_OPENING_MS = '10';
process.env.SANDBOX_ACK_MS = '10';

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../../test/fixtures';
import { startTestServer, type TTestServer } from '../../test/harness';
import { createBucket, startS3Server, type TS3Server } from '../../test/s3-server';
import { loadConfig } from '../config';
import { createLocalStore } from './local-store';
import { openMediaStore, sha256Hex, type TMediaStore } from './store';
import { moveMediaToS3 } from './to-s3';

/**
 * The media store's contract, held by the local folder and by a real S3-compatible server on loopback (s3rver),
 * a server running with MEDIA_STORE=s3 (nothing written to its disk, /public served from the bucket with the
 * same security headers), and the move of a local folder into a bucket.
 */
let s3: TS3Server;
const dirs: string[] = [];
const tempDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `zelo-${label}-`));
  dirs.push(dir);
  return dir;
};
const s3Store = async (bucket: string) => {
  const env = await createBucket(s3, bucket);
  return openMediaStore(loadConfig({ DATA_DIR: tempDir('s3cfg'), ...env }).media);
};
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const stores: [string, () => Promise<TMediaStore>][] = [
  ['local folder', async () => createLocalStore(tempDir('local'))],
  ['S3 bucket', () => s3Store(`contract-${Date.now()}`)],
];

describe.each(stores)('the media store contract: %s', (_label, open) => {
  let store: TMediaStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.close());

  it('keeps a Buffer and a stream (larger than one multipart part) byte for byte', async () => {
    const small = Buffer.from('a small file');
    await store.put('small.txt', small);
    expect(await store.read('small.txt')).toEqual(small);
    const big = Buffer.alloc(12 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    await store.put('big.bin', Readable.from([big.subarray(0, 5_000_000), big.subarray(5_000_000)]), {
      size: big.length,
      sha256: sha256Hex(big),
    });
    expect(sha256Hex(await store.read('big.bin'))).toBe(sha256Hex(big));
    expect(await store.stat('big.bin')).toMatchObject({ size: big.length });
  });

  it('reads ranges: from-to, open-ended, the last bytes; refuses one past the end', async () => {
    await store.put('digits.txt', Buffer.from('0123456789'));
    const read = async (range: Parameters<TMediaStore['open']>[1]) => {
      const file = await store.open('digits.txt', range);
      if (!file || file === 'unsatisfiable') return file;
      return { body: await text(file.body), length: file.length, size: file.size, range: file.range };
    };
    expect(await read({ start: 2, end: 4 })).toEqual({ body: '234', length: 3, size: 10, range: { start: 2, end: 4 } });
    expect(await read({ start: 7 })).toMatchObject({ body: '789', range: { start: 7, end: 9 } });
    expect(await read({ suffix: 2 })).toMatchObject({ body: '89', range: { start: 8, end: 9 } });
    expect(await read(undefined)).toMatchObject({ body: '0123456789', length: 10 });
    expect(await read({ start: 10 })).toBe('unsatisfiable');
    expect(await store.open('absent.txt')).toBeUndefined();
  });

  it('a missing file: read rejects with ENOENT, stat is undefined, remove is no error', async () => {
    await expect(store.read('absent.png')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await store.stat('absent.png')).toBeUndefined();
    await store.remove('absent.png');
  });

  it('duplicates only a source holding the same bytes, and each copy is removed on its own', async () => {
    const data = Buffer.from('campaign media');
    await store.put('source.pdf', data);
    expect(await store.duplicate('source.pdf', 'copy.pdf', data)).toBe(true);
    expect(await store.duplicate('source.pdf', 'other.pdf', Buffer.from('other bytes'))).toBe(false);
    expect(await store.duplicate('gone.pdf', 'other.pdf', data)).toBe(false);
    expect(await store.stat('other.pdf')).toBeUndefined();
    await store.remove('source.pdf');
    expect(await store.read('copy.pdf')).toEqual(data);
  });

  it('lists every file with its size', async () => {
    const listed = new Map<string, number>();
    for await (const entry of store.list()) listed.set(entry.name, entry.size);
    expect(listed.get('small.txt')).toBe(12);
    expect(listed.get('copy.pdf')).toBe(14);
    expect(listed.has('source.pdf')).toBe(false);
  });
});

describe('a server with MEDIA_STORE=s3', () => {
  let server: TTestServer;
  let tenant: Awaited<ReturnType<TTestServer['createTenant']>>;
  let connectionId: number;
  let store: TMediaStore;
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 7)]);
  const XHTML = '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>1</script></html>';

  beforeAll(async () => {
    const env = await createBucket(s3, 'served');
    server = await startTestServer({ env });
    store = await openMediaStore(server.ctx.config.media);
    tenant = await server.createTenant();
    const res = await server.request('POST', '/api/whatsapp', { token: tenant.token, body: { name: unique('S3') } });
    connectionId = res.body.id;
    const end = Date.now() + 10_000;
    while (server.ctx.channels.state(connectionId)?.status !== 'qrcode') {
      if (Date.now() > end) throw new Error('the sandbox connection never showed its QR code');
      await new Promise((r) => setTimeout(r, 20));
    }
    await server.request('POST', `/api/sandbox/${connectionId}/scan`, { token: tenant.token, body: {} });
  });
  afterAll(async () => {
    store.close();
    await server.close();
  });

  const inboundMedia = async (data: Buffer, mimetype: string, fileName: string) => {
    const res = await server.request('POST', `/api/sandbox/${connectionId}/inbound`, {
      token: tenant.token,
      body: {
        from: '5511988881111',
        type: 'document',
        body: fileName,
        media: { data: data.toString('base64'), mimetype, fileName },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = async () =>
      (
        await server.database.executeSql('select media_url from messages where company_id = $1 and external_id = $2', [
          tenant.companyId,
          res.body.externalId,
        ])
      ).rows[0] as { media_url: string } | undefined;
    await expect.poll(stored, { timeout: 10_000, interval: 50 }).toBeDefined();

    return (await stored())!.media_url.split('/').pop()!;
  };

  it("keeps a customer's media in the bucket, none on the node's disk, and serves it inline with its exact type", async () => {
    const name = await inboundMedia(PNG, 'image/png', 'photo.png');
    expect(name).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(await store.read(name)).toEqual(PNG);
    expect(readdirSync(server.ctx.config.dataDir)).not.toContain('media');
    const res = await fetch(`${server.url}/public/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe('inline');
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
    // a range (a video's seek), HEAD, and a cache revalidation
    const part = await fetch(`${server.url}/public/${name}`, { headers: { range: 'bytes=0-7' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-7/${PNG.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(PNG.subarray(0, 8));
    expect(part.headers.get('x-content-type-options')).toBe('nosniff');
    const head = await fetch(`${server.url}/public/${name}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(PNG.length));
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${server.url}/public/${name}`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    const beyond = await fetch(`${server.url}/public/${name}`, { headers: { range: `bytes=${PNG.length + 5}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });

  it('serves active content stored as text as an inert download, however the path is spelled', async () => {
    const name = await inboundMedia(Buffer.from(XHTML), 'application/xml', 'invoice.xml');
    expect(name).toMatch(/\.txt$/);
    for (const path of [`/public/${name}`, `/%70ublic/${name}`]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-disposition')).toBe('attachment');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toBe(XHTML);
    }
    // an object put in the bucket by other means under an active extension is still a sandboxed download
    await store.put('legacy.html', Buffer.from('<script>alert(1)</script>'));
    const legacy = await fetch(`${server.url}/public/legacy.html`);
    expect(legacy.headers.get('content-disposition')).toBe('attachment');
    expect(legacy.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(legacy.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('answers a missing file or a name that walks a path 404, as an inert download', async () => {
    for (const path of ['/public/0123456789abcdef.png', '/public/..%2Fsecret.key', '/public/a%2Fb.png']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    }
  });

  it("an agent's upload goes to the bucket, a deleted quick message's file leaves it", async () => {
    const upload = new FormData();
    const created = await server.request('POST', '/api/quick-messages', {
      token: tenant.token,
      body: { shortcode: unique('qm').slice(0, 20), message: 'with a file', geral: true },
    });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    upload.append('file', new Blob([PNG], { type: 'image/png' }), 'logo.png');
    const res = await fetch(`${server.url}/api/quick-messages/${created.body.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}` },
      body: upload,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const name = ((await res.json()) as { mediaPath: string }).mediaPath.split('/').pop()!;
    expect(await store.read(name)).toEqual(PNG);
    expect(
      (await server.request('DELETE', `/api/quick-messages/${created.body.id}`, { token: tenant.token })).status,
    ).toBe(204);
    await expect.poll(() => store.stat(name), { timeout: 5_000 }).toBeUndefined();
  });
});

describe('moving a local media folder into a bucket', () => {
  it('moves every file, verifies it, resumes after an interruption and finds a damaged object', async () => {
    const from = tempDir('to-s3');
    const files = new Map<string, Buffer>();
    for (let i = 0; i < 12; i++) {
      const data = Buffer.alloc(1000 + i * 997, i + 1);
      const name = `${sha256Hex(data).slice(0, 32)}.bin`;
      writeFileSync(join(from, name), data);
      files.set(name, data);
    }
    writeFileSync(join(from, 'not a media name.txt'), 'left alone');
    const target = await s3Store('moved');
    // an earlier run that stopped part way: four files there, one of them cut short
    const names = [...files.keys()];
    for (const name of names.slice(0, 3)) await target.put(name, files.get(name)!);
    await target.put(names[3]!, files.get(names[3]!)!.subarray(0, 10));

    const report = await moveMediaToS3({ from, target, verify: 'head' });
    expect(report).toMatchObject({ files: 13, uploaded: 9, skipped: 3, verified: 12 });
    expect(report.problems).toEqual([{ name: 'not a media name.txt', reason: expect.stringContaining('not a media') }]);
    for (const [name, data] of files) expect(await target.read(name)).toEqual(data);

    // a second run moves nothing; a full verification reads every object back
    const again = await moveMediaToS3({ from, target, verify: 'full' });
    expect(again).toMatchObject({ uploaded: 0, skipped: 12, verified: 12 });
    // an object whose bytes changed behind its recorded hash: caught by the full check only
    await target.put(names[5]!, Readable.from([Buffer.alloc(files.get(names[5]!)!.length, 0)]), {
      size: files.get(names[5]!)!.length,
      sha256: sha256Hex(files.get(names[5]!)!),
    });
    const checked = await moveMediaToS3({ from, target, verify: 'full' });
    expect(checked.problems.map((p) => p.name)).toContain(names[5]);
    target.close();
  });
});
