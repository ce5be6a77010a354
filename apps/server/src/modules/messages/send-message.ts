import { releaseEarlyUpdates } from './early-updates';
import { KIND_LABEL, mediaPreview } from './preview';
import type { TMessage } from '@zelo/shared';
import { sql } from 'drizzle-orm';
import type { TMedia, TOutboundMedia, TSendResult } from '../../channels/types';
import { messages } from '../../db/schema/messages';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { assertServiceWindow } from '../cloud-api/service-window';
import { findTicketPlain, sendTarget } from '../tickets/tickets.repo';
import { channelSession } from './channel-access';
import { announceMessageCreated, announceMessageUpdated } from './message-announcer';
import {
  cleanFileName,
  MEDIA_LIMITS,
  readMediaFile,
  removeMediaFile,
  resolveType,
  storeMediaFile,
  storeMediaFileLike,
  toVoiceNote,
} from './media';
import { findMessageRow } from './messages.repo';
import { toMessage } from './message-dto';
import {
  findByClientId,
  findMessagePlain,
  insertMessageOnce,
  type TMessageRow,
  touchTicketAfterMessage,
  updateMessageRow,
} from './messages.repo';
import { applyVariables } from './variables';
import { isUniqueViolation } from '../../db/pg-errors';
import { recordAgentReply } from '../reports/metrics.repo';

/** `api`: the external messages API (modules/messages-api) */
export type TSendSource = 'agent' | 'bot' | 'system' | 'api';

export type TSendTextInput = {
  companyId: number;
  ticketId: number;
  body: string;
  source: TSendSource;
  userId?: number | null;
  quotedMessageId?: number | null;
  clientId?: string | null;
  /**
   * the transport's message id (TSendOptions.messageId) for a send a job may repeat after a crash (schedules):
   * a transport that honours it keeps one copy; media sends add the file's index to it
   */
  messageId?: string;
  /** typed by an agent in the conversation (not a greeting, schedule or automation): may be the first response (modules/sla) */
  agentReply?: boolean;
};

export type TSendMediaInput = Omit<TSendTextInput, 'body'> & {
  /** `voiceNote`: already Ogg/Opus (a synthesised reply): sent as a voice note without conversion */
  files: (TMedia & { voiceNote?: boolean })[];
  /** one caption per file, in the same order; missing ones are empty */
  bodies: string[];
};

const loadTarget = async (ctx: TAppContext, companyId: number, ticketId: number) => {
  const target = await sendTarget(ctx.db, companyId, ticketId);
  if (!target) throw new AppError('ERR_NO_TICKET_FOUND');
  const { ticket, contact, company, provider } = target;
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');

  return {
    ticket,
    contact,
    company: company ?? { id: companyId, language: 'pt', timezone: 'America/Sao_Paulo' },
    /** the connection's transport, for assertServiceWindow (read with the ticket) */
    transport: { provider },
  };
};

const dto = async (ctx: TAppContext, companyId: number, id: number): Promise<TMessage> => {
  const row = await findMessageRow(ctx.db, companyId, id);
  if (!row) throw new AppError('ERR_CREATING_MESSAGE');

  return toMessage(ctx.config, row);
};

/** the quoted message must be of the same contact's history in the same company */
const quotedOf = async (ctx: TAppContext, companyId: number, contactId: number, id?: number | null) => {
  if (!id) return null;
  const quoted = await findMessagePlain(ctx.db, companyId, id);
  if (!quoted) return null;
  const ticket = await findTicketPlain(ctx.db, companyId, quoted.ticketId);

  return ticket?.contactId === contactId ? quoted : null;
};

/**
 * The channel's answer reconciled with the stored row: its external id, and an ack that only goes up.
 * If the channel's echo of this very send was already stored as a row of its own, that copy goes.
 */
export const reconcileOne = async (ctx: TAppContext, row: TMessageRow, result: TSendResult) => {
  const patch = {
    externalId: result.externalId,
    ack: sql`greatest(${messages.ack}, ${Math.max(0, Math.min(5, result.ack))})`,
    errorCode: null,
    errorMessage: null,
  } as never;
  try {
    await updateMessageRow(ctx.db, row.companyId, row.id, patch);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    await ctx.db
      .delete(messages)
      .where(
        sql`${messages.whatsappId} = ${row.whatsappId} and ${messages.externalId} = ${result.externalId} and ${messages.id} <> ${row.id}`,
      );
    await updateMessageRow(ctx.db, row.companyId, row.id, patch);
  }
  // what the channel reported on this send before its id was recorded
  releaseEarlyUpdates(ctx, row.whatsappId, [result.externalId]);
};

