import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, integer, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './core';

/** `companyId` of a tenant table: required, deleted with its company. */
export const companyRef = () =>
  integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' });

/** Names are unique per company, case-insensitively (never globally). */
export const uniqueNamePerCompany = (indexName: string, companyId: AnyPgColumn, name: AnyPgColumn) =>
  uniqueIndex(indexName).on(companyId, sql`lower(${name})`);

/** `col IN ('a','b',…)` for check constraints over the spec's fixed value sets. */
export const oneOf = (column: AnyPgColumn, values: readonly string[]): SQL =>
  sql`${column} in (${sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '))})`;
