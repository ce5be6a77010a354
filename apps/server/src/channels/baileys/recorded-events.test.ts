import { describe, expect, it } from 'vitest';
import { silentLog } from '../../../test/baileys-fake';
import { createMemoryAuthStateStore } from '../auth-state.repo';
import type { TCallEvent, TChannelEvents, TConnectionState, TInboundMessage, TMessageUpdate } from '../types';
import { createBaileysDriver, type TBaileysSession, type TBaileysTimings } from './baileys.driver';
import { loadBaileysKit } from './baileys.loader';
import type { TBaileysEvents, TWAMessage } from './baileys.types';
import recordedEvents from './fixtures/wa-events.json';
import recordedMessages from './fixtures/wa-messages.json';
import { createReplay } from './testing/replay-socket';

/**
 * The driver fed with socket events as Baileys emits them (fixtures/wa-events.json), replayed in Baileys'
 * order on a socket that does nothing by itself: connection updates and close reasons, acks, receipts,
 * calls, contacts and @lid numbers, messages held while away, and pairing by code.
 */

const ev = recordedEvents as unknown as Pick<
  typeof recordedEvents,
  'qrPairing' | 'contactsUpsert' | 'phoneNumberShare'
> & {
  closes: Record<string, TBaileysEvents['connection.update']>;
  messagesUpdate: Record<string, TBaileysEvents['messages.update']>;
  receipts: TBaileysEvents['message-receipt.update'];
  calls: Record<string, TBaileysEvents['call']> & { callStubUpsert: TWAMessage };
  offlineAppend: TBaileysEvents['messages.upsert'];
  groupNotificationAppend: TBaileysEvents['messages.upsert'];
};
const messages = recordedMessages as unknown as Record<string, TWAMessage>;
const ID = 41;

const until = async (what: string, check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
};
const settle = () => new Promise((r) => setTimeout(r, 30));

const setup = async (timings: Partial<TBaileysTimings> = {}) => {
  const replay = createReplay(await loadBaileysKit());
  const store = createMemoryAuthStateStore();
  const states: TConnectionState[] = [];
  const inbound: TInboundMessage[] = [];
  const updates: TMessageUpdate[] = [];
  const calls: TCallEvent[] = [];
  const events: TChannelEvents = {
    onState: async (s) => void states.push(s),
    onMessage: async (m) => void inbound.push(m),
    onMessageUpdate: async (u) => void updates.push(u),
    onCall: async (c) => void calls.push(c),
  };
  const session = createBaileysDriver({
    store,
    log: silentLog,
    loadKit: async () => replay.kit,
    timings: { backoffMs: () => 5, maxRetries: 2, ...timings },
  })({ id: ID, companyId: 1, provider: 'baileys' }, events) as TBaileysSession;
  const last = () => states.at(-1);

  /** a session already paired: the socket opens at once */
  const connected = async () => {
    await session.start();
    const sock = replay.latest();
    sock.user = ev.qrPairing.user;
    for (const update of ev.qrPairing.secondSocket) sock.emit('connection.update', update as never);
    await until('CONNECTED', () => last()?.status === 'CONNECTED');

    return sock;
  };

  return { replay, store, states, inbound, updates, calls, session, last, connected };
};

