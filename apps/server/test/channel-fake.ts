import type { TChannelSession, TOutboundMedia, TSendOptions } from '../src/channels/types';
import { AppError } from '../src/http/errors';
import type { TTestServer } from './harness';

/**
 * A fake transport at the channel boundary: sessions that record what they were asked to send and answer
 * channel ids, for the connections a test marks connected. Everything above the channel layer is real.
 */
export type TFakeSend = {
  connectionId: number;
  op: 'text' | 'media' | 'delete' | 'edit' | 'read';
  to: string;
  body?: string;
  media?: TOutboundMedia;
  opts?: TSendOptions | Record<string, unknown>;
  externalId?: string;
  externalIds?: string[];
};

export const installFakeChannels = (server: TTestServer) => {
  const sent: TFakeSend[] = [];
  const connected = new Set<number>();
  let seq = 0;
  let failures = 0;
  /** run with the channel id of the next text send before that send answers */
  let beforeAnswer: ((externalId: string) => Promise<void>) | null = null;
  const fail = () => {
    if (failures > 0) {
      failures -= 1;
      throw new AppError('ERR_SENDING_WAPP_MSG', 'transport down');
    }
  };
  const sessionOf = (connectionId: number): TChannelSession => ({
    connectionId,
    provider: 'sandbox',
    start: async () => undefined,
    stop: async () => undefined,
    logout: async () => undefined,
    sendText: async (to, body, opts) => {
      fail();
      seq += 1;
      const externalId = `fake-${connectionId}-${seq}`;
      sent.push({ connectionId, op: 'text', to, body, opts, externalId });
      const hook = beforeAnswer;
      beforeAnswer = null;
      await hook?.(externalId);
      return { externalId, ack: 2 };
    },
    sendMedia: async (to, media, opts) => {
      fail();
      seq += 1;
      const externalId = `fake-${connectionId}-${seq}`;
      sent.push({ connectionId, op: 'media', to, media, body: media.caption, opts, externalId });
      return { externalId, ack: 2 };
    },
    sendLocation: async () => ({ externalId: `loc-${++seq}`, ack: 2 }),
    sendContact: async () => ({ externalId: `vc-${++seq}`, ack: 2 }),
    deleteMessage: async (to, externalId, opts) => {
      sent.push({ connectionId, op: 'delete', to, externalId, opts });
    },
    editMessage: async (to, externalId, body, opts) => {
      sent.push({ connectionId, op: 'edit', to, externalId, body, opts });
    },
    markRead: async (to, externalIds, opts) => {
      sent.push({ connectionId, op: 'read', to, externalIds, opts });
    },
    checkNumber: async (n) => n,
    profilePicture: async () => null,
  });
  const ctx = server.ctx as unknown as { channels?: Record<string, unknown> };
  const original = ctx.channels ?? {};
  ctx.channels = {
    ...original,
    session: (connectionId: number) => {
      if (!connected.has(connectionId)) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'Session not initialized');
      return sessionOf(connectionId);
    },
  };

  return {
    sent,
    connect: (id: number) => connected.add(id),
    disconnect: (id: number) => connected.delete(id),
    /** the next n sends throw */
    failNext: (n = 1) => {
      failures = n;
    },
    /** the next text send runs `hook` with its channel id before it answers (a channel reporting on it early) */
    beforeNextAnswer: (hook: (externalId: string) => Promise<void>) => {
      beforeAnswer = hook;
    },
    texts: (to?: string) => sent.filter((s) => s.op === 'text' && (!to || s.to === to)).map((s) => s.body ?? ''),
  };
};
