import { z } from 'zod';
import { RECURRENCES, WEEKDAYS } from './constants.js';
import { V, zBool, zEmail, zId, zName, zPassword } from './common.js';

/** digits only, 10 or 11 of them: (99) 9999-9999 or (99) 99999-9999 */
export const zPhone = () =>
  z
    .string()
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(z.string().min(10, V.tooShort).max(11, V.tooLong));

/**
 * A company's phone as the super user types it: the sign-up's 10–11 digits, or with the country code in
 * front (`5511922221111`, the usual Brazilian form, which the ancestor accepts); kept as digits only.
 */
export const zCompanyPhone = () =>
  z
    .string()
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(z.string().min(10, V.tooShort).max(13, V.tooLong));

/** a plan to choose: left empty (a select on its placeholder) or absent says `required`, like the other fields */
const zChosenPlanId = z
  .preprocess((v) => (v === '' || v === null ? undefined : v), zId.optional())
  .pipe(z.number({ error: V.required }));

export const ZSignUpRequest = z.object({
  name: zName(2, 50),
  email: zEmail(),
  password: zPassword(5, 50),
  phone: zPhone()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  planId: zChosenPlanId,
});
export type TSignUpRequest = z.infer<typeof ZSignUpRequest>;

const zTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, V.invalid);
export const ZWorkingHour = z.object({
  weekday: z.string().max(30),
  weekdayEn: z.enum(WEEKDAYS.map((d) => d.weekdayEn) as [string, ...string[]]),
  startTime: zTime,
  endTime: zTime,
});
export type TWorkingHour = z.infer<typeof ZWorkingHour>;
export const ZWorkingHours = z.array(ZWorkingHour).max(7);

/** yyyy-MM-dd; an empty or invalid value is sent as null (spec 1 §4) */
export const zDueDate = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) =>
    v && /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v.slice(0, 10))) ? v.slice(0, 10) : null,
  );

/** the ancestor's company form sends `recurrence: ""` until one is picked: none given */
const zRecurrence = z.union([z.enum(RECURRENCES), z.literal('').transform(() => undefined)], { error: V.invalid });

const companyFields = {
  name: zName(2, 50),
  email: zEmail(),
  phone: zCompanyPhone()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  planId: zId,
  status: zBool,
  campaignsEnabled: zBool,
  dueDate: zDueDate,
  recurrence: zRecurrence,
  timezone: z.string().max(64).optional(),
  language: z.enum(['pt', 'en', 'es']).optional(),
  billingName: z.string().max(100).optional(),
  addressZipCode: z.string().max(20).optional(),
  addressStreet: z.string().max(200).optional(),
  addressState: z.string().max(50).optional(),
  addressCity: z.string().max(100).optional(),
  addressDistrict: z.string().max(100).optional(),
};

export const ZCompanyBody = z.object({
  ...companyFields,
  status: companyFields.status.default(true),
  campaignsEnabled: companyFields.campaignsEnabled.default(true),
  recurrence: companyFields.recurrence.optional().transform((v) => v ?? 'MENSAL'),
  /** first admin's password when the super user creates a company; generated when absent */
  password: zPassword(5, 50).optional(),
});
export type TCompanyBody = z.infer<typeof ZCompanyBody>;
/** no defaults on update: an absent field keeps its stored value */
export const ZCompanyUpdateBody = z.object(companyFields).partial();
export type TCompanyUpdateBody = z.infer<typeof ZCompanyUpdateBody>;

export const ZCompany = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  planId: z.number().nullable(),
  plan: z.object({ id: z.number(), name: z.string(), value: z.number() }).nullable(),
  status: z.boolean(),
  campaignsEnabled: z.boolean(),
  dueDate: z.string().nullable(),
  recurrence: z.enum(RECURRENCES),
  trialExpiration: z.string().nullable(),
  timezone: z.string(),
  language: z.string(),
  schedules: z.array(ZWorkingHour),
  billingName: z.string(),
  addressZipCode: z.string(),
  addressStreet: z.string(),
  addressState: z.string(),
  addressCity: z.string(),
  addressDistrict: z.string(),
  /** the payer's CPF or CNPJ kept from the last checkout (digits) */
  cpfCnpj: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TCompany = z.infer<typeof ZCompany>;