describe('Baileys driver fed with recorded socket events', () => {
  it('a QR pairing as Baileys reports it: the QR string, the restart WhatsApp asks for at once, CONNECTED with the number', async () => {
    const { replay, store, states, session, last } = await setup();
    await session.start();
    expect(last()).toMatchObject({ status: 'OPENING', qrcode: '' });
    const first = replay.latest();
    const [connecting, qr, newLogin, restart] = ev.qrPairing.firstSocket;
    first.emit('connection.update', connecting as never);
    first.emit('connection.update', qr as never);
    await until('qrcode', () => last()?.status === 'qrcode');
    expect(last()).toMatchObject({ status: 'qrcode', qrcode: qr.qr, retries: 1 });

    first.emit('creds.update', ev.qrPairing.credsOnPairSuccess);
    first.emit('connection.update', newLogin as never);
    first.emit('connection.update', restart as never);
    await until('a second socket', () => replay.sockets.length === 2);
    expect(first.ended).toBe(true);
    const second = replay.latest();
    second.user = ev.qrPairing.user;
    for (const update of ev.qrPairing.secondSocket) second.emit('connection.update', update as never);
    await until('CONNECTED', () => last()?.status === 'CONNECTED');
    expect(last()).toMatchObject({ status: 'CONNECTED', qrcode: '', phoneNumber: '5511999990000', retries: 0 });
    // the restart is no failure: no retry was counted, and nothing followed CONNECTED
    expect(states.some((s) => s.status === 'OPENING' && (s.retries ?? 0) > 0)).toBe(false);
    await settle();
    expect(last()?.status).toBe('CONNECTED');
    const creds = JSON.parse((await store.get(ID, 'creds')) ?? '{}');
    expect(creds).toMatchObject({ registered: false, me: { id: '5511999990000:12@s.whatsapp.net' }, account: {} });
    await session.stop();
  });

  const closeCases: [string, { status: string; cleared: boolean; reconnects: boolean; retries: number }][] = [
    ['loggedOut', { status: 'DISCONNECTED', cleared: true, reconnects: false, retries: 0 }],
    ['forbidden', { status: 'DISCONNECTED', cleared: true, reconnects: false, retries: 0 }],
    ['connectionReplaced', { status: 'DISCONNECTED', cleared: false, reconnects: false, retries: 0 }],
    ['connectionLost', { status: 'OPENING', cleared: false, reconnects: true, retries: 1 }],
    ['qrRefsEnded', { status: 'OPENING', cleared: false, reconnects: true, retries: 1 }],
    ['connectionClosed', { status: 'OPENING', cleared: false, reconnects: true, retries: 1 }],
    ['unknownStreamError', { status: 'OPENING', cleared: false, reconnects: true, retries: 1 }],
    ['unavailableService', { status: 'OPENING', cleared: false, reconnects: true, retries: 1 }],
    ['socketError', { status: 'OPENING', cleared: false, reconnects: true, retries: 1 }],
    ['multideviceMismatch', { status: 'OPENING', cleared: true, reconnects: true, retries: 1 }],
    ['restartRequired', { status: 'CONNECTED', cleared: false, reconnects: true, retries: 0 }],
  ];
  it.each(closeCases)('a connection closed with %s', async (name, expected) => {
    const { replay, store, states, session, connected } = await setup({ backoffMs: () => 20 });
    const sock = await connected();
    await store.set(ID, 'pre-key:1', '{"private":"x"}');
    const before = states.length;
    sock.emit('connection.update', ev.closes[name]);
    if (expected.reconnects) await until('a new socket', () => replay.sockets.length === 2);
    await settle();
    const after = states.slice(before);
    expect(sock.ended).toBe(true);
    expect(after.at(-1)?.status ?? 'CONNECTED').toBe(expected.status);
    expect(after.at(-1)?.retries ?? 0).toBe(expected.retries);
    expect(await store.get(ID, 'pre-key:1')).toBe(expected.cleared ? undefined : '{"private":"x"}');
    expect(replay.sockets.length).toBe(expected.reconnects ? 2 : 1);
    await session.stop();
  });

  it('closes in a row are retried with backoff up to maxRetries, then DISCONNECTED; "try again" starts over', async () => {
    const { replay, states, session, last, connected } = await setup({ maxRetries: 2 });
    await connected();
    for (let n = 1; n <= 3; n++) {
      const count = replay.sockets.length;
      replay.latest().emit('connection.update', ev.closes.connectionLost);
      if (n < 3) await until(`socket ${count + 1}`, () => replay.sockets.length === count + 1);
    }
    await until('DISCONNECTED', () => last()?.status === 'DISCONNECTED');
    expect(states.filter((s) => s.status === 'OPENING' && s.retries).map((s) => s.retries)).toEqual([1, 2]);
    expect(last()?.retries).toBe(2);
    await session.stop();
    await session.start();
    expect(last()).toMatchObject({ status: 'OPENING', retries: 0 });
    await session.stop();
  });

  it('acks from messages.update (server 2, delivered 3, read 4, played 5, error 0) and group receipts', async () => {
    const { updates, inbound, session, connected } = await setup();
    const sock = await connected();
    sock.emit('messages.update', ev.messagesUpdate.acks);
    sock.emit('messages.update', ev.messagesUpdate.error);
    sock.emit('message-receipt.update', ev.receipts);
    await settle();
    expect(updates).toEqual([
      { connectionId: ID, externalId: '3EB0SENT000000000001', ack: 2 },
      { connectionId: ID, externalId: '3EB0SENT000000000001', ack: 3 },
      { connectionId: ID, externalId: '3EB0SENT000000000001', ack: 4 },
      { connectionId: ID, externalId: '3EB0SENT000000000002', ack: 5 },
      {
        connectionId: ID,
        externalId: '3EB0SENT000000000003',
        ack: 0,
        error: { code: 'ERR_SENDING_WAPP_MSG', message: 'WhatsApp refused the message' },
      },
      { connectionId: ID, externalId: '3EB0GROUP00000000001', ack: 3 },
      { connectionId: ID, externalId: '3EB0GROUP00000000002', ack: 4 },
      { connectionId: ID, externalId: '3EB0GROUP00000000003', ack: 5 },
    ]);
    expect(inbound).toEqual([]);
    await session.stop();
  });

  it('an edit and a revoke are taken once, from the protocol message of messages.upsert, never as a new message', async () => {
    const { updates, inbound, session, connected } = await setup();
    const sock = await connected();
    // Baileys emits both: the upsert of the protocol message, and a messages.update about its target
    sock.emit('messages.upsert', { messages: [messages.edit, messages.revoke], type: 'notify' });
    sock.emit('messages.update', ev.messagesUpdate.edit);
    sock.emit('messages.update', ev.messagesUpdate.revoke);
    sock.emit('messages.update', ev.messagesUpdate.pollVote);
    await settle();
    expect(updates).toEqual([
      { connectionId: ID, externalId: '3A5F1C2B9D8E7F601234', edit: { body: 'Olá, tudo certo?' } },
      { connectionId: ID, externalId: '3A5F1C2B9D8E7F601235', deleted: true },
    ]);
    expect(inbound).toEqual([]);
    await session.stop();
  });

  it('a call offer is reported once (not its ringing, timeout or stub message); group calls are not; a @lid caller by number', async () => {
    const { calls, inbound, session, connected } = await setup();
    const sock = await connected();
    sock.emit('call', ev.calls.voiceOffer);
    sock.emit('call', ev.calls.afterOffer);
    sock.emit('messages.upsert', { messages: [ev.calls.callStubUpsert], type: 'notify' });
    sock.emit('call', ev.calls.groupVideoOffer);
    sock.emit('contacts.upsert', ev.contactsUpsert);
    await settle();
    sock.emit('call', ev.calls.lidVideoOffer);
    await settle();
    expect(calls).toEqual([
      {
        connectionId: ID,
        from: '5511988887777',
        isVideo: false,
        timestamp: new Date('2025-11-22T10:10:00.000Z'),
        externalId: '7A1B2C3D4E5F60718293A4B5C6D7E8F9',
      },
      {
        connectionId: ID,
        from: '5511955554444',
        isVideo: true,
        timestamp: new Date('2025-11-22T10:12:00.000Z'),
        externalId: '9C3D4E5F60718293A4B5C6D7E8F9A0B1',
      },
    ]);
    expect(inbound).toEqual([]);
    await session.stop();
  });

  it('numbers learnt from contacts and phone-number shares name @lid senders, group members and our own phone replies', async () => {
    const { store, inbound, session, connected } = await setup();
    const sock = await connected();
    sock.emit('contacts.upsert', ev.contactsUpsert);
    sock.emit('chats.phoneNumberShare', ev.phoneNumberShare);
    await settle();
    expect(await store.get(ID, 'lid:98765432109876')).toBe('5511955554444');
    const alone = (id: string, remoteJid: string, participant?: string): TWAMessage => ({
      key: { remoteJid, fromMe: false, id, ...(participant ? { participant } : {}) },
      messageTimestamp: 1763800400,
      message: { conversation: id },
    });
    sock.emit('messages.upsert', {
      messages: [
        alone('A1', '98765432109876@lid'),
        alone('A2', '11122233344455@lid'),
        alone('A3', '120363041234567890@g.us', '55554444333322@lid'),
        messages.fromPhoneToLid,
      ],
      type: 'notify',
    });
    await until('four messages', () => inbound.length === 4);
    const by = (id: string) => inbound.find((m) => m.externalId === id);
    expect(by('A1')?.from).toBe('5511955554444');
    expect(by('A2')?.from).toBe('5511944443333');
    expect(by('A3')).toMatchObject({ from: '120363041234567890', isGroup: true, participant: '5511933332222' });
    expect(by('3EB0PHONE0002')).toMatchObject({ from: '5511955554444', fromMe: true });
    await session.stop();
  });

  it('group messages carry the group subject, asked of WhatsApp once for many messages; a failed question is asked again', async () => {
    const { inbound, session, connected } = await setup();
    const sock = await connected();
    sock.emit('messages.upsert', { messages: [messages.group, messages.groupLidWithPhone], type: 'notify' });
    await until('two group messages', () => inbound.length === 2);
    expect(inbound.map((m) => [m.externalId, m.groupName, m.participant])).toEqual([
      ['GRP1', 'Equipe Vendas', '5511966665555'],
      ['GRP2', 'Equipe Vendas', '5511922221111'],
    ]);
    expect(sock.groupQueries).toEqual(['120363041234567890@g.us']);
    sock.groupMetadata = async (jid) => {
      sock.groupQueries.push(jid);
      throw new Error('item-not-found');
    };
    const other = (id: string): TWAMessage => ({
      ...messages.group,
      key: { ...messages.group.key, remoteJid: '120363099999999999@g.us', id },
    });
    sock.emit('messages.upsert', { messages: [other('GRP4')], type: 'notify' });
    await until('GRP4', () => inbound.length === 3);
    sock.emit('messages.upsert', { messages: [other('GRP5')], type: 'notify' });
    await until('GRP5', () => inbound.length === 4);
    expect(inbound.slice(2).map((m) => [m.from, m.groupName])).toEqual([
      ['120363099999999999', undefined],
      ['120363099999999999', undefined],
    ]);
    expect(sock.groupQueries.filter((j) => j.startsWith('120363099999999999'))).toHaveLength(2);
    await session.stop();
  });

  it('messages reach the pipeline in the order WhatsApp delivered them, however long each takes to prepare', async () => {
    const { inbound, session, connected } = await setup();
    const sock = await connected();
    sock.groupMetadata = async (jid) => {
      await new Promise((r) => setTimeout(r, 60));
      return { id: jid, subject: 'Equipe lenta' };
    };
    sock.emit('messages.upsert', { messages: [messages.group], type: 'notify' });
    sock.emit('messages.upsert', { messages: [messages.text, messages.image], type: 'notify' });
    await until('three messages', () => inbound.length === 3);
    expect(inbound.map((m) => m.externalId)).toEqual(['GRP1', '3A5F1C2B9D8E7F601234', '3A5F1C2B9D8E7F601236']);
    expect(inbound[0].groupName).toBe('Equipe lenta');
    await session.stop();
  });

  it('messages WhatsApp held while the session was away (append) are taken; group notices and echoes of our sends are not', async () => {
    const { inbound, session, connected } = await setup();
    const sock = await connected();
    sock.emit('messages.upsert', ev.offlineAppend);
    sock.emit('messages.upsert', ev.groupNotificationAppend);
    const sent = await session.sendText('5511988887777', 'olá');
    sock.emit('messages.upsert', {
      messages: [
        {
          key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: sent.externalId },
          message: { conversation: 'olá' },
        },
      ],
      type: 'append',
    });
    await settle();
    expect(inbound.map((m) => [m.externalId, m.from, m.body])).toEqual([
      ['3A0FF11NEWHELD000001', '5511977776666', 'mandei enquanto vocês estavam fora do ar'],
    ]);
    expect(sock.sent[0]).toMatchObject({ jid: '5511988887777@s.whatsapp.net', content: { text: 'olá' } });
    await session.stop();
  });
});

