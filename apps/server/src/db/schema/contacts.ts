import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps, tsz } from './_columns';
import { companyRef } from './_tenant';
import { companies } from './core';
import { whatsapps } from './connections';

export const contacts = pgTable(
  'contacts',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    name: varchar({ length: 200 }).notNull(),
    /** digits with country code; for a group, the group id */
    number: varchar({ length: 64 }).notNull(),
    email: varchar({ length: 254 }).notNull().default(''),
    profilePicUrl: text().notNull().default(''),
    profilePicUpdatedAt: tsz(),
    isGroup: boolean().notNull().default(false),
    /** a flow test run's simulated customer (flows/test-run.ts): in no list, count or event, deleted with its run */
    isTest: boolean().notNull().default(false),
    /** bots, integrations and AI ignore this contact */
    disableBot: boolean().notNull().default(false),
    /** WhatsApp privacy id (`<id>@lid`) when the channel reports one */
    lid: varchar({ length: 128 }),
    /** the connection it was first seen on */
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    ...timestamps,
    // `search` (not declared here, so no row read through drizzle carries it): the name and e-mail folded and
    // lowercased, a column PostgreSQL generates; it and the substring-search indexes over it and over `number`
    // are written by hand in migration 0025 (contacts.repo.ts says how the search uses them)
  },
  (t) => [
    uniqueIndex('contacts_company_number_unique').on(t.companyId, t.number),
    uniqueIndex('contacts_company_lid_unique').on(t.companyId, t.lid).where(sql`lid is not null`),
    index('contacts_company_name_idx').on(t.companyId, sql`lower(${t.name})`),
    index('contacts_whatsapp_idx').on(t.whatsappId),
    /** the dashboard's leads at the edges of a window not on a 15-minute mark */
    index('contacts_company_created_idx').on(t.companyId, t.createdAt),
    // the few simulated customers of flow test runs, for their sweep (flows/test-run.ts)
    index('contacts_test_idx')
      .on(t.updatedAt)
      .where(sql`${t.isTest}`),
  ],
);

/**
 * How many contacts a company has (flow test runs' simulated customers not counted): the contacts page's count
 * without a filter. Kept by statement triggers on `contacts` (migration 0025), so every write path counts.
 */
export const contactCounts = pgTable('contact_counts', {
  companyId: integer()
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  contacts: integer().notNull().default(0),
});

/** free name/value pairs of a contact, exposed as `extraInfo` */
export const contactCustomFields = pgTable(
  'contact_custom_fields',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    name: varchar({ length: 100 }).notNull(),
    value: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [index('contact_custom_fields_contact_idx').on(t.contactId)],
);
