import { z } from 'zod';
import { V, zBool } from './common.js';

export const ZQuickMessageBody = z.object({
  shortcode: z.string({ error: V.required }).trim().min(1, V.required).max(50, V.tooLong),
  message: z.string().max(4000, V.tooLong).default(''),
  /** visible to the whole company (else only to its author) */
  geral: zBool.default(true),
});
export type TQuickMessageBody = z.infer<typeof ZQuickMessageBody>;

export const ZQuickMessage = z.object({
  id: z.number(),
  shortcode: z.string(),
  message: z.string(),
  geral: z.boolean(),
  status: z.boolean(),
  isMedia: z.boolean(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  userId: z.number().nullable(),
});
export type TQuickMessage = z.infer<typeof ZQuickMessage>;

/** PUT /quick-messages/:id: only the fields sent change */
export const ZQuickMessageUpdateBody = z.object({
  shortcode: ZQuickMessageBody.shape.shortcode.optional(),
  message: z.string().max(4000, V.tooLong).optional(),
  geral: zBool.optional(),
  status: zBool.optional(),
});
export type TQuickMessageUpdateBody = z.infer<typeof ZQuickMessageUpdateBody>;
