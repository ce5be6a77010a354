import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps, tsz } from './_columns';
import { whatsapps } from './connections';

export type TWorkingHourRow = { weekday: string; weekdayEn: string; startTime: string; endTime: string };

export const plans = pgTable(
  'plans',
  {
    id: serial().primaryKey(),
    name: varchar({ length: 50 }).notNull(),
    users: integer().notNull().default(0),
    connections: integer().notNull().default(0),
    queues: integer().notNull().default(0),
    value: numeric({ precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    useCampaigns: boolean().notNull().default(true),
    useSchedules: boolean().notNull().default(true),
    useInternalChat: boolean().notNull().default(true),
    useExternalApi: boolean().notNull().default(true),
    useKanban: boolean().notNull().default(true),
    useOpenAi: boolean().notNull().default(true),
    useIntegrations: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('plans_name_unique').on(sql`lower(${t.name})`)],
);

export const companies = pgTable(
  'companies',
  {
    id: serial().primaryKey(),
    name: varchar({ length: 50 }).notNull(),
    email: varchar({ length: 254 }).notNull().default(''),
    phone: varchar({ length: 20 }).notNull().default(''),
    planId: integer().references(() => plans.id, { onDelete: 'restrict' }),
    status: boolean().notNull().default(true),
    /** yyyy-MM-dd; null = no due date */
    dueDate: varchar({ length: 10 }),
    recurrence: varchar({ length: 12 }).notNull().default('MENSAL'),
    trialExpiration: tsz(),
    timezone: varchar({ length: 64 }).notNull().default('America/Sao_Paulo'),
    /** language of automatic messages */
    language: varchar({ length: 2 }).notNull().default('pt'),
    schedules: jsonb().$type<TWorkingHourRow[]>().notNull().default([]),
    billingName: varchar({ length: 100 }).notNull().default(''),
    addressZipCode: varchar({ length: 20 }).notNull().default(''),
    addressStreet: varchar({ length: 200 }).notNull().default(''),
    addressState: varchar({ length: 50 }).notNull().default(''),
    addressCity: varchar({ length: 100 }).notNull().default(''),
    addressDistrict: varchar({ length: 100 }).notNull().default(''),
    /** the payer's CPF (11 digits) or CNPJ (14 digits), digits only; given at checkout */
    cpfCnpj: varchar({ length: 14 }).notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('companies_name_unique').on(sql`lower(${t.name})`), index('companies_plan_idx').on(t.planId)],
);

export const users = pgTable(
  'users',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar({ length: 50 }).notNull(),
    email: varchar({ length: 254 }).notNull(),
    passwordHash: text().notNull(),
    profile: varchar({ length: 10 }).notNull().default('user'),
    super: boolean().notNull().default(false),
    /** has a socket open (realtime.ts presence), until its last one closes or it stays silent 6 minutes */
    online: boolean().notNull().default(false),
    lastSeenAt: tsz(),
    /** paused by the user ("away"): automatic assignment gives it no ticket (modules/assignment) */
    away: boolean().notNull().default(false),
    /** when automatic assignment last gave it a ticket (the tie-break: longest since goes first) */
    lastAssignedAt: tsz(),
    allTicket: varchar({ length: 10 }).notNull().default('desabled'),
    canSeeTicketsWithoutQueue: boolean().notNull().default(false),
    /** default connection */
    whatsappId: integer().references((): AnyPgColumn => whatsapps.id, { onDelete: 'set null' }),
    language: varchar({ length: 2 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    index('users_company_idx').on(t.companyId, t.name),
  ],
);

/** one row per login; the refresh token is stored hashed and rotates */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: varchar({ length: 36 }).primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    refreshTokenHash: varchar({ length: 64 }).notNull(),
    expiresAt: tsz().notNull(),
    revokedAt: tsz(),
    userAgent: varchar({ length: 300 }).notNull().default(''),
    ip: varchar({ length: 64 }).notNull().default(''),
    ...timestamps,
  },
  (t) => [index('user_sessions_user_idx').on(t.userId)],
);

/** e-mailed password reset codes: hashed, expiring, single use */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: varchar({ length: 64 }).notNull(),
    expiresAt: tsz().notNull(),
    usedAt: tsz(),
    attempts: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [index('password_resets_user_idx').on(t.userId), index('password_resets_expires_idx').on(t.expiresAt)],
);

export const settings = pgTable(
  'settings',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: varchar({ length: 64 }).notNull(),
    value: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('settings_company_key_unique').on(t.companyId, t.key)],
);

/** help videos (global, managed by the super user) */
export const helps = pgTable('helps', {
  id: serial().primaryKey(),
  title: varchar({ length: 100 }).notNull(),
  description: text().notNull().default(''),
  video: varchar({ length: 200 }).notNull().default(''),
  link: text().notNull().default(''),
  ...timestamps,
});

export const invoices = pgTable(
  'invoices',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    detail: varchar({ length: 200 }).notNull().default(''),
    value: numeric({ precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    /** yyyy-MM-dd */
    dueDate: varchar({ length: 10 }).notNull(),
    status: varchar({ length: 10 }).notNull().default('open'),
    paidAt: tsz(),
    txId: varchar({ length: 100 }),
    /** how it was settled: `manual` (a super user) or a payment provider (`asaas`) */
    paidVia: varchar({ length: 20 }),
    /** the super user who marked it paid by hand (name kept should the user go) */
    paidById: integer().references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    paidByName: varchar({ length: 50 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('invoices_company_due_unique').on(t.companyId, t.dueDate),
    index('invoices_company_idx').on(t.companyId, t.dueDate),
  ],
);

/** channel (WhatsApp) session ownership for multi-node deployments */
export const channelLeases = pgTable(
  'channel_leases',
  {
    connectionId: integer().notNull(),
    nodeId: varchar({ length: 64 }).notNull(),
    heartbeatAt: tsz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.connectionId] })],
);
