import { events } from '@zelo/shared';
import type { TCallEvent, TChannelEvents, TChannelSession, TInboundMessage, TMedia } from '../channels/types';
import type { TAppContext } from '../lib/context';
import { announceCampaignMessageChange } from '../modules/campaigns/campaign-acks';
import { isCompanyActive } from '../modules/companies/company-active';
import { announceMessageCreated } from '../modules/messages/message-announcer';
import { touchTicketAfterMessage } from '../modules/messages/messages.repo';
import { applyMessageUpdate, findOrCreateContact, storeInboundMessage } from '../modules/messages/store-inbound';
import { readCompanySettings, readSetting } from '../modules/settings/settings.service';
import { announceTicket } from '../modules/tickets/ticket-announcer';
import { findOrCreateTicketForInbound, findTicketAwaitingRating } from '../modules/tickets/ticket-lifecycle';
import { runAutomation } from './automation';
import { parseRating } from './bot-rules';
import {
  abandonRating,
  claimContactRefresh,
  claimRating,
  companyForInbound,
  connectionForInbound,
  contactById,
  contactOfNumber,
  insertPipelineMessage,
  messageByExternalId,
  type TConnectionRow,
  type TContactRow,
  updateContactProfile,
} from './inbound.repo';
import { createFastPath, isFastPathCandidate, type TFastPathOptions, type TFastResult } from './fast-path';
import { createKeyedQueue } from './keyed-queue';
import { afterRatingText, captureComment, commentDueAt, storeSurveyReply } from './rating-comment';
import { sendBotTexts } from './send';
import { asLang, missedCallText, text } from './texts';
import { safeTimeZone } from './working-hours';

/**
 * The inbound pipeline (reference §2): what a channel reports becomes contacts, tickets and messages, then
 * the automation chain answers. app.ts binds it: `ctx.channels.setEvents(createInboundHandlers(ctx))`.
 *
 * - Messages of one contact on one connection are handled one at a time, in arrival order.
 * - The common message (a customer's text in a one-to-one chat) is stored in batches with the messages of
 *   other customers that arrive meanwhile (fast-path.ts); anything else goes one by one (`handleMessage`).
 * - A delivery already stored (same connection and external id) changes nothing and runs no bot.
 * - Status broadcasts are dropped; group messages too while setting `CheckMsgIsGroup` is enabled.
 * - Contact name (while it is still the number) and picture are refreshed at most once a day.
 * - A call leaves a `call_log` entry on the contact's ticket, found or created like a message's ticket
 *   (so a missed call is seen by the attendants), and is answered when setting `call` is disabled.
 */

export type TInboundOptions = {
  /** the clock of every rule (tests inject a fixed one) */
  now?: () => Date;
  /** media download attempts before ERR_WAPP_DOWNLOAD_MEDIA is recorded */
  mediaAttempts?: number;
  mediaRetryMs?: number;
  /** false: every message one by one (the batched pipeline off) */
  batched?: boolean;
  batch?: Pick<TFastPathOptions, 'maxBatch' | 'concurrency' | 'onBatch'>;
};

const DAY_MS = 86_400_000;

type TGateway = { session: (connectionId: number) => TChannelSession };

const sessionOf = (ctx: TAppContext, connectionId: number): TChannelSession | null => {
  const gateway = (ctx as { channels?: TGateway }).channels;
  if (!gateway) return null;
  try {
    return gateway.session(connectionId);
  } catch {
    return null;
  }
};

const digits = (value: string) => value.replace(/\D/g, '');

const isStatusBroadcast = (m: TInboundMessage) =>
  /^status(@broadcast)?$/i.test(m.from) || m.from.endsWith('@broadcast');

const withRetry = (media: TInboundMessage['media'], attempts: number, waitMs: number): TInboundMessage['media'] => {
  if (typeof media !== 'function') return media;

  return async (): Promise<TMedia> => {
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        return await media();
      } catch (err) {
        lastError = err;
        if (attempt < attempts) await new Promise((resume) => setTimeout(resume, waitMs * attempt));
      }
    }
    throw lastError;
  };
};

const contactPayload = (c: TContactRow) => ({
  ...c,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
  profilePicUpdatedAt: c.profilePicUpdatedAt?.toISOString() ?? null,
});

