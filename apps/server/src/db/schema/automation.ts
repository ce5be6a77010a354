import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps } from './_columns';
import { companyRef, oneOf, uniqueNamePerCompany } from './_tenant';
import { whatsapps } from './connections';
import { users } from './core';
import { queues } from './queues';

export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder'] as const;
export type TIntegrationType = (typeof INTEGRATION_TYPES)[number];
export const FLOW_UPLOAD_KINDS = ['image', 'audio', 'video'] as const;

/** AI assistants (OpenAI-compatible chat completions) */
export const prompts = pgTable(
  'prompts',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    name: varchar({ length: 100 }).notNull(),
    prompt: text().notNull(),
    /** secret: masked in lists */
    apiKey: text().notNull().default(''),
    /** OpenAI-compatible endpoint; null = the official API */
    baseUrl: varchar({ length: 500 }),
    model: varchar({ length: 100 }).notNull().default('gpt-3.5-turbo-1106'),
    maxTokens: integer().notNull().default(100),
    temperature: numeric({ precision: 3, scale: 2, mode: 'number' }).notNull().default(1),
    /** how many recent messages of the ticket are sent as history */
    maxMessages: integer().notNull().default(10),
    promptTokens: bigint({ mode: 'number' }).notNull().default(0),
    completionTokens: bigint({ mode: 'number' }).notNull().default(0),
    totalTokens: bigint({ mode: 'number' }).notNull().default(0),
    /** queue the ticket moves to when the AI hands over to a human */
    queueId: integer().references((): AnyPgColumn => queues.id, { onDelete: 'set null' }),
    /** `texto` = text replies; otherwise an Azure neural voice name */
    voice: varchar({ length: 50 }).notNull().default('texto'),
    /** secret: Azure Speech key */
    voiceKey: text().notNull().default(''),
    voiceRegion: varchar({ length: 50 }).notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueNamePerCompany('prompts_company_name_unique', t.companyId, t.name),
    check('prompts_temperature_check', sql`temperature between 0 and 2`),
    check('prompts_limits_check', sql`max_tokens > 0 and max_messages >= 0`),
  ],
);

export const queueIntegrations = pgTable(
  'queue_integrations',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    type: varchar({ length: 15 }).notNull(),
    name: varchar({ length: 50 }).notNull(),
    /** dialogflow project id */
    projectName: varchar({ length: 100 }).notNull().default(''),
    /** secret: dialogflow service-account JSON */
    jsonContent: text().notNull().default(''),
    /** pt-BR, en, es */
    language: varchar({ length: 10 }).notNull().default('pt-BR'),
    /** n8n / webhook URL, or the Typebot base URL */
    urlN8N: varchar({ length: 500 }).notNull().default(''),
    typebotSlug: varchar({ length: 255 }).notNull().default(''),
    /** minutes after which a Typebot session is dropped; 0 = never */
    typebotExpires: integer().notNull().default(1),
    typebotKeywordFinish: varchar({ length: 100 }).notNull().default(''),
    typebotKeywordRestart: varchar({ length: 100 }).notNull().default(''),
    typebotRestartMessage: text().notNull().default(''),
    typebotUnknownMessage: text().notNull().default(''),
    /** milliseconds between two Typebot replies */
    typebotDelayMessage: integer().notNull().default(1000),
    /** flowbuilder: the flow it runs (deleting the flow deletes its integrations, as the flow list warns) */
    flowId: integer().references((): AnyPgColumn => flowBuilders.id, { onDelete: 'cascade' }),
    /** secret (sealed): n8n / webhook HMAC key of the deliveries */
    webhookSecret: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueNamePerCompany('queue_integrations_company_name_unique', t.companyId, t.name),
    index('queue_integrations_flow_idx').on(t.flowId),
    check('queue_integrations_type_check', oneOf(t.type, INTEGRATION_TYPES)),
  ],
);

/** React-Flow document of a flow; node and edge shapes are validated by the shared schemas */
export type TFlowDocument = { nodes: Record<string, unknown>[]; connections: Record<string, unknown>[] };

export const flowBuilders = pgTable(
  'flow_builders',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    name: varchar({ length: 50 }).notNull(),
    active: boolean().notNull().default(true),
    /** null for a new, never-saved flow */
    flow: jsonb().$type<TFlowDocument>(),
    /** answer variable names collected from question nodes */
    variables: jsonb().$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [uniqueNamePerCompany('flow_builders_company_name_unique', t.companyId, t.name)],
);

/** phrase triggers: an inbound message equal to `phrase` (case-insensitive) starts the flow */
export const flowCampaigns = pgTable(
  'flow_campaigns',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    name: varchar({ length: 50 }).notNull(),
    flowId: integer()
      .notNull()
      .references(() => flowBuilders.id, { onDelete: 'cascade' }),
    whatsappId: integer().references(() => whatsapps.id, { onDelete: 'set null' }),
    phrase: varchar({ length: 255 }).notNull(),
    /** active */
    status: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueNamePerCompany('flow_campaigns_company_name_unique', t.companyId, t.name),
    index('flow_campaigns_match_idx').on(t.companyId, t.whatsappId, sql`lower(${t.phrase})`),
    index('flow_campaigns_flow_idx').on(t.flowId),
  ],
);

/** company-level default flows (welcome / phrase not found) */
export const flowDefaults = pgTable(
  'flow_defaults',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    flowIdWelcome: integer().references(() => flowBuilders.id, { onDelete: 'set null' }),
    flowIdNotPhrase: integer().references(() => flowBuilders.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [uniqueIndex('flow_defaults_company_unique').on(t.companyId)],
);

/** media uploaded from the flow editor (image, audio, video nodes and content blocks) */
export const flowUploads = pgTable(
  'flow_uploads',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    flowId: integer().references(() => flowBuilders.id, { onDelete: 'set null' }),
    kind: varchar({ length: 10 }).notNull(),
    /** original file name */
    name: varchar({ length: 255 }).notNull().default(''),
    /** random stored file name under the media directory */
    path: varchar({ length: 255 }).notNull(),
    mime: varchar({ length: 127 }).notNull().default(''),
    size: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('flow_uploads_path_unique').on(t.path),
    index('flow_uploads_company_idx').on(t.companyId, t.kind),
    check('flow_uploads_kind_check', oneOf(t.kind, FLOW_UPLOAD_KINDS)),
  ],
);
