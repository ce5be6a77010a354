import { index, integer, pgTable, smallint, varchar } from 'drizzle-orm/pg-core';
import { timestamps, tsz } from './_columns';
import { companyRef } from './_tenant';
import { users } from './core';

/** admins who asked for the weekly summary by e-mail (modules/reports/weekly-mail.ts) */
export const reportMailOptins = pgTable(
  'report_mail_optins',
  {
    userId: integer()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    /** yyyy-MM-dd, the Monday (company zone) of the last week whose summary went to this user */
    lastWeek: varchar({ length: 10 }),
    /**
     * a sender holds the row until then (its claim: the week's mail is on its way), or a failed send waits until
     * then for its retry; null when nothing is pending
     */
    busyUntil: tsz(),
    /** failed sends of the pending week (the retry's backoff), back to 0 once it went */
    attempts: smallint().notNull().default(0),
    ...timestamps,
  },
  (t) => [index('report_mail_optins_company_idx').on(t.companyId)],
);
