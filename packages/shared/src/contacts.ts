import { z } from 'zod';
import { V, zBool, zName } from './common.js';

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
    // letters are no number ("abcdefghijk" would otherwise read as an empty, too-short one)
    .refine((v) => !/\p{L}/u.test(v.split('@')[0] ?? ''), V.invalidNumber)
    .transform((v) => v.replace(/[^\d]/g, ''))
    .pipe(z.string().min(8, V.tooShort).max(50, V.tooLong)),
  email: z
    .string()
    .trim()
    .max(254, V.tooLong)
    .refine((v) => v === '' || z.email().safeParse(v).success, V.invalidEmail)
    .default(''),
  extraInfo: z.array(ZExtraInfo).max(100).default([]),
  disableBot: zBool.default(false),
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

/** PUT /contacts/:id: only the fields sent change; `extraInfo`, when sent, replaces the whole set */
export const ZContactUpdateBody = z.object({
  name: ZContactBody.shape.name.optional(),
  number: ZContactBody.shape.number.optional(),
  email: ZContactBody.shape.email.unwrap().optional(),
  extraInfo: z.array(ZExtraInfo).max(100).optional(),
  disableBot: zBool.optional(),
});
export type TContactUpdateBody = z.infer<typeof ZContactUpdateBody>;

const zDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, V.invalid);

/** GET /contacts: `date` is one day, `dateStart`/`dateEnd` a range (creation day, company time zone) */
export const ZContactListQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).default(1),
  date: zDay.optional(),
  dateStart: zDay.optional(),
  dateEnd: zDay.optional(),
});
export type TContactListQuery = z.infer<typeof ZContactListQuery>;

/** GET /contacts/list: a short list for autocompletes */
export const ZContactBriefQuery = z.object({ searchParam: z.string().trim().max(200).optional().default('') });
export const CONTACT_BRIEF_LIMIT = 50;

export const ZContactUploadBody = z.array(ZContactUploadRow).max(10000);
export type TContactUploadRow = z.infer<typeof ZContactUploadRow>;

/** the answer of POST /contacts/upload and /contacts/import */
export type TContactImportResult = {
  newContacts: { contactName: string; contactId: number }[];
  errorBag: { contactName: string; error: string; details?: { path: string; message: string }[] }[];
};

/** realtime `company-{id}-contact` progress of an .xlsx import, sent every IMPORT_PROGRESS_STEP rows */
export const IMPORT_PROGRESS_STEP = 50;
