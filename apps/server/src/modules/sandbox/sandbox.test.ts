process.env.SANDBOX_OPENING_MS = '10';
process.env.SANDBOX_QR_MS = '5000';
process.env.SANDBOX_ACK_MS = '10';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCallEvent, TInboundMessage, TMessageUpdate } from '../../channels/types';
import { countRows, createLoggedUser, openSocket, recordEvents, type TTenant, unique } from '../../../test/fixtures';
import { openTestDatabase, startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
const messages: TInboundMessage[] = [];
const updates: TMessageUpdate[] = [];
const calls: TCallEvent[] = [];
beforeAll(async () => {
  server = await startTestServer();
  server.ctx.channels.setEvents({
    onMessage: async (m) => {
      messages.push(m);
    },
    onMessageUpdate: async (u) => {
      updates.push(u);
    },
    onCall: async (c) => {
      calls.push(c);
    },
  });
});
afterAll(() => server.close());

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** a sandbox connection of the tenant, scanned and CONNECTED */
const connectedSandbox = async (tenant: TTenant) => {
  const res = await server.request('POST', '/api/whatsapp', { token: tenant.token, body: { name: unique('Sandbox') } });
  expect(res.status).toBe(201);
  const id = res.body.id as number;
  await until(() => server.ctx.channels.state(id)?.status === 'qrcode');
  expect((await server.request('POST', `/api/sandbox/${id}/scan`, { token: tenant.token, body: {} })).status).toBe(200);

  return id;
};

const inbound = (tenant: TTenant, id: number, body: unknown) =>
  server.request('POST', `/api/sandbox/${id}/inbound`, { token: tenant.token, body });

describe('sandbox simulator API', () => {
  it('is for admins of the connection’s company, and for sandbox connections only', async () => {
    const a = await server.createTenant();
    const b = await server.createTenant();
    const id = await connectedSandbox(a);
    const user = await createLoggedUser(server, a);
    const body = { from: '5511988887777', body: 'hi' };
    expect((await server.request('POST', `/api/sandbox/${id}/inbound`, { body })).status).toBe(401);
    expect((await server.request('POST', `/api/sandbox/${id}/inbound`, { token: user.token, body })).status).toBe(403);
    const foreign = await inbound(b, id, body);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual((await inbound(b, 2_000_000_000, body)).body);
    const real = await server.request('POST', '/api/whatsapp', {
      token: a.token,
      body: {
        name: unique('Cloud'),
        provider: 'cloud-api',
        channelConfig: {
          phoneNumberId: '100000000001',
          businessAccountId: '200000000002',
          accessToken: 'token-not-used-here',
          appSecret: 'secret-not-used-here',
          verifyToken: 'verify-not-used-here',
          graphUrl: 'http://127.0.0.1:9',
        },
      },
    });
    expect(real.status).toBe(201);
    expect((await inbound(a, real.body.id, body)).status).toBe(404);
    expect((await server.request('GET', `/api/sandbox/${real.body.id}/outbox`, { token: a.token })).status).toBe(404);
  });

  it('delivers customer messages of every type; a repeated externalId is the same delivery again', async () => {
    const tenant = await server.createTenant();
    const id = await connectedSandbox(tenant);
    const first = await inbound(tenant, id, { from: '+55 11 98888-7777', name: 'Maria', body: 'Olá' });
    expect(first.status).toBe(200);
    expect(first.body.externalId).toMatch(/^SBIN/);
    const replay = await inbound(tenant, id, { from: '5511988887777', body: 'Olá', externalId: first.body.externalId });
    expect(replay.body.externalId).toBe(first.body.externalId);
    const mine = messages.filter((m) => m.connectionId === id);
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({
      from: '5511988887777',
      pushName: 'Maria',
      type: 'text',
      body: 'Olá',
      fromMe: false,
    });
    expect(mine[1].externalId).toBe(mine[0].externalId);

    // a PNG labelled as JPEG is stored as what it is
    const image = await inbound(tenant, id, {
      from: '5511988887777',
      type: 'image',
      body: 'photo',
      media: {
        data: `data:image/jpeg;base64,${PNG.toString('base64')}`,
        mimetype: 'image/jpeg',
        fileName: '../../x.jpg',
      },
    });
    expect(image.status).toBe(200);
    const stored = messages.find((m) => m.externalId === image.body.externalId)!;
    expect(stored.media).toMatchObject({ mimetype: 'image/png', fileName: 'x.jpg' });
    for (const body of [
      { type: 'location', location: { latitude: -23.5, longitude: -46.6, description: 'Centro' } },
      { type: 'vcard', vcard: 'BEGIN:VCARD\nFN:Jo\nEND:VCARD' },
      { type: 'document', media: { data: PDF.toString('base64'), mimetype: 'text/html', fileName: 'a.pdf' } },
      { type: 'reaction', body: '👍', quotedExternalId: first.body.externalId },
      { from: '5511977776666', group: { id: '120363000000000001', name: 'Family' }, body: 'group hello' },
    ]) {
      const res = await inbound(tenant, id, { from: '5511988887777', ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const doc = messages.find((m) => m.connectionId === id && m.type === 'document')!;
    expect(doc.media).toMatchObject({ mimetype: 'application/pdf' });
    const group = messages.find((m) => m.connectionId === id && m.isGroup)!;
    expect(group).toMatchObject({ from: '120363000000000001', participant: '5511977776666', groupName: 'Family' });

    // multipart, with the file as a part
    const form = new FormData();
    form.set('from', '5511988887777');
    form.set('type', 'image');
    form.set('body', 'by form');
    form.set('media', new Blob([PNG], { type: 'image/png' }), 'dot.png');
    const multipart = await fetch(`${server.url}/api/sandbox/${id}/inbound`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}` },
      body: form,
    });
    expect(multipart.status, await multipart.clone().text()).toBe(200);
    const formId = ((await multipart.json()) as { externalId: string }).externalId;
    const viaForm = messages.find((m) => m.externalId === formId)!;
    expect(viaForm).toMatchObject({
      type: 'image',
      body: 'by form',
      media: { mimetype: 'image/png', fileName: 'dot.png' },
    });
  });

  it('refuses bad input: mislabeled or unknown media 415, bad base64 400, oversized 413, invalid numbers', async () => {
    const tenant = await server.createTenant();
    const id = await connectedSandbox(tenant);
    const from = '5511988887777';
    const pdfAsImage = await inbound(tenant, id, {
      from,
      type: 'image',
      media: { data: PDF.toString('base64'), mimetype: 'image/png' },
    });
    expect(pdfAsImage.status).toBe(415);
    expect(pdfAsImage.body.error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
    const pngAsVideo = await inbound(tenant, id, { from, type: 'video', media: { data: PNG.toString('base64') } });
    expect(pngAsVideo.status).toBe(415);
    const notBase64 = await inbound(tenant, id, { from, type: 'image', media: { data: '***not base64***' } });
    expect(notBase64.status).toBe(400);
    expect((await inbound(tenant, id, { from, type: 'image' })).status).toBe(400);
    expect((await inbound(tenant, id, { from, type: 'location' })).status).toBe(400);
    expect((await inbound(tenant, id, { from, type: 'text', body: '   ' })).status).toBe(400);
    expect((await inbound(tenant, id, { from: '12ab', body: 'x' })).status).toBe(400);
    expect((await inbound(tenant, id, { from, body: 'x', externalId: 'bad id with spaces' })).status).toBe(400);
    const notOnWhatsApp = await inbound(tenant, id, { from: '000119999999', body: 'x' });
    expect(notOnWhatsApp.body.error).toBe('ERR_WAPP_INVALID_CONTACT');

    const big = new FormData();
    big.set('from', from);
    big.set('type', 'document');
    big.set('media', new Blob([Buffer.alloc(16 * 1024 * 1024 + 10, 65)]), 'big.txt');
    const tooLarge = await fetch(`${server.url}/api/sandbox/${id}/inbound`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}` },
      body: big,
    });
    expect(tooLarge.status).toBe(413);
    expect(messages.filter((m) => m.connectionId === id)).toHaveLength(0);
  });

  it('shows what customers received with acks, reads them, and simulates edits, deletes and calls', async () => {
    const tenant = await server.createTenant();
    const id = await connectedSandbox(tenant);
    const socket = await openSocket(server, tenant.token);
    const heard = recordEvents(socket);
    try {
      const session = server.ctx.channels.session(id);
      const sent = await session.sendText('5511988887777', 'Hello from the shop');
      await expect(session.sendText('000119999999', 'nobody')).rejects.toMatchObject({
        code: 'ERR_WAPP_INVALID_CONTACT',
      });
      expect(await session.checkNumber('000119999999')).toBeNull();
      const event = `company-${tenant.companyId}-sandbox`;
      await heard.waitFor(event, (p) => p.action === 'message' && p.message.externalId === sent.externalId);
      await until(() => updates.some((u) => u.externalId === sent.externalId && u.ack === 3));

      const box = await server.request('GET', `/api/sandbox/${id}/outbox`, {
        token: tenant.token,
        query: { to: '5511988887777' },
      });
      expect(box.status).toBe(200);
      expect(box.body.messages).toEqual([
        expect.objectContaining({ externalId: sent.externalId, body: 'Hello from the shop', ack: 3 }),
      ]);
      const read = await server.request('POST', `/api/sandbox/${id}/read`, {
        token: tenant.token,
        body: { to: '5511988887777' },
      });
      expect(read.body).toEqual({ read: [sent.externalId] });
      expect(updates.filter((u) => u.externalId === sent.externalId).map((u) => u.ack)).toEqual([2, 3, 4]);
      await heard.waitFor(event, (p) => p.action === 'update' && p.message.ack === 4);

      const edit = await server.request('POST', `/api/sandbox/${id}/edit`, {
        token: tenant.token,
        body: { from: '5511988887777', externalId: 'SBIN1', body: 'fixed' },
      });
      expect(edit.status).toBe(200);
      expect(updates.at(-1)).toEqual({ connectionId: id, externalId: 'SBIN1', edit: { body: 'fixed' } });
      await server.request('POST', `/api/sandbox/${id}/delete`, {
        token: tenant.token,
        body: { from: '5511988887777', externalId: 'SBIN1' },
      });
      expect(updates.at(-1)).toEqual({ connectionId: id, externalId: 'SBIN1', deleted: true });
      const call = await server.request('POST', `/api/sandbox/${id}/call`, {
        token: tenant.token,
        body: { from: '5511988887777', isVideo: true },
      });
      expect(call.status).toBe(200);
      expect(calls.find((c) => c.externalId === call.body.externalId)).toMatchObject({
        from: '5511988887777',
        isVideo: true,
      });
    } finally {
      socket.disconnect();
    }
  });
});

describe('the customers’ outbox', () => {
  it('survives a restart with its acks, edits, deletes and read marks, and goes with its connection', async () => {
    const database = await openTestDatabase();
    const first = await startTestServer({ database });
    let second: TTestServer | undefined;
    const customer = '5511955554444';
    const other = '5511955553333';
    try {
      const tenant = await first.createTenant();
      const created = await first.request('POST', '/api/whatsapp', {
        token: tenant.token,
        body: { name: unique('Sandbox') },
      });
      const id = created.body.id as number;
      await until(() => first.ctx.channels.state(id)?.status === 'qrcode');
      expect((await first.request('POST', `/api/sandbox/${id}/scan`, { token: tenant.token, body: {} })).status).toBe(
        200,
      );
      await until(() => first.ctx.channels.state(id)?.status === 'CONNECTED');
      const session = first.ctx.channels.session(id);
      const kept = await session.sendText(customer, 'Your order shipped');
      const fixed = await session.sendText(customer, 'Trakcing: BR123');
      const gone = await session.sendText(customer, 'wrong customer');
      await session.sendText(other, 'Hello Bia');
      await session.editMessage(customer, fixed.externalId, 'Tracking: BR123');
      await session.deleteMessage(customer, gone.externalId, { fromMe: true });
      await session.markRead(customer, ['SBIN-A', 'SBIN-B']);
      const outbox = (s: TTestServer, token: string, to = customer) =>
        s.request('GET', `/api/sandbox/${id}/outbox`, { token, query: { to } });
      // delivered (3), then the customer reads what is not deleted (4)
      const acked = async () => (await outbox(first, tenant.token)).body.messages.map((m: { ack: number }) => m.ack);
      const end = Date.now() + 5000;
      while ((await acked()).join() !== '3,3,1' && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      const read = await first.request('POST', `/api/sandbox/${id}/read`, {
        token: tenant.token,
        body: { to: customer, externalIds: [kept.externalId] },
      });
      expect(read.body).toEqual({ read: [kept.externalId] });
      const before = (await outbox(first, tenant.token)).body;
      expect(before).toEqual({
        messages: [
          expect.objectContaining({ externalId: kept.externalId, body: 'Your order shipped', ack: 4, edited: false }),
          expect.objectContaining({ externalId: fixed.externalId, body: 'Tracking: BR123', ack: 3, edited: true }),
          expect.objectContaining({ externalId: gone.externalId, body: '', deleted: true }),
        ],
        readByBusiness: ['SBIN-A', 'SBIN-B'],
      });
      await first.close();

      second = await startTestServer({ database });
      await second.ctx.channels.startAll();
      const again = (await second.login(tenant.email, tenant.password)).token;
      await until(() => second!.ctx.channels.state(id)?.status === 'CONNECTED');
      expect((await outbox(second, again)).body).toEqual(before);
      expect((await outbox(second, again, other)).body.messages).toEqual([
        expect.objectContaining({ to: other, body: 'Hello Bia', type: 'text' }),
      ]);

      // another company never reads it; deleting the connection takes its rows
      const stranger = await second.createTenant();
      expect((await outbox(second, stranger.token)).status).toBe(404);
      expect((await second.request('DELETE', `/api/whatsapp/${id}`, { token: again })).status).toBe(204);
      for (const table of ['sandbox_outbox', 'sandbox_read_marks']) {
        expect(await countRows(second, `select count(*) as n from ${table} where whatsapp_id = $1`, [id])).toBe(0);
      }
    } finally {
      await second?.close();
      await database.close();
    }
  });
});
