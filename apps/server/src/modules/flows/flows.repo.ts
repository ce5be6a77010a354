import { and, asc, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { flowBuilders, flowCampaigns, flowUploads, type TFlowDocument } from '../../db/schema/automation';
import { whatsapps } from '../../db/schema/connections';
import { likePattern } from '../../lib/paging';

export type TFlowRow = typeof flowBuilders.$inferSelect;
export type TFlowCampaignRow = typeof flowCampaigns.$inferSelect;

const summary = {
  id: flowBuilders.id,
  companyId: flowBuilders.companyId,
  userId: flowBuilders.userId,
  name: flowBuilders.name,
  active: flowBuilders.active,
  createdAt: flowBuilders.createdAt,
  updatedAt: flowBuilders.updatedAt,
};
export type TFlowSummaryRow = { [K in keyof typeof summary]: TFlowRow[K] };

/** a page of the company's flows by name; the search ignores case and accents */
export const pageFlows = async (db: TDbOrTx, companyId: number, search: string, limit: number, offset: number) => {
  const where = search
    ? and(eq(flowBuilders.companyId, companyId), ilike(flowBuilders.name, likePattern(search)))
    : eq(flowBuilders.companyId, companyId);
  const [rows, [total]] = await Promise.all([
    db
      .select(summary)
      .from(flowBuilders)
      .where(where)
      .orderBy(asc(flowBuilders.name), asc(flowBuilders.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: sql<number>`count(*)::int` }).from(flowBuilders).where(where),
  ]);

  return { rows, total: total?.n ?? 0 };
};

export const findFlow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(flowBuilders)
      .where(and(eq(flowBuilders.companyId, companyId), eq(flowBuilders.id, id)))
  )[0] ?? null;

export const lockFlow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(flowBuilders)
      .where(and(eq(flowBuilders.companyId, companyId), eq(flowBuilders.id, id)))
      .for('update')
  )[0] ?? null;

export const flowNameTaken = async (db: TDbOrTx, companyId: number, name: string, exceptId?: number) =>
  (
    await db
      .select({ id: flowBuilders.id })
      .from(flowBuilders)
      .where(and(eq(flowBuilders.companyId, companyId), sql`lower(${flowBuilders.name}) = lower(${name})`))
  ).some((r) => r.id !== exceptId);

export const insertFlow = async (db: TDbOrTx, row: typeof flowBuilders.$inferInsert) =>
  (await db.insert(flowBuilders).values(row).returning())[0]!;

export const updateFlow = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  patch: Partial<typeof flowBuilders.$inferInsert> & { flow?: TFlowDocument | null },
) =>
  (
    await db
      .update(flowBuilders)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(eq(flowBuilders.companyId, companyId), eq(flowBuilders.id, id)))
      .returning()
  )[0] ?? null;

export const deleteFlowRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .delete(flowBuilders)
      .where(and(eq(flowBuilders.companyId, companyId), eq(flowBuilders.id, id)))
      .returning({ id: flowBuilders.id })
  )[0] ?? null;

/** the connections that name a flow as welcome or no-phrase flow (to announce after a delete clears them) */
export const connectionsUsingFlow = async (db: TDbOrTx, companyId: number, flowId: number) =>
  (
    await db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(
        and(
          eq(whatsapps.companyId, companyId),
          or(eq(whatsapps.flowIdWelcome, flowId), eq(whatsapps.flowIdNotPhrase, flowId)),
        ),
      )
  ).map((r) => r.id);

/* ---------------------------------------------------------------- phrase campaigns */

export const listFlowCampaigns = (db: TDbOrTx, companyId: number) =>
  db.select().from(flowCampaigns).where(eq(flowCampaigns.companyId, companyId)).orderBy(desc(flowCampaigns.id));

export const findFlowCampaign = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(flowCampaigns)
      .where(and(eq(flowCampaigns.companyId, companyId), eq(flowCampaigns.id, id)))
  )[0] ?? null;

export const flowCampaignNameTaken = async (db: TDbOrTx, companyId: number, name: string, exceptId?: number) =>
  (
    await db
      .select({ id: flowCampaigns.id })
      .from(flowCampaigns)
      .where(and(eq(flowCampaigns.companyId, companyId), sql`lower(${flowCampaigns.name}) = lower(${name})`))
  ).some((r) => r.id !== exceptId);

export const insertFlowCampaign = async (db: TDbOrTx, row: typeof flowCampaigns.$inferInsert) =>
  (await db.insert(flowCampaigns).values(row).returning())[0]!;

export const updateFlowCampaignRow = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  patch: Partial<typeof flowCampaigns.$inferInsert>,
) =>
  (
    await db
      .update(flowCampaigns)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(eq(flowCampaigns.companyId, companyId), eq(flowCampaigns.id, id)))
      .returning()
  )[0] ?? null;

export const deleteFlowCampaignRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .delete(flowCampaigns)
      .where(and(eq(flowCampaigns.companyId, companyId), eq(flowCampaigns.id, id)))
      .returning({ id: flowCampaigns.id })
  )[0] ?? null;

/** the active phrase campaigns of a connection: what the trigger matches against */
export const activePhrases = (db: TDbOrTx, companyId: number, connectionId: number) =>
  db
    .select({ id: flowCampaigns.id, flowId: flowCampaigns.flowId, phrase: flowCampaigns.phrase })
    .from(flowCampaigns)
    .where(
      and(
        eq(flowCampaigns.companyId, companyId),
        eq(flowCampaigns.whatsappId, connectionId),
        eq(flowCampaigns.status, true),
      ),
    )
    .orderBy(asc(flowCampaigns.id));

export const connectionOfCompany = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)))
  )[0] ?? null;

/* ---------------------------------------------------------------- uploads */

export const insertUpload = async (db: TDbOrTx, row: typeof flowUploads.$inferInsert) =>
  (await db.insert(flowUploads).values(row).returning())[0]!;

/** whether stored file names are uploads of the company (a flow never sends another company's file) */
export const uploadsOfCompany = async (db: TDbOrTx, companyId: number, names: string[]) =>
  names.length === 0
    ? new Set<string>()
    : new Set(
        (
          await db
            .select({ path: flowUploads.path })
            .from(flowUploads)
            .where(and(eq(flowUploads.companyId, companyId), inArray(flowUploads.path, names)))
        ).map((r) => r.path),
      );
