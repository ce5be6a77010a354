import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestamps, tsz } from './_columns';
import { companyRef, oneOf } from './_tenant';
import { queueIntegrations } from './automation';
import { tickets } from './tickets';

export const INTEGRATION_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/**
 * Signed deliveries of customer messages to n8n / webhook integrations: one row per message and integration,
 * retried with backoff by the sender (modules/queue-integrations/runtime/deliveries.ts) until it answers 2xx or
 * the attempts run out; the admin reads them as the integration's delivery log.
 */
export const integrationDeliveries = pgTable(
  'integration_deliveries',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    integrationId: integer()
      .notNull()
      .references(() => queueIntegrations.id, { onDelete: 'cascade' }),
    ticketId: integer().references(() => tickets.id, { onDelete: 'set null' }),
    /** the X-Zelo-Delivery header, the same on every attempt */
    deliveryId: uuid().notNull(),
    /** the exact JSON body signed and sent (the same bytes on every attempt) */
    payload: jsonb().notNull(),
    status: varchar({ length: 10 }).notNull().default('pending'),
    attempts: integer().notNull().default(0),
    lastStatus: integer(),
    lastError: text(),
    nextAttemptAt: tsz(),
    deliveredAt: tsz(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('integration_deliveries_delivery_unique').on(t.deliveryId),
    index('integration_deliveries_log_idx').on(t.companyId, t.integrationId, t.id),
    index('integration_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    check('integration_deliveries_status_check', oneOf(t.status, INTEGRATION_DELIVERY_STATUSES)),
  ],
);
