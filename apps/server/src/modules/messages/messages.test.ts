import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeChannels } from '../../../test/channel-fake';
import { countRows, openSocket, recordEvents } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { deliver, inbound, pendingTicket, setupInbox } from '../../../test/inbox';
import { FAKE_MP3, sineSound } from '../../../test/sounds';
import { findFfmpeg } from './media';
import { applyMessageUpdate } from './store-inbound';

let server: TTestServer;
let fake: ReturnType<typeof installFakeChannels>;
let inbox: Awaited<ReturnType<typeof setupInbox>>;
beforeAll(async () => {
  server = await startTestServer();
  fake = installFakeChannels(server);
  inbox = await setupInbox(server);
  fake.connect(inbox.connectionId);
});
afterAll(() => server.close());

/** an open ticket of agent1 with one customer message */
const openTicket = async (opts: { name?: string } = {}) => {
  const t = await pendingTicket(server, inbox.tenant, inbox.connectionId, { queueId: inbox.q1, name: opts.name });
  const res = await server.request('PUT', `/api/tickets/${t.ticketId}`, {
    token: inbox.agent1.token,
    body: { status: 'open' },
  });
  expect(res.status).toBe(200);

  return t;
};
const send = (token: string, ticketId: number, body: unknown) =>
  server.request('POST', `/api/messages/${ticketId}`, { token, body });

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(64, 2)]);

