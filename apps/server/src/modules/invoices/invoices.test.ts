import { events, ZInvoice, ZPixCheckout } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAsaas, type TFakeAsaas } from '../../../test/fake-asaas';
import { createLoggedUser, createPlan, openSocket, recordEvents, type TTenant } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { addMonthsToDay } from '../../lib/dates';
import { createDueInvoices } from './invoices.repo';

const WEBHOOK_TOKEN = 'whk-secret-0123456789';
const CPF = '52998224725';
const CNPJ = '11.222.333/0001-81';

let fake: TFakeAsaas;
let server: TTestServer;
let superToken: string;
beforeAll(async () => {
  fake = await startFakeAsaas();
  server = await startTestServer({
    env: { ASAAS_API_KEY: fake.apiKey, ASAAS_API_URL: fake.url, ASAAS_WEBHOOK_TOKEN: WEBHOOK_TOKEN },
  });
  superToken = (await server.superLogin()).token;
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

const sql = async (text: string, values?: unknown[]) => (await server.database.executeSql(text, values)).rows as any[];
const webhookUrl = () => `${server.url}/api/subscription/webhook/asaas`;

/** the tenant's open invoice, as the invoice job creates it (its trial ends within the lead time) */
const openInvoice = async (tenant: TTenant) => {
  await createDueInvoices(server.ctx.db);
  const [row] = await sql('select id, value, due_date from invoices where company_id = $1 and status = $2', [
    tenant.companyId,
    'open',
  ]);

  return { id: row.id as number, value: Number(row.value), dueDate: row.due_date as string };
};

const company = async (id: number) =>
  (await sql('select due_date, plan_id, cpf_cnpj, billing_name from companies where id = $1', [id]))[0];

const pay = (tenant: TTenant, body: Record<string, unknown>) =>
  server.request('POST', '/api/subscription', { token: tenant.token, body });

describe('invoices of the caller company', () => {
  it('lists its own invoices only, newest due first, page by page; a companyId in the query is ignored', async () => {
    const a = await server.createTenant();
    const b = await server.createTenant();
    // without the trials' invoices written at sign-up
    await sql('delete from invoices where company_id in ($1, $2)', [a.companyId, b.companyId]);
    for (let i = 1; i <= 22; i += 1) {
      await sql('insert into invoices (company_id, detail, value, due_date) values ($1, $2, 10, $3)', [
        a.companyId,
        `Fatura ${i}`,
        `2030-${String(((i - 1) % 12) + 1).padStart(2, '0')}-${String(i).padStart(2, '0')}`,
      ]);
    }
    await sql('insert into invoices (company_id, detail, value, due_date) values ($1, $2, 10, $3)', [
      b.companyId,
      'Fatura de B',
      '2031-01-01',
    ]);
    const first = await server.request('GET', '/api/invoices', { token: a.token, query: { companyId: b.companyId } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 22, hasMore: true });
    expect(first.body.invoices).toHaveLength(20);
    for (const invoice of first.body.invoices) expect(ZInvoice.parse(invoice).companyId).toBe(a.companyId);
    const dues = first.body.invoices.map((i: { dueDate: string }) => i.dueDate);
    expect(dues).toEqual([...dues].sort().reverse());
    const second = await server.request('GET', '/api/invoices', { token: a.token, query: { pageNumber: 2 } });
    expect(second.body).toMatchObject({ count: 22, hasMore: false });
    expect(second.body.invoices).toHaveLength(2);
    // the ancestor's path: a plain array
    const all = await server.request('GET', '/api/invoices/all', { token: a.token, query: { pageNumber: 1 } });
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(20);
    expect(all.body.every((i: { companyId: number }) => i.companyId === a.companyId)).toBe(true);
  });

  it('shows an open invoice past its due date as expired, and reads one invoice of its own only', async () => {
    const a = await server.createTenant();
    const b = await server.createTenant();
    const [old] = await sql(
      `insert into invoices (company_id, detail, value, due_date) values ($1, 'Velha', 10, '2020-01-10') returning id`,
      [a.companyId],
    );
    const mine = await server.request('GET', `/api/invoices/${old.id}`, { token: a.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ id: old.id, status: 'expired', value: 10, dueDate: '2020-01-10' });
    const theirs = await server.request('GET', `/api/invoices/${old.id}`, { token: b.token });
    expect(theirs).toMatchObject({ status: 404, body: { error: 'ERR_NO_INVOICE_FOUND' } });
  });

  it('is for admins: an attendant is refused', async () => {
    const tenant = await server.createTenant();
    const attendant = await createLoggedUser(server, tenant, { profile: 'user' });
    const res = await server.request('GET', '/api/invoices', { token: attendant.token });
    expect(res).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
  });

  it('stays open to a company past its due date, so that it can pay', async () => {
    const tenant = await server.createTenant();
    const invoice = await openInvoice(tenant);
    await sql(`update companies set due_date = '2020-01-01' where id = $1`, [tenant.companyId]);
    await server.ctx.sessions.forget({ companyId: tenant.companyId });
    const list = await server.request('GET', '/api/invoices', { token: tenant.token });
    expect(list.status).toBe(200);
    const checkout = await pay(tenant, { invoiceId: invoice.id, cpfCnpj: CPF, firstName: 'Ana Pagadora' });
    expect(checkout.status).toBe(200);
  });
});

describe('marking an invoice paid by hand (PUT /invoices/:id)', () => {
  it('is for super users: who and when are recorded and the due date moves one recurrence, once', async () => {
    const tenant = await server.createTenant();
    const invoice = await openInvoice(tenant);
    const before = await company(tenant.companyId);
    const refused = await server.request('PUT', `/api/invoices/${invoice.id}`, {
      token: tenant.token,
      body: { id: invoice.id, status: 'paid' },
    });
    expect(refused).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await sql('select status from invoices where id = $1', [invoice.id]))[0].status).toBe('open');

    const marked = await server.request('PUT', `/api/invoices/${invoice.id}`, {
      token: superToken,
      body: { id: invoice.id, status: 'paid' },
    });
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ id: invoice.id, status: 'paid', paidVia: 'manual', paidByName: 'Admin' });
    expect(Date.now() - Date.parse(marked.body.paidAt)).toBeLessThan(60_000);
    expect((await company(tenant.companyId)).due_date).toBe(addMonthsToDay(before.due_date, 1));

    const again = await server.request('PUT', `/api/invoices/${invoice.id}`, {
      token: superToken,
      body: { status: 'paid' },
    });
    expect(again).toMatchObject({ status: 409, body: { error: 'ERR_INVOICE_ALREADY_PAID' } });
    expect((await company(tenant.companyId)).due_date).toBe(addMonthsToDay(before.due_date, 1));
    // the super user reads the company's invoices from the companies tab
    const tab = await server.request('GET', '/api/invoices', {
      token: superToken,
      query: { companyId: tenant.companyId },
    });
    expect(tab.body.invoices).toEqual([expect.objectContaining({ id: invoice.id, paidByName: 'Admin' })]);
  });

  it('accepts only the paid status', async () => {
    const tenant = await server.createTenant();
    const invoice = await openInvoice(tenant);
    const res = await server.request('PUT', `/api/invoices/${invoice.id}`, {
      token: superToken,
      body: { status: 'open' },
    });
    expect(res).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });
});

