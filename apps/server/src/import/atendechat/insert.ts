/**
 * A batch inserted as one JSON parameter (`json_populate_recordset` over the table's own row type) instead of
 * one bound parameter per value: PostgreSQL and PGlite parse one text instead of tens of thousands of
 * parameters, which is most of a big import's time. Only the columns the rows carry are written (the others
 * keep their defaults); property names become column names as drizzle's snake_case casing makes them.
 */
import { getTableName, sql } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { TTx } from '../../db/client';

export const insertRows = async (tx: TTx, table: PgTable, rows: Record<string, unknown>[]) => {
  if (rows.length === 0) return;
  const keys = new Set<string>();
  for (const row of rows) for (const [k, v] of Object.entries(row)) if (v !== undefined) keys.add(k);
  const columns = [...keys].map((k) => [k, toSnakeCase(k)] as const);
  const records = rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [k, column] of columns) out[column] = row[k] ?? null;

    return out;
  });
  const list = columns.map(([, c]) => `"${c}"`).join(', ');
  const name = getTableName(table);
  await tx.execute(
    sql`insert into ${sql.raw(`"${name}"`)} (${sql.raw(list)}) select ${sql.raw(list)} from json_populate_recordset(null::${sql.raw(`"${name}"`)}, ${JSON.stringify(records)}::json)`,
  );
};
