import { events } from '@zelo/shared';
import type { TChannelEvents, TInboundMessage, TMedia, TMessageUpdate } from '../../channels/types';
import type { TAppContext } from '../../lib/context';
import { readSetting } from '../settings/settings.service';
import { announceTicket } from '../tickets/ticket-announcer';
import { findOrCreateTicketForInbound, type TInboundTicket } from '../tickets/ticket-lifecycle';
import { findTicketPlain } from '../tickets/tickets.repo';
import { refreshTicketLastMessage } from './last-message';
import { inboundPreview } from './preview';
import { parkEarlyUpdate } from './early-updates';
import { announceMessageCreated, announceMessageUpdated } from './message-announcer';
import { NOT_STORED, raiseAckBatched } from './ack-batch';
import { resolveType, storeMediaFile, removeMediaFile } from './media';
import {
  claimPendingOutbound,
  connectionById,
  contactByNumber,
  findByExternalId,
  insertContactOnce,
  insertMessageOnce,
  markFailedByExternalId,
  raiseAck,
  renameContact,
  type TMessageRow,
  touchTicketAfterMessage,
  updateMessageRow,
} from './messages.repo';

export type TStoredInbound = {
  /** stored now (false: a replayed delivery, or the echo of our own send) */
  created: boolean;
  message: TMessageRow;
  ticket: TInboundTicket['ticket'];
  ticketCreated: boolean;
  ticketReopened: boolean;
  contactId: number;
  /** the conversation's contact (the group in groups); absent for replays */
  contact?: Awaited<ReturnType<typeof findOrCreateContact>>['contact'];
};

const digits = (v: string) => v.replace(/\D/g, '');

/** finds or creates the contact of a number in a company; a placeholder name is replaced by the push name */
type TContactRow = NonNullable<Awaited<ReturnType<typeof contactByNumber>>>;

export const findOrCreateContact = async (
  ctx: TAppContext,
  input: { companyId: number; connectionId: number; number: string; name?: string; isGroup: boolean; isTest?: boolean },
) => {
  const name = (input.name ?? '').trim().slice(0, 200) || input.number;
  // most messages come from known contacts: one read, and the insert only for a new number
  const known = await contactByNumber(ctx.db, input.companyId, input.number);
  if (known) return refreshName(ctx, input.companyId, known, name, input.number);
  const created = await insertContactOnce(ctx.db, {
    companyId: input.companyId,
    number: input.number,
    name,
    isGroup: input.isGroup,
    isTest: input.isTest ?? false,
    whatsappId: input.connectionId,
  });
  if (created?.isTest) return { contact: created, created: true };
  if (created) {
    ctx.realtime.toCompany(input.companyId, events.contact(input.companyId), {
      action: 'create',
      contact: { ...created, createdAt: created.createdAt.toISOString(), updatedAt: created.updatedAt.toISOString() },
    });
    return { contact: created, created: true };
  }
  // created at the same moment by a concurrent message
  const existing = await contactByNumber(ctx.db, input.companyId, input.number);
  if (!existing) throw new Error(`contact ${input.number} vanished`);

  return refreshName(ctx, input.companyId, existing, name, input.number);
};

/** names are refreshed only while the contact still carries its number as a name */
const refreshName = async (
  ctx: TAppContext,
  companyId: number,
  existing: TContactRow,
  name: string,
  number: string,
): Promise<{ contact: TContactRow; created: boolean }> => {
  if (existing.name === existing.number && name !== number) {
    const renamed = await renameContact(ctx.db, companyId, existing.id, name);
    if (renamed) return { contact: renamed, created: false };
  }

  return { contact: existing, created: false };
};

/** the stored body, media type and list label of each inbound type */
export const describeInbound = (m: TInboundMessage): { body: string; mediaType: string | null; label: string } => {
  switch (m.type) {
    case 'location': {
      const loc = m.location;
      if (!loc) return { body: m.body, mediaType: 'locationMessage', label: 'Localização' };
      const link = `https://maps.google.com/maps?q=${loc.latitude}%2C${loc.longitude}&z=17&hl=pt-BR`;
      return {
        body: ` | ${link} | ${loc.description || `${loc.latitude}, ${loc.longitude}`}`,
        mediaType: 'locationMessage',
        label: 'Localização',
      };
    }
    case 'vcard':
      return { body: m.vcards?.[0] ?? m.body, mediaType: 'vcard', label: 'Contato' };
    case 'contacts':
      return { body: (m.vcards ?? []).join('\n') || m.body, mediaType: 'contactMessage', label: 'Contatos' };
    case 'reaction':
      return { body: m.body || 'reaction', mediaType: 'reactionMessage', label: m.body || 'reaction' };
    default:
      return { body: m.body ?? '', mediaType: null, label: m.body ?? '' };
  }
};

