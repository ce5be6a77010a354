import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baileysModule, loadBaileysKit } from './baileys.loader';
import type { TBaileysSocket, TWAMessage } from './baileys.types';

/**
 * Media through the real library: an encrypted file served on loopback as WhatsApp's media servers do
 * (AES-256-CBC with keys derived from the message's mediaKey, a 10-byte MAC after it). An expired link
 * (410) is asked again of the phone (updateMediaMessage) and the new one downloaded.
 */

const plain = Buffer.from('%PDF-1.4 a nota fiscal de teste');
const mediaKey = randomBytes(32);
let encrypted: Buffer;
let server: Server;
let base = '';
const hits: string[] = [];

beforeAll(async () => {
  const { getMediaKeys } = await baileysModule();
  const { iv, cipherKey, macKey } = await getMediaKeys(mediaKey, 'document');
  const cipher = createCipheriv('aes-256-cbc', cipherKey, iv);
  const enc = Buffer.concat([cipher.update(plain), cipher.final()]);
  const mac = createHmac('sha256', macKey ?? Buffer.alloc(32))
    .update(Buffer.concat([iv, enc]))
    .digest()
    .subarray(0, 10);
  encrypted = Buffer.concat([enc, mac]);
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/fresh.enc') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(encrypted);
    else res.writeHead(req.url === '/gone.enc' ? 410 : 404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const documentAt = (path: string): TWAMessage => ({
  key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: `DOC${path}` },
  messageTimestamp: 1763800000,
  message: {
    documentMessage: {
      url: `${base}${path}`,
      directPath: path,
      mediaKey: mediaKey.toString('base64'),
      mimetype: 'application/pdf',
      fileName: 'nota.pdf',
    },
  },
});

describe('Baileys media download', () => {
  it('decrypts a file; an expired link is asked again of the phone, then downloaded', async () => {
    const kit = await loadBaileysKit();
    let reuploads = 0;
    const socket = {
      updateMediaMessage: async (m: TWAMessage) => {
        reuploads += 1;
        const doc = (m.message as { documentMessage: Record<string, unknown> }).documentMessage;
        return { ...m, message: { documentMessage: { ...doc, url: `${base}/fresh.enc` } } };
      },
    } as unknown as TBaileysSocket;
    expect(await kit.downloadMedia(documentAt('/fresh.enc'), socket)).toEqual(plain);
    expect(reuploads).toBe(0);
    expect(await kit.downloadMedia(documentAt('/gone.enc'), socket)).toEqual(plain);
    expect(reuploads).toBe(1);
    expect(hits.slice(-2)).toEqual(['/gone.enc', '/fresh.enc']);
  });

  it('a link that stays broken after the phone answers is an error (the pipeline keeps the message)', async () => {
    const kit = await loadBaileysKit();
    const socket = { updateMediaMessage: async (m: TWAMessage) => m } as unknown as TBaileysSocket;
    await expect(kit.downloadMedia(documentAt('/missing.enc'), socket)).rejects.toThrow();
  });
});
