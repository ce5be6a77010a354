import type { TSandboxOutboxMessage } from '@zelo/shared';
import { expect } from 'vitest';
import { type TTenant, unique } from '../../../test/fixtures';
import type { TTestServer } from '../../../test/harness';
import { campaignTick } from './dispatch';

/** The campaign suites' helpers over a test server (given as a getter: the suites start it in `beforeAll`). */
export const campaignHelpers = (serverOf: () => TTestServer) => {
  const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 5000) => {
    const end = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  const connectedSandbox = async (tenant: TTenant) => {
    const server = serverOf();
    const res = await server.request('POST', '/api/whatsapp', {
      token: tenant.token,
      body: { name: unique('Sandbox') },
    });
    expect(res.status).toBe(201);
    const id = res.body.id as number;
    await until(() => server.ctx.channels.state(id)?.status === 'qrcode');
    const scanned = await server.request('POST', `/api/sandbox/${id}/scan`, { token: tenant.token, body: {} });
    expect(scanned.status).toBe(200);
    await until(() => server.ctx.channels.state(id)?.status === 'CONNECTED');

    return id;
  };

  const sql = async (text: string, values: unknown[] = []) =>
    // biome-ignore lint/suspicious/noExplicitAny: raw rows of the test's own SQL
    (await serverOf().database.executeSql(text, values)).rows as any[];

  let seq = 0;
  const number = () => `5511970${String(100000 + ++seq).padStart(6, '0')}`;

  /** a contact list with `valid` items checked valid and `invalid` ones not */
  const insertList = async (companyId: number, valid: number, invalid = 0) => {
    const [list] = await sql('insert into contact_lists (company_id, name) values ($1, $2) returning id', [
      companyId,
      unique('List'),
    ]);
    const numbers: string[] = [];
    for (let i = 0; i < valid + invalid; i++) {
      const n = number();
      if (i < valid) numbers.push(n);
      await sql(
        'insert into contact_list_items (company_id, contact_list_id, name, number, email, is_whatsapp_valid) values ($1, $2, $3, $4, $5, $6)',
        [companyId, list.id, `Pessoa ${i}`, n, `p${i}@example.com`, i < valid],
      );
    }

    return { id: list.id as number, numbers };
  };

  const outbox = async (tenant: TTenant, connectionId: number) =>
    (
      await serverOf().request('GET', `/api/sandbox/${connectionId}/outbox`, {
        token: tenant.token,
        query: { limit: 500 },
      })
    ).body.messages as TSandboxOutboxMessage[];

  const settings = (tenant: TTenant, body: unknown) =>
    serverOf().request('POST', '/api/campaign-settings', { token: tenant.token, body });

  const create = (tenant: TTenant, body: Record<string, unknown>) =>
    serverOf().request('POST', '/api/campaigns', {
      token: tenant.token,
      body: { name: unique('Camp').slice(0, 20), ...body },
    });

  const inAnHour = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

  /** runs the tick at `at` until nothing is left to send (no job system in tests) */
  const runAll = async () => {
    const later = new Date(Date.now() + 24 * 3600_000);
    const at = () => later;
    for (let i = 0; i < 20; i++) {
      const { sent } = await campaignTick(serverOf().ctx, { now: at });
      if (sent === 0) return;
    }
  };

  return { until, connectedSandbox, sql, number, insertList, outbox, settings, create, inAnHour, runAll };
};
