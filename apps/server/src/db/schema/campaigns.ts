import {
  boolean,
  check,
  foreignKey,
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
import { contacts } from './contacts';
import { files } from './files';
import { tags } from './tags';

export const CAMPAIGN_STATUS_VALUES = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
export const CAMPAIGN_SHIPPING_STATES = ['queued', 'sent', 'failed'] as const;

export const contactLists = pgTable(
  'contact_lists',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    name: varchar({ length: 100 }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueNamePerCompany('contact_lists_company_name_unique', t.companyId, t.name)],
);

export const contactListItems = pgTable(
  'contact_list_items',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    contactListId: integer()
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    name: varchar({ length: 100 }).notNull(),
    number: varchar({ length: 64 }).notNull(),
    email: varchar({ length: 254 }).notNull().default(''),
    /** null = not checked yet (or the check failed); only `true` items receive campaigns */
    isWhatsappValid: boolean(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contact_list_items_list_number_unique').on(t.contactListId, t.number),
    index('contact_list_items_list_name_idx').on(t.contactListId, t.name),
  ],
);

export const campaigns = pgTable(
  'campaigns',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    name: varchar({ length: 50 }).notNull(),
    message1: text().notNull().default(''),
    message2: text().notNull().default(''),
    message3: text().notNull().default(''),
    message4: text().notNull().default(''),
    message5: text().notNull().default(''),
    status: varchar({ length: 15 }).notNull().default('INATIVA'),
    scheduledAt: tsz(),
    completedAt: tsz(),
    /** audience from the contacts of tickets carrying this tag (API field `tagListId`) */
    tagId: integer().references(() => tags.id, { onDelete: 'set null' }),
    contactListId: integer().references(() => contactLists.id, { onDelete: 'set null' }),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    fileListId: integer().references(() => files.id, { onDelete: 'set null' }),
    mediaPath: varchar({ length: 255 }),
    mediaName: varchar({ length: 255 }),
    ...timestamps,
  },
  (t) => [
    uniqueNamePerCompany('campaigns_company_name_unique', t.companyId, t.name),
    index('campaigns_status_scheduled_idx').on(t.status, t.scheduledAt),
    check('campaigns_status_check', oneOf(t.status, CAMPAIGN_STATUS_VALUES)),
  ],
);

/** one row per (campaign, recipient): the idempotency key of a dispatch */
export const campaignShippings = pgTable(
  'campaign_shippings',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    campaignId: integer()
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    /** FK declared below (the generated name would exceed 63 characters) */
    contactListItemId: integer(),
    /** the contact the message reached (and whose ticket records it) */
    contactId: integer().references(() => contacts.id, { onDelete: 'set null' }),
    number: varchar({ length: 64 }).notNull(),
    /** the final text sent */
    message: text().notNull().default(''),
    state: varchar({ length: 10 }).notNull().default('queued'),
    /** planned send time from the interval plan */
    scheduledFor: tsz(),
    jobId: varchar({ length: 64 }),
    attempts: integer().notNull().default(0),
    /** when it was sent (the ancestor's name) */
    deliveredAt: tsz(),
    error: text(),
    /** the recipient's name and e-mail at planning time ({nome}, {email}, the report) */
    name: varchar({ length: 200 }).notNull().default(''),
    email: varchar({ length: 254 }).notNull().default(''),
    /** the transport message id derived from (campaign, recipient): a retried send carries the same one */
    messageId: varchar({ length: 64 }),
    /** the stored message of the text (its ack gives delivered / read) */
    messageRowId: integer(),
    /** a dispatch holds the row until then (a crashed one lets go when it passes) */
    claimedUntil: tsz(),
    /** a send was retried after a crash on a transport without message ids: it may have arrived twice */
    atLeastOnce: boolean().notNull().default(false),
    failedAt: tsz(),
    ...timestamps,
  },
  (t) => [
    foreignKey({
      name: 'campaign_shippings_contact_list_item_fk',
      columns: [t.contactListItemId],
      foreignColumns: [contactListItems.id],
    }).onDelete('set null'),
    uniqueIndex('campaign_shippings_campaign_item_unique').on(t.campaignId, t.contactListItemId),
    /** the audience is deduplicated by number */
    uniqueIndex('campaign_shippings_campaign_number_unique').on(t.campaignId, t.number),
    index('campaign_shippings_due_idx').on(t.state, t.scheduledFor),
    index('campaign_shippings_campaign_state_idx').on(t.campaignId, t.state),
    /** an ack of a stored message finds the campaign that sent it */
    index('campaign_shippings_message_row_idx').on(t.messageRowId),
    check('campaign_shippings_state_check', oneOf(t.state, CAMPAIGN_SHIPPING_STATES)),
  ],
);

/** keys: messageInterval, longerIntervalAfter, greaterInterval, variables */
export const campaignSettings = pgTable(
  'campaign_settings',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    key: varchar({ length: 64 }).notNull(),
    value: jsonb().$type<unknown>().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('campaign_settings_company_key_unique').on(t.companyId, t.key)],
);
