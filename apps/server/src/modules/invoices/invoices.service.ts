import {
  events,
  RECURRENCE_MONTHS,
  type TInvoice,
  type TInvoiceListQuery,
  type TPaymentEvent,
  type TPixCheckout,
  type TRecurrence,
  type TSubscriptionBody,
} from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { addMonthsToDay, dayInZone } from '../../lib/dates';
import { pageAnswer, pageWindow } from '../../lib/paging';
import { findCompany } from '../companies/companies.repo';
import { toCompany } from '../companies/companies.service';
import { findPlan } from '../plans/plans.repo';
import { findUser } from '../users/users.repo';
import { createAsaasProvider } from './asaas';
import {
  findInvoice,
  findPaymentByTxid,
  findPendingPayment,
  insertPayment,
  lockCompanyDue,
  markInvoicePaid,
  pageInvoices,
  setCompanyDue,
  setCompanyPayer,
  type TInvoiceWithStatus,
  type TPaymentRow,
  updatePayment,
} from './invoices.repo';
import type { TPaymentProvider } from './payment-provider';

export const toInvoice = ({ invoice: i, shownStatus }: TInvoiceWithStatus): TInvoice => ({
  id: i.id,
  companyId: i.companyId,
  detail: i.detail,
  value: Number(i.value),
  dueDate: i.dueDate,
  status: shownStatus as TInvoice['status'],
  paidAt: i.paidAt?.toISOString() ?? null,
  paidVia: i.paidVia,
  paidByName: i.paidByName,
  createdAt: i.createdAt.toISOString(),
  updatedAt: i.updatedAt.toISOString(),
});

/** whose invoices a list shows: the caller's company, or the one a super user names */
const listedCompany = (auth: TAuth, companyId: number | undefined) =>
  auth.isSuper && companyId ? companyId : auth.companyId;

export const getInvoicePage = async (ctx: TAppContext, auth: TAuth, query: TInvoiceListQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pageInvoices(
    ctx.db,
    listedCompany(auth, query.companyId),
    query.searchParam,
    limit,
    offset,
  );
  const page = pageAnswer(rows.map(toInvoice), total, query.pageNumber);

  return { invoices: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getInvoice = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const row = await findInvoice(ctx.db, id, auth.isSuper ? undefined : auth.companyId);
  if (!row) throw new AppError('ERR_NO_INVOICE_FOUND');

  return toInvoice(row);
};

/**
 * Settles an invoice once: marks it paid (only the first of any number of concurrent calls does), moves the
 * company's due date one recurrence past its old one and, for a checkout that chose another plan, moves the
 * company to that plan; then tells the company's screens (`company-{id}-payment`, CONCLUIDA). Answers
 * whether this call was the one that settled it.
 */
const settleInvoice = async (
  ctx: TAppContext,
  invoiceId: number,
  paid: { via: string; byId?: number; byName?: string; payment?: TPaymentRow; webhook?: unknown },
) => {
  const settled = await ctx.db.transaction(async (tx) => {
    const payment = paid.payment;
    let detail: string | undefined;
    if (payment?.planId) detail = (await findPlan(tx, payment.planId))?.name;
    const invoice = await markInvoicePaid(tx, invoiceId, {
      via: paid.via,
      byId: paid.byId,
      byName: paid.byName,
      value: payment ? Number(payment.amount) : undefined,
      detail,
      txId: payment?.txid,
    });
    if (!invoice) return undefined;
    const company = await lockCompanyDue(tx, invoice.companyId);
    const months = RECURRENCE_MONTHS[company.recurrence as TRecurrence] ?? 1;
    const dueDate = addMonthsToDay(company.dueDate ?? invoice.dueDate, months);
    const planId = payment?.planId ?? company.planId;
    await setCompanyDue(tx, invoice.companyId, dueDate, planId);
    if (payment) await updatePayment(tx, payment.id, { status: 'paid', paidAt: new Date(), payload: paid.webhook });

    return invoice;
  });
  if (!settled) return false;
  // the 402 guard and the plan flags read the company from the kept principals
  await ctx.sessions.forget({ companyId: settled.companyId });
  const row = await findCompany(ctx.db, settled.companyId);
  if (row) {
    const company = toCompany(row);
    const event: TPaymentEvent & { company: typeof company } = { action: 'CONCLUIDA', company };
    ctx.realtime.toCompany(settled.companyId, events.payment(settled.companyId), event);
  }

  return true;
};

/** PUT /invoices/:id (super users): a payment received outside the checkout, with who marked it and when */
export const markPaidByHand = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const before = await findInvoice(ctx.db, id, undefined);
  if (!before) throw new AppError('ERR_NO_INVOICE_FOUND');
  const user = await findUser(ctx.db, auth.companyId, auth.userId);
  const settled = await settleInvoice(ctx, id, { via: 'manual', byId: auth.userId, byName: user?.name ?? '' });
  if (!settled) throw new AppError('ERR_INVOICE_ALREADY_PAID', 'This invoice is paid');

  return toInvoice((await findInvoice(ctx.db, id, undefined))!);
};

