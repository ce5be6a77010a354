import { sql } from 'drizzle-orm';
import type { TDb } from '../db/client';
import { purgeOldResets } from '../modules/password-reset/password-reset.repo';
import type { TJobDefinition } from './boss';

/** Invoices for companies whose due date is under 20 days away (one per company and due date). */
export const createDueInvoices = (db: TDb) =>
  db.execute(sql`
    insert into invoices (company_id, detail, value, due_date, status)
    select c.id, p.name, p.value, c.due_date, 'open'
    from companies c join plans p on p.id = c.plan_id
    where c.status and c.due_date is not null
      and c.due_date::date < (now() at time zone c.timezone)::date + 20
    on conflict (company_id, due_date) do nothing`);

export const purgeExpiredAuth = async (db: TDb) => {
  const dayAgo = new Date(Date.now() - 86_400_000);
  await purgeOldResets(db, dayAgo);
  await db.execute(sql`delete from user_sessions where expires_at < now() or revoked_at < ${dayAgo}`);
};

/** users whose last sign of life is older than 6 minutes are offline (the browser pings every 5) */
export const markIdleUsersOffline = (db: TDb) =>
  db.execute(
    sql`update users set online = false where online and (last_seen_at is null or last_seen_at < now() - interval '6 minutes')`,
  );

export const periodicJobs = (db: TDb): TJobDefinition[] => [
  { name: 'invoices-due', cron: '7 * * * *', handler: async () => void (await createDueInvoices(db)) },
  { name: 'auth-purge', cron: '17 * * * *', handler: () => purgeExpiredAuth(db) },
  { name: 'users-presence', cron: '* * * * *', handler: async () => void (await markIdleUsersOffline(db)) },
];
