import { z } from 'zod';

/**
 * Validation messages are i18n keys (`validation.<key>` in the web app), so one schema serves the
 * server's 400 answers and the forms in every language.
 */
export const V = {
  required: 'required',
  tooShort: 'tooShort',
  tooLong: 'tooLong',
  invalidEmail: 'invalidEmail',
  invalid: 'invalid',
  passwordWeak: 'passwordWeak',
  passwordMismatch: 'passwordMismatch',
  /** text holding NUL or a lone surrogate, which nothing can store */
  invalidCharacter: 'invalidCharacter',
} as const;

export const zName = (min = 2, max = 50) =>
  z.string({ error: V.required }).trim().min(1, V.required).min(min, V.tooShort).max(max, V.tooLong);
export const zEmail = () =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, V.required)
    .max(254, V.tooLong)
    .pipe(z.email(V.invalidEmail))
    .transform((e) => e.toLowerCase());
export const zPassword = (min = 5, max = 50) =>
  z.string({ error: V.required }).min(1, V.required).min(min, V.tooShort).max(max, V.tooLong);
/** spec 3 §5: at least 8 characters, one uppercase, one lowercase and one digit */
export const zStrongPassword = () =>
  z
    .string({ error: V.required })
    .min(8, V.tooShort)
    .max(50, V.tooLong)
    .regex(/[A-Z]/, V.passwordWeak)
    .regex(/[a-z]/, V.passwordWeak)
    .regex(/\d/, V.passwordWeak);

/** a positive integer id: a number, or a string of digits (never `1e3`, `0x10` or ` 1`) */
export const zId = z
  .union([z.number(), z.string().regex(/^\d{1,10}$/, V.invalid)], { error: V.invalid })
  .transform(Number)
  .pipe(z.number().int(V.invalid).positive(V.invalid).max(2147483647, V.invalid));
export const ZIdParams = z.object({ id: zId });
export const zPageNumber = z.coerce.number().int().min(1).max(100000).default(1);
export const ZListQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: zPageNumber,
});
export type TListQuery = z.infer<typeof ZListQuery>;

/** `?x=true` / `?x=false` in query strings */
export const zQueryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const ZMessageResponse = z.object({ message: z.string() });
