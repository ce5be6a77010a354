import type { TListQuery, TPlan, TPlanBody } from '@zelo/shared';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageAnswer, pageWindow } from '../../lib/paging';
import {
  countCompaniesOnPlan,
  deletePlanRow,
  findPlan,
  findPlanByName,
  insertPlan,
  listPlans,
  pagePlans,
  type TPlanRow,
  updatePlanRow,
} from './plans.repo';

export const toPlan = (row: TPlanRow): TPlan => ({
  ...row,
  value: Number(row.value),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export const getAllPlans = async (ctx: TAppContext) => (await listPlans(ctx.db)).map(toPlan);

export const getPlanPage = async (ctx: TAppContext, query: TListQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pagePlans(ctx.db, query.searchParam, limit, offset);
  const page = pageAnswer(rows.map(toPlan), total, query.pageNumber);

  return { plans: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getPlan = async (ctx: TAppContext, id: number) => {
  const row = await findPlan(ctx.db, id);
  if (!row) throw new AppError('ERR_NO_PLAN_FOUND');

  return toPlan(row);
};

const assertNameFree = async (ctx: TAppContext, name: string, exceptId?: number) => {
  const other = await findPlanByName(ctx.db, name);
  if (other && other.id !== exceptId) throw new AppError('ERR_DUPLICATED_PLAN', 'A plan with this name exists');
};

export const createPlan = async (ctx: TAppContext, body: TPlanBody) => {
  await assertNameFree(ctx, body.name);

  return toPlan(await insertPlan(ctx.db, body));
};

export const updatePlan = async (ctx: TAppContext, id: number, body: TPlanBody) => {
  await getPlan(ctx, id);
  await assertNameFree(ctx, body.name, id);

  const plan = await updatePlanRow(ctx.db, id, body);
  // the plan's flags are in the principal of every company on it
  await ctx.sessions.forget({ all: true });

  return toPlan(plan);
};

export const deletePlan = async (ctx: TAppContext, id: number) => {
  await getPlan(ctx, id);
  if ((await countCompaniesOnPlan(ctx.db, id)) > 0) {
    throw new AppError('ERR_PLAN_IN_USE', 'Companies still use this plan');
  }
  await deletePlanRow(ctx.db, id);
  await ctx.sessions.forget({ all: true });
};
