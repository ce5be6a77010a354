import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { tsz } from './_columns';
import { whatsapps } from './connections';
import { companies } from './core';

/**
 * Every transport's raw inbound delivery, stored before it is processed (ARCHITECTURE §7.3): the mapped
 * inbound message as JSON (`kind` 'message'), or a Cloud API webhook body that could not be mapped
 * (`kind` 'webhook'). A processed row is deleted; a failing one waits (`next_attempt_at`, backoff) and, after
 * the last attempt, stays as `failed`: the company's dead-letter list, which its admins see and retry.
 */
export const inboundDeliveries = pgTable(
  'inbound_deliveries',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    transport: varchar({ length: 20 }).notNull(),
    kind: varchar({ length: 10 }).notNull().default('message'),
    /** 'pending' (waiting or being processed) or 'failed' (dead letter) */
    status: varchar({ length: 10 }).notNull().default('pending'),
    payload: text().notNull(),
    attempts: smallint().notNull().default(0),
    lastError: text(),
    /** when the next attempt may claim the row; a claim moves it forward (a crashed worker's row comes back) */
    nextAttemptAt: tsz().notNull().defaultNow(),
    receivedAt: tsz().notNull().defaultNow(),
    lastAttemptAt: tsz(),
  },
  (t) => [
    index('inbound_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('inbound_deliveries_company_idx').on(t.companyId, t.status, t.id),
    check('inbound_deliveries_status_check', sql`${t.status} in ('pending', 'failed')`),
    check('inbound_deliveries_kind_check', sql`${t.kind} in ('message', 'webhook')`),
  ],
);
