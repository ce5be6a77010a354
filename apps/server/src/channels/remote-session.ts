import { isErrorCode } from '@zelo/shared';
import { AppError } from '../http/errors';
import type { TChannelSession } from './types';

/**
 * Calls on a session owned by another node (ARCHITECTURE §7.1). A send made on a node that does not hold
 * the connection's session travels over the cluster bus to the node that does, which runs it and answers
 * the result or the error; the caller sees the same `TChannelSession` either way.
 */

/** the session methods that may run remotely (start/stop/logout go through registry commands) */
export const REMOTE_METHODS = [
  'sendText',
  'sendMedia',
  'sendLocation',
  'sendContact',
  'deleteMessage',
  'editMessage',
  'markRead',
  'checkNumber',
  'profilePicture',
] as const satisfies readonly (keyof TChannelSession)[];
export type TRemoteMethod = (typeof REMOTE_METHODS)[number];

export type TChannelCall = { connectionId: number; method: TRemoteMethod; args: unknown[]; from: string };
/** null from every node that does not hold the session */
export type TChannelReply = { ok: true; value: unknown } | { ok: false; code: string; message: string } | null;

const isRemoteMethod = (method: unknown): method is TRemoteMethod =>
  typeof method === 'string' && (REMOTE_METHODS as readonly string[]).includes(method);

/** a Buffer that crossed the bus may arrive as a Uint8Array or `{type: 'Buffer', data}`: made a Buffer again */
const revive = (value: unknown): unknown => {
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (Array.isArray(value)) return value.map(revive);
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (record.type === 'Buffer' && Array.isArray(record.data)) return Buffer.from(record.data as number[]);

    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, revive(v)]));
  }

  return value;
};

/** the owner's side: runs a call on its connected session, or answers null when it has none */
export const serveCall = async (
  call: TChannelCall,
  connected: (connectionId: number) => TChannelSession | undefined,
): Promise<TChannelReply> => {
  const session = connected(call.connectionId);
  if (!session || !isRemoteMethod(call.method) || !Array.isArray(call.args)) return null;
  try {
    const run = session[call.method] as (...args: unknown[]) => Promise<unknown>;
    const value = await run.apply(session, revive(call.args) as unknown[]);

    return { ok: true, value: value ?? null };
  } catch (err) {
    const code = err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG';

    return { ok: false, code, message: err instanceof Error ? err.message : String(err) };
  }
};

/** the caller's side: a session whose every call is answered by the node that holds it */
export const remoteSession = (
  connectionId: number,
  request: (call: Omit<TChannelCall, 'from'>) => Promise<TChannelReply[]>,
): TChannelSession => {
  const call =
    (method: TRemoteMethod) =>
    async (...args: unknown[]): Promise<never> => {
      let replies: TChannelReply[];
      try {
        replies = await request({ connectionId, method, args });
      } catch {
        throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The node holding this connection did not answer');
      }
      const reply = replies.find((r) => r !== null && r !== undefined);
      if (!reply) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The connection is not connected on any node');
      if (!reply.ok) throw new AppError(isErrorCode(reply.code) ? reply.code : 'ERR_SENDING_WAPP_MSG', reply.message);

      return reply.value as never;
    };
  const notHere = async () => {
    throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The session runs on another node');
  };

  return {
    connectionId,
    provider: 'remote',
    start: notHere,
    stop: notHere,
    logout: notHere,
    sendText: call('sendText'),
    sendMedia: call('sendMedia'),
    sendLocation: call('sendLocation'),
    sendContact: call('sendContact'),
    deleteMessage: call('deleteMessage'),
    editMessage: call('editMessage'),
    markRead: call('markRead'),
    checkNumber: call('checkNumber'),
    profilePicture: call('profilePicture'),
  };
};