const markFailed = async (ctx: TAppContext, row: TMessageRow, err: unknown) => {
  const code = err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG';
  const message = err instanceof Error ? err.message : String(err);
  ctx.log.warn({ err, messageId: row.id }, 'send failed');
  await updateMessageRow(ctx.db, row.companyId, row.id, {
    ack: 0,
    errorCode: code,
    errorMessage: message.slice(0, 1000),
  });
};

/**
 * the transport asked at once (a send that throws is a rejected promise); handled here, so its outcome can wait
 * for `deliver` while the stored row's bookkeeping runs
 */
const startSend = (send: () => Promise<TSendResult>) => {
  let sending: Promise<TSendResult>;
  try {
    sending = send();
  } catch (err) {
    sending = Promise.reject(err);
  }
  sending.catch(() => undefined);

  return sending;
};

/**
 * A stored row's send: the transport is asked first, and while it works the ticket is touched and the row announced
 * (`afterStore`); then the send's outcome is reconciled and announced, so the 'update' event still follows the
 * 'create'. The customer's message leaves as soon as its row is stored (a flow step's latency, issue 23 item 5).
 */
const storedThenSent = async (
  ctx: TAppContext,
  row: TMessageRow,
  send: () => Promise<TSendResult>,
  bookkeeping: () => Promise<void>,
) => {
  const sending = startSend(send);
  try {
    await bookkeeping();
  } finally {
    await deliver(ctx, row, () => sending);
  }
};

/** sends a stored row and reconciles it; a failure leaves it failed (ack 0, errorCode) */
const deliver = async (ctx: TAppContext, row: TMessageRow, send: () => Promise<TSendResult>) => {
  try {
    await reconcileOne(ctx, row, await send());
  } catch (err) {
    await markFailed(ctx, row, err);
  }
  await announceMessageUpdated(ctx, row.companyId, row.id);
};

const afterStore = async (
  ctx: TAppContext,
  input: { companyId: number; ticketId: number; source: TSendSource; agentReply?: boolean; userId?: number | null },
  row: TMessageRow,
  lastMessage: string,
  /** the ticket's contact (the row's own): its name goes with the announcement, so the row is not read again */
  contact: { name: string },
) => {
  await touchTicketAfterMessage(ctx.db, input.companyId, input.ticketId, {
    lastMessage,
    at: row.createdAt,
    fromMe: true,
    unread: input.source === 'agent' ? 'reset' : 'keep',
    words: row.body,
    agentReply: input.agentReply === true && input.source === 'agent',
  });
  // attendance metrics: the cycle's first agent reply (nothing changes after the first)
  if (input.source === 'agent') {
    await recordAgentReply(ctx.db, input.companyId, input.ticketId, input.userId ?? null, row.createdAt);
  }
  await announceMessageCreated(ctx, input.companyId, row.id, { message: row, contactName: contact.name });
};

/**
 * Sends a text on a ticket through its connection: stored first (ack 1, pending), then sent, then
 * reconciled with the channel's id and ack; a failed send stays stored as failed (ack 0, errorCode).
 * A repeated clientId answers the message already stored. Variables of spec 1 §9 are applied.
 * Throws ERR_WAPP_NOT_INITIALIZED (nothing stored) when the connection is not connected.
 */
export const sendTicketText = async (ctx: TAppContext, input: TSendTextInput): Promise<TMessage> => {
  const { companyId } = input;
  if (input.clientId) {
    const existing = await findByClientId(ctx.db, companyId, input.clientId);
    if (existing) {
      if (existing.ticketId !== input.ticketId) throw new AppError('ERR_CONFLICT', 'clientId already used');
      return dto(ctx, companyId, existing.id);
    }
  }
  const { ticket, contact, company, transport } = await loadTarget(ctx, companyId, input.ticketId);
  await assertServiceWindow(ctx.db, ticket, transport); // Cloud API: free-form only within 24 h of the customer
  const session = channelSession(ctx, ticket.whatsappId);
  const quoted = await quotedOf(ctx, companyId, ticket.contactId, input.quotedMessageId);
  const body = applyVariables(input.body, {
    contactName: contact.name,
    timeZone: company.timezone,
    language: company.language,
    protocol: ticket.code ?? undefined,
  });
  const row = await insertMessageOnce(ctx.db, {
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    clientId: input.clientId ?? null,
    userId: input.userId ?? null,
    source: input.source,
    body,
    fromMe: true,
    read: true,
    ack: 1,
    quotedMsgId: quoted?.id ?? null,
    remoteJid: contact.number,
  });
  if (!row) {
    // the same clientId stored concurrently
    const again = input.clientId ? await findByClientId(ctx.db, companyId, input.clientId) : null;
    if (!again) throw new AppError('ERR_CREATING_MESSAGE');
    return dto(ctx, companyId, again.id);
  }
  await storedThenSent(
    ctx,
    row,
    () =>
      session.sendText(contact.number, body, {
        quotedExternalId: quoted?.externalId ?? undefined,
        isGroup: ticket.isGroup,
        messageId: input.messageId,
      }),
    () => afterStore(ctx, input, row, body, contact),
  );

  return dto(ctx, companyId, row.id);
};

