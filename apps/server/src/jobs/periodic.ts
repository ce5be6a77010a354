import type { TDb } from '../db/client';
import { purgeDeadSessions } from '../modules/auth/auth.repo';
import { createDueInvoices } from '../modules/invoices/invoices.repo';
import { purgeOldResets } from '../modules/password-reset/password-reset.repo';
import { markIdleUsersOffline } from '../modules/users/users.repo';
import type { TJobDefinition } from './boss';

export const purgeExpiredAuth = async (db: TDb) => {
  const dayAgo = new Date(Date.now() - 86_400_000);
  await purgeOldResets(db, dayAgo);
  await purgeDeadSessions(db, dayAgo);
};

/** the browser pings every 5 minutes; a minute of slack */
const IDLE_MINUTES = 6;

/** Periodic work: pg-boss schedules, run once across every node. */
export const periodicJobs = (db: TDb, opts: { invoiceLeadDays?: number } = {}): TJobDefinition[] => [
  {
    name: 'invoices-due',
    cron: '7 * * * *',
    handler: async () => void (await createDueInvoices(db, opts.invoiceLeadDays)),
  },
  { name: 'auth-purge', cron: '17 * * * *', handler: () => purgeExpiredAuth(db) },
  {
    name: 'users-presence',
    cron: '* * * * *',
    handler: async () => void (await markIdleUsersOffline(db, IDLE_MINUTES)),
  },
];
