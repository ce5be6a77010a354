import type { TSandboxOutboxMessage } from '@zelo/shared';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { tsz } from './_columns';
import { companyRef, oneOf } from './_tenant';
import { whatsapps } from './connections';

export const SANDBOX_OUTBOX_TYPES = ['text', 'media', 'location', 'vcard'] as const;

/**
 * The far side of a sandbox connection (channels/sandbox): what each simulated customer received from
 * the business, with the acks it reached, edits and deletes, so the customer simulator finds it again
 * after a restart. Bounded per customer and per connection by the driver (SANDBOX_LIMITS); deleted with
 * its connection or company.
 */
export const sandboxOutbox = pgTable(
  'sandbox_outbox',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: companyRef(),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    /** the customer's number, or a group's id */
    customer: varchar({ length: 64 }).notNull(),
    externalId: varchar({ length: 64 }).notNull(),
    type: varchar({ length: 10 }).notNull(),
    body: text().notNull().default(''),
    media: jsonb().$type<NonNullable<TSandboxOutboxMessage['media']>>(),
    location: jsonb().$type<NonNullable<TSandboxOutboxMessage['location']>>(),
    vcard: text(),
    quotedExternalId: varchar({ length: 128 }),
    /** 1 pending, 2 server, 3 delivered, 4 read */
    ack: smallint().notNull().default(1),
    edited: boolean().notNull().default(false),
    deleted: boolean().notNull().default(false),
    sentAt: tsz().notNull().defaultNow(),
  },
  (t) => [
    index('sandbox_outbox_customer_idx').on(t.companyId, t.whatsappId, t.customer, t.id),
    /** a send carrying a message id already received keeps one copy (TSendOptions.messageId) */
    uniqueIndex('sandbox_outbox_external_unique').on(t.whatsappId, t.externalId),
    check('sandbox_outbox_type_check', oneOf(t.type, SANDBOX_OUTBOX_TYPES)),
    check('sandbox_outbox_ack_check', sql`ack between 1 and 4`),
  ],
);

/** the customers' messages the business marked read, as the sandbox's far side saw the read receipts */
export const sandboxReadMarks = pgTable(
  'sandbox_read_marks',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: companyRef(),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    customer: varchar({ length: 64 }).notNull(),
    externalId: varchar({ length: 128 }).notNull(),
  },
  (t) => [uniqueIndex('sandbox_read_marks_unique').on(t.companyId, t.whatsappId, t.customer, t.externalId)],
);