type TPrepared = {
  data: Buffer;
  mime: string;
  ext: string;
  kind: keyof typeof MEDIA_LIMITS;
  fileName: string;
  caption: string;
  asVoiceNote: boolean;
};

/** a recording made in the browser's composer: its name says so, its content is sound (WebM/MP4 read as video) */
export const isBrowserRecording = (type: { kind: string; ext: string }, fileName?: string) =>
  /audio-record/i.test(fileName ?? '') &&
  (type.kind === 'audio' || (type.kind === 'video' && ['webm', 'mp4'].includes(type.ext)));

/** checks every file (type by content, size by kind) before anything is stored or sent */
export const prepareMedia = async (
  ctx: TAppContext,
  files: (TMedia & { voiceNote?: boolean })[],
  bodies: string[],
): Promise<TPrepared[]> => {
  if (files.length === 0) throw new AppError('ERR_VALIDATION', 'No file', [{ path: 'medias', message: 'required' }]);
  const prepared: TPrepared[] = [];
  for (const [i, file] of files.entries()) {
    const type = resolveType(file.data, file.fileName);
    if (file.data.length === 0) {
      throw new AppError('ERR_VALIDATION', 'Empty file', [{ path: `medias.${i}`, message: 'invalid' }]);
    }
    if (file.data.length > MEDIA_LIMITS[type.kind]) {
      throw new AppError(
        'ERR_PAYLOAD_TOO_LARGE',
        `${cleanFileName(file.fileName, 'file')} is too large for ${type.kind}`,
        [{ path: `medias.${i}`, message: 'tooLarge' }],
      );
    }
    const fileName = cleanFileName(file.fileName, `${KIND_LABEL[type.kind] ?? 'file'}.${type.ext}`);
    const caption = (bodies[i] ?? '').trim() ? (bodies[i] ?? '') : '';
    // a browser recording becomes a voice note when ffmpeg can convert it: MP3 (the ancestor's recorder) or
    // what MediaRecorder writes (WebM or Ogg with Opus in Chromium and Firefox, MP4 in Safari)
    if (file.voiceNote && type.kind === 'audio' && type.ext === 'ogg') {
      prepared.push({
        data: file.data,
        mime: 'audio/ogg; codecs=opus',
        ext: 'ogg',
        kind: 'audio',
        fileName,
        caption: '',
        asVoiceNote: true,
      });
      continue;
    }
    const isRecording = isBrowserRecording(type, file.fileName);
    if (isRecording) {
      const voice = await toVoiceNote(ctx.config, file.data);
      if (voice) {
        prepared.push({
          data: voice,
          mime: 'audio/ogg; codecs=opus',
          ext: 'ogg',
          kind: 'audio',
          fileName: fileName.replace(/\.(mp3|webm|ogg|oga|m4a|mp4)$/i, '') + '.ogg',
          caption: '',
          asVoiceNote: true,
        });
        continue;
      }
      if (type.kind === 'video') {
        // without ffmpeg a WebM/MP4 recording still is sound, not a film
        prepared.push({
          data: file.data,
          mime: type.ext === 'webm' ? 'audio/webm' : 'audio/mp4',
          ext: type.ext === 'webm' ? 'webm' : 'm4a',
          kind: 'audio',
          fileName,
          caption: '',
          asVoiceNote: false,
        });
        continue;
      }
    }
    prepared.push({
      data: file.data,
      mime: type.mime,
      ext: type.ext,
      kind: type.kind,
      fileName,
      caption: type.kind === 'audio' ? '' : caption,
      asVoiceNote: false,
    });
  }

  return prepared;
};

