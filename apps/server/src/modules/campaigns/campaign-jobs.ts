import type { TJobDefinition } from '../../jobs/boss';
import type { TAppContext } from '../../lib/context';
import { campaignTick, dispatchShipping, SEND_JOB, type TSendJob } from './dispatch';

/**
 * The campaign jobs: the minute tick as a schedule across nodes (each node also ticks every few seconds, main.ts
 * `startCampaignTicker`, and sends through its own campaign sender, `createCampaignSender`). `campaign-send` (one
 * job per recipient) is no longer added; its worker stays for the jobs a database still holds from before, which
 * claim their recipient like any send (a recipient already sent is skipped).
 */
export const campaignJobs = (ctx: TAppContext): TJobDefinition[] => [
  {
    name: SEND_JOB,
    handler: async (data) => void (await dispatchShipping(ctx, data as TSendJob)),
    work: { batchSize: 50, pollingIntervalSeconds: 5, concurrency: 4 },
  },
  {
    name: 'campaign-tick',
    cron: '* * * * *',
    handler: async () => void (await campaignTick(ctx, { graceMs: 15_000 })),
  },
];
