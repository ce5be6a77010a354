import { type IncomingHttpHeaders, request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../test/harness';
import { ATTACHMENT_CSP, mediaHeaders, normalisedPath, webCsp } from './security-headers';

let server: TTestServer;
const EMOJI_JSON = JSON.stringify([{ label: 'rosto sorridente', emoji: '😀', tags: ['feliz'] }]);
const webDist = mkdtempSync(join(tmpdir(), 'zelo-web-'));
beforeAll(async () => {
  writeFileSync(
    join(webDist, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>',
  );
  writeFileSync(join(webDist, 'app.js'), 'console.log(1)');
  // the emoji data as the web build writes it: the JSON with its brotli and gzip copies
  mkdirSync(join(webDist, 'emojibase', 'pt'), { recursive: true });
  const data = join(webDist, 'emojibase', 'pt', 'data.json');
  writeFileSync(data, EMOJI_JSON);
  writeFileSync(`${data}.br`, brotliCompressSync(EMOJI_JSON));
  writeFileSync(`${data}.gz`, gzipSync(EMOJI_JSON));
  server = await startTestServer({ config: { webDist } });
});
afterAll(async () => {
  await server.close();
  rmSync(webDist, { recursive: true, force: true });
});

/** a file as an older Zelo (or a channel) left it in the media folder */
const stored = (name: string, data: string | Buffer) => {
  writeFileSync(join(server.ctx.config.dataDir, 'media', name), data);

  return `${server.url}/public/${name}`;
};

/** a GET with the request line exactly as given */
const rawGet = (path: string) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolvePromise, reject) => {
    const { hostname, port } = new URL(server.url);
    const req = request({ host: hostname, port, path, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end();
  });

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const XHTML =
  '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><script>document.title="ran"</script></body></html>';

const expectInline = (res: Response, type: string) => {
  expect(res.headers.get('content-type')).toBe(type);
  expect(res.headers.get('content-disposition')).toBe('inline');
  expect(res.headers.get('content-security-policy')).toBeNull();
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
};
const expectAttachment = (res: Response) => {
  expect(res.headers.get('content-disposition')).toBe('attachment');
  expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
};

describe('media under /public/', () => {
  it('serves images, audio, video and PDF inline with their exact type, and no sandbox on PDF', async () => {
    const cases: [string, string][] = [
      ['a1.png', 'image/png'],
      ['a2.jpg', 'image/jpeg'],
      ['a3.webp', 'image/webp'],
      ['a4.ogg', 'audio/ogg'],
      ['a5.mp3', 'audio/mpeg'],
      ['a6.m4a', 'audio/mp4'],
      ['a7.mp4', 'video/mp4'],
      ['a8.webm', 'video/webm'],
      ['a9.pdf', 'application/pdf'],
    ];
    for (const [name, type] of cases) {
      const res = await fetch(stored(name, PNG));
      expect(res.status, name).toBe(200);
      expectInline(res, type);
    }
    // a video's ranges keep the same headers
    const range = await fetch(`${server.url}/public/a7.mp4`, { headers: { range: 'bytes=0-9' } });
    expect(range.status).toBe(206);
    expectInline(range, 'video/mp4');
  });

  it('serves everything else as a sandboxed download, older active extensions included', async () => {
    for (const name of ['b1.txt', 'b2.zip', 'b3.docx', 'b4.xml', 'b5.svg', 'b6.html', 'b7.js', 'b8.bin', 'b9']) {
      const res = await fetch(stored(name, XHTML));
      expect(res.status, name).toBe(200);
      expectAttachment(res);
    }
    // an encoded extension is decided like the file it serves
    expectAttachment(await fetch(`${server.url}/public/b4.x%6Dl`));
  });

  it('decides on the path the router serves, however the URL spells it: each form gets the headers or no file', async () => {
    stored('c1.html', XHTML);
    const forms = [
      '/%70ublic/c1.html',
      '/%70%75%62%6c%69%63/c1.%68tml',
      '/public%2Fc1.html',
      '/public%2fc1.html',
      '//public/c1.html',
      '/public//c1.html',
      '/PUBLIC/c1.html',
      '/Public/c1.html',
      '/./public/c1.html',
      '/public/./c1.html',
      '/x/../public/c1.html',
      '/%2e/public/c1.html',
      '/x/%2e%2e/public/c1.html',
      '/public/c1.html;.png',
      '/public;x=1/c1.html',
      '/%2570ublic/c1.html',
      '/public/c1.html?.png',
      '/public/c1.html#.png',
    ];
    let served = 0;
    for (const form of forms) {
      // the raw request line, as a client other than a browser sends it (fetch would normalise some forms)
      const res = await rawGet(form);
      if (res.body.includes('document.title')) {
        served += 1;
        expect(res.headers['content-disposition'], form).toBe('attachment');
        expect(res.headers['content-security-policy'], form).toBe(ATTACHMENT_CSP);
        expect(res.headers['x-content-type-options'], form).toBe('nosniff');
      }
    }
    // the encoded prefix is served (the router decodes it): the rule must have held for it
    expect(served).toBeGreaterThan(0);
  });

  it('never lets a missing file be rendered either', async () => {
    const res = await fetch(`${server.url}/public/missing.html`);
    expect(res.status).toBe(404);
    expectAttachment(res);
  });
});

describe('the web app and the API', () => {
  it('serves the app and its client-side routes with a CSP that runs only its own scripts', async () => {
    for (const path of ['/', '/tickets', '/app.js']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(
        csp.split(';').map((d) => {
          const [name, ...values] = d.trim().split(/\s+/);

          return [name, values.join(' ')];
        }),
      );
      expect(directives['script-src']).toBe("'self'");
      expect(directives['style-src']).toBe("'self' 'unsafe-inline'");
      expect(directives['frame-src']).toBe('https://www.youtube.com https://www.youtube-nocookie.com');
      expect(directives['connect-src']).toBe(
        `'self' ws://${new URL(server.url).host} wss://${new URL(server.url).host}`,
      );
      expect(directives['img-src']).toBe("'self' data: blob: https:");
      expect(directives['media-src']).toBe("'self' blob: data:");
      expect(directives['frame-ancestors']).toBe("'none'");
      expect(directives['object-src']).toBe("'none'");
      expect(directives['base-uri']).toBe("'self'");
      expect(directives['form-action']).toBe("'self'");
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it("sends the emoji data's compressed copy to a browser that takes it, as JSON, and the plain file otherwise", async () => {
    const url = '/emojibase/pt/data.json';
    const br = await server.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(EMOJI_JSON);
    const gz = await server.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await server.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(EMOJI_JSON);
    expect(plain.headers.etag).toBeTruthy();
    // the app's own files still come as they are
    const js = await server.app.inject({ method: 'GET', url: '/app.js', headers: { 'accept-encoding': 'br' } });
    expect(js.headers['content-encoding']).toBeUndefined();
    expect(js.body).toBe('console.log(1)');
  });

  it('names no websocket host it cannot trust', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/', headers: { host: 'evil.test"; script-src *' } });
    expect(res.headers['content-security-policy']).toBe(webCsp());
  });

  it('answers the API with nosniff and the referrer rule, and leaves its docs page its own scripts', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});

describe('mediaHeaders', () => {
  it('decides by the served extension and defaults to a download', () => {
    expect(mediaHeaders('/public/x.PNG')).toEqual({ 'content-type': 'image/png', 'content-disposition': 'inline' });
    for (const path of ['/public/x.svg', '/public/x.svgz', '/public/x.xhtml', '/public/x', '/public/%E0%A4%A']) {
      expect(mediaHeaders(path)).toEqual({
        'content-disposition': 'attachment',
        'content-security-policy': ATTACHMENT_CSP,
      });
    }
  });
});

describe('normalisedPath', () => {
  it('reads every spelling of a media path as /public/…, and gives up on what cannot be decoded', () => {
    for (const url of [
      '/%70ublic/a.html',
      '//public/a.html',
      '/PUBLIC/a.html',
      '/x/../public/a.html',
      '/public%2Fa.html',
    ]) {
      expect(normalisedPath(url), url).toBe('/public/a.html');
    }
    expect(normalisedPath('/public;v=1/a.html?x=1')).toBe('/public/a.html');
    expect(normalisedPath('/public\\a.html')).toBe('/public/a.html');
    expect(normalisedPath('/%E0%A4%A')).toBeUndefined();
  });
});
