import { ADMIN, createPgDatabase, fmt, json, removeDir, startServer, tempDir } from './lib';

/**
 * A contact-list import (`POST /api/contact-lists/:id/upload`) of a 10,000-row .xlsx and of the same rows as
 * .csv, into an empty list and again into the full one (every row an update), on PGlite and PostgreSQL.
 * Timed from the request to the answer (parsing, validation, the batched upsert in one transaction). Issue 12
 * names no target for it.
 *
 *   npm run bench -w bench -- --only contact-lists [--db pglite|postgres] [--contact-rows 10000]
 */

export const CONTACT_LIST_DEFAULTS = { rows: 10_000 };

const sheets = async (rows: number) => {
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  sheet.addRow(['Nome', 'Número', 'Email']);
  const lines = ['Nome;Número;Email'];
  for (let i = 0; i < rows; i += 1) {
    const row = [`Cliente ${i}`, `55119${String(i).padStart(8, '0')}`, `cliente${i}@example.com`];
    sheet.addRow(row);
    lines.push(row.join(';'));
  }

  return { xlsx: Buffer.from(await workbook.xlsx.writeBuffer()), csv: Buffer.from(`${lines.join('\n')}\n`) };
};

const upload = async (base: string, token: string, listId: number, data: Buffer, name: string) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const started = performance.now();
  const res = await fetch(`${base}/api/contact-lists/${listId}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as { created: number; updated: number; errors: unknown[] };
  const ms = performance.now() - started;
  if (res.status !== 200 || body.errors.length)
    throw new Error(`upload ${name}: ${res.status} ${JSON.stringify(body)}`);

  return { ms, created: body.created, updated: body.updated };
};

/** the table rows of one database's imports */
export const contactListImports = async (kind: 'pglite' | 'postgres', pgUrl: string, rows: number) => {
  const dataDir = tempDir('contact-lists');
  const db = kind === 'postgres' ? createPgDatabase(pgUrl, `zelo_bench_cl_${Date.now()}`) : undefined;
  const server = await startServer({ dataDir, databaseUrl: db?.url, env: { RATE_LIMITS: 'off', JOBS: 'off' } });
  try {
    const login = await json(server.url, { method: 'POST', path: '/api/auth/login', body: ADMIN });
    const token = login.token as string;
    const { xlsx, csv } = await sheets(rows);
    const out: string[] = [];
    for (const [label, data, name] of [
      ['xlsx', xlsx, 'contatos.xlsx'],
      ['csv', csv, 'contatos.csv'],
    ] as const) {
      const list = await json(
        server.url,
        { method: 'POST', path: '/api/contact-lists', token, body: { name: `Bench ${label}` } },
        201,
      );
      const first = await upload(server.url, token, list.id, data, name);
      const again = await upload(server.url, token, list.id, data, name);
      out.push(
        `| ${kind} | .${label} (${(data.length / 1024).toFixed(0)} KiB) | ${rows} | ${fmt(first.ms, 0)} ms (${first.created} created) | ${fmt(again.ms, 0)} ms (${again.updated} updated) |`,
      );
    }
    return out;
  } finally {
    await server.stop();
    db?.drop();
    removeDir(dataDir);
  }
};

export const contactListsTable = (lines: string[]) =>
  ['| database | file | rows | into an empty list | same file again |', '|---|---|---|---|---|', ...lines].join('\n');
