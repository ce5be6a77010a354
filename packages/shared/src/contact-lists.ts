import { z } from 'zod';
import { V, zId, zName, zPageNumber } from './common.js';

/** spec 2 §5: a contact list's name is required, 2 to 50 characters */
export const ZContactListBody = z.object({ name: zName(2, 50) });
export type TContactListBody = z.infer<typeof ZContactListBody>;

export const ZContactList = z.object({
  id: z.number(),
  name: z.string(),
  companyId: z.number(),
  /** items of the list */
  contactsCount: z.number(),
  /** items whose number WhatsApp confirmed (the ones a campaign reaches) */
  validCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TContactList = z.infer<typeof ZContactList>;

/** a number as contacts keep it: digits only, 8 to 50 of them */
export const zListNumber = z
  .union([z.string(), z.number()], { error: V.required })
  .transform((v) => String(v).replace(/[^\d]/g, ''))
  .pipe(z.string().min(1, V.required).min(8, V.tooShort).max(50, V.tooLong));

/** an optional e-mail: empty, or a valid address (kept lower-case) */
export const zOptionalEmail = z
  .union([z.string(), z.null()])
  .transform((v) => (v ?? '').trim().toLowerCase())
  .pipe(z.string().max(254, V.tooLong))
  .refine((v) => v === '' || z.email().safeParse(v).success, V.invalidEmail);

/** spec 2 §5: name required, 2 to 50; number 8 to 50; e-mail valid when given */
export const ZContactListItemFields = z.object({
  name: zName(2, 50),
  number: zListNumber,
  email: zOptionalEmail.default(''),
});
export type TContactListItemFields = z.infer<typeof ZContactListItemFields>;

export const ZContactListItemBody = ZContactListItemFields.extend({ contactListId: zId });
export type TContactListItemBody = z.infer<typeof ZContactListItemBody>;

/** PUT /contact-list-items/:id: the fields sent change; `contactListId` (sent by the ancestor's modal) is ignored */
export const ZContactListItemUpdateBody = z.object({
  name: ZContactListItemFields.shape.name.optional(),
  number: zListNumber.optional(),
  email: zOptionalEmail.optional(),
  contactListId: z.unknown().optional(),
});
export type TContactListItemUpdateBody = z.infer<typeof ZContactListItemUpdateBody>;

export const ZContactListItemQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: zPageNumber,
  contactListId: zId,
});
export type TContactListItemQuery = z.infer<typeof ZContactListItemQuery>;

export const ZContactListItem = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  /** null: not checked yet (or the check could not be made); only `true` items receive campaigns */
  isWhatsappValid: z.boolean().nullable(),
  companyId: z.number(),
  contactListId: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TContactListItem = z.infer<typeof ZContactListItem>;

/** a spreadsheet row that was not imported: its row number in the file (the header is row 1) and why */
export type TContactListImportError = {
  row: number;
  /** the column at fault (name, number, email), absent for a whole-row problem */
  field?: 'name' | 'number' | 'email';
  /** a validation key (`validation.<reason>` in the web app) */
  reason: string;
};

/** the answer of POST /contact-lists/:id/upload */
export type TContactListImportResult = {
  contactListId: number;
  /** data rows read (blank rows skipped) */
  total: number;
  created: number;
  /** rows whose number was already in the list: their name and e-mail were updated */
  updated: number;
  errors: TContactListImportError[];
};

/** rows per import and the file's largest size */
export const CONTACT_LIST_IMPORT_MAX_ROWS = 20000;
/** 20,000 rows take well under 2 MB as .xlsx or .csv: 10 MB, as the contacts import (issue 20 item 2) */
export const CONTACT_LIST_IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Column names an import recognises, compared without case, accents, spaces or dashes (pt, en, es):
 * Nome/Name/Nombre, Número/Numero/Number/Telefone/Phone/Teléfono/Celular/WhatsApp, Email/E-mail/Correo.
 */
export const CONTACT_LIST_COLUMNS = {
  name: ['nome', 'name', 'nombre'],
  number: ['numero', 'number', 'telefone', 'phone', 'telefono', 'celular', 'whatsapp', 'fone', 'movil'],
  email: ['email', 'mail', 'correo', 'correoelectronico'],
} as const;

export const normaliseColumnName = (label: string) =>
  label
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/**
 * `company-{id}-ContactListItem` payloads: create/update `{record}`, delete `{id, contactListId}`, a list's
 * items changed at once (import, validity check) `{action: 'reload', contactListId}`, and an import's progress
 * `{action: 'import-progress', contactListId, done, total}`.
 */
/** how many items a `reload` carries */
export const CONTACT_LIST_RELOAD_RECORDS = 100;

export type TContactListItemEvent =
  | { action: 'create' | 'update'; record: TContactListItem }
  | { action: 'delete'; id: number; contactListId: number }
  /**
   * the list's items changed in bulk (an import, a validity check): `records` holds its first items in the
   * page's order (at most CONTACT_LIST_RELOAD_RECORDS) — the ancestor's page merges them by id; a client of
   * Zelo's reads the list again
   */
  | { action: 'reload'; contactListId: number; records: TContactListItem[] }
  | { action: 'import-progress'; contactListId: number; done: number; total: number };

/** `company-{id}-ContactList` payloads */
export type TContactListEvent =
  | { action: 'create' | 'update'; record: TContactList }
  | { action: 'delete'; id: number };