export const billingProvider = (ctx: TAppContext): TPaymentProvider => {
  const { apiKey, apiUrl } = ctx.config.asaas;
  if (!apiKey) throw new AppError('ERR_BILLING_NOT_CONFIGURED', 'Billing is not configured on this server');

  return createAsaasProvider({ apiKey, apiUrl });
};

const money = (value: number) => value.toFixed(2);

/**
 * POST /subscription: a Pix charge for one of the caller's company's invoices. The amount is the server's:
 * the invoice's value, or the chosen plan's monthly value times the company's recurrence when the customise
 * step chose another plan (the company moves to it once paid). The browser's `price` is never read.
 */
export const checkout = async (ctx: TAppContext, auth: TAuth, body: TSubscriptionBody): Promise<TPixCheckout> => {
  const found = await findInvoice(ctx.db, body.invoiceId, auth.companyId);
  if (!found) throw new AppError('ERR_NO_INVOICE_FOUND');
  const provider = billingProvider(ctx);
  const invoice = found.invoice;
  if (invoice.status === 'paid') throw new AppError('ERR_INVOICE_ALREADY_PAID', 'This invoice is paid');
  const companyRow = await findCompany(ctx.db, auth.companyId);
  if (!companyRow) throw new AppError('ERR_NO_COMPANY_FOUND');
  const company = companyRow.company;
  const cpfCnpj = body.cpfCnpj ?? company.cpfCnpj;
  if (!cpfCnpj) {
    throw new AppError('ERR_VALIDATION', 'Invalid body', [{ path: 'cpfCnpj', message: 'required' }]);
  }
  const planId = body.planId ?? body.plan ?? company.planId;
  const plan = planId ? await findPlan(ctx.db, planId) : undefined;
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  const months = RECURRENCE_MONTHS[company.recurrence as TRecurrence] ?? 1;
  const amount =
    plan.id === company.planId ? Number(invoice.value) : Math.round(Number(plan.value) * months * 100) / 100;
  const payerName = [body.firstName, body.lastName].filter(Boolean).join(' ') || company.billingName || company.name;
  await setCompanyPayer(ctx.db, company.id, { cpfCnpj, billingName: body.firstName ? payerName : undefined });

  const answer = (payment: TPaymentRow, code: { payload: string; encodedImage: string; expiresAt: Date | null }) => ({
    txid: payment.txid,
    status: 'ATIVA',
    valor: { original: money(amount) },
    solicitacaoPagador: `#Fatura:${invoice.id}`,
    qrcode: { qrcode: code.payload, imagemQrcode: `data:image/png;base64,${code.encodedImage}` },
    invoiceId: invoice.id,
    planId: plan.id,
    planName: plan.name,
    amount,
    expiresAt: code.expiresAt?.toISOString() ?? null,
  });

  // the same charge again while it is pending (a second click, a reopened wizard): never two Pix codes
  const pending = await findPendingPayment(ctx.db, company.id, invoice.id, provider.name, amount, plan.id);
  if (pending) return answer(pending, await provider.pixCode(pending.txid));

  const customer = await provider.ensureCustomer({
    name: payerName,
    email: body.email ?? company.email,
    cpfCnpj,
    externalReference: `company:${company.id}`,
  });
  const today = dayInZone(new Date(), company.timezone);
  const charge = await provider.createPixCharge({
    customer,
    value: amount,
    dueDate: invoice.dueDate > today ? invoice.dueDate : today,
    description: `Zelo: ${plan.name} (${company.name}), fatura ${invoice.id}`,
    externalReference: `invoice:${invoice.id}`,
  });
  const payment = await insertPayment(ctx.db, {
    companyId: company.id,
    invoiceId: invoice.id,
    provider: provider.name,
    txid: charge.id,
    amount,
    planId: plan.id,
    status: 'pending',
  });
  const code = await provider.pixCode(charge.id);
  await updatePayment(ctx.db, payment.id, { qrCode: code.payload, expiresAt: code.expiresAt });

  return answer(payment, code);
};

const SETTLING_EVENTS = new Set(['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED']);

/**
 * The provider's webhook (its token already checked): a received or confirmed payment of one of our charges
 * settles its invoice, once however many times it is delivered. Anything else is acknowledged and left.
 */
export const handleAsaasWebhook = async (
  ctx: TAppContext,
  body: { event: string; payment?: { id: string } },
): Promise<{ ok: true; settled: boolean }> => {
  if (!SETTLING_EVENTS.has(body.event) || !body.payment) return { ok: true, settled: false };
  const payment = await findPaymentByTxid(ctx.db, 'asaas', body.payment.id);
  if (!payment?.invoiceId) return { ok: true, settled: false };
  const settled = await settleInvoice(ctx, payment.invoiceId, { via: 'asaas', payment, webhook: body });

  return { ok: true, settled };
};
