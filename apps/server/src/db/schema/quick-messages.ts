import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns';
import { companyRef } from './_tenant';
import { users } from './core';

/** canned answers; `isMedia` in the API is derived from `mediaPath` */
export const quickMessages = pgTable(
  'quick_messages',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    /** owner; null after the user was deleted */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    shortcode: varchar({ length: 50 }).notNull(),
    message: text().notNull().default(''),
    /** shared with every user of the company */
    geral: boolean().notNull().default(false),
    /** active */
    status: boolean().notNull().default(true),
    mediaPath: varchar({ length: 255 }),
    mediaName: varchar({ length: 255 }),
    ...timestamps,
  },
  (t) => [
    index('quick_messages_company_shortcode_idx').on(t.companyId, sql`lower(${t.shortcode})`),
    index('quick_messages_user_idx').on(t.userId),
  ],
);
