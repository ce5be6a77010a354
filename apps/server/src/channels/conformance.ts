import { expect, it } from 'vitest';
import type {
  TChannelEvents,
  TChannelSession,
  TConnectionState,
  TInboundMessage,
  TMessageUpdate,
  TCallEvent,
} from './types';

/**
 * The channel driver conformance suite (ARCHITECTURE §7): every driver (sandbox, Baileys, Cloud API)
 * runs it with a way to play the far side. Call it inside a `describe`.
 */

export type TFarMessage = {
  externalId: string;
  type: string;
  body: string;
  ack: number;
  edited: boolean;
  deleted: boolean;
  media?: { mimetype: string };
  location?: { latitude: number; longitude: number };
  vcard?: string;
  quotedExternalId?: string;
};

/** the other end of the transport: the phone that pairs, and the customers */
export type TFarSide = {
  /** a number that is a WhatsApp account, and one that is not */
  customer: string;
  notOnWhatsApp: string;
  /** brings a started, unpaired session to CONNECTED (scan the QR, or what the transport needs) */
  pair: (session: TChannelSession) => Promise<void>;
  /** a customer writes to the connection */
  customerSends: (
    session: TChannelSession,
    message: {
      from: string;
      type: 'text' | 'image' | 'location' | 'vcard';
      body?: string;
      media?: { data: Buffer; mimetype: string; fileName?: string };
      location?: { latitude: number; longitude: number; description?: string };
      vcard?: string;
      quotedExternalId?: string;
    },
  ) => Promise<{ externalId: string }>;
  /** what the customer received, oldest first */
  received: (session: TChannelSession, customer: string) => Promise<TFarMessage[]>;
  /** the customer opens the chat */
  customerReads: (session: TChannelSession, customer: string, externalIds: string[]) => Promise<void>;
  /**
   * The pairing is the connection's settings (Cloud API): logout forgets nothing stored, so a new session
   * connects again by itself instead of asking to pair.
   */
  pairingIsSettings?: boolean;
  /** the transport can not edit or delete a sent message (Cloud API): both answer ERR_CHANNEL_UNSUPPORTED */
  cannotEditSent?: boolean;
};

export type TConformanceTarget = {
  /** a session of one connection on a fresh far side; the same `connectionId` each call shares stored state */
  create: (events: TChannelEvents) => TChannelSession;
  far: TFarSide;
  /** longest wait for an asynchronous report (state, ack) */
  timeoutMs?: number;
};

type TRecorder = {
  events: TChannelEvents;
  states: TConnectionState[];
  messages: TInboundMessage[];
  updates: TMessageUpdate[];
  calls: TCallEvent[];
};

const recorder = (): TRecorder => {
  const r: TRecorder = { states: [], messages: [], updates: [], calls: [], events: undefined as never };
  r.events = {
    onState: async (s) => {
      r.states.push(s);
    },
    onMessage: async (m) => {
      r.messages.push(m);
    },
    onMessageUpdate: async (u) => {
      r.updates.push(u);
    },
    onCall: async (c) => {
      r.calls.push(c);
    },
    onContactUpdate: async () => undefined,
  };

  return r;
};

const until = async (what: string, check: () => boolean, timeoutMs: number) => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const VCARD = 'BEGIN:VCARD\nVERSION:3.0\nFN:Maria Silva\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD';

const expectCode = async (work: Promise<unknown>, code: string) => {
  await expect(work).rejects.toMatchObject({ code });
};

