import { isErrorCode } from '@zelo/shared';
import { AppError } from '../http/errors';
import type { TSandboxSimulator } from './sandbox/sandbox.driver';
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

/**
 * The customer simulator's calls on a sandbox session held by another node (`simulator.<name>` on the bus): a
 * simulated customer's message posted to any node reaches the session, as a send does (issue 22 B.19).
 */
export const SIMULATOR_METHODS = ['inbound', 'outbox', 'read', 'edit', 'remove', 'call', 'readByBusiness'] as const;
type TSimulatorMethod = (typeof SIMULATOR_METHODS)[number];
type TSimulatorCall = `simulator.${TSimulatorMethod}`;

export type TChannelCall = {
  connectionId: number;
  method: TRemoteMethod | TSimulatorCall;
  args: unknown[];
  from: string;
};
/** null from every node that does not hold the session */
export type TChannelReply = { ok: true; value: unknown } | { ok: false; code: string; message: string } | null;

const isRemoteMethod = (method: unknown): method is TRemoteMethod =>
  typeof method === 'string' && (REMOTE_METHODS as readonly string[]).includes(method);

const simulatorMethodOf = (method: unknown): TSimulatorMethod | undefined => {
  const name = typeof method === 'string' && method.startsWith('simulator.') ? method.slice(10) : '';

  return (SIMULATOR_METHODS as readonly string[]).includes(name) ? (name as TSimulatorMethod) : undefined;
};

/** the method a call names, bound to the session it runs on (a simulator's for `simulator.<name>`) */
const runnerOf = (session: TChannelSession, method: unknown) => {
  const simulated = simulatorMethodOf(method);
  if (simulated) {
    const simulator = (session as { simulator?: Record<TSimulatorMethod, (...args: unknown[]) => Promise<unknown>> })
      .simulator;
    return simulator ? (...args: unknown[]) => simulator[simulated](...args) : undefined;
  }
  if (!isRemoteMethod(method)) return undefined;
  const run = session[method] as (...args: unknown[]) => Promise<unknown>;

  return (...args: unknown[]) => run.apply(session, args);
};

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
  const run = session && Array.isArray(call.args) ? runnerOf(session, call.method) : undefined;
  if (!run) return null;
  try {
    const value = await run(...(revive(call.args) as unknown[]));

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
): TChannelSession & { simulator: TSandboxSimulator } => {
  const call =
    (method: TRemoteMethod | TSimulatorCall) =>
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
    /** a sandbox connection's simulator, on the node that holds it (connected there, or no node answers) */
    simulator: {
      status: () => 'CONNECTED' as const,
      qrcode: () => '',
      phoneNumber: () => '',
      scan: notHere,
      inbound: call('simulator.inbound'),
      outbox: call('simulator.outbox'),
      read: call('simulator.read'),
      edit: call('simulator.edit'),
      remove: call('simulator.remove'),
      call: call('simulator.call'),
      readByBusiness: call('simulator.readByBusiness'),
    },
  };
};
