import { count, eq } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { whatsapps } from '../../db/schema/connections';
import { users } from '../../db/schema/core';
import { queues } from '../../db/schema/queues';
import { AppError } from '../../http/errors';
import { findCompany, lockCompany } from '../companies/companies.repo';
import { findPlan } from './plans.repo';

const LIMITS = {
  users: { table: users, companyId: users.companyId, code: 'ERR_PLAN_LIMIT_USERS' },
  connections: { table: whatsapps, companyId: whatsapps.companyId, code: 'ERR_PLAN_LIMIT_CONNECTIONS' },
  queues: { table: queues, companyId: queues.companyId, code: 'ERR_PLAN_LIMIT_QUEUES' },
} as const;

export type TPlanLimit = keyof typeof LIMITS;

/**
 * Refuses one more user, connection or queue when the company's plan is full. Call it inside the
 * transaction that inserts: it locks the company row, so concurrent creations are counted one by one.
 */
export const assertPlanLimit = async (tx: TDbOrTx, companyId: number, kind: TPlanLimit) => {
  await lockCompany(tx, companyId);
  const company = await findCompany(tx, companyId);
  const plan = company?.company.planId ? await findPlan(tx, company.company.planId) : undefined;
  if (!plan) return;
  const limit = LIMITS[kind];
  const [{ total }] = await tx.select({ total: count() }).from(limit.table).where(eq(limit.companyId, companyId));
  if (total >= plan[kind]) throw new AppError(limit.code, `The plan allows ${plan[kind]} ${kind}`);
};