/** downloads (if needed) and stores a message's media under a random name; typed by content */
const storeInboundMedia = async (ctx: TAppContext, media: TInboundMessage['media']) => {
  if (!media) return null;
  try {
    const file: TMedia = typeof media === 'function' ? await media() : media;
    const type = resolveType(file.data, file.fileName);
    const name = await storeMediaFile(ctx.config, file.data, type.ext);

    return { name, kind: type.kind, mime: type.mime, fileName: file.fileName ?? null, error: null };
  } catch (err) {
    ctx.log.warn({ err }, 'inbound media download failed');
    return { name: null, kind: null, mime: null, fileName: null, error: 'ERR_WAPP_DOWNLOAD_MEDIA' };
  }
};

/**
 * Stores one inbound message (or a message sent from the phone): contact find-or-create per company and
 * number, ticket find-or-create, message insert once per (connection, externalId), unread count,
 * lastMessage and the realtime events. Answers null for an unknown connection; a replayed delivery
 * answers the stored row with `created: false` and changes nothing.
 */
/**
 * What the caller already read for this message (the inbound pipeline), so nothing is read twice:
 * the connection, that the delivery is not a replay, the company's time zone and reopen window.
 */
export type TInboundKnown = {
  connection?: { id: number; companyId: number };
  replayChecked?: boolean;
  timeZone?: string;
  reopenWindowMinutes?: number;
};

export const storeInboundMessage = async (
  ctx: TAppContext,
  inbound: TInboundMessage,
  known: TInboundKnown = {},
): Promise<TStoredInbound | null> => {
  const connection = known.connection ?? (await connectionById(ctx.db, inbound.connectionId));
  if (!connection) {
    ctx.log.warn({ connectionId: inbound.connectionId }, 'message for an unknown connection dropped');
    return null;
  }
  const companyId = connection.companyId;
  const replay = known.replayChecked ? null : await findByExternalId(ctx.db, connection.id, inbound.externalId);
  const replayTicket = replay ? await findTicketPlain(ctx.db, companyId, replay.ticketId) : null;
  if (replay && replayTicket) {
    return {
      created: false,
      message: replay,
      ticket: replayTicket,
      ticketCreated: false,
      ticketReopened: false,
      contactId: replay.contactId ?? 0,
    };
  }

  const number = inbound.isGroup ? inbound.from : digits(inbound.from);
  const { contact } = await findOrCreateContact(ctx, {
    companyId,
    connectionId: connection.id,
    number,
    name: inbound.isGroup ? inbound.groupName : inbound.pushName,
    isGroup: inbound.isGroup,
  });
  // in groups the message belongs to the member who wrote it
  let senderId = contact.id;
  if (inbound.isGroup && inbound.participant && !inbound.fromMe) {
    senderId = (
      await findOrCreateContact(ctx, {
        companyId,
        connectionId: connection.id,
        number: digits(inbound.participant),
        name: inbound.participantName,
        isGroup: false,
      })
    ).contact.id;
  }

  const reopenWindowMinutes =
    known.reopenWindowMinutes ?? (Number(await readSetting(ctx.db, companyId, 'reopenWindowMinutes')) || 0);
  const found = await findOrCreateTicketForInbound(ctx, {
    companyId,
    connectionId: connection.id,
    contactId: contact.id,
    isGroup: inbound.isGroup,
    reopenWindowMinutes,
    timeZone: known.timeZone,
    isTest: contact.isTest,
  });
  const { ticket } = found;

  // the echo of our own send, stored before the send call returned its id
  if (inbound.fromMe) {
    const claimed = await claimPendingOutbound(ctx.db, companyId, ticket.id, inbound.body ?? '', inbound.externalId);
    if (claimed) {
      return {
        created: false,
        message: claimed,
        ticket,
        ticketCreated: found.created,
        ticketReopened: found.reopened,
        contactId: contact.id,
      };
    }
  }

  const described = describeInbound(inbound);
  const media = await storeInboundMedia(ctx, inbound.media);
  const quoted = inbound.quotedExternalId
    ? await findByExternalId(ctx.db, connection.id, inbound.quotedExternalId)
    : null;
  const row = await insertMessageOnce(ctx.db, {
    companyId,
    ticketId: ticket.id,
    contactId: senderId,
    whatsappId: connection.id,
    externalId: inbound.externalId,
    source: inbound.fromMe ? 'agent' : 'customer',
    body: described.body,
    fromMe: inbound.fromMe,
    read: inbound.fromMe,
    ack: inbound.fromMe ? 2 : 3,
    mediaType: media?.kind ?? described.mediaType,
    mediaUrl: media?.name ?? null,
    mediaName: media?.fileName ?? null,
    mediaMime: media?.mime ?? null,
    errorCode: media?.error ?? null,
    quotedMsgId: quoted?.id ?? null,
    remoteJid: inbound.from,
    participant: inbound.participant ?? null,
    createdAt:
      inbound.timestamp instanceof Date && !Number.isNaN(inbound.timestamp.getTime()) ? inbound.timestamp : new Date(),
  });
  if (!row) {
    // the same delivery stored concurrently
    await removeMediaFile(ctx.config, media?.name);
    const stored = await findByExternalId(ctx.db, connection.id, inbound.externalId);
    if (!stored) throw new Error('message vanished');
    return {
      created: false,
      message: stored,
      ticket,
      ticketCreated: found.created,
      ticketReopened: found.reopened,
      contactId: contact.id,
    };
  }
  await touchTicketAfterMessage(ctx.db, companyId, ticket.id, {
    lastMessage: inboundPreview(described, media?.kind),
    at: new Date(),
    fromMe: inbound.fromMe,
    unread: inbound.fromMe ? 'reset' : 'increment',
    words: described.body,
  });

  if (found.created || found.reopened) await announceTicket(ctx, companyId, ticket.id, found.previous);
  // a group member's message is read again for its sender's name
  await announceMessageCreated(
    ctx,
    companyId,
    row.id,
    senderId === contact.id ? { message: row, contactName: contact.name } : undefined,
  );

  return {
    created: true,
    message: row,
    ticket,
    ticketCreated: found.created,
    ticketReopened: found.reopened,
    contactId: contact.id,
    contact,
  };
};

