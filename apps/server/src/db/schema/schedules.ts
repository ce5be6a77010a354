import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { timestamps, tsz } from './_columns';
import { companyRef, oneOf } from './_tenant';
import { whatsapps } from './connections';
import { contacts } from './contacts';
import { users } from './core';
import { tickets } from './tickets';

export const SCHEDULE_STATUS_VALUES = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO'] as const;

/** scheduled messages: sent at `sendAt` and recorded in the contact's ticket */
export const schedules = pgTable(
  'schedules',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    body: text().notNull(),
    sendAt: tsz().notNull(),
    sentAt: tsz(),
    status: varchar({ length: 10 }).notNull().default('PENDENTE'),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** the ticket it was recorded in (or scheduled from) */
    ticketId: integer().references(() => tickets.id, { onDelete: 'set null' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** connection to send through; null = the contact's last one, else the company default */
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    mediaPath: varchar({ length: 255 }),
    mediaName: varchar({ length: 255 }),
    errorMessage: text(),
    /** job queue id of the pending send */
    jobId: varchar({ length: 64 }),
    ...timestamps,
  },
  (t) => [
    index('schedules_company_send_idx').on(t.companyId, t.sendAt),
    index('schedules_due_idx').on(t.sendAt).where(sql`status in ('PENDENTE', 'AGENDADA')`),
    index('schedules_contact_idx').on(t.contactId),
    check('schedules_status_check', oneOf(t.status, SCHEDULE_STATUS_VALUES)),
  ],
);
