import { describe, expect, it } from 'vitest';
import { createFakeWhatsApp, silentLog, type TFakeWhatsApp } from '../../../test/baileys-fake';
import { createMemoryAuthStateStore, type TAuthStateStore } from '../auth-state.repo';
import type { TCallEvent, TChannelEvents, TConnectionState, TInboundMessage, TMessageUpdate } from '../types';
import { createBaileysDriver, type TBaileysSession, type TBaileysTimings } from './baileys.driver';
import { loadBaileysKit } from './baileys.loader';

type TSeen = {
  states: TConnectionState[];
  messages: TInboundMessage[];
  updates: TMessageUpdate[];
  calls: TCallEvent[];
};

const until = async (what: string, check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

const setup = (
  opts: { timings?: Partial<TBaileysTimings>; store?: TAuthStateStore; whatsapp?: TFakeWhatsApp } = {},
) => {
  const whatsapp = opts.whatsapp ?? createFakeWhatsApp({ qrIntervalMs: 20, ackStepMs: 2 });
  const store = opts.store ?? createMemoryAuthStateStore();
  const seen: TSeen = { states: [], messages: [], updates: [], calls: [] };
  const events: TChannelEvents = {
    onState: async (s) => void seen.states.push(s),
    onMessage: async (m) => void seen.messages.push(m),
    onMessageUpdate: async (u) => void seen.updates.push(u),
    onCall: async (c) => void seen.calls.push(c),
  };
  const factory = createBaileysDriver({
    store,
    log: silentLog,
    loadKit: async () => whatsapp.kit(await loadBaileysKit()),
    timings: { backoffMs: () => 5, ...opts.timings },
  });
  const session = factory({ id: 21, companyId: 1, provider: 'baileys' }, events) as TBaileysSession;
  const last = () => seen.states.at(-1)?.status;

  return { whatsapp, store, seen, session, last };
};

const paired = async (opts: Parameters<typeof setup>[0] = {}) => {
  const s = setup(opts);
  await s.session.start();
  await until('a QR code', () => s.last() === 'qrcode');
  await s.whatsapp.pair();
  await until('CONNECTED', () => s.last() === 'CONNECTED');

  return s;
};

describe('Baileys driver: session lifecycle', () => {
  it('shows each new QR code and times out after maxQrs unscanned ones', async () => {
    const { session, seen, last } = setup({ timings: { maxQrs: 3 } });
    await session.start();
    await until('TIMEOUT', () => last() === 'TIMEOUT');
    const qrs = seen.states.filter((s) => s.status === 'qrcode');
    expect(qrs.map((s) => s.retries)).toEqual([1, 2, 3]);
    expect(new Set(qrs.map((s) => s.qrcode)).size).toBe(3);
    expect(qrs[0].qrcode).toMatch(/^2@/);
    await session.stop();
  });

  it('pairs by QR: the restart WhatsApp asks for follows, CONNECTED with the phone number, creds stored', async () => {
    const { session, last, seen, store } = await paired();
    expect(seen.states.at(-1)).toMatchObject({ status: 'CONNECTED', phoneNumber: '5511999990000', retries: 0 });
    const creds = await store.get(21, 'creds');
    expect(JSON.parse(creds ?? '{}')).toMatchObject({ account: {}, me: { id: '5511999990000:7@s.whatsapp.net' } });
    expect(JSON.parse(creds ?? '{}').registered).toBe(false);
    expect(last()).toBe('CONNECTED');
    await session.stop();
  });

  it('pairs by phone-number code: PAIRING with the code in qrcode, then CONNECTED', async () => {
    const { session, seen, last, whatsapp } = setup();
    await session.start();
    await until('a QR code', () => last() === 'qrcode');
    expect(await session.requestPairing('+55 (11) 97777-6666')).toBe('ZELO1234');
    expect(whatsapp.pairingRequests).toEqual(['5511977776666']);
    expect(seen.states.at(-1)).toMatchObject({ status: 'PAIRING', qrcode: 'ZELO1234' });
    // the next QR events do not replace the code being typed
    await new Promise((r) => setTimeout(r, 60));
    expect(last()).toBe('PAIRING');
    await whatsapp.pair();
    await until('CONNECTED', () => last() === 'CONNECTED');
    await expect(session.requestPairing('5511977776666')).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
    await session.stop();
  });

  it('a lost connection reconnects with backoff, counting retries; too many leave it DISCONNECTED', async () => {
    const { session, seen, last, whatsapp } = await paired({ timings: { maxRetries: 2 } });
    whatsapp.offline(true);
    whatsapp.socket()?.emit('connection.update', {
      connection: 'close',
      lastDisconnect: { error: Object.assign(new Error('lost'), { output: { statusCode: 408 } }) },
    });
    await until('DISCONNECTED', () => last() === 'DISCONNECTED');
    const retries = seen.states.filter((s) => s.status === 'OPENING' && (s.retries ?? 0) > 0).map((s) => s.retries);
    expect(retries).toEqual([1, 2]);
    whatsapp.offline(false);
    // "try again" with the stored pairing connects without a new QR
    await session.stop();
    const before = seen.states.length;
    await session.start();
    await until('CONNECTED again', () => last() === 'CONNECTED');
    expect(seen.states.slice(before).map((s) => s.status)).not.toContain('qrcode');
    await session.stop();
  });

  it.each([
    'timeout',
    'dns',
    'closed',
  ] as const)('a socket that never reaches WhatsApp (%s) reports why: unreachable while retrying and when DISCONNECTED', async (how) => {
    const whatsapp = createFakeWhatsApp({ qrIntervalMs: 20, ackStepMs: 2 });
    whatsapp.offline(true, how);
    const { session, seen, last } = setup({ whatsapp, timings: { maxRetries: 2 } });
    await session.start();
    await until('DISCONNECTED', () => last() === 'DISCONNECTED');
    expect(seen.states[0]).toMatchObject({ status: 'OPENING' });
    expect(seen.states[0].error).toBeUndefined();
    expect(seen.states.slice(1).map((s) => [s.status, s.error])).toEqual([
      ['OPENING', 'unreachable'],
      ['OPENING', 'unreachable'],
      ['DISCONNECTED', 'unreachable'],
    ]);
    // back online: "try again" shows a QR code, and the reason is gone
    whatsapp.offline(false);
    const before = seen.states.length;
    await session.start();
    await until('a QR code', () => last() === 'qrcode');
    expect(seen.states.slice(before).map((s) => s.status)).toContain('qrcode');
    expect(seen.states.slice(before).filter((s) => s.error !== undefined)).toEqual([]);
    await session.stop();
  });

  it('a connection WhatsApp drops after it was reached is not reported unreachable', async () => {
    const { session, seen, last, whatsapp } = await paired({ timings: { maxRetries: 1 } });
    whatsapp.socket()?.emit('connection.update', {
      connection: 'close',
      lastDisconnect: { error: Object.assign(new Error('lost'), { output: { statusCode: 408 } }) },
    });
    await until('CONNECTED again', () => last() === 'CONNECTED' && seen.states.at(-2)?.status === 'OPENING');
    expect(seen.states.map((s) => s.error).filter(Boolean)).toEqual([]);
    await session.stop();
  });

  it('logged out by WhatsApp: auth state cleared, DISCONNECTED; logout from Zelo does the same', async () => {
    const first = await paired();
    first.whatsapp.socket()?.emit('connection.update', {
      connection: 'close',
      lastDisconnect: { error: Object.assign(new Error('logged out'), { output: { statusCode: 401 } }) },
    });
    await until('DISCONNECTED', () => first.last() === 'DISCONNECTED');
    expect(await first.store.get(21, 'creds')).toBeUndefined();
    await expect(first.session.sendText('5511988887777', 'hi')).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });

    const second = await paired();
    await second.session.logout();
    expect(second.last()).toBe('DISCONNECTED');
    expect(await second.store.get(21, 'creds')).toBeUndefined();
  });

  it('corrupt stored credentials are cleared: DISCONNECTED, and the next start shows a QR code', async () => {
    const store = createMemoryAuthStateStore();
    await store.set(21, 'creds', '{"noiseKey": {"private": ');
    await store.set(21, 'session:5511@s.whatsapp.net', '{}');
    const { session, last } = setup({ store });
    await session.start();
    expect(last()).toBe('DISCONNECTED');
    expect(await store.get(21, 'session:5511@s.whatsapp.net')).toBeUndefined();
    await session.start();
    await until('a QR code', () => last() === 'qrcode');
    await session.stop();
  });
});

