import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps, tsz } from './_columns';
import { companyRef, oneOf, uniqueNamePerCompany } from './_tenant';
import { whatsapps } from './connections';
import { users } from './core';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;

/**
 * Company API tokens for the external messages API. Only a SHA-256 hash is stored; the token is shown
 * once at creation, and lists show `tokenPrefix`.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    name: varchar({ length: 50 }).notNull(),
    tokenHash: varchar({ length: 64 }).notNull(),
    tokenPrefix: varchar({ length: 12 }).notNull(),
    /** connection used for sends; null = the company default */
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    createdById: integer().references(() => users.id, { onDelete: 'set null' }),
    lastUsedAt: tsz(),
    expiresAt: tsz(),
    revokedAt: tsz(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('api_tokens_hash_unique').on(t.tokenHash),
    uniqueNamePerCompany('api_tokens_company_name_unique', t.companyId, t.name),
  ],
);

/** outbound webhooks: events of the company POSTed to `url`, signed with `signingSecret` */
export const webhooks = pgTable(
  'webhooks',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    name: varchar({ length: 50 }).notNull(),
    url: varchar({ length: 2000 }).notNull(),
    /** event names subscribed to; empty = none */
    events: jsonb().$type<string[]>().notNull().default([]),
    /** secret: HMAC key of the signature header */
    signingSecret: varchar({ length: 128 }).notNull(),
    active: boolean().notNull().default(true),
    /** only events of this connection; null = all */
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'cascade' }),
    consecutiveFailures: integer().notNull().default(0),
    lastDeliveryAt: tsz(),
    ...timestamps,
  },
  (t) => [uniqueNamePerCompany('webhooks_company_name_unique', t.companyId, t.name)],
);

/** delivery log and retry state of each webhook call */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: companyRef(),
    webhookId: integer()
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: varchar({ length: 64 }).notNull(),
    payload: jsonb().$type<unknown>().notNull(),
    status: varchar({ length: 10 }).notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: tsz(),
    responseStatus: integer(),
    /** first few KB of the answer */
    responseBody: text(),
    error: text(),
    deliveredAt: tsz(),
    ...timestamps,
  },
  (t) => [
    index('webhook_deliveries_webhook_created_idx').on(t.webhookId, t.createdAt.desc().nullsFirst()),
    index('webhook_deliveries_pending_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    check('webhook_deliveries_status_check', oneOf(t.status, WEBHOOK_DELIVERY_STATUSES)),
  ],
);

/**
 * `Idempotency-Key`s of the external messages API (`POST /api/messages/send`), per company: the first request
 * with a key claims its row (`status` null while it runs), and stores its answer; the same key within 24 h
 * answers that stored answer and sends nothing. Older rows are replaced by the next use of the key.
 */
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: companyRef(),
    /** SHA-256 of the client's key (hex): any length or character the client chose, one fixed size stored */
    keyHash: varchar({ length: 64 }).notNull(),
    /** the connection whose token made the request */
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    /** the HTTP status answered; null while the first request runs */
    status: integer(),
    response: jsonb().$type<unknown>(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('api_idempotency_keys_company_key_unique').on(t.companyId, t.keyHash),
    index('api_idempotency_keys_created_idx').on(t.createdAt),
  ],
);
