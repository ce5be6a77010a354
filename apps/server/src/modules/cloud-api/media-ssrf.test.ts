import { createHmac, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { storedByExternalId, until, webhookPath } from './cloud-api.fixtures';

/**
 * Issue 20 item 1, the attack from outside: a self-registered company points a Cloud API connection at its
 * own "Graph API" and posts a webhook it signed itself for a document whose media URL aims (directly, through
 * a 302, or in another spelling) at an internal service. The operator allowed the Graph stand-in by its name
 * (`localhost`) only; the internal service listens on 127.0.0.1. It must never be contacted, and nothing it
 * could answer may end up stored as an attachment.
 */

const VERSION = 'v21.0';
const SECRET = `INTERNAL-ONLY-${randomBytes(8).toString('hex')}`;

let server: TTestServer;
let internal: http.Server;
let internalHits = 0;
let graph: http.Server;
let graphBase = '';
/** media id → the URL the tenant's "Graph" names for it */
const mediaUrls = new Map<string, string>();

const listen = async (s: http.Server, host: string) => {
  await new Promise<void>((resolve) => s.listen(0, host, resolve));

  return (s.address() as AddressInfo).port;
};

beforeAll(async () => {
  // the operator allowed one name for the tenants' stand-in services: not the loopback address itself
  server = await startTestServer({ env: { OUTBOUND_ALLOW_HOSTS: 'localhost' } });
  internal = http.createServer((_req, res) => {
    internalHits += 1;
    res.writeHead(200, { 'content-type': 'application/pdf' }).end(SECRET);
  });
  const internalPort = await listen(internal, '127.0.0.1');
  graph = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) {
      res.writeHead(302, { location: to }).end();
      return;
    }
    const id = url.pathname.split('/').pop() ?? '';
    const media = mediaUrls.get(id);
    res.writeHead(200, { 'content-type': 'application/json' });
    if (media) res.end(JSON.stringify({ url: media, mime_type: 'application/pdf', file_size: 64, id }));
    else res.end(JSON.stringify({ display_phone_number: '15550001111', verified_name: 'Attacker', id }));
  });
  const graphPort = await listen(graph, 'localhost');
  graphBase = `http://localhost:${graphPort}`;
  internalUrls.push(
    `http://127.0.0.1:${internalPort}/secret`,
    `http://[::ffff:127.0.0.1]:${internalPort}/secret`,
    `http://2130706433:${internalPort}/secret`,
    `${graphBase}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${internalPort}/secret`)}`,
    `${graphBase}/redirect?to=${encodeURIComponent(`${graphBase}/redirect?to=http://127.0.0.1:${internalPort}/secret`)}`,
  );
});
afterAll(async () => {
  await server.close();
  for (const s of [internal, graph]) {
    s.closeAllConnections();
    s.close();
  }
});

const internalUrls: string[] = [];

/** every file under a folder, read */
const filesUnder = (dir: string): Buffer[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path)];
  });

describe('a tenant-aimed media URL', () => {
  it('never reaches an internal address: direct, mapped, decimal or through redirects', async () => {
    const tenant = await server.createTenant('Attacker');
    const phoneNumberId = `30${Math.floor(1e12 + Math.random() * 8e12)}`;
    const appSecret = `chosen-${randomBytes(6).toString('hex')}`;
    const created = await server.request('POST', '/api/whatsapp', {
      token: tenant.token,
      body: {
        name: 'Cloud attack',
        provider: 'cloud-api',
        channelConfig: {
          phoneNumberId,
          businessAccountId: '1234567890',
          accessToken: 'any-token',
          appSecret,
          verifyToken: 'any-verify',
          graphUrl: graphBase,
          graphVersion: VERSION,
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const connectionId = created.body.id as number;
    await until('CONNECTED', () => server.ctx.channels.state(connectionId)?.status === 'CONNECTED');

    const ids: string[] = [];
    for (const [i, mediaUrl] of internalUrls.entries()) {
      const mediaId = `77${i}${Math.floor(Math.random() * 1e9)}`;
      mediaUrls.set(mediaId, mediaUrl);
      const wamid = `wamid.attack${i}${randomBytes(6).toString('hex')}`;
      ids.push(wamid);
      const raw = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '1234567890',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: '15550001111', phone_number_id: phoneNumberId },
                  contacts: [{ profile: { name: 'Mallory' }, wa_id: '5511988887777' }],
                  messages: [
                    {
                      from: '5511988887777',
                      id: wamid,
                      timestamp: String(Math.floor(Date.now() / 1000)),
                      type: 'document',
                      document: { id: mediaId, filename: 'loot.pdf', mime_type: 'application/pdf' },
                    },
                  ],
                },
              },
            ],
          },
        ],
      });
      const signature = `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
      const res = await fetch(`${server.url}${webhookPath(connectionId)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body: raw,
      });
      expect(res.status).toBe(200);
    }

    for (const wamid of ids) {
      await until(
        `message ${wamid} stored`,
        async () => (await storedByExternalId(server, connectionId, wamid)).length > 0,
        30_000,
      );
      const [message] = await storedByExternalId(server, connectionId, wamid);
      expect(message?.error_code, wamid).toBe('ERR_WAPP_DOWNLOAD_MEDIA');
      expect(message?.media_url, wamid).toBeNull();
    }
    expect(internalHits).toBe(0);
    const stored = filesUnder(server.ctx.config.dataDir);
    expect(stored.some((data) => data.includes(SECRET))).toBe(false);
  }, 120_000);
});
