import { events, rooms, type TSandboxEvent, type TSandboxInboundBody } from '@zelo/shared';
import { isSandboxSession, type TSandboxSession } from '../../channels/sandbox/sandbox.driver';
import type { TConnectionRef, TMedia } from '../../channels/types';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import type { TRealtime } from '../../realtime/realtime';
import { findConnectionRow } from '../connections/connections.repo';
import { checkMedia, decodeBase64, needsMedia } from './media-check';

/**
 * The customer simulator: plays customers on the far side of a sandbox connection of the caller's
 * company. Another company's connection, or one on another transport, is "not found".
 */

const simulatorOf = async (ctx: TAppContext, auth: TAuth, connectionId: number): Promise<TSandboxSession> => {
  // a session running here carries its connection's company and provider (read when it started)
  const ref = ctx.channels.refOf(connectionId);
  const row = ref ?? (await findConnectionRow(ctx.db, auth.companyId, connectionId));
  if (!row || row.companyId !== auth.companyId || row.provider !== 'sandbox') throw new AppError('ERR_NO_WAPP_FOUND');
  const session = ctx.channels.local(connectionId);
  if (isSandboxSession(session)) return session;
  // held by another node of the cluster: its simulator is reached over the bus, as sends are
  if (!session && !ctx.channels.refOf(connectionId)) {
    try {
      const remote = ctx.channels.session(connectionId) as Partial<TSandboxSession>;
      if (remote.simulator) return remote as TSandboxSession;
    } catch {
      // no node holds it connected: as below
    }
  }
  throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The sandbox session is not running; start it first');
};

export const scanQr = async (
  ctx: TAppContext,
  auth: TAuth,
  connectionId: number,
  body: { qrcode?: string; phoneNumber?: string },
) => {
  const session = await simulatorOf(ctx, auth, connectionId);
  const { phoneNumber } = await session.simulator.scan(body);

  return { status: session.simulator.status(), phoneNumber };
};

const need = (path: string) => new AppError('ERR_VALIDATION', `${path} is required`, [{ path, message: 'required' }]);

export type TInboundRequest = Omit<TSandboxInboundBody, 'media'> & {
  media?: { data: string | Buffer; mimetype?: string; fileName?: string };
};

export const deliverInbound = async (ctx: TAppContext, auth: TAuth, connectionId: number, body: TInboundRequest) => {
  const session = await simulatorOf(ctx, auth, connectionId);
  let media: TMedia | undefined;
  if (needsMedia(body.type)) {
    if (!body.media) throw need('media');
    const data = typeof body.media.data === 'string' ? decodeBase64(body.media.data) : body.media.data;
    media = checkMedia(body.type, data, body.media.mimetype, body.media.fileName);
  } else if (body.media) {
    throw new AppError('ERR_VALIDATION', `A ${body.type} message carries no media`, [
      { path: 'media', message: 'invalid' },
    ]);
  }
  if (body.type === 'location' && !body.location) throw need('location');
  if (body.type === 'vcard' && !body.vcard?.trim()) throw need('vcard');
  if ((body.type === 'text' || body.type === 'reaction') && body.body.trim() === '') throw need('body');
  if (body.type === 'reaction' && !body.quotedExternalId) throw need('quotedExternalId');

  return session.simulator.inbound({
    from: body.from,
    name: body.name,
    avatarUrl: body.avatarUrl,
    type: body.type,
    body: body.body,
    externalId: body.externalId,
    media,
    location: body.location,
    vcard: body.vcard,
    quotedExternalId: body.quotedExternalId,
    fromMe: body.fromMe,
    group: body.group,
  });
};

export const customerOutbox = async (
  ctx: TAppContext,
  auth: TAuth,
  connectionId: number,
  query: { to?: string; limit: number },
) => {
  const session = await simulatorOf(ctx, auth, connectionId);

  const [messages, readByBusiness] = await Promise.all([
    session.simulator.outbox(query.to, query.limit),
    query.to ? session.simulator.readByBusiness(query.to) : [],
  ]);

  return { messages, readByBusiness };
};

export const customerReads = async (
  ctx: TAppContext,
  auth: TAuth,
  connectionId: number,
  body: { to: string; externalIds?: string[] },
) => {
  const session = await simulatorOf(ctx, auth, connectionId);

  return { read: await session.simulator.read(body.to, body.externalIds) };
};

export const customerEdits = async (
  ctx: TAppContext,
  auth: TAuth,
  connectionId: number,
  body: { from: string; externalId: string; body: string },
) => {
  const session = await simulatorOf(ctx, auth, connectionId);
  await session.simulator.edit(body.from, body.externalId, body.body);

  return { externalId: body.externalId };
};

export const customerDeletes = async (
  ctx: TAppContext,
  auth: TAuth,
  connectionId: number,
  body: { from: string; externalId: string },
) => {
  const session = await simulatorOf(ctx, auth, connectionId);
  await session.simulator.remove(body.from, body.externalId);

  return { externalId: body.externalId };
};

export const customerCalls = async (
  ctx: TAppContext,
  auth: TAuth,
  connectionId: number,
  body: { from: string; isVideo: boolean },
) => {
  const session = await simulatorOf(ctx, auth, connectionId);

  return session.simulator.call(body.from, body.isVideo);
};

/** the sandbox driver's view for the simulator page: `company-{id}-sandbox` to the company's admins */
export const sandboxAnnouncer = (realtime: () => TRealtime) => (connection: TConnectionRef, event: TSandboxEvent) =>
  realtime().to(rooms.admins(connection.companyId), events.sandbox(connection.companyId), event);
