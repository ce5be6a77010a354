import { and, asc, count, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { flowBuilders, integrationDeliveries, queueIntegrations } from '../../db/schema';
import { updateRows } from '../../db/update-rows';
import { likePattern } from '../../lib/paging';

export type TIntegrationRow = typeof queueIntegrations.$inferSelect;
export type TIntegrationInsert = typeof queueIntegrations.$inferInsert;

const mine = (companyId: number, id: number) =>
  and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id));

export const pageIntegrations = async (
  db: TDbOrTx,
  companyId: number,
  search: string,
  limit: number,
  offset: number,
) => {
  const parts: (SQL | undefined)[] = [eq(queueIntegrations.companyId, companyId)];
  if (search) {
    parts.push(
      sql`(${queueIntegrations.name} ILIKE ${likePattern(search)} OR ${queueIntegrations.type} ILIKE ${likePattern(search)})`,
    );
  }
  const where = and(...parts);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(queueIntegrations)
      .where(where)
      .orderBy(asc(sql`lower(${queueIntegrations.name})`), asc(queueIntegrations.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(queueIntegrations).where(where),
  ]);

  return { rows, total };
};

export const findIntegration = async (db: TDbOrTx, companyId: number, id: number) =>
  (await db.select().from(queueIntegrations).where(mine(companyId, id)))[0];

export const integrationNameTaken = async (db: TDbOrTx, companyId: number, name: string, exceptId?: number) => {
  const base = and(
    eq(queueIntegrations.companyId, companyId),
    sql`lower(${queueIntegrations.name}) = ${name.toLowerCase()}`,
  );
  const rows = await db
    .select({ id: queueIntegrations.id })
    .from(queueIntegrations)
    .where(exceptId ? and(base, ne(queueIntegrations.id, exceptId)) : base)
    .limit(1);

  return rows.length > 0;
};

export const flowOfCompany = async (db: TDbOrTx, companyId: number, flowId: number) =>
  (
    await db
      .select({ id: flowBuilders.id, active: flowBuilders.active })
      .from(flowBuilders)
      .where(and(eq(flowBuilders.companyId, companyId), eq(flowBuilders.id, flowId)))
  )[0];

export const insertIntegration = async (db: TDbOrTx, values: TIntegrationInsert) =>
  (await db.insert(queueIntegrations).values(values).returning())[0]!;

export const updateIntegrationRow = async (
  db: TDbOrTx,
  companyId: number,
  id: number,
  values: Partial<TIntegrationInsert>,
) => (await updateRows(db, queueIntegrations, mine(companyId, id), values))[0];

export const deleteIntegrationRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (await db.delete(queueIntegrations).where(mine(companyId, id)).returning({ id: queueIntegrations.id }))[0];

export const pageDeliveries = async (
  db: TDbOrTx,
  companyId: number,
  integrationId: number,
  limit: number,
  offset: number,
) => {
  const where = and(
    eq(integrationDeliveries.companyId, companyId),
    eq(integrationDeliveries.integrationId, integrationId),
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(integrationDeliveries)
      .where(where)
      .orderBy(desc(integrationDeliveries.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(integrationDeliveries).where(where),
  ]);

  return { rows, total };
};