const multipart = (parts: { name: string; value?: string; file?: Buffer; fileName?: string; type?: string }[]) => {
  const boundary = `----zelo${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (p.file) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.fileName}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(p.file, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));

  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
};
const upload = async (token: string, ticketId: number, parts: Parameters<typeof multipart>[0]) => {
  const { payload, contentType } = multipart(parts);
  const res = await server.app.inject({
    method: 'POST',
    url: `/api/messages/${ticketId}`,
    payload,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
  });

  return { status: res.statusCode, body: JSON.parse(res.body) };
};

describe('POST /api/messages/:ticketId (text)', () => {
  it('stores, sends and reconciles a text with variables, quoting, and clientId idempotency', async () => {
    const { ticketId, contact } = await openTicket({ name: 'Joana Prado' });
    const history = await server.request('GET', `/api/messages/${ticketId}`, { token: inbox.agent1.token });
    const quoted = history.body.messages.at(-1);
    const res = await send(inbox.agent1.token, ticketId, {
      body: 'Olá {{firstName}} ({{name}}), {{ms}}! Protocolo {{protocol}} às {{hora}} {{unknown}}',
      quotedMsg: { id: quoted.id },
      clientId: 'c-1',
    });
    expect(res.status).toBe(201);
    expect(res.body.body).toMatch(
      /^Olá Joana \(Joana Prado\), (Bom dia|Boa tarde|Boa noite|Boa madrugada)! Protocolo \d{14,} às \d\d:\d\d:\d\d \{\{unknown\}\}$/,
    );
    expect(res.body).toMatchObject({ fromMe: true, ack: 2, source: 'agent', userId: inbox.agent1.id, errorCode: null });
    expect(res.body.quotedMsg).toMatchObject({ id: quoted.id, body: 'hello', fromMe: false });
    const last = fake.sent.at(-1)!;
    expect(last).toMatchObject({ op: 'text', to: contact.number, body: res.body.body });
    expect(last.opts).toMatchObject({ quotedExternalId: expect.stringMatching(/^in-/) });
    const again = await send(inbox.agent1.token, ticketId, { body: 'other text', clientId: 'c-1' });
    expect(again.body.id).toBe(res.body.id);
    expect(await countRows(server, "select count(*) as n from messages where client_id = 'c-1'")).toBe(1);
    const ticket = await server.request('GET', `/api/tickets/${ticketId}`, { token: inbox.agent1.token });
    expect(ticket.body.lastMessage).toBe(res.body.body);
  });

  it('refuses a ticket that is not open (409), a disconnected session and an empty text', async () => {
    const pending = await pendingTicket(server, inbox.tenant, inbox.connectionId, { queueId: inbox.q1 });
    const refused = await send(inbox.agent1.token, pending.ticketId, { body: 'hi' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('ERR_TICKET_NOT_OPEN');
    const { ticketId } = await openTicket();
    expect((await send(inbox.agent1.token, ticketId, { body: '   ' })).status).toBe(400);
    fake.disconnect(inbox.connectionId);
    try {
      const down = await send(inbox.agent1.token, ticketId, { body: 'hi' });
      expect(down.status).toBe(409);
      expect(down.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
      expect(
        await countRows(server, 'select count(*) as n from messages where ticket_id = $1 and from_me', [ticketId]),
      ).toBe(0);
    } finally {
      fake.connect(inbox.connectionId);
    }
    // a send that fails in the transport stays stored as failed
    fake.failNext();
    const failed = await send(inbox.agent1.token, ticketId, { body: 'lost' });
    expect(failed.status).toBe(201);
    expect(failed.body).toMatchObject({ ack: 0, errorCode: 'ERR_SENDING_WAPP_MSG' });
    // others' queues: not visible
    expect((await send(inbox.agentQ2.token, ticketId, { body: 'x' })).status).toBe(403);
  });
});

describe('POST /api/messages/:ticketId (multipart)', () => {
  it('sends several files in order, typed by content, with their captions', async () => {
    const { ticketId } = await openTicket();
    const res = await upload(inbox.agent1.token, ticketId, [
      { name: 'medias', file: PDF, fileName: 'photo.png', type: 'image/png' },
      { name: 'medias', file: PNG, fileName: 'picture.png', type: 'image/png' },
      { name: 'body', value: 'the invoice' },
      { name: 'body', value: 'the picture' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toMatchObject({ mediaType: 'application', body: 'the invoice', mediaName: 'photo.png' });
    expect(res.body[1]).toMatchObject({ mediaType: 'image', body: 'the picture' });
    expect(res.body[0].mediaUrl).toMatch(/\/public\/[0-9a-f]{32}\.pdf$/);
    const name = res.body[1].mediaUrl.split('/').pop();
    expect(existsSync(join(server.ctx.config.dataDir, 'media', name))).toBe(true);
    const media = fake.sent.filter((s) => s.op === 'media').slice(-2);
    expect(media.map((m) => m.media!.mimetype)).toEqual(['application/pdf', 'image/png']);
    expect(res.body[0].id).toBeLessThan(res.body[1].id);
    const served = await server.app.inject({ method: 'GET', url: `/public/${name}` });
    expect(served.statusCode).toBe(200);
  });

  it('stores a caption with the line breaks as typed (browsers send CRLF in multipart fields)', async () => {
    const { ticketId } = await openTicket();
    const res = await upload(inbox.agent1.token, ticketId, [
      { name: 'medias', file: PNG, fileName: 'receipt.png', type: 'image/png' },
      { name: 'body', value: '*Ana:*\r\nthe receipt' },
    ]);
    expect(res.status).toBe(201);
    // one file: the stored message itself
    expect(res.body.body).toBe('*Ana:*\nthe receipt');
  });

  it('refuses an oversized image and a request without files', async () => {
    const { ticketId } = await openTicket();
    const big = Buffer.concat([PNG, Buffer.alloc(17 * 1024 * 1024)]);
    const res = await upload(inbox.agent1.token, ticketId, [
      { name: 'medias', file: big, fileName: 'big.png', type: 'image/png' },
    ]);
    expect(res.status).toBe(413);
    expect((await upload(inbox.agent1.token, ticketId, [{ name: 'body', value: 'x' }])).status).toBe(400);
  });

  it('turns an MP3 browser recording into a voice note when ffmpeg is present', async () => {
    const ffmpeg = await findFfmpeg(server.ctx.config);
    const { ticketId } = await openTicket();
    const mp3 = sineSound(ffmpeg, 'mp3', FAKE_MP3);
    const res = await upload(inbox.agent1.token, ticketId, [
      { name: 'medias', file: mp3, fileName: 'audio-record-site-123.mp3', type: 'audio/mpeg' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.mediaType).toBe('audio');
    const sent = fake.sent.filter((s) => s.op === 'media').at(-1)!;
    if (ffmpeg) {
      expect(sent.media).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', asVoiceNote: true });
      expect(sent.media!.data.subarray(0, 4).toString()).toBe('OggS');
    } else {
      expect(sent.media).toMatchObject({ mimetype: 'audio/mpeg', asVoiceNote: false });
    }
  });
});

describe('browser recordings (MediaRecorder: WebM/Ogg with Opus)', () => {
  const webmRecording = async (ffmpeg: string | null) =>
    sineSound(ffmpeg, 'webm', Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(12_000, 1)]));

  it('sends a WebM recording from the composer as a voice note (ffmpeg) and never as a video', async () => {
    const ffmpeg = await findFfmpeg(server.ctx.config);
    const { ticketId } = await openTicket();
    const res = await upload(inbox.agent1.token, ticketId, [
      { name: 'medias', file: await webmRecording(ffmpeg), fileName: 'audio-record-site-1.webm', type: 'audio/webm' },
      { name: 'body', value: 'audio-record-site-1.webm' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ mediaType: 'audio', body: '' });
    const sent = fake.sent.filter((s) => s.op === 'media').at(-1)!;
    if (ffmpeg) {
      expect(sent.media).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', asVoiceNote: true });
      expect(sent.media!.fileName).toBe('audio-record-site-1.ogg');
      expect(sent.media!.data.subarray(0, 4).toString()).toBe('OggS');
    } else {
      expect(sent.media).toMatchObject({ mimetype: 'audio/webm', asVoiceNote: false });
    }
  });

  it('without ffmpeg a WebM recording still goes as audio; a WebM file not recorded here stays a video', async () => {
    const config = server.ctx.config as { ffmpegPath?: string | null };
    const saved = config.ffmpegPath;
    config.ffmpegPath = '/nonexistent/ffmpeg';
    try {
      const { ticketId } = await openTicket();
      const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(12_000, 1)]);
      const recorded = await upload(inbox.agent1.token, ticketId, [
        { name: 'medias', file: webm, fileName: 'audio-record-site-2.webm', type: 'audio/webm' },
      ]);
      expect(recorded.status).toBe(201);
      expect(recorded.body.mediaType).toBe('audio');
      expect(fake.sent.filter((s) => s.op === 'media').at(-1)!.media).toMatchObject({
        mimetype: 'audio/webm',
        asVoiceNote: false,
      });
      const film = await upload(inbox.agent1.token, ticketId, [
        { name: 'medias', file: webm, fileName: 'holiday.webm', type: 'video/webm' },
      ]);
      expect(film.body.mediaType).toBe('video');
    } finally {
      config.ffmpegPath = saved;
    }
  });
});

describe('GET /api/messages/:ticketId', () => {
  it('pages the contact history across tickets, 20 per page, newest last', async () => {
    const { ticketId, contact } = await openTicket();
    for (let i = 0; i < 24; i++) await deliver(server, inbound(inbox.connectionId, contact.number, { body: `m${i}` }));
    await server.request('PUT', `/api/tickets/${ticketId}`, { token: inbox.agent1.token, body: { status: 'closed' } });
    const next = await deliver(server, inbound(inbox.connectionId, contact.number, { body: 'new ticket' }));
    expect(next!.ticket.id).not.toBe(ticketId);
    await server.database.executeSql('update tickets set queue_id = $1 where id = $2', [inbox.q1, next!.ticket.id]);
    const first = await server.request('GET', `/api/messages/${next!.ticket.id}`, { token: inbox.agent2.token });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(26);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.messages).toHaveLength(20);
    expect(first.body.messages.at(-1).body).toBe('new ticket');
    expect(first.body.ticket.id).toBe(next!.ticket.id);
    const second = await server.request('GET', `/api/messages/${next!.ticket.id}`, {
      token: inbox.agent2.token,
      query: { pageNumber: 2 },
    });
    expect(second.body.messages.map((m: { body: string }) => m.body)).toEqual(['hello', 'm0', 'm1', 'm2', 'm3', 'm4']);
    expect(second.body.hasMore).toBe(false);
    expect((await server.request('GET', `/api/messages/${ticketId}`, { token: inbox.agentQ2.token })).status).toBe(403);
  });

  it('reading by the attendant zeroes unread and sends read receipts for unread inbound only', async () => {
    const { ticketId, contact } = await openTicket();
    const m1 = await deliver(server, inbound(inbox.connectionId, contact.number, { body: 'one' }));
    const m2 = await deliver(server, inbound(inbox.connectionId, contact.number, { body: 'two' }));
    const before = fake.sent.length;
    // another agent looking does not read it
    await server.request('GET', `/api/messages/${ticketId}`, { token: inbox.agent2.token });
    expect(fake.sent.length).toBe(before);
    expect(
      (await server.request('GET', `/api/tickets/${ticketId}`, { token: inbox.agent1.token })).body.unreadMessages,
    ).toBe(2);
    await server.request('GET', `/api/messages/${ticketId}`, { token: inbox.agent1.token });
    const read = fake.sent.slice(before).filter((s) => s.op === 'read');
    expect(read).toHaveLength(1);
    expect(read[0].externalIds!.sort()).toEqual([m1!.message.externalId, m2!.message.externalId].sort());
    expect(
      (await server.request('GET', `/api/tickets/${ticketId}`, { token: inbox.agent1.token })).body.unreadMessages,
    ).toBe(0);
    const res = await server.request('POST', `/api/messages/${ticketId}/read`, { token: inbox.agent1.token });
    expect(res.status).toBe(200);
    expect(fake.sent.slice(before).filter((s) => s.op === 'read')).toHaveLength(1);
  });
});

describe('DELETE and PUT /api/messages/:id', () => {
  it('only the author deletes or edits, through the channel', async () => {
    const { ticketId } = await openTicket();
    const mine = (await send(inbox.agent1.token, ticketId, { body: 'typo' })).body;
    const customer = (await server.request('GET', `/api/messages/${ticketId}`, { token: inbox.agent1.token })).body
      .messages[0];
    // the admin, another agent and the customer's message: refused
    expect((await server.request('DELETE', `/api/messages/${mine.id}`, { token: inbox.tenant.token })).status).toBe(
      403,
    );
    expect(
      (await server.request('PUT', `/api/messages/${mine.id}`, { token: inbox.agent2.token, body: { body: 'x' } }))
        .status,
    ).toBe(403);
    expect((await server.request('DELETE', `/api/messages/${customer.id}`, { token: inbox.agent1.token })).status).toBe(
      403,
    );
    const edited = await server.request('PUT', `/api/messages/${mine.id}`, {
      token: inbox.agent1.token,
      body: { body: 'fixed' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ body: 'fixed', isEdited: true });
    expect(fake.sent.at(-1)).toMatchObject({ op: 'edit', externalId: expect.stringMatching(/^fake-/), body: 'fixed' });
    const deleted = await server.request('DELETE', `/api/messages/${mine.id}`, { token: inbox.agent1.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ isDeleted: true, body: '' });
    expect(fake.sent.at(-1)).toMatchObject({ op: 'delete' });
    expect((await server.request('DELETE', '/api/messages/999999999', { token: inbox.agent1.token })).status).toBe(404);
  });
});

describe("the ticket's last message after an edit or a delete", () => {
  it('shows the edited text, falls back to the newest message still shown, and announces the ticket', async () => {
    const { ticketId } = await openTicket();
    const socket = await openSocket(server, inbox.agent1.token);
    const heard = recordEvents(socket);
    const ticketEvent = `company-${inbox.tenant.companyId}-ticket`;
    const lastMessage = async () =>
      (await server.request('GET', `/api/tickets/${ticketId}`, { token: inbox.agent1.token })).body.lastMessage;
    const announced = (text: string) =>
      heard.waitFor(
        ticketEvent,
        (p) => p.action === 'update' && p.ticket.id === ticketId && p.ticket.lastMessage === text,
      );
    try {
      const first = (await send(inbox.agent1.token, ticketId, { body: 'first answer' })).body;
      const typo = (await send(inbox.agent1.token, ticketId, { body: 'tpyo' })).body;
      expect(await lastMessage()).toBe('tpyo');
      const order = await server.database.executeSql('select updated_at from tickets where id = $1', [ticketId]);

      // an edit of the last message shows the new text
      await server.request('PUT', `/api/messages/${typo.id}`, { token: inbox.agent1.token, body: { body: 'typo' } });
      expect(await lastMessage()).toBe('typo');
      await announced('typo');
      // an edit or a delete of an older message leaves the last one alone
      await server.request('PUT', `/api/messages/${first.id}`, { token: inbox.agent1.token, body: { body: 'first' } });
      expect(await lastMessage()).toBe('typo');

      // deleting the last message falls back to the newest one still shown, then to the customer's
      expect((await server.request('DELETE', `/api/messages/${typo.id}`, { token: inbox.agent1.token })).status).toBe(
        200,
      );
      expect(await lastMessage()).toBe('first');
      await announced('first');
      const fromMe = async () =>
        (
          (await server.database.executeSql('select from_me from tickets where id = $1', [ticketId])).rows[0] as {
            from_me: boolean;
          }
        ).from_me;
      expect(await fromMe()).toBe(true);
      await server.request('DELETE', `/api/messages/${first.id}`, { token: inbox.agent1.token });
      expect(await lastMessage()).toBe('hello');
      await announced('hello');
      // our answers gone, the customer's word is the last: the inactivity close (ours last) no longer applies
      expect(await fromMe()).toBe(false);
      // the ticket keeps its place in the list: a preview change is no new activity
      expect(
        (await server.database.executeSql('select updated_at from tickets where id = $1', [ticketId])).rows,
      ).toEqual(order.rows);

      // the customer deletes the only message left: the preview is empty
      const customerMessage = await server.database.executeSql(
        'select external_id from messages where ticket_id = $1 and not from_me',
        [ticketId],
      );
      const { external_id } = customerMessage.rows[0] as { external_id: string };
      await applyMessageUpdate(server.ctx, {
        connectionId: inbox.connectionId,
        externalId: external_id,
        deleted: true,
      });
      expect(await lastMessage()).toBe('');
      await announced('');
    } finally {
      socket.disconnect();
    }
  });

  it('falls back to a file by its caption, else by its kind (never by its stored name)', async () => {
    const { ticketId } = await openTicket();
    const pdf = await upload(inbox.agent1.token, ticketId, [
      { name: 'medias', file: PDF, fileName: 'invoice.pdf', type: 'application/pdf' },
    ]);
    const png = await upload(inbox.agent1.token, ticketId, [
      { name: 'medias', file: PNG, fileName: 'photo.png', type: 'image/png' },
      { name: 'body', value: 'the photo' },
    ]);
    expect([pdf.status, png.status]).toEqual([201, 201]);
    const text = (await send(inbox.agent1.token, ticketId, { body: 'see above' })).body;
    const lastMessage = async () =>
      (await server.request('GET', `/api/tickets/${ticketId}`, { token: inbox.agent1.token })).body.lastMessage;
    await server.request('DELETE', `/api/messages/${text.id}`, { token: inbox.agent1.token });
    expect(await lastMessage()).toBe('the photo');
    await server.request('DELETE', `/api/messages/${png.body.id}`, { token: inbox.agent1.token });
    expect(await lastMessage()).toBe('Documento');
    // the web clients send a file's name as its body when it has no caption: that is no caption either
    const named = await upload(inbox.agent1.token, ticketId, [
      { name: 'medias', file: PNG, fileName: '2651e7a9c0d14b.png', type: 'image/png' },
      { name: 'body', value: '2651e7a9c0d14b.png' },
    ]);
    expect(named.status).toBe(201);
    expect(await lastMessage()).toBe('Imagem');
  });
});

describe('POST /api/messages/:id/retry', () => {
  it('sends an own failed text again as the same message, with its reason until then', async () => {
    const { ticketId, contact } = await openTicket();
    const quoted = (await server.request('GET', `/api/messages/${ticketId}`, { token: inbox.agent1.token })).body
      .messages[0];
    fake.failNext();
    const failed = (await send(inbox.agent1.token, ticketId, { body: 'try again', quotedMsg: { id: quoted.id } })).body;
    expect(failed).toMatchObject({ ack: 0, errorCode: 'ERR_SENDING_WAPP_MSG', errorMessage: 'transport down' });
    const listed = (await server.request('GET', `/api/messages/${ticketId}`, { token: inbox.agent1.token })).body
      .messages;
    expect(listed.find((m: { id: number }) => m.id === failed.id)).toMatchObject({ errorMessage: 'transport down' });

    // only the author; a disconnected session leaves it failed
    const other = await server.request('POST', `/api/messages/${failed.id}/retry`, { token: inbox.agent2.token });
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('ERR_NO_PERMISSION');
    fake.disconnect(inbox.connectionId);
    try {
      const down = await server.request('POST', `/api/messages/${failed.id}/retry`, { token: inbox.agent1.token });
      expect(down.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
    } finally {
      fake.connect(inbox.connectionId);
    }
    // failing again keeps the new reason
    fake.failNext();
    const again = await server.request('POST', `/api/messages/${failed.id}/retry`, { token: inbox.agent1.token });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: failed.id, ack: 0, errorCode: 'ERR_SENDING_WAPP_MSG' });

    const before = fake.sent.length;
    const ok = await server.request('POST', `/api/messages/${failed.id}/retry`, { token: inbox.agent1.token });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: failed.id, ack: 2, errorCode: null, errorMessage: null, body: 'try again' });
    expect(fake.sent.slice(before)).toEqual([
      expect.objectContaining({ op: 'text', to: contact.number, body: 'try again' }),
    ]);
    expect(
      await countRows(server, "select count(*) as n from messages where ticket_id = $1 and body = 'try again'", [
        ticketId,
      ]),
    ).toBe(1);
    // a message that did not fail is not sent twice
    const twice = await server.request('POST', `/api/messages/${failed.id}/retry`, { token: inbox.agent1.token });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('ERR_CONFLICT');
  });

  it('sends a failed file again from the stored copy', async () => {
    const { ticketId } = await openTicket();
    fake.failNext();
    const res = await upload(inbox.agent1.token, ticketId, [
      { name: 'medias', file: PDF, fileName: 'invoice.pdf', type: 'application/pdf' },
      { name: 'body', value: 'the invoice' },
    ]);
    expect(res.body).toMatchObject({ ack: 0, errorCode: 'ERR_SENDING_WAPP_MSG' });
    const ok = await server.request('POST', `/api/messages/${res.body.id}/retry`, { token: inbox.agent1.token });
    expect(ok.body).toMatchObject({ ack: 2, errorCode: null });
    expect(fake.sent.at(-1)).toMatchObject({ op: 'media', body: 'the invoice' });
    expect(fake.sent.at(-1)!.media).toMatchObject({ mimetype: 'application/pdf', fileName: 'invoice.pdf' });
    expect(fake.sent.at(-1)!.media!.data.equals(PDF)).toBe(true);
  });
});

describe('acknowledgements', () => {
  it('never go backwards', async () => {
    const { ticketId } = await openTicket();
    const sent = (await send(inbox.agent1.token, ticketId, { body: 'ack me' })).body;
    const externalId = fake.sent.at(-1)!.externalId!;
    const ack = async () =>
      (await server.database.executeSql('select ack from messages where id = $1', [sent.id])).rows[0] as {
        ack: number;
      };
    await applyMessageUpdate(server.ctx, { connectionId: inbox.connectionId, externalId, ack: 4 });
    expect((await ack()).ack).toBe(4);
    await applyMessageUpdate(server.ctx, { connectionId: inbox.connectionId, externalId, ack: 3 });
    await applyMessageUpdate(server.ctx, { connectionId: inbox.connectionId, externalId, ack: 1 });
    await applyMessageUpdate(server.ctx, {
      connectionId: inbox.connectionId,
      externalId,
      error: { code: 'X', message: 'late' },
    });
    expect((await ack()).ack).toBe(4);
    await applyMessageUpdate(server.ctx, { connectionId: inbox.connectionId, externalId, ack: 5 });
    expect((await ack()).ack).toBe(5);
  });

  it('that come before the send has recorded the channel id are applied once it has', async () => {
    const { ticketId } = await openTicket();
    const early: Awaited<ReturnType<typeof applyMessageUpdate>>[] = [];
    fake.beforeNextAnswer(async (externalId) => {
      // the channel reports "read" and then a late edit while the send is still answering
      early.push(await applyMessageUpdate(server.ctx, { connectionId: inbox.connectionId, externalId, ack: 3 }));
      early.push(
        await applyMessageUpdate(server.ctx, {
          connectionId: inbox.connectionId,
          externalId,
          edit: { body: 'edited' },
        }),
      );
    });
    const sent = (await send(inbox.agent1.token, ticketId, { body: 'read me fast' })).body;
    // not applied then: no message carried that id yet
    expect(early).toEqual([null, null]);
    expect(sent.id).toBeGreaterThan(0);
    const row = async () =>
      (await server.database.executeSql('select ack, body, is_edited from messages where id = $1', [sent.id]))
        .rows[0] as { ack: number; body: string; is_edited: boolean };
    const deadline = Date.now() + 5_000;
    while ((await row()).ack !== 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 100));
    expect(await row()).toEqual({ ack: 3, body: 'edited', is_edited: true });
  });
});
