import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../test/harness';
import { startJobs, type TJobs } from './boss';
import { createDueInvoices } from '../modules/invoices/invoices.repo';
import { markIdleUsersOffline } from '../modules/users/users.repo';
import { periodicJobs, purgeExpiredAuth } from './periodic';

let server: TTestServer;
let jobs: TJobs;
beforeAll(async () => {
  server = await startTestServer();
  jobs = await startJobs(server.database, periodicJobs(server.ctx.db), pino({ level: 'silent' }));
});
afterAll(async () => {
  await jobs.stop();
  await server.close();
});

const sql = async (text: string, values?: unknown[]) => (await server.database.executeSql(text, values)).rows as any[];

const waitFor = async (check: () => Promise<boolean>, ms = 15_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }

  return false;
};

describe('pg-boss', () => {
  it(`runs on this database and schedules the periodic work`, async () => {
    const schedules = await sql('select name, cron from pgboss.schedule order by name');
    expect(schedules.map((s) => s.name)).toEqual(['auth-purge', 'invoices-due', 'users-presence']);
  });

  it('a job sent to a queue is worked', async () => {
    const tenant = await server.createTenant();
    await sql(`update users set online = true, last_seen_at = now() - interval '1 hour' where id = $1`, [
      tenant.user.id,
    ]);
    await jobs.send('users-presence', {});
    expect(
      await waitFor(
        async () => (await sql('select online from users where id = $1', [tenant.user.id]))[0].online === false,
      ),
    ).toBe(true);
  });
});

describe('periodic work', () => {
  it('creates one open invoice per company due within 20 days, whatever the number of runs', async () => {
    const tenant = await server.createTenant();
    await createDueInvoices(server.ctx.db);
    await createDueInvoices(server.ctx.db);
    const invoices = await sql('select detail, value, due_date, status from invoices where company_id = $1', [
      tenant.companyId,
    ]);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ detail: 'Plano 1', status: 'open', due_date: tenant.company.dueDate });
    expect(Number(invoices[0].value)).toBe(30);
  });

  it('skips companies due later than 20 days', async () => {
    const tenant = await server.createTenant();
    await sql(`update companies set due_date = to_char(now() + interval '40 days', 'YYYY-MM-DD') where id = $1`, [
      tenant.companyId,
    ]);
    // the trial's invoice, written at sign-up
    await sql('delete from invoices where company_id = $1', [tenant.companyId]);
    await createDueInvoices(server.ctx.db);
    expect(await sql('select id from invoices where company_id = $1', [tenant.companyId])).toHaveLength(0);
  });

  it('marks idle users offline and keeps active ones online', async () => {
    const a = await server.createTenant();
    const b = await server.createTenant();
    await sql(`update users set online = true, last_seen_at = now() - interval '10 minutes' where id = $1`, [
      a.user.id,
    ]);
    await sql(`update users set online = true, last_seen_at = now() where id = $1`, [b.user.id]);
    await markIdleUsersOffline(server.ctx.db, 6);
    const rows = await sql('select id, online from users where id in ($1, $2) order by id', [a.user.id, b.user.id]);
    expect(rows).toEqual([
      { id: a.user.id, online: false },
      { id: b.user.id, online: true },
    ]);
  });

  it('purges expired reset codes and dead sessions', async () => {
    const tenant = await server.createTenant();
    await sql(
      `insert into password_resets (user_id, code_hash, expires_at) values ($1, 'x', now() - interval '2 days')`,
      [tenant.user.id],
    );
    await sql(`update user_sessions set expires_at = now() - interval '1 second' where user_id = $1`, [tenant.user.id]);
    await purgeExpiredAuth(server.ctx.db);
    expect(await sql('select id from password_resets where user_id = $1', [tenant.user.id])).toHaveLength(0);
    expect(await sql('select id from user_sessions where user_id = $1', [tenant.user.id])).toHaveLength(0);
  });
});
