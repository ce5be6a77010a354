import { z } from 'zod';
import { V, zIdOrNone, zName, zNumeric } from './common.js';

/** spec 3 §3: the integration types; `flowbuilder` runs one of the company's flows */
export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder'] as const;
export type TIntegrationType = (typeof INTEGRATION_TYPES)[number];
/** the Dialogflow agent languages the dialog offers */
export const INTEGRATION_LANGUAGES = ['pt-BR', 'en', 'es'] as const;
/** spec 3 §9 */
export const TYPEBOT_DEFAULTS = { expires: 1, delayMessage: 1000 } as const;
/** the longest delay between two Typebot replies the server keeps (ms) */
export const TYPEBOT_MAX_DELAY = 60_000;
/** a masked secret sent back by a form means "keep the stored one" */
export const SECRET_MASK_CHAR = '•';

const text = (max: number) => z.string({ error: V.invalid }).max(max, V.tooLong).default('');
const trimmed = (max: number) => z.string({ error: V.invalid }).trim().max(max, V.tooLong).default('');
/** "" (the ancestor's empty select) means the default */
const language = z
  .union([z.enum(INTEGRATION_LANGUAGES, { error: V.invalid }), z.literal(''), z.null()], { error: V.invalid })
  .transform((v) => v || 'pt-BR');
const int = (min: number, max: number, fallback: number) =>
  z
    .union([zNumeric(z.number().int(V.invalid).min(min, V.invalid).max(max, V.invalid)), z.literal(''), z.null()], {
      error: V.invalid,
    })
    .transform((v) => (v === '' || v === null ? fallback : v))
    .default(fallback);

/** an http(s) URL (the SSRF guard checks its host when the server calls it) */
export const zIntegrationUrl = z
  .string({ error: V.required })
  .trim()
  .max(500, V.tooLong)
  .refine((v) => v === '' || /^https?:\/\/[^\s/]+/i.test(v), V.invalid);

const fields = {
  type: z.enum(INTEGRATION_TYPES, { error: V.invalid }),
  name: zName(2, 50),
  projectName: trimmed(100),
  /** the Dialogflow service-account JSON (a secret: masked on reads) */
  jsonContent: text(20_000),
  language: language.default('pt-BR'),
  urlN8N: zIntegrationUrl.default(''),
  typebotSlug: trimmed(255),
  typebotExpires: int(0, 525_600, TYPEBOT_DEFAULTS.expires),
  typebotDelayMessage: int(0, TYPEBOT_MAX_DELAY, TYPEBOT_DEFAULTS.delayMessage),
  typebotKeywordFinish: trimmed(100),
  typebotKeywordRestart: trimmed(100),
  typebotRestartMessage: text(4000),
  typebotUnknownMessage: text(4000),
  /** flowbuilder: the flow it runs; none = the connection's own flows (welcome, phrases, no phrase) */
  flowId: zIdOrNone.optional(),
  /** n8n / webhook: the HMAC key of the deliveries (a secret: masked on reads; empty on create = generated) */
  webhookSecret: z.string({ error: V.invalid }).trim().max(200, V.tooLong).default(''),
};

type TFields = { [K in keyof typeof fields]: z.output<(typeof fields)[K]> };

const isJsonObject = (s: string) => {
  try {
    const v = JSON.parse(s);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
};
const isMasked = (s: string) => s.includes(SECRET_MASK_CHAR);

/** spec 3 §5 and issue 14: what each type needs */
export const checkIntegrationFields = (v: TFields, issue: (path: string, message: string) => void) => {
  if (v.type === 'dialogflow') {
    if (!v.projectName) issue('projectName', V.required);
    if (!v.jsonContent.trim()) issue('jsonContent', V.required);
    else if (!isMasked(v.jsonContent) && !isJsonObject(v.jsonContent)) issue('jsonContent', V.invalid);
  }
  if (v.type === 'n8n' || v.type === 'webhook' || v.type === 'typebot') {
    if (!v.urlN8N) issue('urlN8N', V.required);
  }
  if (v.type === 'typebot' && !v.typebotSlug) issue('typebotSlug', V.required);
};

/** POST /queueIntegration and PUT /queueIntegration/:id (the whole record, as the ancestor's dialog sends it) */
export const ZQueueIntegrationBody = z
  .object(fields)
  .superRefine((v, ctx) =>
    checkIntegrationFields(v as TFields, (path, message) => ctx.addIssue({ code: 'custom', path: [path], message })),
  );
export type TQueueIntegrationBody = z.infer<typeof ZQueueIntegrationBody>;
export type TQueueIntegrationForm = z.input<typeof ZQueueIntegrationBody>;

export const ZQueueIntegration = z.object({
  id: z.number(),
  type: z.enum(INTEGRATION_TYPES),
  name: z.string(),
  projectName: z.string(),
  /** masked */
  jsonContent: z.string(),
  language: z.string(),
  urlN8N: z.string(),
  typebotSlug: z.string(),
  typebotExpires: z.number(),
  typebotDelayMessage: z.number(),
  typebotKeywordFinish: z.string(),
  typebotKeywordRestart: z.string(),
  typebotRestartMessage: z.string(),
  typebotUnknownMessage: z.string(),
  flowId: z.number().nullable(),
  /** masked */
  webhookSecret: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TQueueIntegration = z.infer<typeof ZQueueIntegration>;

/** POST /queueIntegration/testSession: a Dialogflow agent tried with "Olá" (a masked JSON + id = the stored one) */
export const ZIntegrationTestBody = z.object({
  projectName: z.string({ error: V.required }).trim().min(1, V.required).max(100, V.tooLong),
  jsonContent: z.string({ error: V.required }).min(1, V.required).max(20_000, V.tooLong),
  language: language.default('pt-BR'),
  /** the stored integration whose JSON a masked `jsonContent` stands for */
  integrationId: zIdOrNone.optional(),
});
export type TIntegrationTestBody = z.infer<typeof ZIntegrationTestBody>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type TDeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** one signed delivery to an n8n / webhook integration (GET /queueIntegration/:id/deliveries) */
export const ZIntegrationDelivery = z.object({
  id: z.number(),
  deliveryId: z.string(),
  ticketId: z.number().nullable(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number(),
  /** the receiver's last HTTP status, null when it did not answer */
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type TIntegrationDelivery = z.infer<typeof ZIntegrationDelivery>;

/**
 * The JSON body of a delivery (issue 14: a documented shape, not the channel's raw message). Headers:
 * `X-Zelo-Delivery` (the delivery id, the same on every retry), `X-Zelo-Timestamp` (unix seconds),
 * `X-Zelo-Signature` = `sha256=` + hex HMAC-SHA256(secret, timestamp + "." + body).
 */
export type TIntegrationDeliveryBody = {
  event: 'message.received';
  deliveryId: string;
  companyId: number;
  integration: { id: number; name: string; type: 'n8n' | 'webhook' };
  message: { id: number | null; body: string; mediaType: string; fromMe: false; createdAt: string };
  ticket: { id: number; uuid: string; status: string; queueId: number | null };
  contact: { id: number; name: string; number: string };
  connection: { id: number; name: string };
};
