import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuickMessage, SAMPLE_PDF, uploadQuickMedia } from '../../../test/catalogue-fixtures';
import { createLoggedUser, openSocket, recordEvents, type TTenant } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { mediaDir } from '../messages/media';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let server: TTestServer;
let tenant: TTenant;
let ana: { id: number; token: string };
let bob: { id: number; token: string };
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
  ana = await createLoggedUser(server, tenant, { name: 'Ana' });
  bob = await createLoggedUser(server, tenant, { name: 'Bob' });
});
afterAll(() => server.close());

/** the stored file's name, from the public URL the API answers */
const storedName = (mediaPath: string) => {
  const match = /\/public\/([0-9a-f]{32}\.[a-z0-9]+)$/.exec(mediaPath);
  expect(match, mediaPath).not.toBeNull();

  return match?.[1] ?? '';
};
const onDisk = (name: string) => existsSync(join(mediaDir(server.ctx.config), name));
const filesOnDisk = () => (existsSync(mediaDir(server.ctx.config)) ? readdirSync(mediaDir(server.ctx.config)) : []);
const read = async (id: number, token = ana.token) =>
  (await server.request('GET', `/api/quick-messages/${id}`, { token })).body;

describe('quick message attachments', () => {
  it('attaches a file: typed by content, named with underscores, served under /public, announced', async () => {
    const socket = await openSocket(server, bob.token);
    const heard = recordEvents(socket);
    try {
      const q = await addQuickMessage(server, ana.token, { geral: true });
      const res = await uploadQuickMedia(server, ana.token, q.id, { name: 'price list  2024.pdf', data: SAMPLE_PDF });
      expect(res).toMatchObject({
        status: 200,
        body: { id: q.id, isMedia: true, mediaName: 'price_list__2024.pdf' },
      });
      const name = storedName(res.body.mediaPath);
      expect(name).toMatch(/\.pdf$/);
      expect(onDisk(name)).toBe(true);
      const served = await fetch(`${server.url}/public/${name}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(SAMPLE_PDF);
      expect(await read(q.id, bob.token)).toMatchObject({ isMedia: true, mediaPath: res.body.mediaPath });
      const listed = await server.request('GET', '/api/quick-messages/list', { token: bob.token });
      expect(listed.body.find((x: { id: number }) => x.id === q.id)).toMatchObject({
        mediaName: 'price_list__2024.pdf',
        mediaPath: res.body.mediaPath,
      });
      await heard.waitFor(
        `company-${tenant.companyId}-quickemessage`,
        (p) => p.action === 'update' && p.record?.id === q.id && p.record.isMedia === true,
      );
    } finally {
      socket.close();
    }
  });

  it('a new file replaces the earlier one, which is removed', async () => {
    const q = await addQuickMessage(server, ana.token);
    const first = await uploadQuickMedia(server, ana.token, q.id);
    const firstName = storedName(first.body.mediaPath);
    const second = await uploadQuickMedia(server, ana.token, q.id, { name: 'logo.png', data: PNG, type: 'image/png' });
    expect(second).toMatchObject({ status: 200, body: { mediaName: 'logo.png', isMedia: true } });
    const secondName = storedName(second.body.mediaPath);
    expect(secondName).not.toBe(firstName);
    expect(secondName).toMatch(/\.png$/);
    expect(onDisk(firstName)).toBe(false);
    expect(onDisk(secondName)).toBe(true);
  });

  it('DELETE media-upload clears the fields and removes the file; deleting the quick message removes its file', async () => {
    const q = await addQuickMessage(server, ana.token);
    const name = storedName((await uploadQuickMedia(server, ana.token, q.id)).body.mediaPath);
    const cleared = await server.request('DELETE', `/api/quick-messages/${q.id}/media-upload`, { token: ana.token });
    expect(cleared).toMatchObject({ status: 200, body: { isMedia: false, mediaPath: null, mediaName: null } });
    expect(onDisk(name)).toBe(false);
    expect(await read(q.id)).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null });
    // nothing attached: answers it as it is
    const again = await server.request('DELETE', `/api/quick-messages/${q.id}/media-upload`, { token: ana.token });
    expect(again).toMatchObject({ status: 200, body: { isMedia: false } });

    const other = await addQuickMessage(server, ana.token);
    const otherName = storedName((await uploadQuickMedia(server, ana.token, other.id)).body.mediaPath);
    expect((await server.request('DELETE', `/api/quick-messages/${other.id}`, { token: ana.token })).status).toBe(204);
    expect(onDisk(otherName)).toBe(false);
  });

  it('a file a browser would run is stored under a safe extension; its name is kept only as mediaName', async () => {
    const q = await addQuickMessage(server, ana.token);
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const res = await uploadQuickMedia(server, ana.token, q.id, { name: 'page.html', data: html, type: 'text/html' });
    expect(res).toMatchObject({ status: 200, body: { mediaName: 'page.html' } });
    const name = storedName(res.body.mediaPath);
    expect(name).toMatch(/\.txt$/);
    const served = await fetch(`${server.url}/public/${name}`);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('refuses what is not a file upload, an empty file and a file too large for its kind, storing nothing', async () => {
    const q = await addQuickMessage(server, ana.token);
    const before = filesOnDisk().length;
    const json = await server.request('POST', `/api/quick-messages/${q.id}/media-upload`, {
      token: ana.token,
      body: { file: 'x' },
    });
    expect(json).toMatchObject({ status: 415, body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' } });

    const noFile = new FormData();
    noFile.append('typeArch', 'quickMessage');
    const missing = await fetch(`${server.url}/api/quick-messages/${q.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ana.token}` },
      body: noFile,
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: 'file' }] });

    const empty = await uploadQuickMedia(server, ana.token, q.id, { name: 'empty.pdf', data: Buffer.alloc(0) });
    expect(empty).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });

    // an image over the 16 MB an image may have
    const big = Buffer.concat([PNG, Buffer.alloc(16 * 1024 * 1024 + 1)]);
    const tooLarge = await uploadQuickMedia(server, ana.token, q.id, { name: 'big.png', data: big, type: 'image/png' });
    expect(tooLarge).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });

    expect(filesOnDisk().length).toBe(before);
    expect(await read(q.id)).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null });
  });

  it("a user cannot touch another user's personal message (404) nor another's shared one (403); an admin can", async () => {
    const personal = await addQuickMessage(server, ana.token, { geral: false });
    const shared = await addQuickMessage(server, ana.token, { geral: true });
    const name = storedName((await uploadQuickMedia(server, ana.token, personal.id)).body.mediaPath);
    await uploadQuickMedia(server, ana.token, shared.id);
    const before = filesOnDisk().length;

    const hidden = await uploadQuickMedia(server, bob.token, personal.id);
    expect(hidden).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUICK_MESSAGE_FOUND' } });
    const hiddenDelete = await server.request('DELETE', `/api/quick-messages/${personal.id}/media-upload`, {
      token: bob.token,
    });
    expect(hiddenDelete).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUICK_MESSAGE_FOUND' } });
    const notHis = await uploadQuickMedia(server, bob.token, shared.id);
    expect(notHis).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    const notHisDelete = await server.request('DELETE', `/api/quick-messages/${shared.id}/media-upload`, {
      token: bob.token,
    });
    expect(notHisDelete).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect(filesOnDisk().length).toBe(before);
    expect(onDisk(name)).toBe(true);
    expect(await read(shared.id)).toMatchObject({ isMedia: true });

    // the company's admin manages every quick message of the company
    const byAdmin = await server.request('DELETE', `/api/quick-messages/${personal.id}/media-upload`, {
      token: tenant.token,
    });
    expect(byAdmin).toMatchObject({ status: 200, body: { isMedia: false } });
    expect(onDisk(name)).toBe(false);
  });

  it("another company's id answers 404 like a missing one, and its file stays", async () => {
    const other = await server.createTenant();
    const theirs = await addQuickMessage(server, other.token, { geral: true });
    const name = storedName((await uploadQuickMedia(server, other.token, theirs.id)).body.mediaPath);
    const missing = await uploadQuickMedia(server, tenant.token, 2_000_000_000);
    const foreign = await uploadQuickMedia(server, tenant.token, theirs.id);
    expect(foreign).toEqual(missing);
    expect(foreign).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUICK_MESSAGE_FOUND' } });
    const foreignDelete = await server.request('DELETE', `/api/quick-messages/${theirs.id}/media-upload`, {
      token: tenant.token,
    });
    expect(foreignDelete).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUICK_MESSAGE_FOUND' } });
    expect(onDisk(name)).toBe(true);
    expect(await read(theirs.id, other.token)).toMatchObject({ isMedia: true, mediaName: 'price_list.pdf' });
  });

  it('a personal one is announced to its author and the admins, not to the others', async () => {
    const bobSocket = await openSocket(server, bob.token);
    const adminSocket = await openSocket(server, tenant.token);
    const bobHeard = recordEvents(bobSocket);
    const adminHeard = recordEvents(adminSocket);
    const event = `company-${tenant.companyId}-quickemessage`;
    try {
      const personal = await addQuickMessage(server, ana.token, { geral: false });
      await uploadQuickMedia(server, ana.token, personal.id);
      await adminHeard.waitFor(event, (p) => p.action === 'update' && p.record?.id === personal.id);
      const shared = await addQuickMessage(server, ana.token, { geral: true });
      await bobHeard.waitFor(event, (p) => p.record?.id === shared.id);
      expect(bobHeard.heard.some((h) => (h.payload as { record?: { id: number } }).record?.id === personal.id)).toBe(
        false,
      );
    } finally {
      bobSocket.close();
      adminSocket.close();
    }
  });
});
