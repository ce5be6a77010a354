import type { TPairingBody } from '@zelo/shared';
import { isBaileysSession } from '../../channels/baileys/baileys.driver';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { findConnectionRow } from './connections.repo';

/**
 * POST /whatsappsession/:id/pairing — WhatsApp Web paired by phone-number code instead of QR: the
 * session (started or restarted when it is not waiting for a pairing) asks WhatsApp for a code, which is
 * answered here and shown as status PAIRING with the code in `qrcode` (realtime `whatsappSession`).
 */
export const requestPairingCode = async (ctx: TAppContext, auth: TAuth, id: number, body: TPairingBody) => {
  const row = await findConnectionRow(ctx.db, auth.companyId, id);
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  if (row.provider !== 'baileys') {
    throw new AppError('ERR_CHANNEL_UNSUPPORTED', 'Only WhatsApp Web connections pair by phone number');
  }
  const waiting = ['OPENING', 'qrcode', 'PAIRING'];
  const state = ctx.channels.state(id)?.status;
  if (!isBaileysSession(ctx.channels.local(id)) || !state || !waiting.includes(state)) {
    await ctx.channels.start({ id: row.id, companyId: row.companyId, provider: 'baileys' });
  }
  const session = ctx.channels.local(id);
  if (!isBaileysSession(session)) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The session is not running here');

  return { code: await session.requestPairing(body.phoneNumber) };
};
