import { type SQL, sql } from 'drizzle-orm';

/**
 * Accent folding for the list search: "promoção", "PROMOCAO" and "Promocao" are the same word. PGlite has no
 * `unaccent` extension, so the fold is core SQL's `translate()` with this table when indexing, and the same
 * table in JS when building the query — both sides fold exactly the same characters. Case is left to the
 * `simple` text-search configuration (it lowercases). Migration 0015 folds the words indexed before.
 */
export const FOLD_FROM = 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ';
export const FOLD_TO = 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuCcNnYyy';

const FOLD = new Map([...FOLD_FROM].map((ch, i) => [ch, FOLD_TO[i] ?? ch]));

/** a search term's text folded as the index folds it */
export const foldText = (text: string) => [...text].map((ch) => FOLD.get(ch) ?? ch).join('');

/** the fold around a raw SQL expression (for statements written as text) */
export const foldRaw = (text: string) => `translate(${text}, '${FOLD_FROM}', '${FOLD_TO}')`;

/** SQL text folded before it becomes words */
export const foldSql = (text: SQL) => sql`translate(${text}, ${sql.raw(`'${FOLD_FROM}'`)}, ${sql.raw(`'${FOLD_TO}'`)})`;
