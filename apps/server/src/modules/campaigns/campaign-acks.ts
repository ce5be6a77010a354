import type { TAppContext } from '../../lib/context';
import { campaignOfMessage } from './campaigns.repo';
import { announceProgress } from './dispatch';

/**
 * A stored message changed (an ack rose, a late failure): when a campaign sent it, the campaign's report counts
 * (delivered = ack ≥ 3, read = ack 4, read from the message row) are told again through the campaign event the
 * report listens to, at most one event per campaign every 500 ms.
 */
export const announceCampaignMessageChange = async (ctx: TAppContext, companyId: number, messageRowId: number) => {
  const campaignId = await campaignOfMessage(ctx.db, companyId, messageRowId);
  if (campaignId !== null) announceProgress(ctx, companyId, campaignId);
};
