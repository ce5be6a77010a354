import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
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
import { timestamps } from './_columns';
import { companyRef, oneOf } from './_tenant';
import { whatsapps } from './connections';
import { contacts } from './contacts';
import { users } from './core';
import { tickets } from './tickets';

/** who produced a message; replaces the ancestor's invisible marker characters */
export const MESSAGE_SOURCES = ['customer', 'agent', 'bot', 'campaign', 'schedule', 'api', 'system'] as const;
export type TMessageSource = (typeof MESSAGE_SOURCES)[number];

export const messages = pgTable(
  'messages',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: companyRef(),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    contactId: integer().references(() => contacts.id, { onDelete: 'cascade' }),
    /** the connection it went through; with `externalId`, the dedupe key */
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    /** the channel's message id; null until an outbound send is acknowledged by the channel */
    externalId: varchar({ length: 128 }),
    /** caller-chosen id of an outbound send (optimistic UI, API idempotency) */
    clientId: varchar({ length: 64 }),
    /** the attendant who sent it */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    source: varchar({ length: 10 }).notNull().default('customer'),
    body: text().notNull().default(''),
    fromMe: boolean().notNull().default(false),
    read: boolean().notNull().default(false),
    /** 0 error, 1 pending, 2 server, 3 delivered, 4 read, 5 played */
    ack: smallint().notNull().default(0),
    /** image, audio, video, application, locationMessage, vcard, contactMessage, call_log…; null = text */
    mediaType: varchar({ length: 40 }),
    /** random stored file name under the media directory */
    mediaUrl: varchar({ length: 255 }),
    /** original file name */
    mediaName: varchar({ length: 255 }),
    mediaMime: varchar({ length: 127 }),
    isDeleted: boolean().notNull().default(false),
    isEdited: boolean().notNull().default(false),
    /** internal note visible to attendants only, never sent */
    isPrivate: boolean().notNull().default(false),
    quotedMsgId: bigint({ mode: 'number' }).references((): AnyPgColumn => messages.id, { onDelete: 'set null' }),
    remoteJid: varchar({ length: 128 }),
    participant: varchar({ length: 128 }),
    /** the channel's raw message (quoting, read receipts, deletion) */
    dataJson: jsonb().$type<Record<string, unknown>>(),
    /** failed sends */
    errorCode: varchar({ length: 64 }),
    errorMessage: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('messages_whatsapp_external_unique').on(t.whatsappId, t.externalId).where(sql`external_id is not null`),
    uniqueIndex('messages_company_client_unique').on(t.companyId, t.clientId).where(sql`client_id is not null`),
    index('messages_ticket_created_idx').on(t.ticketId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('messages_company_contact_idx').on(t.companyId, t.contactId, t.createdAt.desc().nullsFirst()),
    index('messages_quoted_idx').on(t.quotedMsgId).where(sql`quoted_msg_id is not null`),
    index('messages_user_idx').on(t.userId).where(sql`user_id is not null`),
    check('messages_ack_check', sql`ack between 0 and 5`),
    check('messages_source_check', oneOf(t.source, MESSAGE_SOURCES)),
  ],
);
