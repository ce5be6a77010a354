/**
 * How odd source values become Zelo values (decided once; README "Moving from Atendechat or Whaticket"):
 * text loses NUL bytes and lone surrogates (PostgreSQL text refuses the first, JSON the second) and is cut to
 * the column's length; a boolean stored as 0/1 or 't'/'f' reads as one; a colour that is not #rgb…#rrggbbaa
 * becomes the default; an empty name takes a stated fallback.
 */

/** text without NUL bytes and unpaired UTF-16 surrogates */
export const cleanText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : String(value);

  return text
    .replaceAll('\u0000', '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
};

/** cleaned and cut to `max` characters (never splitting a surrogate pair) */
export const cut = (value: unknown, max: number): string => {
  const text = cleanText(value);
  if (text.length <= max) return text;
  const head = text.slice(0, max);

  return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head;
};

/** a name: cleaned, trimmed, cut; empty → the fallback */
export const nameOr = (value: unknown, max: number, fallback: string): string =>
  cut(cleanText(value).trim(), max).trim() || cut(fallback, max);

/** booleans as the ancestor may hold them: true/false, 0/1, 't'/'f', 'true'/'false'; anything else → fallback */
export const bool = (value: unknown, fallback = false): boolean => {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (['t', 'true', '1', 'y', 'yes'].includes(v)) return true;
    if (['f', 'false', '0', 'n', 'no', ''].includes(v)) return false;
  }

  return fallback;
};

/** an integer ≥ min, else the fallback */
export const int = (value: unknown, fallback: number, min = 0): number => {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value ?? ''), 10);

  return Number.isFinite(n) && n >= min ? Math.trunc(n) : fallback;
};

/** a positive id or null */
export const idOrNull = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value ?? ''), 10);

  return Number.isInteger(n) && n > 0 ? n : null;
};

const COLOUR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
/** a hex colour, else the fallback (`red`, `rgb(…)`, empty…) */
export const colour = (value: unknown, fallback: string): { value: string; fixed: boolean } => {
  const text = cleanText(value).trim();

  return COLOUR.test(text) ? { value: text, fixed: false } : { value: fallback, fixed: true };
};

/** a timestamp as a Date, else the fallback */
export const date = (value: unknown, fallback: Date | null): Date | null => {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? fallback : value;
  if (typeof value === 'string' || typeof value === 'number') {
    const d = new Date(value);

    return Number.isNaN(d.getTime()) ? fallback : d;
  }

  return fallback;
};

/** yyyy-MM-dd of a timestamp or date text (UTC day), else null */
export const day = (value: unknown): string | null => {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) return value.slice(0, 10);
  const d = date(value, null);

  return d ? d.toISOString().slice(0, 10) : null;
};

/** JSON held as json, jsonb or text; undefined when it does not parse */
export const json = (value: unknown): unknown => {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
};