export const createInboundHandlers = (
  ctx: TAppContext,
  opts: TInboundOptions = {},
): Pick<TChannelEvents, 'onMessage' | 'onMessageUpdate' | 'onCall'> &
  Required<Pick<TChannelEvents, 'onContactUpdate'>> => {
  const now = opts.now ?? (() => new Date());
  const queue = createKeyedQueue();
  const attempts = opts.mediaAttempts ?? 3;
  const retryMs = opts.mediaRetryMs ?? 300;
  const fastPath = opts.batched === false ? null : createFastPath(ctx, { now, ...opts.batch });

  /** name (while it is the number) and picture of a contact whose daily refresh was claimed */
  const applyRefresh = async (connection: TConnectionRow, contact: TContactRow, pushName?: string) => {
    const patch: { name?: string; profilePicUrl?: string } = {};
    const name = (pushName ?? '').trim().slice(0, 200);
    if (name && name !== contact.name && (contact.name === contact.number || !contact.name.trim())) patch.name = name;
    try {
      const picture = await sessionOf(ctx, connection.id)?.profilePicture(contact.number);
      if (picture && picture !== contact.profilePicUrl) patch.profilePicUrl = picture;
    } catch (err) {
      ctx.log.debug({ err, contactId: contact.id }, 'profile picture not available');
    }
    if (!patch.name && patch.profilePicUrl === undefined) return contact;
    const updated = await updateContactProfile(ctx.db, connection.companyId, contact.id, patch);
    if (updated) {
      ctx.realtime.toCompany(connection.companyId, events.contact(connection.companyId), {
        action: 'update',
        contact: contactPayload(updated),
      });
    }

    return updated ?? contact;
  };

  /** name (while it is the number) and picture, at most once a day per contact */
  const refreshContact = async (
    connection: TConnectionRow,
    contactId: number,
    pushName?: string,
    known?: TContactRow,
  ): Promise<TContactRow | null> => {
    const contact = known?.id === contactId ? known : await contactById(ctx.db, connection.companyId, contactId);
    if (!contact || contact.isGroup) return contact;
    const at = now();
    const seen = contact.profilePicUpdatedAt;
    if (seen && at.getTime() - seen.getTime() < DAY_MS) return contact;
    if (!(await claimContactRefresh(ctx.db, connection.companyId, contact.id, seen, at))) return contact;

    return applyRefresh(connection, contact, pushName);
  };

  /**
   * A reply to the rating prompt of a closed ticket: 1–3 is stored as the rating (and the reply on that
   * ticket), then the completion message goes out, or the comment request when the comment step is on
   * (rating-comment.ts, which also takes the comment itself); any other text drops the rating and is a new
   * conversation. Answers true when the message was handled here.
   */
  const captureRating = async (connection: TConnectionRow, m: TInboundMessage, settings: Map<string, string>) => {
    const companyId = connection.companyId;
    // the rating's comment step comes first: a rating already given waits for this message
    if (await captureComment(ctx, connection, m, now())) return true;
    const awaiting = await findTicketAwaitingRating(ctx.db, {
      companyId,
      connectionId: connection.id,
      number: digits(m.from),
    });
    if (!awaiting) return false;
    const at = now();
    const rate = m.type === 'text' ? parseRating(m.body) : null;
    if (!rate) {
      await abandonRating(ctx.db, companyId, awaiting.tracking.id, at);
      return false;
    }
    const dueAt = commentDueAt(settings, at);
    const rated = await ctx.db.transaction((tx) => claimRating(tx, companyId, awaiting.tracking.id, rate, at, dueAt));
    if (!rated) return false;
    const ticketId = awaiting.ticket.id;
    await storeSurveyReply(ctx, connection, m, awaiting.ticket, at);
    const language = dueAt ? (await companyForInbound(ctx.db, companyId))?.language : null;
    await sendBotTexts(ctx, companyId, ticketId, [afterRatingText(dueAt, language, connection.complationMessage)]);
    await announceTicket(ctx, companyId, ticketId);

    return true;
  };

  const handleMessage = async (m: TInboundMessage) => {
    if (isStatusBroadcast(m)) return;
    const connection = await connectionForInbound(ctx.db, m.connectionId);
    if (!connection) {
      ctx.log.warn({ connectionId: m.connectionId }, 'message for an unknown connection dropped');
      return;
    }
    const companyId = connection.companyId;
    // one read each of the company's settings and of the company for the whole message
    const settings = new Map((await readCompanySettings(ctx.db, companyId)).map((s) => [s.key, s.value]));
    if (m.isGroup && settings.get('CheckMsgIsGroup') === 'enabled') return;
    if (await messageByExternalId(ctx.db, connection.id, m.externalId)) return; // replayed delivery
    // a paused company (past due, issue 13) captures no rating: the reply is stored as any message
    if (
      !m.fromMe &&
      !m.isGroup &&
      (await isCompanyActive(ctx, companyId, now())) &&
      (await captureRating(connection, m, settings))
    ) {
      return;
    }

    const company = await companyForInbound(ctx.db, companyId);
    const stored = await storeInboundMessage(
      ctx,
      { ...m, media: withRetry(m.media, attempts, retryMs) },
      {
        connection,
        replayChecked: true,
        timeZone: company?.timezone,
        reopenWindowMinutes: Number(settings.get('reopenWindowMinutes')) || 0,
      },
    );
    if (!stored?.created) return;
    let contact = stored.contact ?? null;
    if (!m.isGroup && !m.fromMe) {
      contact = await refreshContact(connection, stored.contactId, m.pushName, stored.contact).catch((err) => {
        ctx.log.warn({ err }, 'contact refresh failed');
        return null;
      });
    }
    if (m.fromMe || m.isGroup) return;
    await runAutomation(
      ctx,
      {
        companyId,
        ticketId: stored.ticket.id,
        body: m.body ?? '',
        connection,
        messageId: stored.message.id,
        mediaType: stored.message.mediaType ?? undefined,
        known: { company, settings, contact: contact ?? undefined },
      },
      now(),
    );
  };

  const handleCall = async (call: TCallEvent) => {
    const connection = await connectionForInbound(ctx.db, call.connectionId);
    if (!connection) return;
    const companyId = connection.companyId;
    const externalId = `call:${call.externalId}`.slice(0, 128);
    if (await messageByExternalId(ctx.db, connection.id, externalId)) return;
    const company = await companyForInbound(ctx.db, companyId);
    const lang = asLang(company?.language);
    const timeZone = safeTimeZone(company?.timezone);
    const { contact } = await findOrCreateContact(ctx, {
      companyId,
      connectionId: connection.id,
      number: digits(call.from),
      isGroup: false,
    });
    const reopenWindowMinutes = Number(await readSetting(ctx.db, companyId, 'reopenWindowMinutes')) || 0;
    const found = await findOrCreateTicketForInbound(ctx, {
      companyId,
      connectionId: connection.id,
      contactId: contact.id,
      isGroup: false,
      reopenWindowMinutes,
      isTest: contact.isTest,
    });
    const at = call.timestamp instanceof Date && !Number.isNaN(call.timestamp.getTime()) ? call.timestamp : now();
    const body = missedCallText(lang, call.isVideo, at, timeZone);
    const stored = await insertPipelineMessage(ctx.db, {
      companyId,
      ticketId: found.ticket.id,
      contactId: contact.id,
      whatsappId: connection.id,
      externalId,
      source: 'customer',
      body,
      fromMe: false,
      ack: 3,
      mediaType: 'call_log',
      remoteJid: contact.number,
    });
    if (!stored) return;
    await touchTicketAfterMessage(ctx.db, companyId, found.ticket.id, {
      lastMessage: body,
      at: now(),
      fromMe: false,
      unread: 'increment',
    });
    if (found.created || found.reopened) await announceTicket(ctx, companyId, found.ticket.id, found.previous);
    await announceMessageCreated(ctx, companyId, stored.id);
    if (
      (await readSetting(ctx.db, companyId, 'call')) === 'disabled' &&
      (await isCompanyActive(ctx, companyId, now()))
    ) {
      await sendBotTexts(ctx, companyId, found.ticket.id, [text(lang, 'callsDisabled')]);
    }
  };

  /** a message the batched pipeline stored: the profile refresh it claimed, then the automation chain */
  const afterBatch = async (m: TInboundMessage, stored: Extract<TFastResult, { kind: 'stored' }>) => {
    const { connection, company, settings } = stored;
    let contact: TContactRow = stored.contact;
    if (stored.refresh) {
      contact = await applyRefresh(connection, contact, m.pushName).catch((err) => {
        ctx.log.warn({ err }, 'contact refresh failed');
        return contact;
      });
    }
    if (stored.quiet) return;
    await runAutomation(
      ctx,
      {
        companyId: connection.companyId,
        ticketId: stored.ticketId,
        body: m.body ?? '',
        connection,
        messageId: stored.messageId,
        mediaType: stored.mediaType ?? undefined,
        known: { company, settings, contact },
      },
      now(),
    );
  };

  const receive = async (m: TInboundMessage) => {
    if (isStatusBroadcast(m)) return;
    if (fastPath && isFastPathCandidate(m)) {
      const result = await fastPath.submit(m);
      if (result.kind === 'done') return;
      if (result.kind === 'stored') return afterBatch(m, result);
    }
    await handleMessage(m);
  };

  return {
    onMessage: (m) => queue.run(`${m.connectionId}:${m.from}`, () => receive(m)),
    onMessageUpdate: async (update) => {
      // a campaign's message: its report's delivered / read counts follow the ack, also one applied later
      const followCampaign = (changed: { companyId: number; id: number }) =>
        announceCampaignMessageChange(ctx, changed.companyId, changed.id);
      const changed = await applyMessageUpdate(ctx, update, { onLaterChange: followCampaign });
      if (changed) await followCampaign(changed);
    },
    onCall: (call) => queue.run(`${call.connectionId}:${call.from}`, () => handleCall(call)),
    onContactUpdate: async (update) => {
      const connection = await connectionForInbound(ctx.db, update.connectionId);
      if (!connection) return;
      const contact = await contactOfNumber(ctx.db, connection.companyId, digits(update.number));
      if (!contact) return;
      const patch: { name?: string; profilePicUrl?: string } = {};
      const name = (update.name ?? '').trim().slice(0, 200);
      if (name && name !== contact.name && contact.name === contact.number) patch.name = name;
      if (update.profilePicUrl !== undefined && update.profilePicUrl !== contact.profilePicUrl) {
        patch.profilePicUrl = update.profilePicUrl;
      }
      if (!patch.name && patch.profilePicUrl === undefined) return;
      const updated = await updateContactProfile(ctx.db, connection.companyId, contact.id, patch);
      if (updated) {
        ctx.realtime.toCompany(connection.companyId, events.contact(connection.companyId), {
          action: 'update',
          contact: contactPayload(updated),
        });
      }
    },
  };
};