describe('Pix checkout (POST /subscription) through Asaas', () => {
  it('charges the price the server computes, never the one the browser sends, and drops card fields', async () => {
    const tenant = await server.createTenant();
    const invoice = await openInvoice(tenant);
    const res = await pay(tenant, {
      invoiceId: invoice.id,
      firstName: 'Ana Pagadora',
      email: 'ana@example.com',
      cpfCnpj: '111.444.777-35',
      price: 1,
      users: 99,
      connections: 99,
      plan: JSON.stringify({ title: 'x', price: 1, users: 99, connections: 99 }),
      nameOnCard: 'ANA P',
      cardNumber: '4111111111111111',
      cvv: '123',
      expiryDate: '12/30',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const pix = ZPixCheckout.parse(res.body);
    expect(invoice.value).toBe(30);
    expect(pix.amount).toBe(30);
    expect(pix.valor.original).toBe('30.00');
    const charge = fake.payments.get(pix.txid)!;
    expect(charge).toMatchObject({ value: 30, billingType: 'PIX', externalReference: `invoice:${invoice.id}` });
    expect(pix.qrcode.qrcode).toContain(pix.txid);
    expect(pix.qrcode.imagemQrcode).toMatch(/^data:image\/png;base64,/);
    // the payer is kept on the company; nothing of the card anywhere
    expect(await company(tenant.companyId)).toMatchObject({ cpf_cnpj: '11144477735', billing_name: 'Ana Pagadora' });
    const stored = JSON.stringify([
      await sql('select * from payments where company_id = $1', [tenant.companyId]),
      await sql('select * from companies where id = $1', [tenant.companyId]),
      fake.calls,
    ]);
    expect(stored).not.toContain('4111111111111111');
    expect(stored).not.toContain('ANA P"');
    const [customer] = [...fake.customers.values()].filter((c) => c.cpfCnpj === '11144477735');
    expect(customer).toMatchObject({ name: 'Ana Pagadora', email: 'ana@example.com' });
  });

  it('shows the same pending charge again and reuses the Asaas customer of the CPF/CNPJ', async () => {
    const tenant = await server.createTenant();
    const invoice = await openInvoice(tenant);
    const first = await pay(tenant, { invoiceId: invoice.id, cpfCnpj: CNPJ, firstName: 'Empresa Pagadora' });
    const customersBefore = fake.customers.size;
    const second = await pay(tenant, { invoiceId: invoice.id });
    expect(second.status).toBe(200);
    expect(second.body.txid).toBe(first.body.txid);
    expect(await sql('select id from payments where invoice_id = $1', [invoice.id])).toHaveLength(1);

    const other = await server.createTenant();
    const otherInvoice = await openInvoice(other);
    const third = await pay(other, { invoiceId: otherInvoice.id, cpfCnpj: CNPJ, firstName: 'Empresa Pagadora' });
    expect(third.status).toBe(200);
    expect(fake.customers.size).toBe(customersBefore);
  });

  it('refuses a CPF or CNPJ whose check digits are wrong, and a checkout with none known', async () => {
    const tenant = await server.createTenant();
    const invoice = await openInvoice(tenant);
    for (const cpfCnpj of ['529.982.247-26', '11.222.333/0001-82', '11111111111', '123']) {
      const res = await pay(tenant, { invoiceId: invoice.id, cpfCnpj });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION' });
      expect(res.body.details).toEqual([expect.objectContaining({ path: 'cpfCnpj' })]);
    }
    const none = await pay(tenant, { invoiceId: invoice.id, firstName: 'Sem Documento' });
    expect(none).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect(none.body.details).toEqual([expect.objectContaining({ path: 'cpfCnpj' })]);
    expect(await sql('select id from payments where company_id = $1', [tenant.companyId])).toHaveLength(0);
  });

  it("refuses another company's invoice and a paid one", async () => {
    const a = await server.createTenant();
    const b = await server.createTenant();
    const invoiceB = await openInvoice(b);
    const foreign = await pay(a, { invoiceId: invoiceB.id, cpfCnpj: CPF });
    expect(foreign).toMatchObject({ status: 404, body: { error: 'ERR_NO_INVOICE_FOUND' } });
    const invoiceA = await openInvoice(a);
    await sql(`update invoices set status = 'paid' where id = $1`, [invoiceA.id]);
    const paid = await pay(a, { invoiceId: invoiceA.id, cpfCnpj: CPF });
    expect(paid).toMatchObject({ status: 409, body: { error: 'ERR_INVOICE_ALREADY_PAID' } });
  });

  it('answers ERR_PAYMENT_PROVIDER when Asaas fails, storing no charge', async () => {
    const tenant = await server.createTenant();
    const invoice = await openInvoice(tenant);
    fake.failNext(1);
    const res = await pay(tenant, { invoiceId: invoice.id, cpfCnpj: CPF });
    expect(res).toMatchObject({ status: 502, body: { error: 'ERR_PAYMENT_PROVIDER' } });
    expect(res.body.message).not.toContain(fake.apiKey);
    expect(await sql('select id from payments where company_id = $1', [tenant.companyId])).toHaveLength(0);
  });
});

describe('the Asaas webhook', () => {
  it('pays the invoice once, moves the due date once and the plan chosen, even replayed 10 times at once', async () => {
    const tenant = await server.createTenant();
    const invoice = await openInvoice(tenant);
    const before = await company(tenant.companyId);
    const dearer = await createPlan(server, superToken, { value: 100 });
    const res = await pay(tenant, { invoiceId: invoice.id, cpfCnpj: CPF, firstName: 'Ana', planId: dearer.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ amount: 100, planId: dearer.id, valor: { original: '100.00' } });
    expect(fake.payments.get(res.body.txid)!.value).toBe(100);
    // not before it is paid
    expect((await company(tenant.companyId)).plan_id).toBe(before.plan_id);

    const socket = await openSocket(server, tenant.token);
    const heard = recordEvents(socket);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => fake.fireWebhook(webhookUrl(), res.body.txid, { token: WEBHOOK_TOKEN })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((a) => a.body.settled)).toHaveLength(1);
    const after = await company(tenant.companyId);
    expect(after.due_date).toBe(addMonthsToDay(before.due_date, 1));
    expect(after.plan_id).toBe(dearer.id);
    const [paid] = await sql('select status, value, detail, paid_via, paid_at from invoices where id = $1', [
      invoice.id,
    ]);
    expect(paid).toMatchObject({ status: 'paid', detail: dearer.name, paid_via: 'asaas' });
    expect(Number(paid.value)).toBe(100);
    expect((await sql('select status from payments where txid = $1', [res.body.txid]))[0].status).toBe('paid');
    const event = await heard.waitFor(events.payment(tenant.companyId));
    expect(event).toMatchObject({ action: 'CONCLUIDA', company: { id: tenant.companyId, dueDate: after.due_date } });
    await new Promise((r) => setTimeout(r, 200));
    expect(heard.heard.filter((h) => h.event === events.payment(tenant.companyId))).toHaveLength(1);
    socket.close();

    // a later replay changes nothing more
    const replay = await fake.fireWebhook(webhookUrl(), res.body.txid, {
      token: WEBHOOK_TOKEN,
      event: 'PAYMENT_CONFIRMED',
    });
    expect(replay).toMatchObject({ status: 200, body: { settled: false } });
    expect((await company(tenant.companyId)).due_date).toBe(after.due_date);
  });

  it('refuses a forged or missing token with 401 and changes nothing', async () => {
    const tenant = await server.createTenant();
    const invoice = await openInvoice(tenant);
    const before = await company(tenant.companyId);
    const res = await pay(tenant, { invoiceId: invoice.id, cpfCnpj: CPF });
    for (const token of ['forged', WEBHOOK_TOKEN.slice(0, -1), undefined]) {
      const answer = await fake.fireWebhook(webhookUrl(), res.body.txid, { token });
      expect(answer).toMatchObject({ status: 401, body: { error: 'ERR_WEBHOOK_SIGNATURE' } });
    }
    const junk = await server.request('POST', '/api/subscription/webhook/asaas', { body: { nothing: true } });
    expect(junk.status).toBe(401);
    expect((await sql('select status from invoices where id = $1', [invoice.id]))[0].status).toBe('open');
    expect((await company(tenant.companyId)).due_date).toBe(before.due_date);
  });

  it('acknowledges other events and unknown payments without changing anything', async () => {
    const tenant = await server.createTenant();
    const invoice = await openInvoice(tenant);
    const res = await pay(tenant, { invoiceId: invoice.id, cpfCnpj: CPF });
    const created = await fake.fireWebhook(webhookUrl(), res.body.txid, {
      token: WEBHOOK_TOKEN,
      event: 'PAYMENT_CREATED',
    });
    expect(created).toMatchObject({ status: 200, body: { settled: false } });
    const unknown = await fake.fireWebhook(webhookUrl(), 'pay_unknown', { token: WEBHOOK_TOKEN });
    expect(unknown).toMatchObject({ status: 200, body: { settled: false } });
    expect((await sql('select status from invoices where id = $1', [invoice.id]))[0].status).toBe('open');
  });
});

describe('without ASAAS_API_KEY', () => {
  it('the checkout answers that billing is not configured, and every webhook is refused', async () => {
    const bare = await startTestServer({ database: server.database });
    try {
      const tenant = await bare.createTenant();
      await createDueInvoices(bare.ctx.db);
      const [row] = await sql('select id from invoices where company_id = $1', [tenant.companyId]);
      const res = await bare.request('POST', '/api/subscription', {
        token: tenant.token,
        body: { invoiceId: row.id, cpfCnpj: CPF },
      });
      expect(res).toMatchObject({ status: 503, body: { error: 'ERR_BILLING_NOT_CONFIGURED' } });
      const hook = await bare.request('POST', '/api/subscription/webhook/asaas', {
        headers: { 'asaas-access-token': '' },
        body: { event: 'PAYMENT_RECEIVED', payment: { id: 'pay_x' } },
      });
      expect(hook.status).toBe(401);
    } finally {
      await bare.app.close();
    }
  });
});

describe('the invoice job', () => {
  it("writes a new company's trial invoice at sign-up, due when the trial ends", async () => {
    const tenant = await server.createTenant();
    const rows = await sql('select due_date, status, value from invoices where company_id = $1', [tenant.companyId]);
    expect(rows).toEqual([expect.objectContaining({ due_date: tenant.company.dueDate, status: 'open' })]);
    expect(Number(rows[0].value)).toBe(30);
  });

  it('writes the invoice at once when the super user moves a due date into the past, not at the next hourly run', async () => {
    const tenant = await server.createTenant();
    const moved = await server.request('PUT', `/api/companies/${tenant.companyId}`, {
      token: superToken,
      body: { dueDate: '2026-01-10' },
    });
    expect(moved.status).toBe(200);
    const rows = await sql('select due_date, status from invoices where company_id = $1 order by due_date', [
      tenant.companyId,
    ]);
    expect(rows).toContainEqual(expect.objectContaining({ due_date: '2026-01-10', status: 'open' }));
    const listed = await server.request('GET', '/api/invoices/all', { token: tenant.token });
    expect(JSON.stringify(listed.body)).toContain('2026-01-10');
  });

  it('creates one invoice per period even when two runs race, ahead by the lead time, priced by recurrence', async () => {
    const tenant = await server.createTenant();
    await sql(
      `update companies set due_date = to_char(now() + interval '30 days', 'YYYY-MM-DD'), recurrence = 'TRIMESTRAL'
       where id = $1`,
      [tenant.companyId],
    );
    await sql('delete from invoices where company_id = $1', [tenant.companyId]);
    await createDueInvoices(server.ctx.db, 20);
    expect(await sql('select id from invoices where company_id = $1', [tenant.companyId])).toHaveLength(0);
    await Promise.all([createDueInvoices(server.ctx.db, 40), createDueInvoices(server.ctx.db, 40)]);
    await Promise.all([createDueInvoices(server.ctx.db, 40), createDueInvoices(server.ctx.db, 40)]);
    const rows = await sql('select value, detail, status from invoices where company_id = $1', [tenant.companyId]);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].value)).toBe(90);
    expect(rows[0]).toMatchObject({ detail: 'Plano 1', status: 'open' });
  });
});
