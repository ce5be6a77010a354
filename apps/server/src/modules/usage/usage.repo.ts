import { eq, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { whatsapps } from '../../db/schema/connections';
import { companies, plans, users } from '../../db/schema/core';
import { queues } from '../../db/schema/queues';

/** the company, its plan and its user, connection and queue counts, in one query */
export const findCompanyUsage = async (db: TDbOrTx, companyId: number) => {
  const [row] = await db
    .select({
      company: {
        id: companies.id,
        name: companies.name,
        dueDate: companies.dueDate,
        recurrence: companies.recurrence,
        trialExpiration: companies.trialExpiration,
        timezone: companies.timezone,
      },
      plan: plans,
      users: sql<number>`(select count(*)::int from ${users} where ${users.companyId} = ${companies.id})`,
      connections: sql<number>`(select count(*)::int from ${whatsapps} where ${whatsapps.companyId} = ${companies.id})`,
      queues: sql<number>`(select count(*)::int from ${queues} where ${queues.companyId} = ${companies.id})`,
    })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .limit(1);

  return row ?? null;
};
