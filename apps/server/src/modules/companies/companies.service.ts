import { markOpenTicketsDirty } from '../sla';
import {
  events,
  rooms,
  TRIAL_DAYS,
  type TCompany,
  type TCompanyBody,
  type TCompanyUpdateBody,
  type TListQuery,
  type TSignUpRequest,
  type TWorkingHour,
} from '@zelo/shared';
import { randomBytes } from 'node:crypto';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { addDays, dayInZone } from '../../lib/dates';
import { pageAnswer, pageWindow } from '../../lib/paging';
import { createDueInvoices } from '../invoices/invoices.repo';
import { findPlan } from '../plans/plans.repo';
import { toPlan } from '../plans/plans.service';
import { upsertSetting } from '../settings/settings.repo';
import { storedSettingsByCompany } from '../settings/settings.service';
import { createUserRow, emailTaken } from '../users/users.repo';
import {
  deleteCompanyRow,
  findCompany,
  findCompanyIdByName,
  insertCompany,
  listCompanies,
  pageCompanies,
  type TCompanyWithPlan,
  updateCompanyRow,
} from './companies.repo';
import { hashPassword } from '../users/passwords';

export const toCompany = ({ company: c, plan, campaignsEnabled }: TCompanyWithPlan): TCompany => ({
  id: c.id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  planId: c.planId,
  plan: plan ? { ...plan, value: Number(plan.value) } : null,
  status: c.status,
  campaignsEnabled: campaignsEnabled !== 'false',
  dueDate: c.dueDate,
  recurrence: c.recurrence as TCompany['recurrence'],
  trialExpiration: c.trialExpiration?.toISOString() ?? null,
  timezone: c.timezone,
  language: c.language,
  schedules: c.schedules,
  billingName: c.billingName,
  addressZipCode: c.addressZipCode,
  addressStreet: c.addressStreet,
  addressState: c.addressState,
  addressCity: c.addressCity,
  addressDistrict: c.addressDistrict,
  cpfCnpj: c.cpfCnpj,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

const loadCompany = async (db: TDbOrTx, id: number) => {
  const row = await findCompany(db, id);
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');

  return toCompany(row);
};

const assertUnique = async (db: TDbOrTx, name: string | undefined, email: string | undefined, exceptId?: number) => {
  if (name) {
    const other = await findCompanyIdByName(db, name);
    if (other && other.id !== exceptId) throw new AppError('ERR_DUPLICATED_COMPANY', 'A company with this name exists');
  }
  if (email && exceptId === undefined && (await emailTaken(db, email))) {
    throw new AppError('ERR_DUPLICATED_EMAIL', 'This e-mail is in use');
  }
};

const assertPlan = async (db: TDbOrTx, planId: number) => {
  if (!(await findPlan(db, planId))) throw new AppError('ERR_NO_PLAN_FOUND');
};

type TNewCompany = Omit<TCompanyBody, 'password' | 'campaignsEnabled'> & {
  password: string;
  campaignsEnabled: boolean;
};

/** the company, its first admin and its stored settings, in one transaction */
const createCompanyWithAdmin = async (ctx: TAppContext, input: TNewCompany, trialExpiration: Date | null) => {
  const passwordHash = await hashPassword(input.password);
  const id = await ctx.db.transaction(async (tx) => {
    await assertUnique(tx, input.name, input.email);
    await assertPlan(tx, input.planId);
    const { password: _password, campaignsEnabled, ...fields } = input;
    const company = await insertCompany(tx, { ...fields, phone: fields.phone ?? '', trialExpiration });
    await createUserRow(tx, {
      companyId: company.id,
      name: input.name,
      email: input.email,
      passwordHash,
      profile: 'admin',
      allTicket: 'enabled',
      canSeeTicketsWithoutQueue: true,
    });
    await upsertSetting(tx, company.id, 'campaignsEnabled', String(campaignsEnabled));

    return company.id;
  });

  return loadCompany(ctx.db, id);
};

/** public sign-up: the server sets the trial, the due date, the status and the recurrence */
export const signUp = async (ctx: TAppContext, body: TSignUpRequest) => {
  const now = new Date();
  const trialEnds = addDays(now, TRIAL_DAYS);

  const company = await createCompanyWithAdmin(
    ctx,
    {
      name: body.name,
      email: body.email,
      phone: body.phone,
      planId: body.planId,
      password: body.password,
      status: true,
      campaignsEnabled: true,
      recurrence: 'MENSAL',
      dueDate: dayInZone(trialEnds, 'America/Sao_Paulo'),
    },
    trialEnds,
  );
  // the trial's end is within the invoice lead time: its invoice is there at once (the ancestor's job, every
  // 5 s, wrote it within seconds), so the new company can pay before the hourly job comes round
  await createDueInvoices(ctx.db, ctx.config.invoiceLeadDays, company.id);

  return company;
};

export const createCompany = async (ctx: TAppContext, body: TCompanyBody) => {
  const password = body.password ?? randomBytes(9).toString('base64url');
  const company = await createCompanyWithAdmin(ctx, { ...body, password }, null);

  return body.password ? company : { ...company, adminPassword: password };
};

export const getCompanyPage = async (ctx: TAppContext, query: TListQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pageCompanies(ctx.db, query.searchParam, limit, offset);
  const page = pageAnswer(rows.map(toCompany), total, query.pageNumber);

  return { companies: page.rows, count: page.count, hasMore: page.hasMore };
};

/** every company with its plan and its stored settings rows (the ancestor's `GET /companies/list`) */
export const getAllCompanies = async (ctx: TAppContext) => {
  const [rows, settingsOf] = await Promise.all([listCompanies(ctx.db), storedSettingsByCompany(ctx.db)]);

  return rows.map((row) => ({ ...toCompany(row), settings: settingsOf.get(row.company.id) ?? [] }));
};

/** a company is visible to the super user and to its own admins */
const assertCompanyAccess = (auth: TAuth, companyId: number, adminOnly: boolean) => {
  if (auth.isSuper) return;
  if (auth.companyId !== companyId) throw new AppError('ERR_NO_COMPANY_FOUND');
  if (adminOnly && !auth.isAdmin) throw new AppError('ERR_NO_PERMISSION');
};

export const getCompany = async (ctx: TAppContext, auth: TAuth, id: number) => {
  assertCompanyAccess(auth, id, true);

  return loadCompany(ctx.db, id);
};

export const getCompanyPlan = async (ctx: TAppContext, auth: TAuth, companyId: number) => {
  assertCompanyAccess(auth, companyId, false);
  const company = await loadCompany(ctx.db, companyId);
  const plan = company.planId ? await findPlan(ctx.db, company.planId) : undefined;

  return { id: company.id, name: company.name, dueDate: company.dueDate, plan: plan ? toPlan(plan) : null };
};

export const updateCompany = async (ctx: TAppContext, id: number, body: TCompanyUpdateBody) => {
  await loadCompany(ctx.db, id);
  await ctx.db.transaction(async (tx) => {
    await assertUnique(tx, body.name, undefined, id);
    if (body.planId) await assertPlan(tx, body.planId);
    const { campaignsEnabled, ...fields } = body;
    if (Object.keys(fields).length) await updateCompanyRow(tx, id, fields);
    if (campaignsEnabled !== undefined) await upsertSetting(tx, id, 'campaignsEnabled', String(campaignsEnabled));
    // a due date moved near or into the past (or a plan or status changed) has its invoice now, not at the
    // hourly job's next run: the company can pay at once
    if (fields.dueDate !== undefined || fields.planId !== undefined || fields.status !== undefined) {
      await createDueInvoices(tx, ctx.config.invoiceLeadDays, id);
    }
  });
  await ctx.sessions.forget({ companyId: id });
  const company = await loadCompany(ctx.db, id);
  ctx.realtime.toCompany(id, events.company(id), { action: 'update', company });

  return company;
};

export const updateCompanySchedules = async (ctx: TAppContext, auth: TAuth, id: number, schedules: TWorkingHour[]) => {
  assertCompanyAccess(auth, id, true);
  await loadCompany(ctx.db, id);
  await updateCompanyRow(ctx.db, id, { schedules });
  // the service-level targets of its open tickets are counted in these hours from now on (modules/sla)
  await markOpenTicketsDirty(ctx.db, id);

  return loadCompany(ctx.db, id);
};

export const deleteCompany = async (ctx: TAppContext, auth: TAuth, id: number) => {
  if (id === auth.companyId) throw new AppError('ERR_CANNOT_DELETE_OWN_COMPANY');
  await loadCompany(ctx.db, id);
  await deleteCompanyRow(ctx.db, id);
  await ctx.sessions.forget({ companyId: id });
  ctx.realtime.io.in(rooms.main(id)).disconnectSockets(true);
};
