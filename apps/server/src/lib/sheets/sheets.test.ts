import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContactList } from '../../../test/catalogue-fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { bombXlsx } from '../../../test/sheet-bombs';
import { AppError } from '../../http/errors';
import type { TSheetSpec } from './read-table';
import { readSheetInWorker } from './sheet-pool';

let server: TTestServer;
type TTenant = Awaited<ReturnType<TTestServer['createTenant']>>;
/** the bomb: 1.15 M rows, ~9.6 MB packed, ~137 MB unpacked */
let bomb: Buffer;
/** 200,000 rows, ~23 MB unpacked: under the unpacked cap, far over the row limits (cut there) */
let manyRows: Buffer;
beforeAll(async () => {
  server = await startTestServer();
  bomb = (await bombXlsx({ rows: 1_150_000 })).file;
  manyRows = (await bombXlsx({ rows: 200_000 })).file;
}, 60_000);
afterAll(() => server.close());

const upload = async (tenant: TTenant, path: string, data: Buffer, name = 'bomb.xlsx') => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.token}` },
    body: form,
  });

  return { status: res.status, body: (await res.json()) as { error?: string; message?: string } };
};

const contactsOf = async (tenant: TTenant) =>
  (await server.request('GET', '/api/contacts', { token: tenant.token })).body.count as number;

describe('spreadsheet bombs', () => {
  it('refuses a workbook whose zip directory declares more than the unpacked cap (413), before unpacking it', async () => {
    const tenant = await server.createTenant();
    const res = await upload(tenant, '/api/contacts/import', bomb);
    expect(res).toMatchObject({ status: 413, body: { error: 'ERR_SPREADSHEET_TOO_LARGE' } });
    expect(res.body.message).toMatch(/unpacks to more than 100 MB/);
    const list = await addContactList(server, tenant);
    expect(await upload(tenant, `/api/contact-lists/${list.id}/upload`, bomb)).toMatchObject({
      status: 413,
      body: { error: 'ERR_SPREADSHEET_TOO_LARGE' },
    });
    expect(await contactsOf(tenant)).toBe(0);
  });

  it('stops a zip whose directory lies about the unpacked size at the bytes it really unpacks (413)', async () => {
    const tenant = await server.createTenant();
    const liar = (await bombXlsx({ rows: 1_150_000, lie: true })).file;
    const res = await upload(tenant, '/api/contacts/import', liar);
    expect(res).toMatchObject({ status: 413, body: { error: 'ERR_SPREADSHEET_TOO_LARGE' } });
    expect(res.body.message).toMatch(/more than its zip directory declares/);
  }, 30_000);

  it('cuts a sheet at the row limit, answering /api/health and another company’s ticket list all through the upload', async () => {
    const attacker = await server.createTenant();
    const other = await server.createTenant();
    const list = await addContactList(server, attacker);
    let inFlight = true;
    const started = performance.now();
    const answeredAt = { health: [] as number[], tickets: [] as number[] };
    const sending = upload(attacker, `/api/contact-lists/${list.id}/upload`, manyRows).finally(() => {
      inFlight = false;
    });
    const poll = async (path: string, token: string | undefined, key: keyof typeof answeredAt) => {
      while (inFlight) {
        const res = await fetch(`${server.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        if (inFlight) answeredAt[key].push(performance.now() - started);
      }
    };
    await Promise.all([
      poll('/api/health', undefined, 'health'),
      poll('/api/tickets?status=open&showAll=true', other.token, 'tickets'),
      sending,
    ]);
    const span = performance.now() - started;
    // cut at the row limit (the header, then twice the limit in rows)
    expect(await sending).toMatchObject({
      status: 400,
      body: { error: 'ERR_INVALID_SPREADSHEET', message: 'At most 20000 rows per import' },
    });
    // the parse runs in a worker: both kept answering in every part of the upload's life, not only before
    // the parse began (the server and this test share one thread: a blocked loop answers nothing)
    const parts = (times: number[], n: number) =>
      Array.from({ length: n }, (_, i) => times.filter((t) => t >= (span * i) / n && t < (span * (i + 1)) / n).length);
    expect(
      parts(answeredAt.health, 4).every((count) => count > 0),
      JSON.stringify(parts(answeredAt.health, 4)),
    ).toBe(true);
    expect(
      parts(answeredAt.tickets, 2).every((count) => count > 0),
      JSON.stringify(parts(answeredAt.tickets, 2)),
    ).toBe(true);
  });

  it('reads one spreadsheet per company at a time: the second answers 429 ERR_SPREADSHEET_BUSY', async () => {
    const tenant = await server.createTenant();
    const other = await server.createTenant();
    const list = await addContactList(server, tenant);
    const otherList = await addContactList(server, other);
    const [first, second, third] = await Promise.all([
      upload(tenant, `/api/contact-lists/${list.id}/upload`, manyRows),
      upload(tenant, '/api/contacts/import', manyRows),
      upload(other, `/api/contact-lists/${otherList.id}/upload`, manyRows),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([400, 429]);
    expect([first, second].find((r) => r.status === 429)?.body.error).toBe('ERR_SPREADSHEET_BUSY');
    // the one read is cut at its route's row limit
    const read = first.status === 400 ? first : second;
    expect(read.body.message).toBe(`At most ${read === first ? 20000 : 10000} rows per import`);
    // another company is not refused
    expect(third.status).toBe(400);
    // and once it finished, the company can upload again
    expect((await upload(tenant, `/api/contact-lists/${list.id}/upload`, manyRows)).status).toBe(400);
  }, 60_000);
});

describe('the server-wide limits (readSheetInWorker)', () => {
  const spec: TSheetSpec = {
    kind: 'xlsx',
    columns: { name: ['nome'], number: ['telefone'] },
    required: ['name', 'number'],
    labels: 'lower',
    maxRowNumber: 10_001,
    maxRows: 10_000,
  };
  const configWith = (sheets: Partial<TTestServer['ctx']['config']['sheets']>) => ({
    ...server.ctx.config,
    sheets: { ...server.ctx.config.sheets, ...sheets },
  });

  it('queues 4 × SHEET_WORKERS files behind the running ones and refuses the next with ERR_SPREADSHEET_BUSY', async () => {
    const config = configWith({ workers: 1 });
    const reads = [1, 2, 3, 4, 5, 6].map((companyId) =>
      readSheetInWorker(config, companyId, manyRows, spec).then(
        (outcome) => outcome,
        (error: unknown) => error,
      ),
    );
    const outcomes = await Promise.all(reads);
    expect(outcomes.slice(0, 5)).toEqual(
      Array(5).fill({ ok: false, reason: 'too-many-rows', message: 'too many rows' }),
    );
    expect(outcomes[5]).toBeInstanceOf(AppError);
    expect((outcomes[5] as AppError).code).toBe('ERR_SPREADSHEET_BUSY');
  }, 60_000);

  it('kills a read that passes SHEET_TIMEOUT_MS and answers too-large', async () => {
    const outcome = await readSheetInWorker(configWith({ timeoutMs: 100 }), 1, manyRows, spec);
    expect(outcome).toEqual({ ok: false, reason: 'too-large', message: 'The spreadsheet takes too long to read' });
  });

  it('kills a worker that passes SHEET_WORKER_MEMORY_MB and answers too-large', async () => {
    // a heap too small for exceljs and a sheet of 10,000 rows
    const outcome = await readSheetInWorker(configWith({ memoryMb: 8 }), 1, manyRows, spec);
    expect(outcome).toEqual({
      ok: false,
      reason: 'too-large',
      message: 'The spreadsheet needs too much memory to read',
    });
  });
});
