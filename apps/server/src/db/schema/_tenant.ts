import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, integer, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './core';

// The schema files import each other in a cycle (core → connections → automation → queues → automation), so a
// module that enters the cycle here would call these helpers before this file's body ran. They are function
// declarations, which exist as soon as the module is linked; `companies` is read only when drizzle resolves the
// foreign key, long after every schema file has loaded.

/** `companyId` of a tenant table: required, deleted with its company. */
export function companyRef() {
  return integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' });
}

/** Names are unique per company, case-insensitively (never globally). */
export function uniqueNamePerCompany(indexName: string, companyId: AnyPgColumn, name: AnyPgColumn) {
  return uniqueIndex(indexName).on(companyId, sql`lower(${name})`);
}

/** `col IN ('a','b',…)` for check constraints over the spec's fixed value sets. */
export function oneOf(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} in (${sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '))})`;
}
