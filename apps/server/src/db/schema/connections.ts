import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps, tsz } from './_columns';
import { companyRef, oneOf, uniqueNamePerCompany } from './_tenant';
import { flowBuilders, prompts, queueIntegrations } from './automation';
import { queues } from './queues';

export const CHANNEL_PROVIDERS = ['sandbox', 'baileys', 'cloud-api'] as const;
export type TChannelProvider = (typeof CHANNEL_PROVIDERS)[number];

export const CONNECTION_STATUS_VALUES = [
  'OPENING',
  'qrcode',
  'PAIRING',
  'CONNECTED',
  'DISCONNECTED',
  'TIMEOUT',
] as const;

/**
 * Non-secret, provider-specific settings, e.g. cloud-api `{ phoneNumberId, businessAccountId, apiVersion }`,
 * sandbox `{ phoneNumber }`. Secrets go to `channelSecret`.
 */
export type TChannelConfig = Record<string, unknown>;
/** Provider secrets, e.g. cloud-api `{ accessToken, appSecret, verifyToken }`. Never returned in lists. */
export type TChannelSecret = Record<string, string>;

/** A WhatsApp connection ("whatsapp" in the API and the spec). */
export const whatsapps = pgTable(
  'whatsapps',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    name: varchar({ length: 50 }).notNull(),
    provider: varchar({ length: 20 }).notNull().default('sandbox'),
    channelConfig: jsonb().$type<TChannelConfig>().notNull().default({}),
    /** secret: provider credentials, each value sealed (lib/secrets.ts); masked everywhere */
    channelSecret: jsonb().$type<TChannelSecret>().notNull().default({}),
    status: varchar({ length: 20 }).notNull().default('DISCONNECTED'),
    qrcode: text().notNull().default(''),
    retries: integer().notNull().default(0),
    /** why the session last failed (TConnectionError), null when it did not */
    lastError: varchar({ length: 40 }),
    /** the number the session is logged in as (digits), once known */
    phoneNumber: varchar({ length: 32 }).notNull().default(''),
    connectedAt: tsz(),
    disconnectedAt: tsz(),
    isDefault: boolean().notNull().default(false),
    /**
     * secret: the connection's API token (bearer of the external send API), sealed (lib/secrets.ts) so the
     * admin's editor and the messages-API page can show it again; null = none. Never looked up: see tokenHash.
     */
    token: varchar({ length: 400 }),
    /** the token's keyed hash (lib/secrets.ts lookupHash): what a request's bearer is found by. Globally unique. */
    tokenHash: varchar({ length: 64 }),
    greetingMessage: text().notNull().default(''),
    /** closing message (spelled so by the spec) */
    complationMessage: text().notNull().default(''),
    outOfHoursMessage: text().notNull().default(''),
    ratingMessage: text().notNull().default(''),
    expiresInactiveMessage: text().notNull().default(''),
    /** minutes without a customer reply after our last message before an open ticket is closed; 0 = off */
    expiresTicket: integer().notNull().default(0),
    /** minutes between two sends of the queue menu */
    timeUseBotQueues: integer().notNull().default(0),
    /** maximum number of queue-menu sends per ticket */
    maxUseBotQueues: integer().notNull().default(3),
    /** pending tickets without a queue move to this queue after `timeToTransfer` minutes */
    transferQueueId: integer().references(() => queues.id, { onDelete: 'set null' }),
    timeToTransfer: integer().notNull().default(0),
    /** open/pending chats with no activity for this many minutes are closed; 0 = off */
    closeOpenChatsAfterMinutes: integer().notNull().default(0),
    promptId: integer().references(() => prompts.id, { onDelete: 'set null' }),
    integrationId: integer().references(() => queueIntegrations.id, { onDelete: 'set null' }),
    flowIdWelcome: integer().references(() => flowBuilders.id, { onDelete: 'set null' }),
    flowIdNotPhrase: integer().references(() => flowBuilders.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    uniqueNamePerCompany('whatsapps_company_name_unique', t.companyId, t.name),
    uniqueIndex('whatsapps_token_hash_unique').on(t.tokenHash),
    /** at most one default connection per company */
    uniqueIndex('whatsapps_company_default_unique')
      .on(t.companyId)
      .where(sql`is_default`),
    check('whatsapps_provider_check', oneOf(t.provider, CHANNEL_PROVIDERS)),
    check('whatsapps_status_check', oneOf(t.status, CONNECTION_STATUS_VALUES)),
    check(
      'whatsapps_minutes_check',
      sql`expires_ticket >= 0 and time_use_bot_queues >= 0 and max_use_bot_queues >= 0 and time_to_transfer >= 0 and close_open_chats_after_minutes >= 0`,
    ),
  ],
);

/** queues offered by a connection's menu */
export const whatsappQueues = pgTable(
  'whatsapp_queues',
  {
    companyId: companyRef(),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    queueId: integer()
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.queueId] }), index('whatsapp_queues_queue_idx').on(t.queueId)],
);

/**
 * Channel session state kept in the database (Baileys creds and signal keys), one row per key so a key
 * update rewrites one small row. Machinery table: never exposed through the API; it goes with its connection.
 * Keys look like `creds`, `pre-key-12`, `session-<jid>`…; values are the driver's serialised JSON.
 */
export const channelAuthState = pgTable(
  'channel_auth_state',
  {
    connectionId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    key: varchar({ length: 255 }).notNull(),
    value: text().notNull(),
    updatedAt: tsz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.key] })],
);

/** the phone's address book as the channel reports it, used by "import contacts" */
export const channelContacts = pgTable(
  'channel_contacts',
  {
    companyId: companyRef(),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    /** channel id: `<digits>@s.whatsapp.net` or `<id>@lid` */
    jid: varchar({ length: 128 }).notNull(),
    name: varchar({ length: 200 }).notNull().default(''),
    notify: varchar({ length: 200 }).notNull().default(''),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.jid] })],
);