describe('Baileys driver: pairing by phone-number code on recorded events', () => {
  it('a request made before the socket reached WhatsApp waits for its first QR; the code stays; a new socket asks again', async () => {
    const { replay, states, session, last } = await setup();
    await session.start();
    const first = replay.latest();
    const asked = session.requestPairing('+55 11 97777-6666');
    await settle();
    expect(first.pairingRequests).toEqual([]);
    first.emit('connection.update', ev.qrPairing.firstSocket[0] as never);
    first.emit('connection.update', ev.qrPairing.firstSocket[1] as never);
    await expect(asked).resolves.toBe('ABCD1234');
    expect(first.pairingRequests).toEqual(['5511977776666']);
    expect(last()).toMatchObject({ status: 'PAIRING', qrcode: 'ABCD1234' });
    // no QR replaces the code being typed
    first.emit('connection.update', ev.qrPairing.firstSocket[1] as never);
    await settle();
    expect(last()?.status).toBe('PAIRING');
    expect(states.filter((s) => s.status === 'qrcode')).toEqual([]);
    expect(first.pairingRequests).toHaveLength(1);
    // the socket's QR references end: the next socket asks for a code of its own, and registers afresh
    // (the unfinished pairing's `me` would make Baileys log in as that number, which WhatsApp refuses)
    expect(first.auth.creds.me).toEqual({ id: '5511977776666@s.whatsapp.net' });
    first.emit('connection.update', ev.closes.qrRefsEnded);
    await until('a second socket', () => replay.sockets.length === 2);
    expect(replay.latest().auth.creds.me).toBeUndefined();
    replay.latest().emit('connection.update', ev.qrPairing.firstSocket[1] as never);
    await until('a second code', () => replay.latest().pairingRequests.length === 1);
    expect(last()).toMatchObject({ status: 'PAIRING', qrcode: 'ABCD1234' });
    await session.stop();
  });

  it('a request fails fast when the socket closes before reaching WhatsApp, and after pairingWaitMs when nothing comes', async () => {
    const { replay, session } = await setup({ pairingWaitMs: 50 });
    await session.start();
    const closing = session.requestPairing('5511977776666');
    replay.latest().emit('connection.update', ev.closes.socketError);
    await expect(closing).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await until('a second socket', () => replay.sockets.length === 2);
    const started = Date.now();
    await expect(session.requestPairing('5511977776666')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(Date.now() - started).toBeLessThan(1000);
    await session.stop();
  });

  it('a pairing left unattended ends in TIMEOUT like an unscanned QR code', async () => {
    const { replay, session, last } = await setup({ maxQrs: 3 });
    await session.start();
    const sock = replay.latest();
    sock.emit('connection.update', ev.qrPairing.firstSocket[1] as never);
    await until('qrcode', () => last()?.status === 'qrcode');
    await session.requestPairing('5511977776666');
    for (let n = 0; n < 3; n++) sock.emit('connection.update', ev.qrPairing.firstSocket[1] as never);
    await until('TIMEOUT', () => last()?.status === 'TIMEOUT');
    expect(sock.ended).toBe(true);
    await session.stop();
  });
});