/**
 * Sends files on a ticket, one after the other in the given order, each stored first and reconciled like
 * `sendTicketText`. Files are typed by their content and checked against the size limits before any is sent.
 */
export const sendTicketMedia = async (ctx: TAppContext, input: TSendMediaInput): Promise<TMessage[]> => {
  const { companyId } = input;
  const { ticket, contact, company, transport } = await loadTarget(ctx, companyId, input.ticketId);
  await assertServiceWindow(ctx.db, ticket, transport); // Cloud API: free-form only within 24 h of the customer
  const session = channelSession(ctx, ticket.whatsappId);
  const quoted = await quotedOf(ctx, companyId, ticket.contactId, input.quotedMessageId);
  const prepared = await prepareMedia(ctx, input.files, input.bodies);
  const sent: TMessage[] = [];
  for (const [i, file] of prepared.entries()) {
    const clientId = input.clientId ? `${input.clientId}`.slice(0, 58) + (i ? `#${i}` : '') : null;
    if (clientId) {
      const existing = await findByClientId(ctx.db, companyId, clientId);
      if (existing) {
        sent.push(await dto(ctx, companyId, existing.id));
        continue;
      }
    }
    const caption = applyVariables(file.caption, {
      contactName: contact.name,
      timeZone: company.timezone,
      language: company.language,
      protocol: ticket.code ?? undefined,
    });
    const stored = await storeMediaFile(ctx.config, file.data, file.ext);
    const row = await insertMessageOnce(ctx.db, {
      companyId,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      whatsappId: ticket.whatsappId,
      clientId,
      userId: input.userId ?? null,
      source: input.source,
      body: caption,
      fromMe: true,
      read: true,
      ack: 1,
      mediaType: file.kind,
      mediaUrl: stored,
      mediaName: file.fileName,
      mediaMime: file.mime,
      quotedMsgId: i === 0 ? (quoted?.id ?? null) : null,
      remoteJid: contact.number,
    });
    if (!row) {
      await removeMediaFile(ctx.config, stored);
      continue;
    }
    const media: TOutboundMedia = {
      data: file.data,
      mimetype: file.mime,
      fileName: file.fileName,
      caption: caption || undefined,
      asVoiceNote: file.asVoiceNote,
    };
    await storedThenSent(
      ctx,
      row,
      () =>
        session.sendMedia(contact.number, media, {
          quotedExternalId: i === 0 ? (quoted?.externalId ?? undefined) : undefined,
          isGroup: ticket.isGroup,
          messageId: input.messageId && (i ? `${input.messageId}${i}` : input.messageId),
        }),
      () => afterStore(ctx, input, row, mediaPreview(file.kind, caption, file.fileName), contact),
    );
    sent.push(await dto(ctx, companyId, row.id));
  }

  return sent;
};

/**
 * Sends a failed outbound message again as the same row: its text with its quote, or its stored file. It turns
 * pending (announced), then is reconciled like a first send, or stays failed with the new reason.
 * Throws ERR_WAPP_NOT_INITIALIZED (the row untouched) when the connection is not connected.
 */
export const resendFailedMessage = async (
  ctx: TAppContext,
  row: TMessageRow,
  /** the id the first attempt carried, when a job repeats a send it may have made (schedules) */
  messageId?: string,
): Promise<TMessage> => {
  const { companyId } = row;
  const { ticket, contact, transport } = await loadTarget(ctx, companyId, row.ticketId);
  await assertServiceWindow(ctx.db, ticket, transport); // Cloud API: free-form only within 24 h of the customer
  const session = channelSession(ctx, ticket.whatsappId);
  const quoted = row.quotedMsgId ? await findMessagePlain(ctx.db, companyId, row.quotedMsgId) : null;
  const opts = { quotedExternalId: quoted?.externalId ?? undefined, isGroup: ticket.isGroup, messageId };
  await updateMessageRow(ctx.db, companyId, row.id, { ack: 1, errorCode: null, errorMessage: null });
  await announceMessageUpdated(ctx, companyId, row.id);
  const stored = row.mediaUrl;
  await deliver(ctx, row, async () => {
    if (!stored) return session.sendText(contact.number, row.body, opts);
    const mimetype = row.mediaMime ?? 'application/octet-stream';

    return session.sendMedia(
      contact.number,
      {
        data: await readMediaFile(ctx.config, stored),
        mimetype,
        fileName: row.mediaName ?? undefined,
        caption: row.body || undefined,
        asVoiceNote: mimetype.startsWith('audio/ogg') && /audio-record/i.test(row.mediaName ?? ''),
      },
      opts,
    );
  });

  return dto(ctx, companyId, row.id);
};

