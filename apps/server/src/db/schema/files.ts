import { index, integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns';
import { companyRef, uniqueNamePerCompany } from './_tenant';

/** file lists (sent before a campaign's message) */
export const files = pgTable(
  'files',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    name: varchar({ length: 100 }).notNull(),
    message: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueNamePerCompany('files_company_name_unique', t.companyId, t.name)],
);

export const filesOptions = pgTable(
  'files_options',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    fileId: integer()
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    name: varchar({ length: 255 }).notNull().default(''),
    /** random stored file name under the media directory */
    path: varchar({ length: 255 }).notNull().default(''),
    /** mime type */
    mediaType: varchar({ length: 127 }).notNull().default(''),
    ...timestamps,
  },
  (t) => [index('files_options_file_idx').on(t.fileId)],
);
