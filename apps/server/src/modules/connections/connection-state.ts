import { events } from '@zelo/shared';
import type { TConnectionState } from '../../channels/types';
import type { TAppContext } from '../../lib/context';
import { saveSessionState } from './connections.repo';
import { loadConnection } from './connections.service';

/**
 * The registry's `onState`: what a session reports is stored on its connection (status, qrcode,
 * retries, number, the reason it fails) and announced as `company-{id}-whatsappSession` `{action:'update', session}`.
 */
export const createConnectionStateHandler = (ctx: TAppContext) => async (state: TConnectionState) => {
  const ref = ctx.channels.refOf(state.connectionId);
  if (!ref) return;
  const row = await saveSessionState(ctx.db, ref.companyId, state.connectionId, {
    status: state.status,
    qrcode: state.qrcode ?? '',
    retries: state.retries ?? 0,
    lastError: state.error ?? null,
    phoneNumber: state.phoneNumber,
  });
  if (!row) return; // deleted meanwhile
  const session = await loadConnection(ctx.db, ref.companyId, row.id);
  ctx.realtime.toCompany(ref.companyId, events.whatsappSession(ref.companyId), { action: 'update', session });
};
