import type { TJobDefinition } from '../../jobs/boss';
import type { TAppContext } from '../../lib/context';
import { campaignTick, dispatchShipping, SEND_JOB, type TSendJob } from './dispatch';

/**
 * The campaign jobs: one `campaign-send` per recipient (fetched 50 at a time, 8 running at once, polled every
 * half second so a send leaves close to its planned time), and the minute tick as a schedule across nodes (each
 * node also ticks every few seconds, main.ts `startCampaignTicker`).
 */
export const campaignJobs = (ctx: TAppContext): TJobDefinition[] => [
  {
    name: SEND_JOB,
    handler: async (data) => void (await dispatchShipping(ctx, data as TSendJob)),
    work: { batchSize: 50, pollingIntervalSeconds: 0.5, concurrency: 8 },
  },
  {
    name: 'campaign-tick',
    cron: '* * * * *',
    handler: async () => void (await campaignTick(ctx, { graceMs: 15_000 })),
  },
];
