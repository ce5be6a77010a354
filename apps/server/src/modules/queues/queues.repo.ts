import { and, asc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { prompts, queueIntegrations } from '../../db/schema/automation';
import { queues } from '../../db/schema/queues';
import { updateRows } from '../../db/update-rows';

export type TQueueRow = typeof queues.$inferSelect;
export type TQueueInsert = typeof queues.$inferInsert;

/** ascending position (queues without one last), then name */
export const listQueueRows = (db: TDbOrTx, companyId: number) =>
  db
    .select()
    .from(queues)
    .where(eq(queues.companyId, companyId))
    .orderBy(sql`${queues.orderQueue} asc nulls last`, asc(sql`lower(${queues.name})`), asc(queues.id));

export const findQueue = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(queues)
      .where(and(eq(queues.companyId, companyId), eq(queues.id, id)))
  )[0];

/** locks the queue row (serialises option numbering under it) */
export const lockQueue = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), eq(queues.id, id)))
      .for('update')
  ).length > 0;

const another = (companyId: number, exceptId: number | undefined, cond: SQL) =>
  exceptId
    ? and(eq(queues.companyId, companyId), ne(queues.id, exceptId), cond)
    : and(eq(queues.companyId, companyId), cond);

export const queueNameTaken = async (db: TDbOrTx, companyId: number, name: string, exceptId?: number) =>
  (
    await db
      .select({ id: queues.id })
      .from(queues)
      .where(another(companyId, exceptId, sql`lower(${queues.name}) = ${name.toLowerCase()}`))
      .limit(1)
  ).length > 0;

export const queueColorTaken = async (db: TDbOrTx, companyId: number, color: string, exceptId?: number) =>
  (
    await db
      .select({ id: queues.id })
      .from(queues)
      .where(another(companyId, exceptId, sql`lower(${queues.color}) = ${color.toLowerCase()}`))
      .limit(1)
  ).length > 0;

export const insertQueue = async (db: TDbOrTx, values: TQueueInsert) =>
  (await db.insert(queues).values(values).returning())[0];

export const updateQueueRow = async (db: TDbOrTx, companyId: number, id: number, values: Partial<TQueueInsert>) =>
  (await updateRows(db, queues, and(eq(queues.companyId, companyId), eq(queues.id, id)), values))[0];

export const deleteQueueRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .delete(queues)
      .where(and(eq(queues.companyId, companyId), eq(queues.id, id)))
      .returning({ id: queues.id })
  ).length > 0;

export const promptOfCompany = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: prompts.id })
      .from(prompts)
      .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)))
  ).length > 0;

export const integrationOfCompany = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: queueIntegrations.id })
      .from(queueIntegrations)
      .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id)))
  ).length > 0;
