import { and, asc, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { flowBuilders, prompts, queueIntegrations } from '../../db/schema/automation';
import { whatsappQueues, whatsapps } from '../../db/schema/connections';
import { queues } from '../../db/schema/queues';
import { ticketTrackings, tickets } from '../../db/schema/tickets';

export type TConnectionRow = typeof whatsapps.$inferSelect;
export type TConnectionInsert = typeof whatsapps.$inferInsert;

export const listConnectionRows = (db: TDbOrTx, companyId: number) =>
  db.select().from(whatsapps).where(eq(whatsapps.companyId, companyId)).orderBy(asc(whatsapps.name), asc(whatsapps.id));

export const findConnectionRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)))
  )[0];

/** the row locked for the rest of the transaction */
export const lockConnectionRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)))
      .for('update')
  )[0];

export const queuesOfConnections = async (db: TDbOrTx, companyId: number, connectionIds: number[]) => {
  if (connectionIds.length === 0) return [];

  return db
    .select({ whatsappId: whatsappQueues.whatsappId, id: queues.id, name: queues.name, color: queues.color })
    .from(whatsappQueues)
    .innerJoin(queues, and(eq(queues.id, whatsappQueues.queueId), eq(queues.companyId, whatsappQueues.companyId)))
    .where(and(eq(whatsappQueues.companyId, companyId), inArray(whatsappQueues.whatsappId, connectionIds)))
    .orderBy(asc(queues.orderQueue), asc(queues.name), asc(queues.id));
};

export const countConnections = async (db: TDbOrTx, companyId: number) =>
  (await db.select({ n: count() }).from(whatsapps).where(eq(whatsapps.companyId, companyId)))[0].n;

export const nameTaken = async (db: TDbOrTx, companyId: number, name: string, exceptId?: number) => {
  const same = and(eq(whatsapps.companyId, companyId), sql`lower(${whatsapps.name}) = ${name.toLowerCase()}`);
  const [row] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(exceptId ? and(same, ne(whatsapps.id, exceptId)) : same)
    .limit(1);

  return !!row;
};

/** connection tokens are globally unique (they identify the connection on the external API): by their hash */
export const tokenTaken = async (db: TDbOrTx, tokenHash: string, exceptId?: number) => {
  const same = eq(whatsapps.tokenHash, tokenHash);
  const [row] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(exceptId ? and(same, ne(whatsapps.id, exceptId)) : same)
    .limit(1);

  return !!row;
};

export const countCompanyQueues = async (db: TDbOrTx, companyId: number, ids: number[]) =>
  ids.length === 0
    ? 0
    : (
        await db
          .select({ n: count() })
          .from(queues)
          .where(and(eq(queues.companyId, companyId), inArray(queues.id, ids)))
      )[0].n;

export const promptOfCompany = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: prompts.id })
      .from(prompts)
      .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)))
  )[0];

export const flowOfCompany = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: flowBuilders.id })
      .from(flowBuilders)
      .where(and(eq(flowBuilders.companyId, companyId), eq(flowBuilders.id, id)))
  )[0];

export const integrationOfCompany = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: queueIntegrations.id })
      .from(queueIntegrations)
      .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id)))
  )[0];

export const insertConnectionRow = async (db: TDbOrTx, values: TConnectionInsert) =>
  (await db.insert(whatsapps).values(values).returning())[0];

export const updateConnectionRow = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  patch: Partial<TConnectionInsert>,
) =>
  (
    await db
      .update(whatsapps)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)))
      .returning()
  )[0];

/** clears the default flag of every other connection of the company; answers the ids that changed */
export const unsetOtherDefaults = async (db: TDbOrTx, companyId: number, keepId: number) =>
  (
    await db
      .update(whatsapps)
      .set({ isDefault: false, updatedAt: new Date() })
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true), ne(whatsapps.id, keepId)))
      .returning({ id: whatsapps.id })
  ).map((r) => r.id);

/** the company's oldest connection other than `exceptId` (the next default) */
export const firstOtherConnection = async (db: TDbOrTx, companyId: number, exceptId: number) =>
  (
    await db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), ne(whatsapps.id, exceptId)))
      .orderBy(asc(whatsapps.id))
      .limit(1)
  )[0];

export const replaceConnectionQueues = async (db: TDbOrTx, companyId: number, id: number, queueIds: number[]) => {
  await db
    .delete(whatsappQueues)
    .where(and(eq(whatsappQueues.companyId, companyId), eq(whatsappQueues.whatsappId, id)));
  if (queueIds.length) {
    await db.insert(whatsappQueues).values(queueIds.map((queueId) => ({ companyId, whatsappId: id, queueId })));
  }
};

/** closes the connection's open and pending tickets; answers where each was before */
export const closeActiveTicketsOfConnection = async (db: TDbOrTx, companyId: number, whatsappId: number) => {
  const before = await db
    .select({ id: tickets.id, status: tickets.status, queueId: tickets.queueId, userId: tickets.userId })
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.whatsappId, whatsappId),
        inArray(tickets.status, ['open', 'pending']),
      ),
    )
    .for('update');
  if (before.length) {
    await db
      .update(tickets)
      .set({ status: 'closed', closedAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(tickets.companyId, companyId),
          inArray(
            tickets.id,
            before.map((t) => t.id),
          ),
        ),
      );
    // their attendance cycles end with them (the dashboard counts them as finished)
    await db
      .update(ticketTrackings)
      .set({ finishedAt: new Date() })
      .where(
        and(
          eq(ticketTrackings.companyId, companyId),
          inArray(
            ticketTrackings.ticketId,
            before.map((t) => t.id),
          ),
          isNull(ticketTrackings.finishedAt),
        ),
      );
  }

  return before;
};

export const deleteConnectionRow = (db: TDbOrTx, companyId: number, id: number) =>
  db.delete(whatsapps).where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)));

export type TSessionPatch = {
  status: string;
  qrcode: string;
  retries: number;
  lastError: string | null;
  phoneNumber?: string;
};

/** a session's reported state; answers the row when the connection still exists */
export const saveSessionState = async (db: TDbOrTx, companyId: number, id: number, patch: TSessionPatch) => {
  const connected = patch.status === 'CONNECTED';
  const disconnected = patch.status === 'DISCONNECTED' || patch.status === 'TIMEOUT';

  return (
    await db
      .update(whatsapps)
      .set({
        status: patch.status,
        qrcode: patch.qrcode,
        retries: patch.retries,
        lastError: patch.lastError,
        ...(patch.phoneNumber !== undefined ? { phoneNumber: patch.phoneNumber } : {}),
        ...(connected ? { connectedAt: new Date() } : {}),
        ...(disconnected ? { disconnectedAt: new Date() } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)))
      .returning()
  )[0];
};
