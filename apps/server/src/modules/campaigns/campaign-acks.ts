import { intArray } from '../../db/pg-arrays';
import { queryRows } from '../../db/statements';
import type { TAppContext } from '../../lib/context';
import { announceProgress } from './dispatch';

/** messages changed in this turn of the event loop, per context: their campaigns are looked up together */
const queues = new WeakMap<object, { companyId: number; id: number }[]>();

const flush = async (ctx: TAppContext) => {
  const batch = queues.get(ctx) ?? [];
  queues.delete(ctx);
  const rows = await queryRows<{ company_id: number; campaign_id: number }>(
    ctx.db,
    `select distinct s.company_id, s.campaign_id from campaign_shippings s
     join unnest($1::int[], $2::int[]) as v(company_id, id) on s.company_id = v.company_id and s.message_row_id = v.id`,
    [intArray(batch.map((m) => m.companyId)), intArray(batch.map((m) => m.id))],
  );
  for (const row of rows) announceProgress(ctx, Number(row.company_id), Number(row.campaign_id));
};

/**
 * A stored message changed (an ack rose, a late failure): when a campaign sent it, the campaign's report counts
 * (delivered = ack ≥ 3, read = ack 4, read from the message row) are told again through the campaign event the
 * report listens to, at most one event per campaign every 500 ms. The messages of one turn (a burst's acks) find
 * their campaigns with one query.
 */
export const announceCampaignMessageChange = async (ctx: TAppContext, companyId: number, messageRowId: number) => {
  let queue = queues.get(ctx);
  if (!queue) {
    queue = [];
    queues.set(ctx, queue);
    setImmediate(() => void flush(ctx).catch((err) => ctx.log.warn({ err }, 'campaign progress not told')));
  }
  queue.push({ companyId, id: messageRowId });
};
