import { EventEmitter } from 'node:events';
import type { TAuthState, TBaileysEvents, TBaileysKit, TBaileysSocket, TWAMessage } from '../baileys.types';

/**
 * A socket that does nothing by itself: a test replays recorded Baileys events on it (`emit`), in the
 * order Baileys emits them, and reads what the driver asked of it. Every makeSocket call gives a new one,
 * kept in `sockets` (a reconnection is a new socket, as with Baileys).
 */

export type TReplaySocket = TBaileysSocket & {
  emit: <E extends keyof TBaileysEvents>(event: E, arg: TBaileysEvents[E]) => void;
  auth: TAuthState;
  ended: boolean;
  sent: { jid: string; content: Record<string, unknown>; options?: Record<string, unknown> }[];
  pairingRequests: string[];
  read: unknown[][];
  groupQueries: string[];
  options: Parameters<TBaileysKit['makeSocket']>[0];
};

export type TReplay = { kit: TBaileysKit; sockets: TReplaySocket[]; latest: () => TReplaySocket };

export const createReplay = (
  real: Pick<TBaileysKit, 'initAuthCreds' | 'BufferJSON' | 'appStateSyncKey'>,
  opts: { pairingCode?: () => Promise<string> } = {},
): TReplay => {
  const sockets: TReplaySocket[] = [];
  let sentSeq = 0;
  const makeSocket = (options: Parameters<TBaileysKit['makeSocket']>[0]) => {
    const auth: TAuthState = options.auth;
    const emitter = new EventEmitter();
    const sock: TReplaySocket = {
      auth,
      options,
      ended: false,
      sent: [],
      pairingRequests: [],
      read: [],
      groupQueries: [],
      ev: {
        on: (event, listener) => void emitter.on(event, listener as (arg: unknown) => void),
        removeAllListeners: (event) => void emitter.removeAllListeners(event),
      },
      emit: (event, arg) => void emitter.emit(event, arg),
      user: undefined,
      sendMessage: async (jid, content, options) => {
        sock.sent.push({ jid, content, options });
        const message: TWAMessage = {
          key: {
            remoteJid: jid,
            fromMe: true,
            id:
              typeof options?.messageId === 'string'
                ? options.messageId
                : `3EB0REPLAY${String(++sentSeq).padStart(10, '0')}`,
          },
          message: content,
          status: 1,
        };
        return message;
      },
      onWhatsApp: async (...jids) => jids.map((jid) => ({ jid, exists: true })),
      profilePictureUrl: async () => undefined,
      readMessages: async (keys) => void sock.read.push(keys),
      requestPairingCode: async (phone) => {
        sock.pairingRequests.push(phone);
        // as Baileys does: the number becomes `me` at once
        auth.creds.me = { id: `${phone}@s.whatsapp.net` };
        emitter.emit('creds.update', { me: auth.creds.me });
        return opts.pairingCode ? opts.pairingCode() : 'ABCD1234';
      },
      groupMetadata: async (jid) => {
        sock.groupQueries.push(jid);
        return { id: jid, subject: 'Equipe Vendas' };
      },
      logout: async () => undefined,
      end: () => {
        sock.ended = true;
      },
    };
    sockets.push(sock);

    return sock;
  };

  return {
    kit: {
      ...real,
      makeSocket,
      downloadMedia: async () => {
        throw new Error('no media in a replay');
      },
    },
    sockets,
    latest: () => {
      const sock = sockets.at(-1);
      if (!sock) throw new Error('no socket yet');
      return sock;
    },
  };
};
