import { z } from 'zod';
import { CONNECTION_ERRORS, CONNECTION_STATUSES } from './constants.js';
import { V, zBool, zId, zIdOrNone, zName, zNumeric } from './common.js';

export const CHANNEL_PROVIDERS = ['sandbox', 'baileys', 'cloud-api'] as const;
export type TChannelProvider = (typeof CHANNEL_PROVIDERS)[number];

const zMinutes = zNumeric(z.number().int(V.invalid).min(0, V.invalid).max(525_600, V.tooLong));
const zMaxUseBotQueues = zNumeric(z.number().int(V.invalid).min(0, V.invalid).max(100, V.tooLong));
const zText = z.string().max(4000, V.tooLong);

/**
 * The transport. The ancestor's `provider` is the release of its one WhatsApp Web library ("beta", "stable"),
 * not a transport: it is read as "none given" (the default on create, unchanged on update).
 */
const zProvider = z.union([z.enum(CHANNEL_PROVIDERS), z.enum(['beta', 'stable']).transform(() => undefined)], {
  error: V.invalid,
});

/** POST /whatsapp and PUT /whatsapp/:id (spec 1 §3 Connection, §5) */
export const ZConnectionBody = z.object({
  name: zName(2, 50),
  provider: zProvider.optional().transform((v): TChannelProvider => v ?? 'sandbox'),
  isDefault: zBool.default(false),
  greetingMessage: zText.default(''),
  complationMessage: zText.default(''),
  outOfHoursMessage: zText.default(''),
  ratingMessage: zText.default(''),
  expiresInactiveMessage: zText.default(''),
  /** minutes without a customer answer before an open ticket whose last message is ours is closed; 0 = never */
  expiresTicket: zMinutes.default(0),
  /** minutes between bot menu re-sends */
  timeUseBotQueues: zMinutes.default(0),
  maxUseBotQueues: zMaxUseBotQueues.default(3),
  transferQueueId: zIdOrNone.default(null),
  /** minutes a pending ticket without a queue waits before going to transferQueueId */
  timeToTransfer: zMinutes.default(0),
  /** minutes after which open chats are closed; 0 = never */
  closeOpenChatsAfterMinutes: zMinutes.default(0),
  queueIds: z.array(zId).max(200).default([]),
  promptId: zIdOrNone.default(null),
  integrationId: zIdOrNone.default(null),
  /** issue 14: the flow a first contact on this connection starts, and the flow when no phrase matches */
  flowIdWelcome: zIdOrNone.default(null),
  flowIdNotPhrase: zIdOrNone.default(null),
  token: z.string().max(200).nullable().optional(),
  /** provider settings (Cloud API: phoneNumberId, businessAccountId, graphUrl, graphVersion) */
  channelConfig: z.record(z.string(), z.unknown()).default({}),
});
export type TConnectionBody = z.infer<typeof ZConnectionBody>;

export const ZConnection = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(CONNECTION_STATUSES),
  provider: z.enum(CHANNEL_PROVIDERS),
  isDefault: z.boolean(),
  qrcode: z.string(),
  retries: z.number(),
  /** why the session last failed (null: it did not), e.g. `unreachable` while WhatsApp's servers cannot be reached */
  lastError: z.enum(CONNECTION_ERRORS).nullable(),
  phoneNumber: z.string(),
  updatedAt: z.string(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  expiresInactiveMessage: z.string(),
  expiresTicket: z.number(),
  timeUseBotQueues: z.number(),
  maxUseBotQueues: z.number(),
  transferQueueId: z.number().nullable(),
  timeToTransfer: z.number(),
  closeOpenChatsAfterMinutes: z.number(),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  flowIdWelcome: z.number().nullable(),
  flowIdNotPhrase: z.number().nullable(),
  /** masked unless the caller is an admin editing it */
  token: z.string().nullable(),
  channelConfig: z.record(z.string(), z.unknown()),
  queues: z.array(z.object({ id: z.number(), name: z.string(), color: z.string() })),
  queueIds: z.array(z.number()),
});
export type TConnection = z.infer<typeof ZConnection>;

/** PUT /whatsapp/:id: the fields of ZConnectionBody, each optional and without create defaults */
export const ZConnectionUpdateBody = z.object({
  name: zName(2, 50).optional(),
  provider: zProvider.optional(),
  isDefault: zBool.optional(),
  greetingMessage: zText.optional(),
  complationMessage: zText.optional(),
  outOfHoursMessage: zText.optional(),
  ratingMessage: zText.optional(),
  expiresInactiveMessage: zText.optional(),
  expiresTicket: zMinutes.optional(),
  timeUseBotQueues: zMinutes.optional(),
  maxUseBotQueues: zMaxUseBotQueues.optional(),
  transferQueueId: zIdOrNone.optional(),
  timeToTransfer: zMinutes.optional(),
  closeOpenChatsAfterMinutes: zMinutes.optional(),
  queueIds: z.array(zId).max(200).optional(),
  promptId: zIdOrNone.optional(),
  integrationId: zIdOrNone.optional(),
  flowIdWelcome: zIdOrNone.optional(),
  flowIdNotPhrase: zIdOrNone.optional(),
  token: z.string().max(200).nullable().optional(),
  channelConfig: z.record(z.string(), z.unknown()).optional(),
});
export type TConnectionUpdateBody = z.infer<typeof ZConnectionUpdateBody>;

/** GET /whatsapp and GET /whatsapp/:id: `session=0` is the editor's read (full token for admins) */
export const ZConnectionQuery = z.object({
  session: z.string().max(5).optional(),
  companyId: z.string().max(12).optional(),
});
