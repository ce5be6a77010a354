import { describe } from 'vitest';
import { createFakeWhatsApp, silentLog } from '../../../test/baileys-fake';
import { createMemoryAuthStateStore } from '../auth-state.repo';
import { channelConformance, type TFarSide } from '../conformance';
import type { TChannelEvents } from '../types';
import { createBaileysDriver } from './baileys.driver';
import { loadBaileysKit } from './baileys.loader';

/** the conformance suite through the Baileys driver, WhatsApp's side played by the fake socket */
describe('Baileys driver conformance', () => {
  const whatsapp = createFakeWhatsApp({ qrIntervalMs: 2000, ackStepMs: 5 });
  const store = createMemoryAuthStateStore();
  const factory = createBaileysDriver({
    store,
    log: silentLog,
    loadKit: async () => whatsapp.kit(await loadBaileysKit()),
  });
  let seq = 0;
  const far: TFarSide = {
    customer: '5511988887777',
    notOnWhatsApp: '000119999999',
    pair: async () => {
      const end = Date.now() + 2000;
      while (!whatsapp.socket() || whatsapp.socket()?.ended) {
        if (Date.now() > end) throw new Error('no socket');
        await new Promise((r) => setTimeout(r, 5));
      }
      await new Promise((r) => setTimeout(r, 20));
      await whatsapp.pair();
    },
    customerSends: async (_session, m) => {
      const externalId = `WA${++seq}${Date.now()}`;
      const key = { remoteJid: `${m.from}@s.whatsapp.net`, fromMe: false, id: externalId };
      const contextInfo = m.quotedExternalId ? { stanzaId: m.quotedExternalId } : undefined;
      const message =
        m.type === 'text'
          ? { conversation: m.body ?? '' }
          : m.type === 'image'
            ? { imageMessage: { caption: m.body ?? '', mimetype: m.media?.mimetype, contextInfo } }
            : m.type === 'location'
              ? { locationMessage: { degreesLatitude: m.location?.latitude, degreesLongitude: m.location?.longitude } }
              : { contactMessage: { displayName: 'Maria Silva', vcard: m.vcard } };
      whatsapp.customerSends(
        { key, message, messageTimestamp: Math.floor(Date.now() / 1000), pushName: 'Cliente' },
        m.media?.data,
      );

      return { externalId };
    },
    received: async (_session, customer) => whatsapp.received(customer),
    customerReads: async (_session, customer, ids) => whatsapp.customerReads(customer, ids),
  };
  channelConformance({
    create: (events: TChannelEvents) => factory({ id: 11, companyId: 1, provider: 'baileys' }, events),
    far,
  });
});