describe('Baileys driver: messages', () => {
  it('acks from messages.update and group receipts; calls; a media that cannot be downloaded fails its function', async () => {
    const { session, seen, whatsapp } = await paired();
    const sent = await session.sendText('5511988887777', 'olá');
    await until('delivered', () => seen.updates.some((u) => u.externalId === sent.externalId && u.ack === 3));
    whatsapp.socket()?.emit('message-receipt.update', [
      {
        key: { remoteJid: '1203630@g.us', id: 'G1', fromMe: true },
        receipt: { userJid: 'x', readTimestamp: 1700000000 },
      },
    ]);
    whatsapp.socket()?.emit('call', [
      { id: 'CALL1', from: '5511988887777@s.whatsapp.net', isVideo: true, status: 'offer', date: new Date(0) },
      { id: 'CALL1', from: '5511988887777@s.whatsapp.net', isVideo: true, status: 'timeout', date: new Date(0) },
    ]);
    whatsapp.customerSends({
      key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'IMG404' },
      message: { imageMessage: { mimetype: 'image/jpeg', caption: 'foto' } },
      messageTimestamp: 1700000000,
    });
    await until('the image', () => seen.messages.some((m) => m.externalId === 'IMG404'));
    expect(seen.updates).toContainEqual({ connectionId: 21, externalId: 'G1', ack: 4 });
    expect(seen.calls).toEqual([
      { connectionId: 21, from: '5511988887777', isVideo: true, timestamp: new Date(0), externalId: 'CALL1' },
    ]);
    const image = seen.messages.find((m) => m.externalId === 'IMG404')!;
    expect(typeof image.media).toBe('function');
    await expect((image.media as () => Promise<unknown>)()).rejects.toMatchObject({ code: 'ERR_WAPP_DOWNLOAD_MEDIA' });
    await session.stop();
  });

  it('one person, one contact: a @lid sender is reported by the number WhatsApp gave with it, even when it later comes alone', async () => {
    const { session, seen, whatsapp } = await paired();
    whatsapp.customerSends({
      key: { remoteJid: '123456789012345@lid', fromMe: false, id: 'L1', senderPn: '5511988887777@s.whatsapp.net' },
      message: { conversation: 'oi' },
      messageTimestamp: 1700000000,
    });
    await until('L1', () => seen.messages.some((m) => m.externalId === 'L1'));
    whatsapp.customerSends({
      key: { remoteJid: '123456789012345@lid', fromMe: false, id: 'L2' },
      message: { conversation: 'sou eu de novo' },
      messageTimestamp: 1700000001,
    });
    await until('L2', () => seen.messages.some((m) => m.externalId === 'L2'));
    expect(seen.messages.filter((m) => m.externalId.startsWith('L')).map((m) => m.from)).toEqual([
      '5511988887777',
      '5511988887777',
    ]);
    await session.stop();
  });

  it('a send to a number that is not on WhatsApp, and checkNumber failures, answer the catalogue codes', async () => {
    const { session, whatsapp } = await paired();
    await expect(session.sendText('000111222333', 'hi')).rejects.toMatchObject({ code: 'ERR_WAPP_INVALID_CONTACT' });
    // a number checked once is not asked again for an hour
    expect((await session.sendText('5511988887777', 'hi')).externalId).toMatch(/\S/);
    const sock = whatsapp.socket()!;
    sock.onWhatsApp = async () => {
      throw new Error('query timed out');
    };
    await expect(session.checkNumber('5511900001111')).rejects.toMatchObject({ code: 'ERR_WAPP_CHECK_CONTACT' });
    sock.sendMessage = async () => {
      throw new Error('connection closed');
    };
    await expect(session.sendText('5511988887777', 'hi')).rejects.toMatchObject({ code: 'ERR_SENDING_WAPP_MSG' });
    await session.stop();
  });
});

describe('Baileys driver: the real library without a network', () => {
  it('reports its state, counts retries, never throws, and stops cleanly', async () => {
    const seen: TConnectionState[] = [];
    const factory = createBaileysDriver({
      store: createMemoryAuthStateStore(),
      log: silentLog,
      loadKit: loadBaileysKit,
      timings: { maxRetries: 1, backoffMs: () => 10, connectTimeoutMs: 3000 },
    });
    const session = factory(
      { id: 31, companyId: 1, provider: 'baileys' },
      {
        onState: async (s) => void seen.push(s),
        onMessage: async () => undefined,
        onMessageUpdate: async () => undefined,
        onCall: async () => undefined,
      },
    );
    await session.start();
    expect(seen[0]?.status).toBe('OPENING');
    await until('DISCONNECTED after its retries', () => seen.at(-1)?.status === 'DISCONNECTED', 20_000);
    expect(seen.some((s) => s.status === 'OPENING' && s.retries === 1)).toBe(true);
    await expect(session.sendText('5511988887777', 'hi')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await session.stop();
  }, 30_000);
});
