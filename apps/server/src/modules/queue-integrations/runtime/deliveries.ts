import { createHmac, randomUUID } from 'node:crypto';
import type { TIntegrationDeliveryBody } from '@zelo/shared';
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { integrationDeliveries, queueIntegrations } from '../../../db/schema';
import type { TAppContext } from '../../../lib/context';
import { callOut, openSecret } from './io';

/**
 * Signed deliveries to n8n and webhook integrations (issue 14): one row per customer message, sent at once and
 * retried with backoff from the table (durable across restarts; any node's sweep may pick a due one, the claim
 * is one atomic update). Each attempt POSTs the same JSON body with
 * `X-Zelo-Delivery` (the delivery id), `X-Zelo-Timestamp` (unix seconds) and
 * `X-Zelo-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>`; a 2xx answer delivers it.
 */

/** seconds before attempt n+1 (n = attempts made); after the last one the delivery is failed */
export const DELIVERY_BACKOFF_S = [10, 30, 60, 300, 900, 3600, 3 * 3600];
export const DELIVERY_MAX_ATTEMPTS = DELIVERY_BACKOFF_S.length + 1;

export const signDelivery = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

type TRow = typeof integrationDeliveries.$inferSelect;

/** stores a delivery and sends its first attempt in the background */
export const enqueueDelivery = async (
  ctx: TAppContext,
  build: (deliveryId: string) => Omit<TIntegrationDeliveryBody, 'deliveryId'>,
  now = new Date(),
) => {
  const deliveryId = randomUUID();
  const body: TIntegrationDeliveryBody = { ...build(deliveryId), deliveryId } as TIntegrationDeliveryBody;
  const [row] = await ctx.db
    .insert(integrationDeliveries)
    .values({
      companyId: body.companyId,
      integrationId: body.integration.id,
      ticketId: body.ticket.id,
      deliveryId,
      payload: body,
      nextAttemptAt: now,
    })
    .returning();
  void attemptDelivery(ctx, row!.id, now, body.companyId).catch((err) =>
    ctx.log.warn({ err, deliveryId }, 'integration delivery attempt failed'),
  );
  return row!;
};

/** takes the delivery for one attempt when it is due (moving its next attempt out, as a lease) */
const claim = async (ctx: TAppContext, id: number, now: Date) => {
  const rows = await ctx.db
    .update(integrationDeliveries)
    .set({
      attempts: sql`${integrationDeliveries.attempts} + 1`,
      nextAttemptAt: sql`${now.toISOString()}::timestamptz + make_interval(secs => (${sql.raw(
        `(array[${DELIVERY_BACKOFF_S.join(',')}])`,
      )})[least(${integrationDeliveries.attempts} + 1, ${DELIVERY_BACKOFF_S.length})])`,
      updatedAt: now,
    })
    .where(
      and(
        eq(integrationDeliveries.id, id),
        eq(integrationDeliveries.status, 'pending'),
        lte(integrationDeliveries.nextAttemptAt, now),
      ),
    )
    .returning();
  return rows[0] as TRow | undefined;
};

const finish = (ctx: TAppContext, id: number, patch: Partial<TRow>) =>
  ctx.db
    .update(integrationDeliveries)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(integrationDeliveries.id, id));

/**
 * one attempt of a due delivery; answers its status after it (undefined when it was not due, or when its
 * company has used its integration budget for now: the delivery stays due and the sweep takes it again)
 */
export const attemptDelivery = async (ctx: TAppContext, id: number, now = new Date(), companyId?: number) => {
  const owner = companyId ?? (await deliveryCompany(ctx, id));
  if (owner === undefined) return undefined;
  const release = await ctx.budgets.integrations.take(owner, 'refuse').catch(() => undefined);
  if (!release) return undefined;
  try {
    return await attempt(ctx, id, now);
  } finally {
    release();
  }
};

const deliveryCompany = async (ctx: TAppContext, id: number) =>
  (
    await ctx.db
      .select({ companyId: integrationDeliveries.companyId })
      .from(integrationDeliveries)
      .where(eq(integrationDeliveries.id, id))
  )[0]?.companyId;

const attempt = async (ctx: TAppContext, id: number, now: Date) => {
  const row = await claim(ctx, id, now);
  if (!row) return undefined;
  const [integration] = await ctx.db
    .select()
    .from(queueIntegrations)
    .where(and(eq(queueIntegrations.companyId, row.companyId), eq(queueIntegrations.id, row.integrationId)));
  const last = row.attempts >= DELIVERY_MAX_ATTEMPTS;
  if (!integration?.urlN8N) {
    await finish(ctx, id, { status: 'failed', lastError: 'the integration has no URL', nextAttemptAt: null });
    return 'failed';
  }
  const body = JSON.stringify(row.payload);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const secret = integration.webhookSecret ? openSecret(ctx, integration.webhookSecret) : '';
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await callOut(ctx, integration.urlN8N, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Zelo-Webhooks/1',
        'x-zelo-delivery': row.deliveryId,
        'x-zelo-timestamp': timestamp,
        'x-zelo-signature': signDelivery(secret, timestamp, body),
      },
      body,
      timeoutMs: 10_000,
      maxBytes: 64 * 1024,
    });
    status = res.status;
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) {
      await finish(ctx, id, {
        status: 'delivered',
        lastStatus: status,
        lastError: null,
        deliveredAt: new Date(),
        nextAttemptAt: null,
      });
      return 'delivered';
    }
    error = `HTTP ${status}`;
  } catch (err) {
    error = (err as Error).message?.slice(0, 500) || 'no answer';
  }
  await finish(ctx, id, {
    lastStatus: status,
    lastError: error,
    ...(last ? { status: 'failed', nextAttemptAt: null } : {}),
  });
  return last ? 'failed' : 'pending';
};

/** the sweep: every due delivery gets an attempt (one over its company's budget waits for a later sweep) (main.ts runs it every few seconds on each node) */
export const runDueDeliveries = async (ctx: TAppContext, now = new Date(), limit = 50) => {
  const due = await ctx.db
    .select({ id: integrationDeliveries.id, companyId: integrationDeliveries.companyId })
    .from(integrationDeliveries)
    .where(and(eq(integrationDeliveries.status, 'pending'), lte(integrationDeliveries.nextAttemptAt, now)))
    .orderBy(asc(integrationDeliveries.nextAttemptAt))
    .limit(limit);
  // all at once, each within its company's budget: one company's slow receiver holds up no other's
  const attempts = await Promise.all(due.map(({ id, companyId }) => attemptDelivery(ctx, id, now, companyId)));
  return attempts.filter(Boolean).length;
};

export const startDeliverySweep = (ctx: TAppContext, everyMs = 5_000) => {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runDueDeliveries(ctx)
      .catch((err) => ctx.log.warn({ err }, 'integration deliveries sweep failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
};