export const channelConformance = (target: TConformanceTarget) => {
  const timeout = target.timeoutMs ?? 3000;
  const { far } = target;
  const last = (r: TRecorder) => r.states.at(-1)?.status;

  /** a session brought to CONNECTED */
  const connected = async () => {
    const r = recorder();
    const session = target.create(r.events);
    await session.start();
    // an earlier test's pairing may still be stored: then the session resumes by itself
    await until('the session past OPENING', () => !!last(r) && last(r) !== 'OPENING', timeout);
    if (last(r) !== 'CONNECTED') await far.pair(session);
    await until('CONNECTED', () => last(r) === 'CONNECTED', timeout);

    return { r, session };
  };

  it('lifecycle: OPENING, then pairing, then CONNECTED; a paired session resumes CONNECTED; logout unpairs', async () => {
    const r = recorder();
    const session = target.create(r.events);
    await session.start();
    expect(r.states[0]?.status).toBe('OPENING');
    await expectCode(session.sendText(far.customer, 'too early'), 'ERR_WAPP_NOT_INITIALIZED');
    await far.pair(session);
    await until('CONNECTED', () => last(r) === 'CONNECTED', timeout);
    for (const s of r.states) expect(s.connectionId).toBe(session.connectionId);
    await session.stop();

    const again = recorder();
    const resumed = target.create(again.events);
    await resumed.start();
    await until('CONNECTED after a restart', () => last(again) === 'CONNECTED', timeout);
    expect(again.states.map((s) => s.status)).not.toContain('qrcode');

    await resumed.logout();
    expect(last(again)).toBe('DISCONNECTED');
    await expectCode(resumed.sendText(far.customer, 'after logout'), 'ERR_WAPP_NOT_INITIALIZED');
    await resumed.stop();

    const fresh = recorder();
    const unpaired = target.create(fresh.events);
    await unpaired.start();
    await until('a new pairing request', () => !!last(fresh) && last(fresh) !== 'OPENING', timeout);
    if (far.pairingIsSettings) expect(last(fresh)).toBe('CONNECTED');
    else expect(last(fresh)).not.toBe('CONNECTED');
    await unpaired.stop();
  });

  it('sends text, media, location and contacts; the customer receives each, quotes included', async () => {
    const { session } = await connected();
    try {
      const text = await session.sendText(far.customer, 'Olá! 👋');
      expect(text.externalId).toMatch(/\S/);
      expect(text.ack).toBeGreaterThanOrEqual(1);
      const image = await session.sendMedia(far.customer, { data: PNG, mimetype: 'image/png', caption: 'a picture' });
      const place = await session.sendLocation(far.customer, {
        latitude: -23.55,
        longitude: -46.63,
        description: 'Sé',
      });
      const card = await session.sendContact(far.customer, VCARD);
      const reply = await session.sendText(far.customer, 'quoting', { quotedExternalId: text.externalId });
      const ids = [text, image, place, card, reply].map((s) => s.externalId);
      expect(new Set(ids).size).toBe(5);

      const got = await far.received(session, far.customer);
      const byId = new Map(got.map((m) => [m.externalId, m]));
      expect(byId.get(text.externalId)?.body).toBe('Olá! 👋');
      expect(byId.get(image.externalId)?.media?.mimetype).toBe('image/png');
      expect(byId.get(image.externalId)?.body).toBe('a picture');
      expect(byId.get(place.externalId)?.location).toMatchObject({ latitude: -23.55, longitude: -46.63 });
      expect(byId.get(card.externalId)?.vcard).toContain('Maria Silva');
      expect(byId.get(reply.externalId)?.quotedExternalId).toBe(text.externalId);
    } finally {
      await session.stop();
    }
  });

  it('acks rise 2 → 3 as the message travels and 4 when the customer reads, never lower', async () => {
    const { r, session } = await connected();
    try {
      const sent = await session.sendText(far.customer, 'ack me');
      const acksOf = () => r.updates.filter((u) => u.externalId === sent.externalId && u.ack).map((u) => u.ack!);
      await until('delivered', () => acksOf().includes(3), timeout);
      await far.customerReads(session, far.customer, [sent.externalId]);
      await until('read', () => acksOf().includes(4), timeout);
      const acks = acksOf();
      expect(acks).toEqual([...acks].sort((a, b) => a - b));
      expect(acks.at(-1)).toBe(4);
      for (const u of r.updates) expect(u.connectionId).toBe(session.connectionId);
      expect((await far.received(session, far.customer)).find((m) => m.externalId === sent.externalId)?.ack).toBe(4);
    } finally {
      await session.stop();
    }
  });

  it('edits and deletes a sent message on the customer side', async () => {
    const { session } = await connected();
    try {
      const first = await session.sendText(far.customer, 'tpyo');
      const second = await session.sendText(far.customer, 'oops');
      if (far.cannotEditSent) {
        await expectCode(session.editMessage(far.customer, first.externalId, 'typo'), 'ERR_CHANNEL_UNSUPPORTED');
        await expectCode(
          session.deleteMessage(far.customer, second.externalId, { fromMe: true }),
          'ERR_CHANNEL_UNSUPPORTED',
        );
        const kept = await far.received(session, far.customer);
        expect(kept.find((m) => m.externalId === first.externalId)).toMatchObject({ body: 'tpyo', edited: false });
        expect(kept.find((m) => m.externalId === second.externalId)?.deleted).toBe(false);
        return;
      }
      await session.editMessage(far.customer, first.externalId, 'typo');
      await session.deleteMessage(far.customer, second.externalId, { fromMe: true });
      const got = await far.received(session, far.customer);
      expect(got.find((m) => m.externalId === first.externalId)).toMatchObject({ body: 'typo', edited: true });
      expect(got.find((m) => m.externalId === second.externalId)?.deleted).toBe(true);
    } finally {
      await session.stop();
    }
  });

  it('checkNumber answers the account or null; a send to a non-account is ERR_WAPP_INVALID_CONTACT; markRead works', async () => {
    const { r, session } = await connected();
    try {
      expect(await session.checkNumber(far.customer)).toBe(far.customer.replace(/\D/g, ''));
      expect(await session.checkNumber(far.notOnWhatsApp)).toBeNull();
      await expectCode(session.sendText(far.notOnWhatsApp, 'hello?'), 'ERR_WAPP_INVALID_CONTACT');
      const inbound = await far.customerSends(session, { from: far.customer, type: 'text', body: 'read me' });
      await until('the inbound message', () => r.messages.length > 0, timeout);
      await session.markRead(far.customer, [inbound.externalId]);
      expect(await session.profilePicture(far.customer)).toSatisfy((v: unknown) => v === null || typeof v === 'string');
    } finally {
      await session.stop();
    }
  });

  it('reports inbound text, media, location and vcard messages in the driver shape', async () => {
    const { r, session } = await connected();
    try {
      const text = await far.customerSends(session, { from: far.customer, type: 'text', body: 'oi' });
      const image = await far.customerSends(session, {
        from: far.customer,
        type: 'image',
        body: 'look',
        media: { data: PNG, mimetype: 'image/png', fileName: 'dot.png' },
        quotedExternalId: text.externalId,
      });
      const place = await far.customerSends(session, {
        from: far.customer,
        type: 'location',
        location: { latitude: 1.5, longitude: 2.5 },
      });
      const card = await far.customerSends(session, { from: far.customer, type: 'vcard', vcard: VCARD });
      await until('four inbound messages', () => r.messages.length >= 4, timeout);
      const byId = new Map(r.messages.map((m) => [m.externalId, m]));
      const customer = far.customer.replace(/\D/g, '');
      for (const m of r.messages) {
        expect(m).toMatchObject({ connectionId: session.connectionId, from: customer, fromMe: false, isGroup: false });
        expect(m.timestamp).toBeInstanceOf(Date);
      }
      expect(byId.get(text.externalId)).toMatchObject({ type: 'text', body: 'oi' });
      const img = byId.get(image.externalId)!;
      expect(img).toMatchObject({ type: 'image', body: 'look', quotedExternalId: text.externalId });
      const media = typeof img.media === 'function' ? await img.media() : img.media;
      expect(media?.mimetype).toBe('image/png');
      expect(media?.data.equals(PNG)).toBe(true);
      expect(byId.get(place.externalId)).toMatchObject({
        type: 'location',
        location: { latitude: 1.5, longitude: 2.5 },
      });
      expect(byId.get(card.externalId)?.vcards?.[0]).toContain('Maria Silva');
    } finally {
      await session.stop();
    }
  });
};
