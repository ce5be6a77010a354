import { asc, count, eq, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { companies, plans, settings } from '../../db/schema/index';
import { likePattern } from '../../lib/paging';
import { updateRows } from '../../db/update-rows';

export type TCompanyRow = typeof companies.$inferSelect;
export type TCompanyInsert = typeof companies.$inferInsert;

const withPlan = (db: TDbOrTx) =>
  db
    .select({
      company: companies,
      plan: { id: plans.id, name: plans.name, value: plans.value },
      campaignsEnabled: sql<
        string | null
      >`(select ${settings.value} from ${settings} where ${settings.companyId} = ${companies.id} and ${settings.key} = 'campaignsEnabled')`,
    })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId));

export type TCompanyWithPlan = Awaited<ReturnType<ReturnType<typeof withPlan>['execute']>>[number];

export const findCompany = async (db: TDbOrTx, id: number) => (await withPlan(db).where(eq(companies.id, id)))[0];

export const listCompanies = (db: TDbOrTx) => withPlan(db).orderBy(asc(companies.name));

export const pageCompanies = async (db: TDbOrTx, search: string, limit: number, offset: number) => {
  const where = search
    ? sql`(${companies.name} ILIKE ${likePattern(search)} OR ${companies.email} ILIKE ${likePattern(search)})`
    : undefined;
  const [rows, [{ total }]] = await Promise.all([
    withPlan(db).where(where).orderBy(asc(companies.name)).limit(limit).offset(offset),
    db.select({ total: count() }).from(companies).where(where),
  ]);

  return { rows, total };
};

export const findCompanyIdByName = async (db: TDbOrTx, name: string) =>
  (
    await db.select({ id: companies.id }).from(companies).where(sql`lower(${companies.name}) = ${name.toLowerCase()}`)
  )[0];

export const insertCompany = async (db: TDbOrTx, values: TCompanyInsert) =>
  (await db.insert(companies).values(values).returning())[0];

export const updateCompanyRow = async (db: TDbOrTx, id: number, values: Partial<TCompanyInsert>) =>
  (await updateRows(db, companies, eq(companies.id, id), values))[0];

export const deleteCompanyRow = (db: TDbOrTx, id: number) => db.delete(companies).where(eq(companies.id, id));

/** locks the company row: plan-limit checks and the inserts they guard run one at a time per company */
export const lockCompany = (db: TDbOrTx, id: number) =>
  db.execute(sql`select id from ${companies} where ${companies.id} = ${id} for update`);

/** what decides whether a company may work (status, due date in its zone): companies/company-active.ts */
export const findCompanyStanding = async (db: TDbOrTx, id: number) => {
  const [row] = await db
    .select({ status: companies.status, dueDate: companies.dueDate, timezone: companies.timezone })
    .from(companies)
    .where(eq(companies.id, id))
    .limit(1);

  return row ?? null;
};
