import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  varchar,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { timestamps } from './_columns';
import { companyRef, uniqueNamePerCompany } from './_tenant';
import { prompts, queueIntegrations } from './automation';
import { type TWorkingHourRow, users } from './core';

export const queues = pgTable(
  'queues',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    name: varchar({ length: 50 }).notNull(),
    /** hex colour, 3 to 9 characters */
    color: varchar({ length: 9 }).notNull(),
    greetingMessage: text().notNull().default(''),
    outOfHoursMessage: text().notNull().default(''),
    schedules: jsonb().$type<TWorkingHourRow[]>().notNull().default([]),
    /** position in the connection menu (ascending, nulls last) */
    orderQueue: integer(),
    integrationId: integer().references((): AnyPgColumn => queueIntegrations.id, { onDelete: 'set null' }),
    promptId: integer().references((): AnyPgColumn => prompts.id, { onDelete: 'set null' }),
    /**
     * fair automatic assignment (modules/assignment): a ticket waiting in this queue for a person goes to
     * the online, not paused member with the fewest open tickets, while that agent has fewer than
     * `autoAssignMax` open tickets (all queues counted)
     */
    autoAssign: boolean().notNull().default(false),
    autoAssignMax: integer().notNull().default(5),
    /** service-level targets (modules/sla): business minutes to a first response, business hours to resolution */
    slaFirstResponseMinutes: integer(),
    slaResolutionHours: integer(),
    ...timestamps,
  },
  (t) => [
    uniqueNamePerCompany('queues_company_name_unique', t.companyId, t.name),
    check('queues_auto_assign_max_check', sql`auto_assign_max between 1 and 100`),
  ],
);

/** chatbot menu tree of a queue; `parentId` null = top level (the API's `-1`) */
export const queueOptions = pgTable(
  'queue_options',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    queueId: integer()
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    parentId: integer().references((): AnyPgColumn => queueOptions.id, { onDelete: 'cascade' }),
    title: varchar({ length: 100 }).notNull(),
    message: text().notNull().default(''),
    /** what the customer types to choose it ("1", "2"…) */
    option: varchar({ length: 10 }).notNull(),
    ...timestamps,
  },
  (t) => [
    index('queue_options_queue_parent_idx').on(t.queueId, t.parentId, t.option),
    index('queue_options_parent_idx').on(t.parentId),
  ],
);

/** queue membership of users */
export const userQueues = pgTable(
  'user_queues',
  {
    companyId: companyRef(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    queueId: integer()
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.userId, t.queueId] }), index('user_queues_queue_idx').on(t.queueId)],
);
