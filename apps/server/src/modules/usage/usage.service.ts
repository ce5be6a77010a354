import type { TSubscriptionUsage } from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { dayInZone, isPastDue } from '../../lib/dates';
import { toPlan } from '../plans/plans.service';
import { findCompanyUsage } from './usage.repo';

const DAY_MS = 86_400_000;

/**
 * On trial: the trial has not ended, and the due date was not moved past the trial's last day (a payment
 * during the trial ends it). Days left count the started day: 1 on the trial's last day.
 */
export const trialState = (
  company: { trialExpiration: Date | null; dueDate: string | null; timezone: string },
  now: Date,
) => {
  const ends = company.trialExpiration;
  if (!ends || ends.getTime() <= now.getTime()) return { onTrial: false, trialDaysLeft: null };
  const paidPast = company.dueDate !== null && company.dueDate > dayInZone(ends, company.timezone);
  if (paidPast) return { onTrial: false, trialDaysLeft: null };

  return { onTrial: true, trialDaysLeft: Math.max(1, Math.ceil((ends.getTime() - now.getTime()) / DAY_MS)) };
};

export const getSubscriptionUsage = async (
  ctx: TAppContext,
  auth: TAuth,
  now = new Date(),
): Promise<TSubscriptionUsage> => {
  const row = await findCompanyUsage(ctx.db, auth.companyId);
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  const { company } = row;

  return {
    plan: row.plan ? toPlan(row.plan) : null,
    usage: { users: Number(row.users), connections: Number(row.connections), queues: Number(row.queues) },
    company: {
      id: company.id,
      name: company.name,
      dueDate: company.dueDate,
      recurrence: company.recurrence,
      trialExpiration: company.trialExpiration?.toISOString() ?? null,
      ...trialState(company, now),
      payOnly: !auth.isSuper && isPastDue(company.dueDate, company.timezone, now),
    },
  };
};
