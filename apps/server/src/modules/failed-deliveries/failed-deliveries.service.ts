import type { TFailedDelivery, TFailedDeliveryPage, TFailedDeliveryRetry, TListQuery } from '@zelo/shared';
import { events, rooms } from '@zelo/shared';
import {
  claimFailedDelivery,
  countFailedByCompany,
  deleteFailedDelivery,
  listFailedDeliveries,
} from '../../channels/deliveries.repo';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageWindow } from '../../lib/paging';
import { connectionNames } from './failed-deliveries.repo';

/** The company's dead-letter list (inbound/deliveries/durable.ts): admins read, retry and discard. */

const notFound = () => new AppError('ERR_NO_DELIVERY_FOUND', 'Failed delivery not found');

/** the sender and the start of the text, read from the stored message (never the whole payload) */
const previewOf = (kind: string, payload: string) => {
  if (kind !== 'message') return payload.slice(0, 80);
  try {
    const m = JSON.parse(payload) as { from?: unknown; pushName?: unknown; type?: unknown; body?: unknown };
    const who = [m.pushName, m.from].filter((v) => typeof v === 'string' && v).join(' · ');
    const body = typeof m.body === 'string' && m.body ? m.body : `[${String(m.type ?? '')}]`;

    return `${who}: ${body}`.slice(0, 120);
  } catch {
    return payload.slice(0, 80);
  }
};

export const getFailedDeliveries = async (
  ctx: TAppContext,
  auth: TAuth,
  query: Pick<TListQuery, 'pageNumber'>,
): Promise<TFailedDeliveryPage> => {
  const { rows, count, hasMore } = await listFailedDeliveries(ctx.db, auth.companyId, pageWindow(query.pageNumber));
  const names = await connectionNames(ctx.db, auth.companyId, [...new Set(rows.map((r) => r.whatsappId))]);
  const failedDeliveries = rows.map(
    (r): TFailedDelivery => ({
      id: r.id,
      whatsappId: r.whatsappId,
      whatsappName: names.get(r.whatsappId) ?? null,
      transport: r.transport,
      kind: r.kind as TFailedDelivery['kind'],
      attempts: r.attempts,
      lastError: r.lastError,
      preview: previewOf(r.kind, r.payload),
      receivedAt: r.receivedAt.toISOString(),
      lastAttemptAt: r.lastAttemptAt?.toISOString() ?? null,
    }),
  );

  return { failedDeliveries, count, hasMore };
};

const announce = (ctx: TAppContext, companyId: number, id: number) =>
  ctx.realtime.to(rooms.admins(companyId), events.failedDelivery(companyId), { action: 'delete', id });

/** processes the delivery again now: done (and gone), or back in the list with its new error */
export const retryFailedDelivery = async (ctx: TAppContext, auth: TAuth, id: number): Promise<TFailedDeliveryRetry> => {
  const runner = ctx.deliveries;
  if (!runner) throw new AppError('ERR_INTERNAL_SERVER_ERROR', 'Inbound deliveries are not running');
  const row = await claimFailedDelivery(ctx.db, auth.companyId, id, ctx.config.inboundDeliveries.claimMs);
  if (!row) throw notFound();
  // one more attempt: a failure puts it straight back in the list
  const error = await runner.runClaimed({
    ...row,
    attempts: Math.max(row.attempts, ctx.config.inboundDeliveries.maxAttempts - 1),
  });
  if (!error) announce(ctx, auth.companyId, id);

  return { processed: !error, error };
};

export const discardFailedDelivery = async (ctx: TAppContext, auth: TAuth, id: number) => {
  if (!(await deleteFailedDelivery(ctx.db, auth.companyId, id))) throw notFound();
  announce(ctx, auth.companyId, id);
};

export const getFailedDeliveryCounts = async (ctx: TAppContext) => ({
  companies: (await countFailedByCompany(ctx.db)).map((c) => ({ ...c, count: Number(c.count) })),
});
