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

type TPgTypes = { getTypeParser: (oid: number, format?: string) => unknown };
type TPgClient = {
  query: (config: {
    name?: string;
    text: string;
    values: unknown[];
    types?: TPgTypes;
    rowMode?: 'array';
  }) => Promise<{ rows: unknown[] }>;
};
type TPgliteClient = {
  exec: unknown;
  query: (
    text: string,
    values: unknown[],
    opts?: { parsers?: Record<number, (value: string) => unknown>; rowMode?: 'array' | 'object' },
  ) => Promise<{ rows: unknown[] }>;
};

const TIMESTAMPTZ = 1184;
/** `2026-11-24 09:23:18.724123+00`: PostgreSQL's text of a timestamptz (ISO DateStyle), any offset */
const PG_TIMESTAMPTZ =
  /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?$/;

/**
 * A timestamptz as the API writes it, `Date#toISOString()` (milliseconds, truncated like a Date is). In a
 * session on UTC (the usual case) the text is only rearranged; another offset is applied to the fields.
 */
export const isoFromTimestamptz = (text: string) => {
  const m = PG_TIMESTAMPTZ.exec(text);
  if (!m) throw new Error(`unexpected timestamptz ${text}`);
  const millis = `${m[7] ?? ''}000`.slice(0, 3);
  if (m[8] === '+' && m[9] === '00' && !m[10] && !m[11])
    return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${millis}Z`;
  const offset = (Number(m[9]) * 3600 + Number(m[10] ?? 0) * 60 + Number(m[11] ?? 0)) * 1000 * (m[8] === '-' ? -1 : 1);
  const utc = Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
    Number(millis),
  );

  return new Date(utc - offset).toISOString();
};

let pgIsoTypes: TPgTypes | undefined;
const isoTypes = async (): Promise<TPgTypes> => {
  if (!pgIsoTypes) {
    const { default: pg } = await import('pg');
    pgIsoTypes = {
      getTypeParser: (oid, format) =>
        oid === TIMESTAMPTZ ? isoFromTimestamptz : pg.types.getTypeParser(oid, format as 'text'),
    };
  }

  return pgIsoTypes;
};
const PGLITE_ISO = { [TIMESTAMPTZ]: isoFromTimestamptz };

/**
 * Every pooled connection keeps each named statement until it closes, and a list statement's cached plan
 * takes about 1/3 MB of the connection's memory. A fixed text (its number bounded by the code) is always
 * named; a `shape` of a dynamic query (the ticket list's filters) is named only while the process has
 * named fewer than this many shapes, and runs unnamed (planned per call) after: the shapes in use come
 * first and stay, and the memory stays bounded.
 */
export const MAX_NAMED_SHAPES = 100;
const names = new Map<string, string>();
let shapes = 0;

export const statementName = (text: string, opts: { shape?: boolean } = {}) => {
  let name = names.get(text);
  if (name !== undefined) return name;
  if (opts.shape) {
    if (shapes >= MAX_NAMED_SHAPES) return undefined;
    shapes++;
  }
  name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  names.set(text, name);

  return name;
};

/** the driver under a drizzle handle (the pool, or the transaction's connection) */
const clientOf = (db: TDbOrTx) => (db as unknown as { session: { client: TPgClient | TPgliteClient } }).session.client;

/**
 * `unnamed`: a statement too rare to keep (planned per call); `shape`: one of the many texts of a dynamic
 * query (see MAX_NAMED_SHAPES). `isoTimestamps`: timestamptz
 * columns come as the API's ISO strings instead of Dates. `arrays`: each row an array of its columns in
 * order (no object per row: cheaper for wide rows).
 */
export const queryRows = async <TRow>(
  db: TDbOrTx,
  text: string,
  values: unknown[],
  opts: { unnamed?: boolean; shape?: boolean; isoTimestamps?: boolean; arrays?: boolean } = {},
): Promise<TRow[]> => {
  const client = clientOf(db);
  const rowMode = opts.arrays ? ('array' as const) : undefined;
  if ('exec' in client) {
    const parsers = opts.isoTimestamps ? PGLITE_ISO : undefined;

    return (await client.query(text, values, { parsers, rowMode })).rows as TRow[];
  }
  const name = opts.unnamed ? undefined : statementName(text, { shape: opts.shape });
  const types = opts.isoTimestamps ? await isoTypes() : undefined;

  return (await (client as TPgClient).query({ name, text, values, types, rowMode })).rows as TRow[];
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