export type TOnceInput = {
  companyId: number;
  ticket: { id: number; contactId: number; whatsappId: number | null; isGroup: boolean };
  /** the recipient's number */
  to: string;
  source: 'campaign' | 'schedule' | 'api';
  /** names the stored row: a retry finds it again (unique per company) */
  clientId: string;
  /** the transport's message id (TSendOptions.messageId): a retry sends the same one */
  messageId: string;
  body: string;
  /**
   * a file sent with `body` as its caption; stored with the message as a file of its own. `stored` names the
   * media file the bytes were read from (a campaign's): the message's file then shares its bytes (a hard link)
   * instead of copying them for every recipient.
   */
  media?: { data: Buffer; fileName: string; stored?: string };
};

export type TOnceResult = {
  messageRowId: number;
  /** a row of an earlier attempt was found unfinished: this send may repeat one that already left */
  retried: boolean;
};

/**
 * A send that a job may run again after a crash (campaigns): stored once under `clientId`, then sent carrying
 * `messageId`, then reconciled, like `sendTicketText`. A second run finds the row: already reconciled, it is not
 * sent again; left unfinished, it is sent again with the same message id (transports that honour it keep one
 * copy). A failed send leaves the row failed and throws.
 */
export const sendOnce = async (ctx: TAppContext, input: TOnceInput): Promise<TOnceResult> => {
  const { companyId, ticket } = input;
  const existing = await findByClientId(ctx.db, companyId, input.clientId);
  if (existing?.externalId && existing.ack > 0) return { messageRowId: existing.id, retried: false };
  const session = channelSession(ctx, ticket.whatsappId);
  let file: TPrepared | undefined;
  if (input.media) {
    const { data, fileName } = input.media;
    [file] = await prepareMedia(ctx, [{ data, fileName, mimetype: '' }], [input.body]);
  }
  let row = existing;
  if (!row) {
    const stored = file ? await storeMediaFileLike(ctx.config, file.data, file.ext, input.media?.stored) : null;
    const lastMessage = (file ? mediaPreview(file.kind, file.caption, file.fileName) : input.body) || '';
    // the row and its ticket's last message in one commit
    row = await ctx.db.transaction(async (tx) => {
      const inserted = await insertMessageOnce(tx, {
        companyId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        whatsappId: ticket.whatsappId,
        clientId: input.clientId,
        source: input.source,
        body: file ? file.caption : input.body,
        fromMe: true,
        read: true,
        ack: 1,
        ...(file ? { mediaType: file.kind, mediaUrl: stored, mediaName: file.fileName, mediaMime: file.mime } : {}),
        remoteJid: input.to,
      });
      if (inserted) {
        await touchTicketAfterMessage(tx, companyId, ticket.id, {
          lastMessage,
          at: inserted.createdAt,
          fromMe: true,
          unread: 'keep',
          words: inserted.body,
        });
      }

      return inserted;
    });
    if (!row) {
      // stored concurrently by another run of the same job: that run sends it
      await removeMediaFile(ctx.config, stored);
      const again = await findByClientId(ctx.db, companyId, input.clientId);
      if (!again) throw new AppError('ERR_CREATING_MESSAGE');
      return { messageRowId: again.id, retried: true };
    }
    await announceMessageCreated(ctx, companyId, row.id);
  } else {
    await updateMessageRow(ctx.db, companyId, row.id, { ack: 1, errorCode: null, errorMessage: null });
  }
  const target = row;
  const opts = { isGroup: ticket.isGroup, messageId: input.messageId };
  try {
    const result = file
      ? await session.sendMedia(
          input.to,
          { data: file.data, mimetype: file.mime, fileName: file.fileName, caption: file.caption || undefined },
          opts,
        )
      : await session.sendText(input.to, target.body, opts);
    await reconcileOne(ctx, target, result);
  } catch (err) {
    await markFailed(ctx, target, err);
    await announceMessageUpdated(ctx, companyId, target.id);
    throw err;
  }
  await announceMessageUpdated(ctx, companyId, target.id);

  return { messageRowId: target.id, retried: Boolean(existing) };
};
