import type { TChannelSession } from '../../channels/types';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';

/** the part of the channel registry (`ctx.channels`) that sending needs */
export type TChannelGateway = { session: (connectionId: number) => TChannelSession };

/**
 * The live session of a connection; ERR_WAPP_NOT_INITIALIZED when it is not connected, or when no
 * channel registry is running in this process.
 */
export const channelSession = (ctx: TAppContext, connectionId: number | null): TChannelSession => {
  const gateway = (ctx as { channels?: TChannelGateway }).channels;
  if (!gateway || !connectionId) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'Session not initialized');

  return gateway.session(connectionId);
};
