process.env.SANDBOX_OPENING_MS = '10';
process.env.SANDBOX_QR_MS = '5000';
process.env.SANDBOX_ACK_MS = '10';

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_PDF } from '../../../test/catalogue-fixtures';
import { countRows, createLoggedUser, createPlan, type TTenant, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { randomNumber } from '../../../test/inbox';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 5000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** a connected sandbox connection with an API token */
const connectedWithToken = async (tenant: TTenant, opts: { connect?: boolean } = {}) => {
  const token = `tok-${randomBytes(16).toString('hex')}`;
  const res = await server.request('POST', '/api/whatsapp', {
    token: tenant.token,
    body: { name: unique('Api'), token },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.id as number;
  if (opts.connect !== false) {
    await until(() => server.ctx.channels.state(id)?.status === 'qrcode');
    const scan = await server.request('POST', `/api/sandbox/${id}/scan`, { token: tenant.token, body: {} });
    expect(scan.status).toBe(200);
    await until(() => server.ctx.channels.state(id)?.status === 'CONNECTED');
  }

  return { id, token };
};

type TAnswer = { status: number; body: any; headers: Headers };

/** the external API over real HTTP, as another system calls it */
const sendJson = async (
  token: string | null,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<TAnswer> => {
  const res = await fetch(`${server.url}/api/messages/send`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();

  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
};

const sendForm = async (
  token: string,
  fields: Record<string, string>,
  files: { data: Buffer; name: string; type: string }[],
  headers: Record<string, string> = {},
): Promise<TAnswer> => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('medias', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  const res = await fetch(`${server.url}/api/messages/send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...headers },
    body: form,
  });
  const text = await res.text();

  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
};

const outbox = async (tenant: TTenant, connectionId: number, to: string) => {
  const res = await server.request('GET', `/api/sandbox/${connectionId}/outbox`, {
    token: tenant.token,
    query: { to },
  });
  expect(res.status).toBe(200);

  return res.body.messages as { body: string; type: string; media?: { fileName?: string; mimetype?: string } }[];
};

const history = async (tenant: TTenant, ticketId: number) => {
  const res = await server.request('GET', `/api/messages/${ticketId}`, { token: tenant.token });
  expect(res.status).toBe(200);

  return res.body.messages as { id: number; body: string; fromMe: boolean; mediaType: string | null; ack: number }[];
};

const messagesOfCompany = (companyId: number) =>
  countRows(server, 'select count(*)::int as n from messages where company_id = $1', [companyId]);
const contactsOfCompany = (companyId: number) =>
  countRows(server, 'select count(*)::int as n from contacts where company_id = $1', [companyId]);

describe('POST /api/messages/send', () => {
  let tenant: TTenant;
  let conn: { id: number; token: string };
  beforeAll(async () => {
    tenant = await server.createTenant('Api');
    conn = await connectedWithToken(tenant);
  });

  it("sends JSON {number, body}: the contact and its ticket are made, the message is in the history and the customer's phone", async () => {
    const number = randomNumber();
    const res = await sendJson(conn.token, {
      number: `+${number.slice(0, 2)} ${number.slice(2)}`,
      body: 'Your order shipped',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ mensagem: 'Mensagem enviada' });
    expect(res.body.messageIds).toEqual([res.body.messageId]);
    const ticket = await server.request('GET', `/api/tickets/${res.body.ticketId}`, { token: tenant.token });
    expect(ticket.body).toMatchObject({ contactId: res.body.contactId, whatsappId: conn.id, status: 'pending' });
    expect(ticket.body.contact).toMatchObject({ number });
    const stored = await history(tenant, res.body.ticketId);
    expect(stored.find((m) => m.id === res.body.messageId)).toMatchObject({ body: 'Your order shipped', fromMe: true });
    await until(async () => (await outbox(tenant, conn.id, number)).some((m) => m.body === 'Your order shipped'));
    const { rows } = await server.database.executeSql('select source from messages where id = $1', [
      res.body.messageId,
    ]);
    expect(rows[0]).toEqual({ source: 'api' });

    // the next send to the same number goes to the same ticket
    const next = await sendJson(conn.token, { number, body: 'And it arrives tomorrow' });
    expect(next.body).toMatchObject({ ticketId: res.body.ticketId, contactId: res.body.contactId });
    expect((await history(tenant, res.body.ticketId)).map((m) => m.body)).toEqual([
      'Your order shipped',
      'And it arrives tomorrow',
    ]);
  });

  it('sends multipart number, body and medias: each file a message of the ticket, the body as the first caption', async () => {
    const number = randomNumber();
    const res = await sendForm(conn.token, { number, body: 'The documents' }, [
      { data: SAMPLE_PDF, name: 'invoice.pdf', type: 'application/pdf' },
      // labelled as a PDF, typed by its content
      { data: PNG, name: 'photo.pdf', type: 'application/pdf' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.messageIds).toHaveLength(2);
    const stored = await history(tenant, res.body.ticketId);
    expect(stored.map((m) => [m.mediaType, m.body])).toEqual([
      ['application', 'The documents'],
      ['image', ''],
    ]);
    await until(async () => (await outbox(tenant, conn.id, number)).length === 2);
    const received = await outbox(tenant, conn.id, number);
    expect(received.map((m) => [m.type, m.media?.mimetype, m.body])).toEqual([
      ['media', 'application/pdf', 'The documents'],
      ['media', 'image/png', ''],
    ]);
  });

  it('answers the first answer again for the same Idempotency-Key within 24 h and sends nothing more', async () => {
    const number = randomNumber();
    const key = `order-${randomBytes(6).toString('hex')}`;
    const first = await sendJson(conn.token, { number, body: 'Paid, thank you' }, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    const again = await sendJson(conn.token, { number, body: 'Paid, thank you' }, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    // even with another body: the key decides
    const changed = await sendJson(conn.token, { number, body: 'Something else' }, { 'idempotency-key': key });
    expect(changed.body).toEqual(first.body);
    await new Promise((r) => setTimeout(r, 200));
    expect((await outbox(tenant, conn.id, number)).map((m) => m.body)).toEqual(['Paid, thank you']);
    expect((await history(tenant, first.body.ticketId)).map((m) => m.body)).toEqual(['Paid, thank you']);

    // multipart too
    const mediaKey = `${key}-media`;
    const files = [{ data: SAMPLE_PDF, name: 'receipt.pdf', type: 'application/pdf' }];
    const m1 = await sendForm(conn.token, { number, body: 'Receipt' }, files, { 'idempotency-key': mediaKey });
    const m2 = await sendForm(conn.token, { number, body: 'Receipt' }, files, { 'idempotency-key': mediaKey });
    expect(m2.body).toEqual(m1.body);
    expect((await history(tenant, first.body.ticketId)).length).toBe(2);

    // past the window the key is new again
    await server.database.executeSql(
      `update api_idempotency_keys set created_at = now() - interval '25 hours' where company_id = $1`,
      [tenant.companyId],
    );
    const later = await sendJson(conn.token, { number, body: 'Paid, thank you' }, { 'idempotency-key': key });
    expect(later.status).toBe(200);
    expect(later.body.messageId).not.toBe(first.body.messageId);
    expect(later.headers.get('idempotency-replayed')).toBeNull();
    expect((await history(tenant, first.body.ticketId)).length).toBe(3);

    // another company's key of the same text is its own
    const other = await server.createTenant('Other keys');
    const otherConn = await connectedWithToken(other);
    const theirs = await sendJson(otherConn.token, { number, body: 'Theirs' }, { 'idempotency-key': key });
    expect(theirs.status).toBe(200);
    expect(theirs.body.messageId).not.toBe(first.body.messageId);

    const bad = await sendJson(conn.token, { number, body: 'x' }, { 'idempotency-key': 'has space' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });

  it('a missing, unknown or user token is 401 ERR_WAPP_NOT_FOUND_FOR_TOKEN, and nothing is stored or sent', async () => {
    const number = randomNumber();
    const messages = await messagesOfCompany(tenant.companyId);
    const contacts = await contactsOfCompany(tenant.companyId);
    const agent = await createLoggedUser(server, tenant, { name: 'Agent' });
    for (const token of [null, '', 'nope', `${conn.token}x`, conn.token.slice(0, -1), agent.token, tenant.token]) {
      const res = await sendJson(token, { number, body: 'Should not leave' });
      expect(res, String(token)).toMatchObject({ status: 401, body: { error: 'ERR_WAPP_NOT_FOUND_FOR_TOKEN' } });
      expect(JSON.stringify(res.body)).not.toContain(conn.token);
    }
    const form = await sendForm('nope', { number, body: 'x' }, [
      { data: SAMPLE_PDF, name: 'a.pdf', type: 'application/pdf' },
    ]);
    expect(form.status).toBe(401);
    expect(await messagesOfCompany(tenant.companyId)).toBe(messages);
    expect(await contactsOfCompany(tenant.companyId)).toBe(contacts);
    expect(await outbox(tenant, conn.id, number)).toEqual([]);
  });

  it('a company whose plan lacks the external API gets 403 ERR_PLAN_FEATURE_DISABLED, nothing sent', async () => {
    const t = await server.createTenant('No API');
    const c = await connectedWithToken(t);
    const superToken = (await server.superLogin()).token;
    const plan = await createPlan(server, superToken, { useExternalApi: false });
    expect(
      (await server.request('PUT', `/api/companies/${t.companyId}`, { token: superToken, body: { planId: plan.id } }))
        .status,
    ).toBe(200);
    const number = randomNumber();
    const res = await sendJson(c.token, { number, body: 'Not allowed' }, { 'idempotency-key': 'k1' });
    expect(res).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
    expect(await messagesOfCompany(t.companyId)).toBe(0);
    expect(
      await countRows(server, 'select count(*)::int as n from api_idempotency_keys where company_id = $1', [
        t.companyId,
      ]),
    ).toBe(0);
    expect(await outbox(t, c.id, number)).toEqual([]);
  });

  it('a company past its due date gets 402 ERR_SUBSCRIPTION_EXPIRED through its token, nothing sent', async () => {
    const t = await server.createTenant('Past due API');
    const c = await connectedWithToken(t);
    await server.database.executeSql("update companies set due_date = '2020-01-01' where id = $1", [t.companyId]);
    server.ctx.sessions.forget({ companyId: t.companyId });
    const number = randomNumber();
    const res = await sendJson(c.token, { number, body: 'Past due' });
    expect(res).toMatchObject({ status: 402, body: { error: 'ERR_SUBSCRIPTION_EXPIRED' } });
    expect(await messagesOfCompany(t.companyId)).toBe(0);
    await server.database.executeSql("update companies set due_date = '2099-01-01' where id = $1", [t.companyId]);
    server.ctx.sessions.forget({ companyId: t.companyId });
    expect(await outbox(t, c.id, number)).toEqual([]);
  });

  it('refuses bad numbers and bodies (400) and numbers that are not WhatsApp accounts, storing nothing', async () => {
    const messages = await messagesOfCompany(tenant.companyId);
    const contacts = await contactsOfCompany(tenant.companyId);
    for (const body of [
      { number: 'abc', body: 'x' },
      { number: '123', body: 'x' },
      { number: '55119999999999999', body: 'x' },
      { number: '5511988887777;drop', body: 'x' },
      { body: 'x' },
      { number: '5511988887777' },
      { number: '5511988887777', body: '   ' },
    ]) {
      const res = await sendJson(conn.token, body);
      expect(res, JSON.stringify(body)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    }
    const noFiles = await sendForm(conn.token, { number: '5511988887777', body: 'x' }, []);
    expect(noFiles).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    // the sandbox says numbers starting with 000 are not WhatsApp accounts
    const notAccount = await sendJson(conn.token, { number: '000119999999', body: 'x' });
    expect(notAccount).toMatchObject({ status: 400, body: { error: 'ERR_WAPP_INVALID_CONTACT' } });
    expect(await messagesOfCompany(tenant.companyId)).toBe(messages);
    expect(await contactsOfCompany(tenant.companyId)).toBe(contacts);
  });

  it('a connection that is not connected answers ERR_WAPP_NOT_INITIALIZED and frees the key', async () => {
    const idle = await connectedWithToken(tenant, { connect: false });
    const messages = await messagesOfCompany(tenant.companyId);
    const contacts = await contactsOfCompany(tenant.companyId);
    const res = await sendJson(idle.token, { number: randomNumber(), body: 'x' }, { 'idempotency-key': 'idle-1' });
    expect(res).toMatchObject({ status: 409, body: { error: 'ERR_WAPP_NOT_INITIALIZED' } });
    expect(await messagesOfCompany(tenant.companyId)).toBe(messages);
    expect(await contactsOfCompany(tenant.companyId)).toBe(contacts);
    expect(
      await countRows(
        server,
        `select count(*)::int as n from api_idempotency_keys where company_id = $1 and status is null`,
        [tenant.companyId],
      ),
    ).toBe(0);
  });

  it("a company's token reaches its own company only: the same number in two companies is two contacts", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    const aConn = await connectedWithToken(a);
    const bConn = await connectedWithToken(b);
    const number = randomNumber();
    const bFirst = await sendJson(bConn.token, { number, body: 'Beta hello' });
    expect(bFirst.status).toBe(200);
    const bMessages = await messagesOfCompany(b.companyId);
    const aSend = await sendJson(aConn.token, { number, body: 'Alpha hello' });
    expect(aSend.status).toBe(200);
    expect(aSend.body.contactId).not.toBe(bFirst.body.contactId);
    expect(aSend.body.ticketId).not.toBe(bFirst.body.ticketId);
    expect(await messagesOfCompany(b.companyId)).toBe(bMessages);
    expect((await history(b, bFirst.body.ticketId)).map((m) => m.body)).toEqual(['Beta hello']);
    expect((await server.request('GET', `/api/tickets/${aSend.body.ticketId}`, { token: b.token })).status).toBe(404);
    expect((await outbox(b, bConn.id, number)).map((m) => m.body)).toEqual(['Beta hello']);
  });
});

describe('POST /api/messages/send: rate limit', () => {
  it('allows 120 requests a minute per token; the next is 429 with Retry-After, other tokens unaffected', async () => {
    const limited = await startTestServer({ env: { RATE_LIMITS: 'on' } });
    try {
      const t = await limited.createTenant('Limited');
      const make = async () => {
        const token = `tok-${randomBytes(16).toString('hex')}`;
        const res = await limited.request('POST', '/api/whatsapp', {
          token: t.token,
          body: { name: unique('Api'), token },
        });
        expect(res.status).toBe(201);
        return token;
      };
      const [first, second] = [await make(), await make()];
      const call = (token: string) =>
        limited.request('POST', '/api/messages/send', { token, body: { number: 'not a number', body: 'x' } });
      for (let i = 0; i < 120; i++) expect((await call(first)).status).toBe(400);
      const over = await call(first);
      expect(over).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_REQUESTS' } });
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect((await call(second)).status).toBe(400);
    } finally {
      await limited.close();
    }
    // a server of its own (with its own database) besides the 121 requests
  }, 180_000);
});
