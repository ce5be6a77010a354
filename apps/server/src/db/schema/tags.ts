import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, smallint, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns';
import { companyRef, uniqueNamePerCompany } from './_tenant';
import { users } from './core';

export const tags = pgTable(
  'tags',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    name: varchar({ length: 50 }).notNull(),
    color: varchar({ length: 9 }).notNull().default('#A4CCCC'),
    /** 1 = the tag is a kanban lane */
    kanban: smallint().notNull().default(0),
    /** who created it */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** its `ticket_tags` rows (tickets of any status), kept by statement triggers on `ticket_tags` (migration 0025) */
    ticketsCount: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueNamePerCompany('tags_company_name_unique', t.companyId, t.name),
    index('tags_company_kanban_idx').on(t.companyId, t.kanban),
    check('tags_kanban_check', sql`kanban in (0, 1)`),
  ],
);
