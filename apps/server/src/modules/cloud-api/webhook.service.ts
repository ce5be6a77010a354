import { timingSafeEqual } from 'node:crypto';
import { createCloudApiConfigSource, type TCloudApiSettings } from '../../channels/cloud-api/config';
import { isCloudApiSession } from '../../channels/cloud-api/cloud-api.driver';
import { createWebhookInbox } from '../../channels/cloud-api/inbox';
import { isValidSignature } from '../../channels/cloud-api/signature';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';

/**
 * The Cloud API webhook of one connection (STYLE §7): the GET verification handshake, and POSTs checked
 * against the X-Hub-Signature-256 of their raw body, stored, acknowledged, then handed to the connection's
 * session (here, or on the node that owns it, which polls). Nothing is parsed before the signature holds.
 */

export type TWebhookService = ReturnType<typeof createWebhookService>;

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);

  return left.length === right.length && timingSafeEqual(left, right);
};

export const createWebhookService = (ctx: TAppContext) => {
  const configSource = createCloudApiConfigSource(ctx.db);
  const inbox = createWebhookInbox(ctx.db);

  /** the running session's settings when it is here, else the stored ones; 404 for anything else */
  const settingsOf = async (connectionId: number): Promise<TCloudApiSettings> => {
    const session = ctx.channels.local(connectionId);
    const running = isCloudApiSession(session) ? session.settings() : undefined;
    if (running) return running;
    const stored = await configSource(connectionId);
    if (!stored || 'error' in stored) throw new AppError('ERR_NO_WAPP_FOUND');

    return stored;
  };

  return {
    /** hub.mode=subscribe with the connection's verify token: the challenge goes back */
    verify: async (connectionId: number, query: { mode?: string; token?: string; challenge?: string }) => {
      const { config } = await settingsOf(connectionId);
      if (query.mode !== 'subscribe' || !query.token || !sameText(query.token, config.verifyToken)) {
        throw new AppError('ERR_WEBHOOK_SIGNATURE', 'Verification token mismatch', undefined, 403);
      }

      return query.challenge ?? '';
    },
    receive: async (connectionId: number, raw: unknown, signature: string | string[] | undefined) => {
      const { config } = await settingsOf(connectionId);
      if (!Buffer.isBuffer(raw) || !isValidSignature(raw, signature, config.appSecret)) {
        throw new AppError('ERR_WEBHOOK_SIGNATURE', 'Invalid or missing X-Hub-Signature-256');
      }
      const text = raw.toString('utf8');
      try {
        JSON.parse(text);
      } catch {
        throw new AppError('ERR_VALIDATION', 'The webhook body is not JSON', [{ path: 'body', message: 'invalid' }]);
      }
      await inbox.add(connectionId, text);
      const session = ctx.channels.local(connectionId);
      if (isCloudApiSession(session)) void session.drain();
    },
  };
};
