import { asc, count, eq, sql } from 'drizzle-orm';
import type { TPlanBody } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import { companies, plans } from '../../db/schema/index';
import { likePattern } from '../../lib/paging';
import { updateRows } from '../../db/update-rows';

export type TPlanRow = typeof plans.$inferSelect;

export const listPlans = (db: TDbOrTx) => db.select().from(plans).orderBy(asc(plans.value), asc(plans.id));

export const pagePlans = async (db: TDbOrTx, search: string, limit: number, offset: number) => {
  const where = search ? sql`${plans.name} ILIKE ${likePattern(search)}` : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(plans).where(where).orderBy(asc(plans.name)).limit(limit).offset(offset),
    db.select({ total: count() }).from(plans).where(where),
  ]);

  return { rows, total };
};

export const findPlan = async (db: TDbOrTx, id: number) => (await db.select().from(plans).where(eq(plans.id, id)))[0];

export const findPlanByName = async (db: TDbOrTx, name: string) =>
  (await db.select({ id: plans.id }).from(plans).where(sql`lower(${plans.name}) = ${name.toLowerCase()}`))[0];

export const insertPlan = async (db: TDbOrTx, body: TPlanBody) => (await db.insert(plans).values(body).returning())[0];

export const updatePlanRow = async (db: TDbOrTx, id: number, body: TPlanBody) =>
  (await updateRows(db, plans, eq(plans.id, id), body))[0];

export const deletePlanRow = (db: TDbOrTx, id: number) => db.delete(plans).where(eq(plans.id, id));

export const countCompaniesOnPlan = async (db: TDbOrTx, planId: number) =>
  (await db.select({ total: count() }).from(companies).where(eq(companies.planId, planId)))[0].total;
