import { z } from 'zod';
import { V } from './common.js';

/** the external API's send path (the ancestor's, kept so its integrations keep working) */
export const MESSAGES_API_PATH = '/api/messages/send';

/** an `Idempotency-Key` is remembered this long: the same key within it answers the first result again */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The number to send to: digits with the country code; spaces, dots, dashes, parentheses and a leading `+`
 * are dropped (what people paste), anything else is refused. 8 to 15 digits (E.164).
 */
export const zApiNumber = z
  .union([z.string(), z.number()], { error: V.required })
  .transform((v) => String(v).trim())
  .pipe(
    z
      .string()
      .min(1, V.required)
      .max(40, V.invalid)
      .regex(/^\+?[\d\s().-]+$/, V.invalid),
  )
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().regex(/^\d{8,15}$/, V.invalid));

/** POST /api/messages/send as JSON: `{number, body}` (the ancestor's shape) */
export const ZApiSendBody = z.object({
  number: zApiNumber,
  body: z.string({ error: V.required }).trim().min(1, V.required).max(4096, V.tooLong),
});
export type TApiSendBody = z.infer<typeof ZApiSendBody>;

/** the multipart form's text fields: `number`, and `body` (the files' caption) optional */
export const ZApiSendForm = z.object({
  number: zApiNumber,
  body: z.string().max(4096, V.tooLong).default(''),
});

/** the answer: the ancestor's `mensagem`, plus what Zelo stored */
export const ZApiSendAnswer = z.object({
  mensagem: z.string(),
  /** the (first) stored message */
  messageId: z.number(),
  messageIds: z.array(z.number()),
  ticketId: z.number(),
  contactId: z.number(),
});
export type TApiSendAnswer = z.infer<typeof ZApiSendAnswer>;
