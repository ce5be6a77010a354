import { describe, expect, it } from 'vitest';
import { silentLog } from '../../../test/baileys-fake';
import { createMemoryAuthStateStore } from '../auth-state.repo';
import type { TConnectionState } from '../types';
import { createBaileysDriver, type TBaileysSession } from './baileys.driver';
import { loadBaileysKit } from './baileys.loader';
import { createReplay } from './testing/replay-socket';

/** what the driver hands to Baileys' sendMessage / readMessages / onWhatsApp, in Baileys' content shapes */

const CUSTOMER = '5511988887777';
const JID = `${CUSTOMER}@s.whatsapp.net`;
const GROUP = '120363041234567890';

const connected = async () => {
  const replay = createReplay(await loadBaileysKit());
  const states: TConnectionState[] = [];
  const session = createBaileysDriver({
    store: createMemoryAuthStateStore(),
    log: silentLog,
    loadKit: async () => replay.kit,
  })(
    { id: 51, companyId: 1, provider: 'baileys' },
    {
      onState: async (s) => void states.push(s),
      onMessage: async () => undefined,
      onMessageUpdate: async () => undefined,
      onCall: async () => undefined,
    },
  ) as TBaileysSession;
  await expect(session.sendText(CUSTOMER, 'cedo demais')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
  await session.start();
  const sock = replay.latest();
  sock.user = { id: '5511999990000:3@s.whatsapp.net' };
  sock.emit('connection.update', { connection: 'open' });
  const end = Date.now() + 2000;
  while (states.at(-1)?.status !== 'CONNECTED') {
    if (Date.now() > end) throw new Error('not connected');
    await new Promise((r) => setTimeout(r, 2));
  }

  return { session, sock };
};

describe('Baileys driver sends', () => {
  it('text, media of each kind, a voice note, a location and a contact card in Baileys content shapes', async () => {
    const { session, sock } = await connected();
    const data = Buffer.from('bytes');
    await session.sendText(CUSTOMER, 'Olá!');
    await session.sendMedia(CUSTOMER, { data, mimetype: 'image/jpeg', caption: 'a foto' });
    await session.sendMedia(CUSTOMER, { data, mimetype: 'video/mp4', caption: 'o vídeo' });
    await session.sendMedia(CUSTOMER, { data, mimetype: 'application/pdf', fileName: 'nota.pdf', caption: 'a nota' });
    await session.sendMedia(CUSTOMER, { data, mimetype: 'audio/ogg; codecs=opus', asVoiceNote: true });
    await session.sendMedia(CUSTOMER, { data, mimetype: 'audio/mpeg', fileName: 'musica.mp3' });
    await session.sendLocation(CUSTOMER, { latitude: -23.55, longitude: -46.63, description: 'Loja' });
    const vcard =
      'BEGIN:VCARD\nVERSION:3.0\nFN:João Lima\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD';
    const result = await session.sendContact(CUSTOMER, vcard);
    expect(result).toEqual({ externalId: expect.stringMatching(/^3EB0REPLAY/), ack: 1 });
    expect(sock.sent.map((s) => s.jid)).toEqual(Array(8).fill(JID));
    // what a customer's device asks to be sent again (message retry) is answered from what was sent
    expect(await sock.options.getMessage({ remoteJid: JID, fromMe: true, id: result.externalId })).toEqual(
      sock.sent[7].content,
    );
    expect(await sock.options.getMessage({ remoteJid: JID, fromMe: true, id: 'NEVER-SENT' })).toBeUndefined();
    expect(sock.sent.map((s) => s.content)).toEqual([
      { text: 'Olá!' },
      // not a picture nor a film: no thumbnail, and Baileys is told so (it would make one without limits)
      { image: data, mimetype: 'image/jpeg', caption: 'a foto', jpegThumbnail: '' },
      { video: data, mimetype: 'video/mp4', caption: 'o vídeo', jpegThumbnail: '' },
      { document: data, mimetype: 'application/pdf', fileName: 'nota.pdf', caption: 'a nota' },
      { audio: data, mimetype: 'audio/ogg; codecs=opus', ptt: true },
      { audio: data, mimetype: 'audio/mpeg', ptt: false },
      { location: { degreesLatitude: -23.55, degreesLongitude: -46.63, name: 'Loja' } },
      { contacts: { displayName: 'João Lima', contacts: [{ displayName: 'João Lima', vcard }] } },
    ]);
    await session.stop();
  });

  it('quoted replies carry the quoted message as Baileys needs it; group sends skip the number check', async () => {
    const { session, sock } = await connected();
    sock.emit('messages.upsert', {
      messages: [
        {
          key: { remoteJid: `${GROUP}@g.us`, fromMe: false, id: 'GQ1', participant: '5511966665555@s.whatsapp.net' },
          message: { conversation: 'pergunta no grupo' },
          messageTimestamp: 1763800000,
        },
      ],
      type: 'notify',
    });
    await new Promise((r) => setTimeout(r, 20));
    let checks = 0;
    sock.onWhatsApp = async (...jids) => {
      checks += 1;
      return jids.map((jid) => ({ jid, exists: true }));
    };
    await session.sendText(GROUP, 'resposta', { isGroup: true, quotedExternalId: 'GQ1' });
    await session.sendText(CUSTOMER, 'sobre aquilo', { quotedExternalId: 'UNKNOWN1' });
    expect(checks).toBe(1);
    expect(sock.sent[0]).toEqual({
      jid: `${GROUP}@g.us`,
      content: { text: 'resposta' },
      options: {
        quoted: {
          key: { remoteJid: `${GROUP}@g.us`, id: 'GQ1', fromMe: false, participant: '5511966665555@s.whatsapp.net' },
          message: { conversation: 'pergunta no grupo' },
        },
      },
    });
    expect(sock.sent[1].options).toEqual({
      quoted: { key: { remoteJid: JID, id: 'UNKNOWN1', fromMe: false }, message: { conversation: '' } },
    });
    await session.stop();
  });

  it('edits and deletes for everyone name the message by its key; read receipts go only when asked, with the member in groups', async () => {
    const { session, sock } = await connected();
    sock.emit('messages.upsert', {
      messages: [
        {
          key: { remoteJid: JID, fromMe: false, id: 'IN1' },
          message: { conversation: 'oi' },
          messageTimestamp: 1763800000,
        },
        {
          key: { remoteJid: `${GROUP}@g.us`, fromMe: false, id: 'IN2', participant: '5511966665555@s.whatsapp.net' },
          message: { conversation: 'oi grupo' },
          messageTimestamp: 1763800001,
        },
      ],
      type: 'notify',
    });
    sock.emit('messages.update', [{ key: { remoteJid: JID, fromMe: true, id: 'OUT1' }, update: { status: 4 } }]);
    await new Promise((r) => setTimeout(r, 20));
    // nothing read yet: no blue ticks until an attendant reads
    expect(sock.read).toEqual([]);
    await session.editMessage(CUSTOMER, 'OUT1', 'texto corrigido');
    await session.deleteMessage(CUSTOMER, 'OUT1', { fromMe: true });
    expect(sock.sent.map((s) => s.content)).toEqual([
      { text: 'texto corrigido', edit: { remoteJid: JID, fromMe: true, id: 'OUT1' } },
      { delete: { remoteJid: JID, fromMe: true, id: 'OUT1', participant: undefined } },
    ]);
    await session.markRead(CUSTOMER, ['IN1']);
    await session.markRead(GROUP, ['IN2'], { isGroup: true });
    expect(sock.read).toEqual([
      [{ remoteJid: JID, id: 'IN1', fromMe: false, participant: undefined }],
      [{ remoteJid: `${GROUP}@g.us`, id: 'IN2', fromMe: false, participant: '5511966665555@s.whatsapp.net' }],
    ]);
    sock.sendMessage = async () => {
      throw new Error('Connection Closed');
    };
    await expect(session.editMessage(CUSTOMER, 'OUT1', 'x')).rejects.toMatchObject({ code: 'ERR_SENDING_WAPP_MSG' });
    await expect(session.deleteMessage(CUSTOMER, 'OUT1')).rejects.toMatchObject({ code: 'ERR_DELETE_WAPP_MSG' });
    await session.stop();
  });

  it('checkNumber answers the canonical number or null; profile pictures are null on errors', async () => {
    const { session, sock } = await connected();
    sock.onWhatsApp = async (jid) =>
      jid.startsWith('551188887777')
        ? [{ jid: '5511988887777@s.whatsapp.net', exists: true }]
        : [{ jid, exists: false }];
    // a Brazilian number without its ninth digit: WhatsApp answers the account's own number
    expect(await session.checkNumber('+55 11 8888-7777')).toBe('5511988887777');
    expect(await session.checkNumber('5511900000000')).toBeNull();
    await expect(session.sendText('5511900000000', 'oi')).rejects.toMatchObject({ code: 'ERR_WAPP_INVALID_CONTACT' });
    sock.profilePictureUrl = async (jid) => `https://pps.whatsapp.net/${jid}.jpg`;
    expect(await session.profilePicture(CUSTOMER)).toBe(`https://pps.whatsapp.net/${JID}.jpg`);
    sock.profilePictureUrl = async () => {
      throw Object.assign(new Error('item-not-found'), { output: { statusCode: 404 } });
    };
    expect(await session.profilePicture(CUSTOMER)).toBeNull();
    await session.stop();
  });
});