type TChangedMessage = { companyId: number; id: number };

type TUpdateRetry = {
  /** how many times the update was tried already */
  attempt?: number;
  /** what the caller does with a changed message, for a change applied later in the background */
  onLaterChange?: (changed: TChangedMessage) => Promise<unknown>;
};

/**
 * Acks (only upwards), edits, deletes and late send failures reported by the channel. Answers the stored
 * message when something changed (its company and id), else null. An update for a channel id no message carries
 * yet is parked (`early-updates.ts`) and applied in the background once a send records that id, or a little later,
 * its change handed to `onLaterChange`.
 */
export const applyMessageUpdate = async (
  ctx: TAppContext,
  update: TMessageUpdate,
  retry: TUpdateRetry = {},
): Promise<TChangedMessage | null> => {
  const later = () => {
    parkEarlyUpdate(ctx, update.connectionId, update.externalId, retry.attempt ?? 0, async (attempt) => {
      const changed = await applyMessageUpdate(ctx, update, { ...retry, attempt });
      if (changed) await retry.onLaterChange?.(changed);
    });

    return null;
  };
  if (update.ack !== undefined && update.ack > 0 && !update.error && !update.edit && !update.deleted) {
    // an ack alone (the most frequent update, in bursts after a campaign): raised with the others of its turn
    const row = await raiseAckBatched(ctx, update.connectionId, update.externalId, Math.min(5, update.ack));
    if (row === NOT_STORED) return later();
    if (!row) return null;

    return { companyId: row.companyId, id: row.id };
  }
  const stored = await findByExternalId(ctx.db, update.connectionId, update.externalId);
  if (!stored) return later();
  let changed = false;
  /** an edit or a delete: the ticket's last message may show it */
  let retold = false;
  if (update.ack !== undefined && update.ack > 0) {
    changed =
      (await raiseAck(ctx.db, update.connectionId, update.externalId, Math.min(5, update.ack))) !== null || changed;
  }
  if (update.error) {
    changed =
      (await markFailedByExternalId(ctx.db, update.connectionId, update.externalId, update.error)) !== null || changed;
  }
  if (update.edit && !stored.isDeleted) {
    await updateMessageRow(ctx.db, stored.companyId, stored.id, { body: update.edit.body, isEdited: true });
    changed = true;
    retold = true;
  }
  if (update.deleted && !stored.isDeleted) {
    await updateMessageRow(ctx.db, stored.companyId, stored.id, { isDeleted: true });
    changed = true;
    retold = true;
  }
  if (changed) await announceMessageUpdated(ctx, stored.companyId, stored.id);
  if (retold) await refreshTicketLastMessage(ctx, stored.companyId, stored);

  return changed ? { companyId: stored.companyId, id: stored.id } : null;
};

/**
 * The store-only channel handlers used until the inbound pipeline (S4) replaces them:
 * `ctx.channels.setEvents(createStoreOnlyHandlers(ctx))`.
 */
export const createStoreOnlyHandlers = (
  ctx: TAppContext,
): Pick<TChannelEvents, 'onMessage' | 'onMessageUpdate' | 'onCall'> => ({
  onMessage: async (message) => {
    await storeInboundMessage(ctx, message);
  },
  onMessageUpdate: async (update) => {
    await applyMessageUpdate(ctx, update);
  },
  onCall: async () => undefined,
});

/** binds the store-only handlers to the channel registry when this process runs one (app.ts) */
export const bindStoreOnlyHandlers = (ctx: TAppContext) => {
  const registry = (ctx as { channels?: { setEvents: (events: Partial<TChannelEvents>) => void } }).channels;
  registry?.setEvents(createStoreOnlyHandlers(ctx));
};
