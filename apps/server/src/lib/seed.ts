import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { TDb } from '../db/client';
import { companies, plans, users } from '../db/schema/core';
import { hashPassword } from '../modules/users/passwords';

/**
 * First start: a plan, the operator's company and its super user. The password comes from
 * ADMIN_PASSWORD or is generated and printed once.
 */
export const ensureSuperUser = async (
  db: TDb,
  opts: { email?: string; password?: string; log: Logger; print?: (line: string) => void },
) => {
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.super, true)).limit(1);
  if (existing.length) return null;
  const email = (opts.email ?? 'admin@zelo.local').toLowerCase();
  const password = opts.password ?? randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  const created = await db.transaction(async (tx) => {
    // nodes starting together: one seeds, the others find its super user
    await tx.execute(sql`select pg_advisory_xact_lock(72432)`);
    const again = await tx.select({ id: users.id }).from(users).where(eq(users.super, true)).limit(1);
    if (again.length) return false;
    const [plan] = await tx
      .insert(plans)
      .values({ name: 'Plano 1', users: 10, connections: 10, queues: 10, value: 30 })
      .onConflictDoNothing()
      .returning();
    const planId =
      plan?.id ?? (await tx.select({ id: plans.id }).from(plans).where(sql`lower(name) = 'plano 1'`))[0].id;
    const [company] = await tx
      .insert(companies)
      .values({ name: 'Zelo', email, planId, dueDate: '2099-12-31', recurrence: 'ANUAL' })
      .returning();
    await tx.insert(users).values({
      companyId: company.id,
      name: 'Admin',
      email,
      passwordHash,
      profile: 'admin',
      super: true,
      allTicket: 'enabled',
      canSeeTicketsWithoutQueue: true,
    });

    return true;
  });
  if (!created) return null;
  if (!opts.password) {
    const print = opts.print ?? ((line: string) => process.stdout.write(`${line}\n`));
    print('');
    print('  First super user created (shown only this once):');
    print(`    e-mail:   ${email}`);
    print(`    password: ${password}`);
    print('');
  } else {
    opts.log.info({ email }, 'first super user created from ADMIN_EMAIL / ADMIN_PASSWORD');
  }

  return { email, password };
};
