/**
 * Text from channels as PostgreSQL stores it: NUL (U+0000), which a `text` column refuses, is removed, and
 * a lone UTF-16 surrogate (half of a pair, which no UTF-8 text can hold) becomes U+FFFD. Applied once, where
 * a transport hands anything to the pipeline (deliveries/durable.ts): bodies, names, quoted texts, file
 * names, group subjects, vCards, edits.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is removed
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** quick test before the replacements: most texts have neither */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is looked for
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

export const cleanText = (value: string): string =>
  SUSPECT.test(value) ? value.replace(NUL, '').replace(LONE_SURROGATE, '\uFFFD') : value;

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);

  return proto === Object.prototype || proto === null;
};

/**
 * A copy of what a transport reported with every string cleaned, in plain objects and arrays; anything
 * else (Buffers, Dates, functions, the transport's own `raw` objects) is kept as it is.
 */
export const cleanInbound = <T>(value: T): T => {
  if (typeof value === 'string') return cleanText(value) as T;
  if (Array.isArray(value)) return value.map(cleanInbound) as T;
  if (!value || typeof value !== 'object' || !isPlain(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = key === 'raw' ? item : cleanInbound(item);

  return copy as T;
};
