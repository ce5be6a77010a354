import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../http/errors';
import { assertOutboundUrl, isPrivateAddress, OutboundError, outboundFetch, useOutboundAllowList } from './outbound';

let server: Server;
let base = '';
const seen: { method?: string; url?: string; body: string; headers: IncomingMessage['headers'] }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, body, headers: req.headers });
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
      } else if (req.url?.startsWith('/hop?')) {
        res.writeHead(Number(new URL(req.url, 'http://x').searchParams.get('status') ?? 302), { location: to ?? '/' });
        res.end();
      } else if (req.url === '/loop') {
        res.writeHead(307, { location: '/loop' }).end();
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 2_000);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, body }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  seen.length = 0;
  useOutboundAllowList([]);
});

const refused = async (url: string) => {
  const err = await assertOutboundUrl(url).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, url).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('ERR_OUTBOUND_URL_REFUSED');
  expect((err as AppError).status).toBe(400);
};

describe('the outbound URL guard', () => {
  it('classifies private, reserved and public addresses, v4 and v6', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(a), a).toBe(false);
    }
  });

  it('refuses other schemes, credentials, private addresses and names that resolve to them', async () => {
    await refused('ftp://example.com/');
    await refused('file:///etc/passwd');
    await refused('not a url');
    await refused('http://user:pass@8.8.8.8/');
    await refused(base);
    await refused('http://[::1]:80/');
    await refused('http://[::ffff:127.0.0.1]/');
    await refused('http://169.254.169.254/latest/meta-data');
    await refused('http://localhost/');
    await refused('http://0x7f000001/');
    await refused('http://2130706433/');
    await refused('http://no-such-host.invalid/');
    await expect(outboundFetch(`${base}/x`)).rejects.toMatchObject({ code: 'ERR_OUTBOUND_URL_REFUSED' });
    expect(seen).toHaveLength(0);
  });

  it('lets the operator allow a host, an address or a range', async () => {
    useOutboundAllowList(['127.0.0.1']);
    await expect(assertOutboundUrl(base)).resolves.toMatchObject({ address: '127.0.0.1' });
    await refused('http://10.0.0.1/');
    useOutboundAllowList(['10.0.0.0/8', 'localhost']);
    await expect(assertOutboundUrl('http://10.9.8.7/')).resolves.toMatchObject({ address: '10.9.8.7' });
    await expect(assertOutboundUrl('http://localhost/')).resolves.toMatchObject({ host: 'localhost' });
    await refused(base);
  });

  it('fetches an allowed server: method, headers and a JSON or multipart body arrive', async () => {
    useOutboundAllowList(['127.0.0.1']);
    const res = await outboundFetch(`${base}/echo?q=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, body: '{"a":1}' });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/echo?q=1' });
    expect(seen[0]?.headers.authorization).toBe('Bearer k');
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([Buffer.from('OggS')]), 'audio.ogg');
    await outboundFetch(`${base}/form`, { method: 'POST', body: form });
    expect(seen[1]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[1]?.body).toContain('whisper-1');
  });

  it('follows no redirect and gives up after the timeout', async () => {
    useOutboundAllowList(['127.0.0.1']);
    const res = await outboundFetch(`${base}/redirect`);
    expect(res.status).toBe(302);
    expect(seen).toHaveLength(1);
    const started = Date.now();
    const err = await outboundFetch(`${base}/slow`, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as OutboundError).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('reports a closed port as a network failure', async () => {
    useOutboundAllowList(['127.0.0.1']);
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const err = await outboundFetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'network' });
  });

  it('follows redirects only when asked, checking every hop before it is contacted', async () => {
    // the server answers on 127.0.0.1; the operator allowed only the name `localhost`
    useOutboundAllowList(['localhost']);
    const port = new URL(base).port;
    const named = `http://localhost:${port}`;
    const internal = encodeURIComponent(`http://127.0.0.1:${port}/secret`);
    // not asked: the 3xx is the answer
    expect((await outboundFetch(`${named}/hop?to=/echo`)).status).toBe(302);
    // asked: a hop on the allowed host is followed
    const ok = await outboundFetch(`${named}/hop?to=/echo`, { redirect: 'follow' });
    expect(ok.status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(['/hop?to=/echo', '/hop?to=/echo', '/echo']);
    seen.length = 0;
    // a hop to an address the guard refuses is never contacted, whatever the status
    for (const status of [301, 302, 303, 307, 308]) {
      await expect(
        outboundFetch(`${named}/hop?status=${status}&to=${internal}`, { redirect: 'follow' }),
      ).rejects.toMatchObject({ code: 'ERR_OUTBOUND_URL_REFUSED' });
    }
    for (const to of ['http://169.254.169.254/latest', 'http://[::ffff:127.0.0.1]/', 'http://192.0.2.1/']) {
      await expect(
        outboundFetch(`${named}/hop?to=${encodeURIComponent(to)}`, { redirect: 'follow' }),
      ).rejects.toMatchObject({ code: 'ERR_OUTBOUND_URL_REFUSED' });
    }
    expect(seen.every((s) => s.url?.startsWith('/hop?'))).toBe(true);
    expect(seen).toHaveLength(8);
  });

  it('bounds the hops, drops the bearer across origins and turns a 303 into a GET', async () => {
    useOutboundAllowList(['localhost', '127.0.0.1']);
    const port = new URL(base).port;
    const err = await outboundFetch(`${base}/loop`, { redirect: 'follow', maxRedirects: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(seen).toHaveLength(4);
    seen.length = 0;
    const other = encodeURIComponent(`http://localhost:${port}/echo`);
    await outboundFetch(`${base}/hop?status=303&to=${other}`, {
      method: 'POST',
      redirect: 'follow',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(seen[0]).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(seen[0]?.headers.authorization).toBe('Bearer k');
    expect(seen[1]).toMatchObject({ method: 'GET', url: '/echo', body: '' });
    expect(seen[1]?.headers.authorization).toBeUndefined();
    seen.length = 0;
    await outboundFetch(`${base}/hop?status=307&to=/echo`, {
      method: 'POST',
      redirect: 'follow',
      headers: { authorization: 'Bearer k' },
      body: 'same',
    });
    expect(seen[1]).toMatchObject({ method: 'POST', url: '/echo', body: 'same' });
    expect(seen[1]?.headers.authorization).toBe('Bearer k');
  });
});
