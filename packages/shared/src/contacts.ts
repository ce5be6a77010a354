import { z } from 'zod';
import { V, zName } from './common.js';

export const ZExtraInfo = z.object({
  id: z.number().optional(),
  name: z.string().trim().min(1, V.required).max(100, V.tooLong),
  value: z.string().max(1000, V.tooLong),
});

/** spec 1 §5: name 2–50, number 8–50 (digits kept), e-mail optional and valid */
export const ZContactBody = z.object({
  name: zName(2, 50),
  number: z
    .string({ error: V.required })
    .transform((v) => v.replace(/[^\d]/g, ''))
    .pipe(z.string().min(8, V.tooShort).max(50, V.tooLong)),
  email: z
    .string()
    .trim()
    .max(254, V.tooLong)
    .refine((v) => v === '' || z.email().safeParse(v).success, V.invalidEmail)
    .default(''),
  extraInfo: z.array(ZExtraInfo).max(100).default([]),
  disableBot: z.boolean().default(false),
});
export type TContactBody = z.infer<typeof ZContactBody>;

export const ZContact = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  disableBot: z.boolean(),
  extraInfo: z.array(z.object({ id: z.number(), name: z.string(), value: z.string() })),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TContact = z.infer<typeof ZContact>;

/** POST /contacts/upload rows (spreadsheet columns Nome / Telefone / Email) */
export const ZContactUploadRow = z.object({
  name: z.string().max(200).optional(),
  Nome: z.string().max(200).optional(),
  number: z.union([z.string(), z.number()]).optional(),
  Telefone: z.union([z.string(), z.number()]).optional(),
  email: z.string().max(254).optional(),
  Email: z.string().max(254).optional(),
});
