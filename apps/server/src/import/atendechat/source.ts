/**
 * The Atendechat / Whaticket database read: one client in a read-only snapshot (REPEATABLE READ) so every
 * model sees the same moment, its schema checked against what the models need, and each table walked in
 * key order a page at a time (keyset pagination on the primary key: flat memory, no long sort).
 */
import pg from 'pg';

export type TSourceRow = Record<string, unknown>;

export type TSource = {
  columns: Map<string, Set<string>>;
  count: (table: string, where?: string) => Promise<number>;
  /** pages of rows in `key` order after `after` (the last key of a page read before) */
  pages: (
    table: string,
    key: string[],
    opts: { after?: unknown[]; size: number; where?: string; select?: string },
  ) => AsyncGenerator<TSourceRow[]>;
  query: (text: string, values?: unknown[]) => Promise<TSourceRow[]>;
  close: () => Promise<void>;
};

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export const openSource = async (url: string): Promise<TSource> => {
  const client = new pg.Client({ connectionString: url, application_name: 'zelo-import-atendechat' });
  // timestamps as Date, bigint counts as numbers are handled by the callers
  await client.connect();
  await client.query('begin transaction isolation level repeatable read read only');
  const described = await client.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns where table_schema = current_schema()`,
  );
  const columns = new Map<string, Set<string>>();
  for (const row of described.rows) {
    if (!columns.has(row.table_name)) columns.set(row.table_name, new Set());
    columns.get(row.table_name)!.add(row.column_name);
  }

  return {
    columns,
    count: async (table, where) => {
      const res = await client.query<{ n: string }>(
        `select count(*) as n from ${quote(table)}${where ? ` where ${where}` : ''}`,
      );

      return Number(res.rows[0].n);
    },
    pages: async function* (table, key, opts) {
      let after = opts.after;
      const keys = key.map(quote).join(', ');
      for (;;) {
        const conditions: string[] = [];
        if (opts.where) conditions.push(`(${opts.where})`);
        if (after) conditions.push(`(${keys}) > (${key.map((_, i) => `$${i + 1}`).join(', ')})`);
        const text = `select ${opts.select ?? '*'} from ${quote(table)}${conditions.length ? ` where ${conditions.join(' and ')}` : ''} order by ${keys} limit ${opts.size}`;
        const res = await client.query(text, after ?? []);
        if (res.rows.length === 0) return;
        yield res.rows;
        if (res.rows.length < opts.size) return;
        const last = res.rows[res.rows.length - 1];
        after = key.map((k) => last[k]);
      }
    },
    query: async (text, values) => (await client.query(text, values)).rows,
    close: async () => {
      await client.query('rollback').catch(() => undefined);
      await client.end();
    },
  };
};

/** what a model needs that the source lacks: `Table` or `Table.column` */
export const missingFrom = (source: TSource, table: string, required: string[]): string[] => {
  const have = source.columns.get(table);
  if (!have) return [table];

  return required.filter((c) => !have.has(c)).map((c) => `${table}.${c}`);
};
