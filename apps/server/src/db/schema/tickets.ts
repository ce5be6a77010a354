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
    /** a flow test run's ticket (flows/test-run.ts): in no list, count or event, deleted with its run */
    isTest: boolean().notNull().default(false),
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
    // service-level targets of the current cycle (modules/sla/index.ts); the trigger of migration 0020 starts cycles
    slaStartedAt: tsz(),
    /** the due times need computing (new cycle, queue moved, a target changed) */
    slaDirty: boolean().notNull().default(false),
    slaFirstResponseDueAt: tsz(),
    slaResolutionDueAt: tsz(),
    slaFirstResponseAt: tsz(),
    slaFirstResponseBreachedAt: tsz(),
    slaResolutionBreachedAt: tsz(),
    /** within target (true), missed (false), undecided or no target (null) */
    slaFirstResponseMet: boolean(),
    slaResolutionMet: boolean(),
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
    /** a company's flow test tickets (few, short-lived): what the reports leave out (reports.repo.ts) */
    index('tickets_test_idx')
      .on(t.companyId)
      .where(sql`is_test`),
    /**
     * the dashboard's open and pending counts (dashboard.repo.ts `readFiguresAndUsers`) from the index alone: a busy
     * company's thousands of waiting tickets counted without a heap visit each (the `is_test` filter needed one)
     */
    index('tickets_active_count_idx')
      .on(t.companyId, t.status)
      .where(sql`status in ('open', 'pending') and not is_test`),
    /** each agent's open tickets, counted by automatic assignment at every decision */
    index('tickets_open_user_idx')
      .on(t.companyId, t.userId)
      .where(sql`status = 'open'`),
    /** the service-level check: open cycles whose due time is to be computed, or whose target is not yet missed */
    index('tickets_sla_dirty_idx')
      .on(t.id)
      .where(sql`sla_dirty`),
    index('tickets_sla_first_due_idx')
      .on(t.slaFirstResponseDueAt)
      .where(
        sql`sla_first_response_due_at is not null and sla_first_response_at is null and sla_first_response_breached_at is null and status <> 'closed'`,
      ),
    index('tickets_sla_resolution_due_idx')
      .on(t.slaResolutionDueAt)
      .where(sql`sla_resolution_due_at is not null and sla_resolution_breached_at is null and status <> 'closed'`),
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
    // ---- attendance metrics (modules/reports, migration 0018): instants recorded where they happen
    /** the first moment a person acted on the cycle: an accept, a user's change, the first agent reply */
    humanAt: tsz(),
    /** the first agent message of the cycle, and who sent it */
    firstReplyAt: tsz(),
    firstReplyUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** queue or attendant changes during the cycle */
    transfers: smallint().notNull().default(0),
    /** when the ticket was opened again after this cycle was resolved (a new cycle started) */
    reopenedAt: tsz(),
    // ---- figures computed from the instants and the messages (reports/metrics-compute.ts); null until computed
    /** the last bot/flow/AI message before a person acted (the customer waited for a person from then) */
    botUntil: tsz(),
    /** agent messages of the cycle, counted once it is resolved */
    replies: integer(),
    /** wall-clock seconds and business seconds (the company's or queue's working hours) */
    firstResponseS: integer(),
    firstResponseBs: integer(),
    resolutionS: integer(),
    resolutionBs: integer(),
    botS: integer(),
    botBs: integer(),
    /**
     * the cycle's service-level outcome (modules/sla): true within target, false missed, null undecided or no
     * target; copied from the ticket's `sla_*_met` when decided (trigger `tickets_sla_to_cycle`)
     */
    slaFirstResponseMet: boolean(),
    slaResolutionMet: boolean(),
    /** a cycle written before migration 0018, whose instants the backfill job still has to read from its messages */
    metricsBackfill: boolean().notNull().default(false),
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
    /** the reports' resolved conversations: resolution = the rating request, else the finish */
    index('ticket_trackings_company_resolved_idx').on(t.companyId, sql`coalesce(${t.ratingAt}, ${t.finishedAt})`),
    /** the reports' first responses, by when they were given */
    index('ticket_trackings_company_first_reply_idx').on(t.companyId, t.firstReplyAt),
    index('ticket_trackings_metrics_backfill_idx').on(t.id).where(sql`metrics_backfill`),
    /** cycles whose figures are due: a first reply or a resolution not yet measured */
    index('ticket_trackings_metrics_due_idx')
      .on(t.id)
      .where(
        sql`not metrics_backfill and ((first_reply_at is not null and first_response_s is null) or (coalesce(rating_at, finished_at) is not null and resolution_s is null))`,
      ),
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
    /** the agent who held the ticket when it was closed (the cycle's user) */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    rate: smallint().notNull(),
    /** the customer's free text after the rating (setting userRatingComment) */
    comment: text(),
    /** while set, the customer's next message is the comment (up to this time; cleared when taken or expired) */
    commentDueAt: tsz(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('user_ratings_tracking_unique').on(t.ticketTrackingId),
    index('user_ratings_comment_due_idx').on(t.commentDueAt).where(sql`comment_due_at is not null`),
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
