import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps, tsz } from './_columns';
import { companyRef, oneOf } from './_tenant';
import { flowBuilders } from './automation';
import { tickets } from './tickets';

export const FLOW_RUN_STATUSES = ['running', 'waiting', 'done', 'failed'] as const;
/** what a waiting run waits for: the customer's answer (menu, question), a due time (interval), or an AI/Typebot turn */
export const FLOW_RUN_WAITS = ['answer', 'interval', 'bot'] as const;

/**
 * One run of a flow on a ticket (modules/flows/engine). `nodeId` is the node the run waits on (status
 * waiting) or executes next (running); every change is made under the row's lock (`select … for update`),
 * so a burst of messages, on one node or several, never executes a step twice. At most one active run
 * (running or waiting) per ticket.
 */
export const flowRuns = pgTable(
  'flow_runs',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    flowId: integer().references(() => flowBuilders.id, { onDelete: 'set null' }),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    status: varchar({ length: 10 }).notNull().default('running'),
    wait: varchar({ length: 10 }),
    nodeId: varchar({ length: 100 }),
    /** variables collected so far (question answers), `{{name}}` in every text */
    variables: jsonb().$type<Record<string, string>>().notNull().default({}),
    /** unknown answers to the current menu */
    retries: integer().notNull().default(0),
    /** steps executed */
    steps: integer().notNull().default(0),
    /** an interval in progress: when the run goes on */
    resumeAt: tsz(),
    /** a test run from the editor (runs an inactive flow) */
    test: boolean().notNull().default(false),
    reason: varchar({ length: 50 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('flow_runs_active_ticket_unique').on(t.ticketId).where(sql`status in ('running', 'waiting')`),
    index('flow_runs_company_idx').on(t.companyId, t.flowId),
    index('flow_runs_due_idx').on(t.resumeAt).where(sql`wait = 'interval'`),
    check('flow_runs_status_check', oneOf(t.status, FLOW_RUN_STATUSES)),
  ],
);

/** the step log of a run: one row per executed node (the benchmark counts them) */
export const flowRunSteps = pgTable(
  'flow_run_steps',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    runId: integer()
      .notNull()
      .references(() => flowRuns.id, { onDelete: 'cascade' }),
    nodeId: varchar({ length: 100 }),
    nodeType: varchar({ length: 20 }),
    status: varchar({ length: 10 }).notNull(),
    reason: varchar({ length: 50 }),
    createdAt: tsz().notNull().defaultNow(),
  },
  (t) => [index('flow_run_steps_run_idx').on(t.runId, t.id)],
);
