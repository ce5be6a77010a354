import type { TMessageUpdate } from '../types';
import type { TCallOffer, TContactUpsert, TMessageStatusUpdate, TReceiptUpdate } from './baileys.types';
import { isLidJid, isPersonJid, numberOf, userPart } from './jid';

/**
 * Baileys' socket events that are not messages, in the driver's terms: acks (messages.update status is
 * proto.WebMessageInfo.Status: 0 error, 1 pending, 2 server, 3 delivered, 4 read, 5 played), group
 * receipts, call offers and the @lid ↔ number pairs contacts and phone-number shares reveal.
 */

export const statusUpdates = (connectionId: number, updates: TMessageStatusUpdate[]): TMessageUpdate[] =>
  updates.flatMap(({ key, update }) =>
    key.id && typeof update.status === 'number'
      ? [
          {
            connectionId,
            externalId: key.id,
            ack: update.status,
            ...(update.status === 0
              ? { error: { code: 'ERR_SENDING_WAPP_MSG', message: 'WhatsApp refused the message' } }
              : {}),
          },
        ]
      : [],
  );

/** in groups each member's receipt: delivered, read, played (the highest one a receipt carries) */
export const receiptUpdates = (connectionId: number, receipts: TReceiptUpdate[]): TMessageUpdate[] =>
  receipts.flatMap(({ key, receipt }) => {
    const ack = receipt.playedTimestamp ? 5 : receipt.readTimestamp ? 4 : receipt.receiptTimestamp ? 3 : 0;

    return key.id && ack ? [{ connectionId, externalId: key.id, ack }] : [];
  });

/** a call is reported once, at its offer; group calls are not */
export const callOffers = (calls: TCallOffer[]) => calls.filter((c) => c.status === 'offer' && !c.isGroup);

/** the privacy ids (@lid, user part) and phone numbers a contact list names together */
export const lidPairs = (contacts: Partial<Pick<TContactUpsert, 'id' | 'lid' | 'jid'>>[]) =>
  contacts.flatMap((c) => {
    const lid = [c.lid, c.id].find((j) => isLidJid(j));
    const pn = [c.jid, c.id].find((j) => isPersonJid(j));

    return lid && pn ? [{ lid: userPart(lid), number: numberOf(pn) }] : [];
  });
