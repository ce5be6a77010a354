import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps, tsvector, tsz } from './_columns';
import { companyRef, oneOf } from './_tenant';
import { flowBuilders, prompts, queueIntegrations } from './automation';
import { whatsapps } from './connections';
import { contacts } from './contacts';
import { users } from './core';
import { queueOptions, queues } from './queues';
import { tags } from './tags';

export const TICKET_STATUS_VALUES = ['open', 'pending', 'closed'] as const;

/** flow-engine state kept on the ticket; `variables` holds the answers collected by question nodes */
export type TTicketDataWebhook = { variables?: Record<string, string> } & Record<string, unknown>;

/**
 * One ticket per conversation. At most one open or pending ticket per (company, connection, contact):
 * find-or-create runs in a transaction and relies on `tickets_one_active_unique`.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    uuid: uuid().notNull().defaultRandom(),
    status: varchar({ length: 10 }).notNull().default('pending'),
    unreadMessages: integer().notNull().default(0),
    lastMessage: text().notNull().default(''),
    lastMessageAt: tsz(),
    isGroup: boolean().notNull().default(false),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** null only after its connection was deleted */
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    queueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    /** protocol code shown to the customer (`{{protocol}}`) */
    code: varchar({ length: 32 }),
    closedAt: tsz(),
    /** whether the last message was ours (inactivity closing) */
    fromMe: boolean().notNull().default(false),
    // queue menu / option tree
    chatbot: boolean().notNull().default(false),
    queueOptionId: integer().references(() => queueOptions.id, { onDelete: 'set null' }),
    amountUsedBotQueues: integer().notNull().default(0),
    // integrations and AI
    useIntegration: boolean().notNull().default(false),
    integrationId: integer().references(() => queueIntegrations.id, { onDelete: 'set null' }),
    promptId: integer().references(() => prompts.id, { onDelete: 'set null' }),
    typebotSessionId: varchar({ length: 128 }),
    typebotStatus: boolean().notNull().default(false),
    // flow builder
    /** a flow is running or parked on this ticket */
    flowWebhook: boolean().notNull().default(false),
    /** node id the flow is parked on */
    lastFlowId: varchar({ length: 64 }),
    hashFlowId: varchar({ length: 64 }),
    /** id of the flow the ticket is parked in */
    flowStopped: integer().references(() => flowBuilders.id, { onDelete: 'set null' }),
    dataWebhook: jsonb().$type<TTicketDataWebhook>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tickets_uuid_unique').on(t.uuid),
    uniqueIndex('tickets_one_active_unique')
      .on(t.companyId, t.whatsappId, t.contactId)
      .where(sql`status in ('open', 'pending')`),
    index('tickets_list_idx').on(t.companyId, t.status, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    /** the lists without a status filter (search over all statuses) keep their order without a sort */
    index('tickets_company_updated_idx').on(t.companyId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    /**
     * who may see a ticket (status, queue, user) without reading it: the list's count walks this index
     * alone, and an agent's own or queue tickets are found here instead of among all the company's
     */
    index('tickets_visibility_idx').on(t.companyId, t.status, t.queueId, t.userId),
    index('tickets_contact_idx').on(t.contactId, t.updatedAt.desc().nullsFirst()),
    index('tickets_whatsapp_idx').on(t.whatsappId),
    index('tickets_queue_idx').on(t.queueId),
    index('tickets_user_idx').on(t.userId),
    check('tickets_status_check', oneOf(t.status, TICKET_STATUS_VALUES)),
    check('tickets_unread_check', sql`unread_messages >= 0`),
  ],
);

export const ticketTags = pgTable(
  'ticket_tags',
  {
    companyId: companyRef(),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    tagId: integer()
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.tagId] }), index('ticket_tags_tag_idx').on(t.tagId)],
);

export const ticketNotes = pgTable(
  'ticket_notes',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    note: text().notNull(),
    ...timestamps,
  },
  (t) => [
    index('ticket_notes_ticket_idx').on(t.ticketId, t.createdAt),
    index('ticket_notes_contact_idx').on(t.contactId, t.createdAt),
  ],
);

/**
 * One row per attendance cycle of a ticket; the current one has `finishedAt` null (at most one per ticket).
 * The dashboard aggregates these rows in SQL.
 */
export const ticketTrackings = pgTable(
  'ticket_trackings',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    queueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    queuedAt: tsz(),
    startedAt: tsz(),
    finishedAt: tsz(),
    ratingAt: tsz(),
    chatbotAt: tsz(),
    rated: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('ticket_trackings_current_unique').on(t.ticketId).where(sql`finished_at is null`),
    index('ticket_trackings_ticket_idx').on(t.ticketId, t.id),
    index('ticket_trackings_company_queued_idx').on(t.companyId, t.queuedAt),
    /**
     * by finish, acceptance and creation: the dashboard's raw reads at a window's edges off the quarter-hour
     * marks (the figures themselves come from `dashboard_rollup`, migration 0014)
     */
    index('ticket_trackings_company_finished_idx').on(t.companyId, t.finishedAt, t.userId, t.startedAt, t.ratingAt),
    index('ticket_trackings_company_started_idx').on(t.companyId, t.startedAt, t.queuedAt),
    index('ticket_trackings_company_created_idx').on(t.companyId, t.createdAt),
    index('ticket_trackings_company_user_idx').on(t.companyId, t.userId, t.finishedAt),
  ],
);

/** customer ratings (1 unsatisfied, 2 satisfied, 3 very satisfied) */
export const userRatings = pgTable(
  'user_ratings',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    /** the attendance cycle rated */
    ticketTrackingId: integer().references(() => ticketTrackings.id, { onDelete: 'set null' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    rate: smallint().notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('user_ratings_tracking_unique').on(t.ticketTrackingId),
    index('user_ratings_company_user_idx').on(t.companyId, t.userId, t.createdAt),
    index('user_ratings_ticket_idx').on(t.ticketId),
    check('user_ratings_rate_check', sql`rate between 1 and 3`),
  ],
);

/**
 * The words of a ticket (its contact's name and number, its messages' text) for the list search, as
 * stripped tsvectors in chunks: a stored message adds its words to the ticket's last chunk while that has
 * fewer than ~1,000 lexemes, else starts a new one, so a long conversation never rewrites (nor re-indexes)
 * more than one small chunk per message. Kept apart from `tickets` so ticket reads never carry it.
 */
export const ticketSearch = pgTable(
  'ticket_search',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    ticketId: integer()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    companyId: companyRef(),
    words: tsvector().notNull(),
  },
  (t) => [index('ticket_search_ticket_idx').on(t.ticketId), index('ticket_search_words_idx').using('gin', t.words)],
);
