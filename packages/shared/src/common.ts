import { z } from 'zod';
import { LANGUAGES, type TLanguage } from './constants.js';

/**
 * Validation messages are i18n keys (`validation.<key>` in the web app), so one schema serves the
 * server's 400 answers and the forms in every language.
 */
export const V = {
  required: 'required',
  tooShort: 'tooShort',
  /** spec 2 §5's own words for a short tag name: 'Mensagem muito curta' */
  messageTooShort: 'messageTooShort',
  tooLong: 'tooLong',
  invalidEmail: 'invalidEmail',
  invalid: 'invalid',
  passwordWeak: 'passwordWeak',
  passwordMismatch: 'passwordMismatch',
  /** text holding NUL or a lone surrogate, which nothing can store */
  invalidCharacter: 'invalidCharacter',
  /** a colour that is not #rgb or #rrggbb */
  invalidColor: 'invalidColor',
  /** a phone number holding letters */
  invalidNumber: 'invalidNumber',
  /** an AI prompt without the sector it hands over to */
  sectorRequired: 'sectorRequired',
  /** a name (or token) another record of the company already has */
  duplicated: 'duplicated',
  /** a Dialogflow service-account JSON that does not parse or lacks client_email / private_key */
  invalidServiceAccount: 'invalidServiceAccount',
} as const;

/** a colour as the screens' pickers give it: `#rgb` or `#rrggbb` */
export const zHexColor = () =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, V.required)
    .regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i, V.invalidColor);

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

/*
 * Lenient inputs (ARCHITECTURE §8.2): what the ancestor's client and other clients written to the spec send
 * for a yes/no, an optional link or a number, accepted here once and used by every request schema. Still
 * refused: anything whose meaning is a guess ("yes", 2 for a boolean, "abc" or "1e3" for a number, 0 for an id).
 */

/** a yes/no: true/false, 1/0, "1"/"0", "true"/"false" (a body or a query string) */
export const zBool = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false', '1', '0'])], { error: V.invalid })
  .transform((v) => v === true || v === 1 || v === 'true' || v === '1');
/** `?x=true` / `?x=false` in query strings */
export const zQueryBool = zBool;

/** "no value": `null`, `""` or `false` (the ancestor's selects send each for "none") */
export const zNone = z.union([z.null(), z.literal(''), z.literal(false)]).transform(() => null);

/**
 * An optional link to another row: an id, or `null` / `""` / `false` for none. On an update a field left out
 * stays `undefined` (unchanged) and "none" becomes `null` (the link is cleared).
 */
export const zIdOrNone = z.union([zId, zNone], { error: V.invalid });

/** a number, or a string holding one in plain decimal ("12", "-3", "2.5"); `inner` adds the bounds */
export const zNumeric = <T extends z.ZodType<number, number>>(inner: T) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d{1,15}(\.\d{1,15})?$/, V.invalid),
      ],
      { error: V.invalid },
    )
    .transform(Number)
    .pipe(inner);

/** one of Zelo's languages, also as a regional tag of it ("pt-BR", as the ancestor's language menu sends) */
export const zLanguage = z
  .string({ error: V.invalid })
  .regex(/^[a-z]{2}([-_][A-Za-z]{2})?$/, V.invalid)
  .transform((v) => v.slice(0, 2))
  .pipe(z.enum(LANGUAGES, { error: V.invalid }))
  .transform((v): TLanguage => v);

/** an optional number: as zNumeric, or `null` / `""` / `false` for none */
export const zNumericOrNone = <T extends z.ZodType<number, number>>(inner: T) =>
  z.union([zNumeric(inner), zNone], { error: V.invalid });

export const ZMessageResponse = z.object({ message: z.string() });

/**
 * A moment a person typed: an ISO instant with its offset (`2026-01-02T10:00:00.000Z`), or a wall-clock
 * `YYYY-MM-DDTHH:mm[:ss]` / `YYYY-MM-DD HH:mm:ss` with no zone (the ancestor's schedule and campaign dialogs
 * send the browser's local time), which the server reads in the company's time zone (`momentToDate`,
 * apps/server/src/lib/dates.ts) — never in the server process's zone. Kept as typed; years 2000–2200.
 */
export const MOMENT_PATTERN = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** whether a moment names its offset (else it is a wall-clock time in the company's zone) */
export const momentHasZone = (s: string) => /(Z|[+-]\d{2}:?\d{2})$/.test(s.slice(16));
const isMoment = (s: string) => {
  if (!MOMENT_PATTERN.test(s)) return false;
  const at = Date.parse(momentHasZone(s) ? s : `${s.replace(' ', 'T')}Z`);
  const year = new Date(at).getUTCFullYear();

  return !Number.isNaN(at) && year >= 2000 && year <= 2200;
};
/** the moment's text, trimmed (compose with a required/none rule) */
export const zMoment = (params?: { error?: string }) => z.string(params).trim();
/** the check of a moment's text */
export const zMomentText = z.string().refine(isMoment, V.invalid);
