import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { companies, invoices, payments } from '../../db/schema/index';
import { likePattern } from '../../lib/paging';

/** months of a company's recurrence, in SQL (RECURRENCE_MONTHS of @zelo/shared) */
const recurrenceMonths = sql`(case c.recurrence when 'BIMESTRAL' then 2 when 'TRIMESTRAL' then 3
  when 'SEMESTRAL' then 6 when 'ANUAL' then 12 else 1 end)`;

/**
 * The next invoice of every active company whose due date is less than `leadDays` away (in its time zone):
 * the plan's monthly value times the months of the company's recurrence, due on the company's due date.
 * One per company and due date (the unique key): two nodes running this at once insert it once. With
 * `companyId`, that company's only (its sign-up).
 */
export const createDueInvoices = (db: TDbOrTx, leadDays = 20, companyId?: number) =>
  db.execute(sql`
    insert into invoices (company_id, detail, value, due_date, status)
    select c.id, p.name, p.value * ${recurrenceMonths}, c.due_date, 'open'
    from companies c join plans p on p.id = c.plan_id
    where c.status and c.due_date is not null
      and c.due_date::date < (now() at time zone c.timezone)::date + ${leadDays}::int
      ${companyId === undefined ? sql`` : sql`and c.id = ${companyId}`}
    on conflict (company_id, due_date) do nothing`);

export type TInvoiceRow = typeof invoices.$inferSelect;

/** the invoice with its displayed status: an open one past its due date (in the company's zone) is expired */
const withStatus = (db: TDbOrTx) =>
  db
    .select({
      invoice: invoices,
      shownStatus: sql<string>`case when ${invoices.status} = 'paid' then 'paid'
        when ${invoices.dueDate} < to_char(now() at time zone ${companies.timezone}, 'YYYY-MM-DD') then 'expired'
        else 'open' end`,
    })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId));

export type TInvoiceWithStatus = Awaited<ReturnType<ReturnType<typeof withStatus>['execute']>>[number];

export const pageInvoices = async (db: TDbOrTx, companyId: number, search: string, limit: number, offset: number) => {
  const where = and(
    eq(invoices.companyId, companyId),
    search ? sql`${invoices.detail} ILIKE ${likePattern(search)}` : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    withStatus(db).where(where).orderBy(desc(invoices.dueDate), desc(invoices.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(invoices).where(where),
  ]);

  return { rows, total };
};

/** an invoice of one company, or of any company when `companyId` is undefined (the super user) */
export const findInvoice = async (db: TDbOrTx, id: number, companyId: number | undefined) =>
  (
    await withStatus(db).where(
      and(eq(invoices.id, id), companyId === undefined ? undefined : eq(invoices.companyId, companyId)),
    )
  )[0];

/**
 * Marks an invoice paid if it is not yet: `update … where status <> 'paid' returning`. Of any number of
 * concurrent calls exactly one gets the row back (the others wait on its row lock, then see it paid).
 */
export const markInvoicePaid = async (
  db: TDbOrTx,
  id: number,
  paid: { via: string; byId?: number; byName?: string; value?: number; detail?: string; txId?: string },
) =>
  (
    await db
      .update(invoices)
      .set({
        status: 'paid',
        paidAt: new Date(),
        paidVia: paid.via,
        paidById: paid.byId ?? null,
        paidByName: paid.byName ?? null,
        ...(paid.value !== undefined ? { value: paid.value } : {}),
        ...(paid.detail !== undefined ? { detail: paid.detail } : {}),
        ...(paid.txId !== undefined ? { txId: paid.txId } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(invoices.id, id), ne(invoices.status, 'paid')))
      .returning()
  )[0];

/** the company's due date and recurrence, its row locked until the transaction ends */
export const lockCompanyDue = async (db: TDbOrTx, companyId: number) =>
  (
    await db
      .select({ dueDate: companies.dueDate, recurrence: companies.recurrence, planId: companies.planId })
      .from(companies)
      .where(eq(companies.id, companyId))
      .for('update')
  )[0];

export const setCompanyDue = (db: TDbOrTx, companyId: number, dueDate: string, planId: number | null) =>
  db.update(companies).set({ dueDate, planId, updatedAt: new Date() }).where(eq(companies.id, companyId));

export const setCompanyPayer = (db: TDbOrTx, companyId: number, payer: { cpfCnpj: string; billingName?: string }) =>
  db
    .update(companies)
    .set({ cpfCnpj: payer.cpfCnpj, ...(payer.billingName ? { billingName: payer.billingName } : {}) })
    .where(eq(companies.id, companyId));

export type TPaymentRow = typeof payments.$inferSelect;

/** a pending charge of this invoice for this amount and plan, to show again instead of charging twice */
export const findPendingPayment = async (
  db: TDbOrTx,
  companyId: number,
  invoiceId: number,
  provider: string,
  amount: number,
  planId: number,
) =>
  (
    await db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.companyId, companyId),
          eq(payments.invoiceId, invoiceId),
          eq(payments.provider, provider),
          eq(payments.status, 'pending'),
          sql`${payments.amount} = ${amount}`,
          eq(payments.planId, planId),
        ),
      )
      .orderBy(desc(payments.id))
      .limit(1)
  )[0];

export const insertPayment = async (db: TDbOrTx, values: typeof payments.$inferInsert) =>
  (await db.insert(payments).values(values).returning())[0];

export const updatePayment = (db: TDbOrTx, id: number, values: Partial<typeof payments.$inferInsert>) =>
  db
    .update(payments)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(payments.id, id));

export const findPaymentByTxid = async (db: TDbOrTx, provider: string, txid: string) =>
  (
    await db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider), eq(payments.txid, txid)))
  )[0];
