import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns';
import { companies } from './core';

/** notices written by the super user; `companyId` null = shown to every company */
export const announcements = pgTable(
  'announcements',
  {
    id: serial().primaryKey(),
    companyId: integer().references(() => companies.id, { onDelete: 'cascade' }),
    /** 1 high, 2 medium, 3 low */
    priority: smallint().notNull().default(3),
    title: varchar({ length: 200 }).notNull(),
    text: text().notNull(),
    mediaPath: varchar({ length: 255 }),
    mediaName: varchar({ length: 255 }),
    /** active */
    status: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [
    index('announcements_company_idx').on(t.companyId, t.status, t.priority),
    check('announcements_priority_check', sql`priority between 1 and 3`),
  ],
);
