import { AppError } from '../../http/errors';
import type { TChannelSession, TSendOptions, TSendResult } from '../types';
import type { TDbAuthState } from './auth-state';
import type { TBaileysSocket, TWAMessage } from './baileys.types';
import { isLidJid, numberOf, toJid, userPart } from './jid';
import { contactContent, locationContent, mediaContent } from './outbound';
import type { TRecentKeys } from './recent-keys';

/**
 * What a connected Baileys session sends and asks: messages (numbers checked to be accounts once an
 * hour), quotes, edits, deletes for everyone, read receipts, number checks and profile pictures. Every
 * failure is an AppError of the catalogue; nothing is sent while the session is not connected.
 */

const NUMBER_CHECK_MS = 60 * 60 * 1000;

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

export type TSenderDeps = {
  /** the socket when the session is CONNECTED; throws ERR_WAPP_NOT_INITIALIZED otherwise */
  connected: () => TBaileysSocket;
  recent: TRecentKeys;
  auth: () => TDbAuthState | undefined;
};

export type TSender = Pick<
  TChannelSession,
  | 'sendText'
  | 'sendMedia'
  | 'sendLocation'
  | 'sendContact'
  | 'editMessage'
  | 'deleteMessage'
  | 'markRead'
  | 'checkNumber'
  | 'profilePicture'
>;

export const createSender = ({ connected, recent, auth }: TSenderDeps): TSender => {
  const checked = new Map<string, { jid: string | null; at: number }>();

  /** the account's jid of a number (WhatsApp may answer another form of it), or null when it has none */
  const lookup = async (sock: TBaileysSocket, to: string) => {
    const number = to.replace(/\D/g, '');
    const cached = checked.get(number);
    if (cached && Date.now() - cached.at < NUMBER_CHECK_MS) return cached.jid;
    let found: { exists: boolean; jid: string; lid?: string }[] | undefined;
    try {
      found = await sock.onWhatsApp(`${number}@s.whatsapp.net`);
    } catch (err) {
      throw new AppError('ERR_WAPP_CHECK_CONTACT', reason(err));
    }
    const hit = found?.find((r) => r.exists);
    const jid = hit ? hit.jid : null;
    checked.set(number, { jid, at: Date.now() });
    const state = auth();
    if (hit?.lid && isLidJid(hit.lid) && state) {
      await state.rememberLid(userPart(hit.lid), numberOf(hit.jid)).catch(() => undefined);
    }

    return jid;
  };

  /** the jid of a person (checked to be an account) or of a group */
  const recipient = async (sock: TBaileysSocket, to: string, isGroup?: boolean) => {
    if (isGroup) return toJid(to, true);
    const jid = await lookup(sock, to);
    if (!jid) throw new AppError('ERR_WAPP_INVALID_CONTACT', 'This number is not a WhatsApp account');
    return jid;
  };

  /** Baileys quotes a message by its key and content: the known ones, else an empty text of that id */
  const quoteOf = (jid: string, externalId?: string) => {
    if (!externalId) return undefined;
    const known = recent.get(externalId);
    const key = known ?? { remoteJid: jid, id: externalId, fromMe: false };

    return {
      key: {
        remoteJid: key.remoteJid ?? jid,
        id: externalId,
        fromMe: Boolean(key.fromMe),
        participant: key.participant ?? undefined,
      },
      message: known?.message ?? { conversation: '' },
    };
  };

  const send = async (
    to: string,
    content: Record<string, unknown>,
    options: TSendOptions = {},
  ): Promise<TSendResult> => {
    const sock = connected();
    const jid = await recipient(sock, to, options.isGroup);
    let sent: TWAMessage | undefined;
    try {
      sent = await sock.sendMessage(jid, content, {
        quoted: quoteOf(jid, options.quotedExternalId),
        // the sender's own id: a retried send carries the same one and WhatsApp keeps one copy
        ...(options.messageId ? { messageId: options.messageId } : {}),
      });
    } catch (err) {
      throw new AppError('ERR_SENDING_WAPP_MSG', reason(err));
    }
    const id = sent?.key?.id;
    if (!sent || !id) throw new AppError('ERR_SENDING_WAPP_MSG', 'WhatsApp gave the message no id');
    recent.remember(sent.key, sent.message);
    recent.markSent(id);

    return { externalId: id, ack: typeof sent.status === 'number' && sent.status > 0 ? sent.status : 1 };
  };

  return {
    sendText: (to, body, options) => send(to, { text: body }, options),
    sendMedia: async (to, media, options) => send(to, await mediaContent(media), options),
    sendLocation: (to, location, options) => send(to, locationContent(location), options),
    sendContact: (to, vcard, options) => send(to, contactContent(vcard), options),
    editMessage: async (to, externalId, body, options) => {
      const sock = connected();
      const jid = toJid(to, options?.isGroup);
      try {
        await sock.sendMessage(jid, { text: body, edit: { remoteJid: jid, fromMe: true, id: externalId } });
      } catch (err) {
        throw new AppError('ERR_SENDING_WAPP_MSG', reason(err));
      }
    },
    deleteMessage: async (to, externalId, options) => {
      const sock = connected();
      const jid = toJid(to, options?.isGroup);
      const known = recent.get(externalId);
      try {
        await sock.sendMessage(jid, {
          delete: {
            remoteJid: jid,
            fromMe: options?.fromMe ?? true,
            id: externalId,
            participant: known?.participant ?? undefined,
          },
        });
      } catch (err) {
        throw new AppError('ERR_DELETE_WAPP_MSG', reason(err));
      }
    },
    markRead: async (from, externalIds, options) => {
      const sock = connected();
      const jid = toJid(from, options?.isGroup);
      const keys = externalIds.map((id) => ({
        remoteJid: jid,
        id,
        fromMe: false,
        participant: recent.get(id)?.participant ?? undefined,
      }));
      await sock.readMessages(keys);
    },
    checkNumber: async (number) => {
      const jid = await lookup(connected(), number);
      return jid ? numberOf(jid) : null;
    },
    profilePicture: async (number) => {
      try {
        return (await connected().profilePictureUrl(toJid(number), 'image')) ?? null;
      } catch {
        return null;
      }
    },
  };
};
