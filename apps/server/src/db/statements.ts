import { createHash } from 'node:crypto';
import type { TDbOrTx } from './client';

/**
 * SQL written as text with numbered parameters, run as a named prepared statement on PostgreSQL: the
 * name is a hash of the text, so each shape of a dynamic query (say the ticket list with or without a
 * tag filter) is parsed once per pooled connection and, once PostgreSQL settles on its generic plan, no
 * longer planned per request. No query builder runs per call either. PGlite runs the same text unnamed.
 *
 * Rows come with the driver's own types: integers and booleans as such, timestamps as Date, json parsed,
 * bigint as a string (cast counts to int).
 */

type TPgClient = {
  query: (config: { name?: string; text: string; values: unknown[] }) => Promise<{ rows: unknown[] }>;
};
type TPgliteClient = {
  exec: unknown;
  query: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;
};

/**
 * Every pooled connection keeps each named statement until it closes: past this many distinct texts in
 * a process, further ones run unnamed (planned per call) rather than grow without bound.
 */
export const MAX_NAMED_STATEMENTS = 1_000;
const names = new Map<string, string>();

export const statementName = (text: string) => {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
    name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }

  return name;
};

/** the driver under a drizzle handle (the pool, or the transaction's connection) */
const clientOf = (db: TDbOrTx) => (db as unknown as { session: { client: TPgClient | TPgliteClient } }).session.client;

/** `unnamed`: a statement of a shape too rare to keep (planned per call) */
export const queryRows = async <TRow>(
  db: TDbOrTx,
  text: string,
  values: unknown[],
  opts: { unnamed?: boolean } = {},
): Promise<TRow[]> => {
  const client = clientOf(db);
  if ('exec' in client) return (await client.query(text, values)).rows as TRow[];
  const name = opts.unnamed ? undefined : statementName(text);

  return (await (client as TPgClient).query({ name, text, values })).rows as TRow[];
};

/**
 * Collects the parameters of a statement while its text is put together, and numbers them once it is
 * done (`render`), keeping only those the final text uses: a condition that was built and then folded
 * away leaves no parameter behind.
 *
 * `fixed` wraps a value in an init plan, `(select $n::type)`: the planner sees no value, so each
 * execution costs what the generic plan costs and PostgreSQL keeps that plan after its first five runs,
 * instead of planning every request for a value-specific plan (which it prefers whenever a value, a large
 * tenant say, makes the custom estimate a little cheaper). Use it where the plan's shape does not depend
 * on the value; `value` is a plain parameter.
 */
export class SqlParams {
  private readonly pending: unknown[] = [];

  value(value: unknown, type: string) {
    this.pending.push(value);

    return `§${this.pending.length - 1}§::${type}`;
  }

  fixed(value: unknown, type: string) {
    return `(select ${this.value(value, type)})`;
  }

  /** `column = any(array)` with the array fixed as above */
  anyOf(column: string, list: readonly unknown[], type: 'int' | 'text') {
    return `${column} = any((select ${this.value(list, `${type}[]`)})::${type}[])`;
  }

  /** the statement's text with `$1…$n`, and their values */
  render(text: string) {
    const values: unknown[] = [];
    const numbered = text.replace(/§(\d+)§/g, (_, index: string) => {
      values.push(this.pending[Number(index)]);

      return `$${values.length}`;
    });

    return { text: numbered, values };
  }
}
