process.env.SANDBOX_OPENING_MS = '10';
process.env.SANDBOX_QR_MS = '5000';
process.env.SANDBOX_ACK_MS = '10';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContactList, addContactListItem, digits } from '../../../test/catalogue-fixtures';
import { createLoggedUser, createPlan, openSocket, recordEvents, type TTenant, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { validityCheckDone } from './contact-lists.validity';

let server: TTestServer;
let tenant: TTenant;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
});
afterAll(() => server.close());

const until = async (check: () => Promise<boolean> | boolean, timeoutMs = 5000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** a sandbox connection of the tenant, scanned and CONNECTED */
const connectedSandbox = async (t: TTenant) => {
  const res = await server.request('POST', '/api/whatsapp', { token: t.token, body: { name: unique('Sandbox') } });
  expect(res.status).toBe(201);
  const id = res.body.id as number;
  await until(() => server.ctx.channels.state(id)?.status === 'qrcode');
  expect((await server.request('POST', `/api/sandbox/${id}/scan`, { token: t.token, body: {} })).status).toBe(200);
  await until(async () => {
    const { rows } = await server.database.executeSql('select status from whatsapps where id = $1', [id]);
    return (rows[0] as { status: string }).status === 'CONNECTED';
  });

  return id;
};

const upload = async (
  t: TTenant,
  listId: number,
  data: Buffer | string,
  fileName: string,
): Promise<{ status: number; body: any }> => {
  const form = new FormData();
  form.append('file', new Blob([typeof data === 'string' ? Buffer.from(data) : new Uint8Array(data)]), fileName);
  const res = await fetch(`${server.url}/api/contact-lists/${listId}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.token}` },
    body: form,
  });

  return { status: res.status, body: await res.json() };
};

const xlsx = async (rows: unknown[][]) => {
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  for (const row of rows) sheet.addRow(row);

  return Buffer.from(await workbook.xlsx.writeBuffer());
};

const itemsOf = async (t: TTenant, contactListId: number, query: Record<string, unknown> = {}) => {
  const res = await server.request('GET', '/api/contact-list-items', {
    token: t.token,
    query: { contactListId, ...query },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body as {
    contacts: { id: number; name: string; number: string; email: string; isWhatsappValid: boolean | null }[];
    count: number;
    hasMore: boolean;
  };
};

describe('contact lists', () => {
  it('creates, validates (name 2 to 50), refuses a duplicate name (409), renames, lists, searches and deletes', async () => {
    const list = await addContactList(server, tenant, { name: 'Clientes VIP' });
    expect(list).toMatchObject({ name: 'Clientes VIP', contactsCount: 0, validCount: 0, companyId: tenant.companyId });
    for (const [name, message] of [
      ['', 'required'],
      ['a', 'tooShort'],
      ['x'.repeat(51), 'tooLong'],
    ]) {
      const res = await server.request('POST', '/api/contact-lists', { token: tenant.token, body: { name } });
      expect(res).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
      expect(res.body.details[0]).toEqual({ path: 'name', message });
    }
    const dup = await server.request('POST', '/api/contact-lists', {
      token: tenant.token,
      body: { name: 'clientes vip' },
    });
    expect(dup).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_CONTACT_LIST' } });
    // another company may use the same name
    await addContactList(server, await server.createTenant(), { name: 'Clientes VIP' });

    const other = await addContactList(server, tenant, { name: 'Leads' });
    const renamed = await server.request('PUT', `/api/contact-lists/${other.id}`, {
      token: tenant.token,
      body: { name: 'Leads 2026', companyId: 999 },
    });
    expect(renamed).toMatchObject({ status: 200, body: { id: other.id, name: 'Leads 2026' } });
    const clash = await server.request('PUT', `/api/contact-lists/${other.id}`, {
      token: tenant.token,
      body: { name: 'CLIENTES VIP' },
    });
    expect(clash.status).toBe(409);

    const page = await server.request('GET', '/api/contact-lists', {
      token: tenant.token,
      query: { searchParam: 'lead' },
    });
    expect(page.body).toMatchObject({ count: 1, hasMore: false, records: [{ id: other.id, contactsCount: 0 }] });
    const all = await server.request('GET', '/api/contact-lists/list', { token: tenant.token });
    expect(all.body.map((l: { id: number }) => l.id)).toEqual([list.id, other.id]);

    expect((await server.request('DELETE', `/api/contact-lists/${other.id}`, { token: tenant.token })).status).toBe(
      204,
    );
    expect(await server.request('GET', `/api/contact-lists/${other.id}`, { token: tenant.token })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_CONTACT_LIST_FOUND' },
    });
  });

  it('pages lists 20 at a time with a count', async () => {
    const t = await server.createTenant();
    for (let i = 0; i < 21; i += 1) await addContactList(server, t, { name: `Lista ${String(i).padStart(2, '0')}` });
    const first = await server.request('GET', '/api/contact-lists', { token: t.token });
    expect(first.body).toMatchObject({ count: 21, hasMore: true });
    expect(first.body.records).toHaveLength(20);
    const second = await server.request('GET', '/api/contact-lists', { token: t.token, query: { pageNumber: 2 } });
    expect(second.body).toMatchObject({ count: 21, hasMore: false, records: [{ name: 'Lista 20' }] });
  });

  it('is for admins of companies with campaigns: users, plans without useCampaigns and campaignsEnabled off get 403', async () => {
    const t = await server.createTenant();
    const list = await addContactList(server, t);
    const agent = await createLoggedUser(server, t);
    for (const [method, path] of [
      ['GET', '/api/contact-lists'],
      ['GET', `/api/contact-lists/${list.id}`],
      ['GET', `/api/contact-list-items?contactListId=${list.id}`],
    ] as const) {
      expect(await server.request(method, path, { token: agent.token }), path).toMatchObject({
        status: 403,
        body: { error: 'ERR_NO_PERMISSION' },
      });
    }
    await server.database.executeSql(
      `insert into settings (company_id, key, value) values ($1, 'campaignsEnabled', 'false')
       on conflict (company_id, key) do update set value = 'false'`,
      [t.companyId],
    );
    expect(await server.request('GET', '/api/contact-lists', { token: t.token })).toMatchObject({
      status: 403,
      body: { error: 'ERR_PLAN_FEATURE_DISABLED' },
    });
    const create = await server.request('POST', '/api/contact-lists', { token: t.token, body: { name: 'Blocked' } });
    expect(create.status).toBe(403);
    await server.database.executeSql(
      "update settings set value = 'true' where company_id = $1 and key = 'campaignsEnabled'",
      [t.companyId],
    );
    expect((await server.request('GET', '/api/contact-lists', { token: t.token })).status).toBe(200);

    const superToken = (await server.superLogin()).token;
    const plan = await createPlan(server, superToken, { useCampaigns: false });
    const moved = await server.request('PUT', `/api/companies/${t.companyId}`, {
      token: superToken,
      body: { planId: plan.id },
    });
    expect(moved.status).toBe(200);
    const relogged = await server.login(t.email, t.password);
    expect(
      await server.request('POST', '/api/contact-list-items', {
        token: relogged.token,
        body: { name: 'Nope', number: digits(), contactListId: list.id },
      }),
    ).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
    const { rows } = await server.database.executeSql(
      'select count(*)::int as n from contact_list_items where contact_list_id = $1',
      [list.id],
    );
    expect(rows[0]).toEqual({ n: 0 });
  });
});

describe('contact list items', () => {
  it('creates with the spec rules (name 2 to 50, number 8 to 50 digits, valid e-mail), refuses a repeated number', async () => {
    const list = await addContactList(server, tenant);
    const created = await server.request('POST', '/api/contact-list-items', {
      token: tenant.token,
      body: { name: ' Ana Souza ', number: '+55 (11) 98765-4321', email: 'Ana@Example.com', contactListId: list.id },
    });
    expect(created).toMatchObject({
      status: 201,
      body: {
        name: 'Ana Souza',
        number: '5511987654321',
        email: 'ana@example.com',
        isWhatsappValid: null,
        contactListId: list.id,
        companyId: tenant.companyId,
      },
    });
    const bad = async (body: Record<string, unknown>, path: string, message: string) => {
      const res = await server.request('POST', '/api/contact-list-items', {
        token: tenant.token,
        body: { name: 'Someone', number: digits(), contactListId: list.id, ...body },
      });
      expect(res, JSON.stringify(body)).toMatchObject({
        status: 400,
        body: { error: 'ERR_VALIDATION', details: [expect.objectContaining({ path, message })] },
      });
    };
    await bad({ name: 'A' }, 'name', 'tooShort');
    await bad({ name: 'x'.repeat(51) }, 'name', 'tooLong');
    await bad({ number: '1234567' }, 'number', 'tooShort');
    await bad({ number: '1'.repeat(51) }, 'number', 'tooLong');
    await bad({ email: 'not-an-email' }, 'email', 'invalidEmail');
    await bad({ contactListId: 'abc' }, 'contactListId', 'invalid');
    const missingList = await server.request('POST', '/api/contact-list-items', {
      token: tenant.token,
      body: { name: 'Someone', number: digits(), contactListId: 2_000_000_000 },
    });
    expect(missingList).toMatchObject({ status: 404, body: { error: 'ERR_NO_CONTACT_LIST_FOUND' } });
    const repeated = await server.request('POST', '/api/contact-list-items', {
      token: tenant.token,
      body: { name: 'Ana Again', number: '5511987654321', contactListId: list.id },
    });
    expect(repeated).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_CONTACT' } });
    // the same number in another list is fine
    const second = await addContactList(server, tenant);
    await addContactListItem(server, tenant, second.id, { number: '5511987654321' });

    const id = created.body.id as number;
    const edited = await server.request('PUT', `/api/contact-list-items/${id}`, {
      token: tenant.token,
      body: { name: 'Ana S.', email: '', companyId: 1, contactListId: second.id },
    });
    expect(edited).toMatchObject({
      status: 200,
      body: { name: 'Ana S.', email: '', number: '5511987654321', contactListId: list.id },
    });
    const other = await addContactListItem(server, tenant, list.id);
    const clash = await server.request('PUT', `/api/contact-list-items/${other.id}`, {
      token: tenant.token,
      body: { number: '5511987654321' },
    });
    expect(clash).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_CONTACT' } });

    const page = await itemsOf(tenant, list.id, { searchParam: '98765' });
    expect(page).toMatchObject({ count: 1, hasMore: false, contacts: [{ id, name: 'Ana S.' }] });
    expect((await itemsOf(tenant, list.id, { searchParam: 'ana s' })).count).toBe(1);
    expect((await itemsOf(tenant, list.id)).count).toBe(2);
    const got = await server.request('GET', `/api/contact-lists/${list.id}`, { token: tenant.token });
    expect(got.body.contactsCount).toBe(2);

    expect((await server.request('DELETE', `/api/contact-list-items/${id}`, { token: tenant.token })).status).toBe(204);
    expect(await server.request('GET', `/api/contact-list-items/${id}`, { token: tenant.token })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_CONTACT_LIST_ITEM_FOUND' },
    });
    // deleting the list deletes its items
    await server.request('DELETE', `/api/contact-lists/${list.id}`, { token: tenant.token });
    expect((await server.request('GET', `/api/contact-list-items/${other.id}`, { token: tenant.token })).status).toBe(
      404,
    );
  });
});

describe('spreadsheet import', () => {
  it('imports an .xlsx with Portuguese columns, updates repeated numbers and reports bad rows with their row number', async () => {
    const list = await addContactList(server, tenant);
    const existing = await addContactListItem(server, tenant, list.id, { name: 'Old Name', number: '5511911112222' });
    const file = await xlsx([
      ['Nome', 'Número', 'E-mail'],
      ['Maria Silva', 5511933334444, 'maria@example.com'],
      ['Novo Nome', '55 11 91111-2222', ''],
      ['X', '5511955556666', ''],
      ['Sem Numero', '', ''],
      [],
      ['Email Ruim', '5511977778888', 'ruim@'],
      ['João', '5511999990000', 'joao@example.com'],
      ['João Repetido', '5511999990000', 'joao2@example.com'],
    ]);
    const res = await upload(tenant, list.id, file, 'contatos.xlsx');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      contactListId: list.id,
      total: 7,
      created: 2,
      updated: 2,
      errors: [
        { row: 4, field: 'name', reason: 'tooShort' },
        { row: 5, field: 'number', reason: 'required' },
        { row: 7, field: 'email', reason: 'invalidEmail' },
      ],
    });
    const { contacts } = await itemsOf(tenant, list.id);
    expect(contacts.map((c) => [c.name, c.number, c.email])).toEqual([
      ['João Repetido', '5511999990000', 'joao2@example.com'],
      ['Maria Silva', '5511933334444', 'maria@example.com'],
      ['Novo Nome', '5511911112222', ''],
    ]);
    expect(contacts.find((c) => c.number === '5511911112222')?.id).toBe(existing.id);
  });

  it('reads English .xlsx columns and Spanish or Portuguese .csv (; or , separated, UTF-8 or Windows-1252)', async () => {
    const list = await addContactList(server, tenant);
    const en = await upload(
      tenant,
      list.id,
      await xlsx([
        ['Email', 'Phone', 'Name'],
        ['john@example.com', '+1 (555) 010-0001', 'John Smith'],
      ]),
      'contacts.xlsx',
    );
    expect(en.body).toMatchObject({ total: 1, created: 1, errors: [] });
    const es = await upload(
      tenant,
      list.id,
      '\uFEFFNombre;Teléfono;Correo\r\n"Pérez; José";5491155550001;jose@example.com\r\nLucía;5491155550002;\r\n',
      'contactos.csv',
    );
    expect(es.body).toMatchObject({ total: 2, created: 2, updated: 0, errors: [] });
    const latin1 = Buffer.from('nome,celular\nConceição,5511944440001\n', 'latin1');
    const pt = await upload(tenant, list.id, latin1, 'lista.csv');
    expect(pt.body).toMatchObject({ total: 1, created: 1, errors: [] });
    const names = (await itemsOf(tenant, list.id)).contacts.map((c) => c.name);
    expect(names).toEqual(['Conceição', 'John Smith', 'Lucía', 'Pérez; José']);
  });

  it('refuses a legacy .xls with its own message, and files that are not sheets or lack the columns, writing nothing', async () => {
    const list = await addContactList(server, tenant);
    const ole2 = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    const xls = await upload(tenant, list.id, ole2, 'antiga.xls');
    expect(xls).toMatchObject({ status: 415, body: { error: 'ERR_LEGACY_XLS' } });
    expect(xls.body.message).toMatch(/save it as \.xlsx/);
    // the name alone is enough, whatever the content
    expect((await upload(tenant, list.id, 'nome;numero\nA b;5511900000001', 'renamed.XLS')).body.error).toBe(
      'ERR_LEGACY_XLS',
    );
    const binary = await upload(tenant, list.id, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 'photo.png');
    expect(binary).toMatchObject({ status: 415, body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' } });
    const fakeXlsx = await upload(tenant, list.id, 'nome;numero', 'fake.xlsx');
    expect(fakeXlsx.status).toBe(415);
    const brokenZip = await upload(tenant, list.id, Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'broken.xlsx');
    expect(brokenZip).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_SPREADSHEET' } });
    const noColumns = await upload(
      tenant,
      list.id,
      await xlsx([
        ['Cliente', 'Fone fixo'],
        ['A', '1'],
      ]),
      'x.xlsx',
    );
    expect(noColumns).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_SPREADSHEET' } });
    const json = await server.request('POST', `/api/contact-lists/${list.id}/upload`, {
      token: tenant.token,
      body: {},
    });
    expect(json.status).toBe(415);
    expect((await itemsOf(tenant, list.id)).count).toBe(0);
    // a foreign or missing list: 404 before the file is read
    expect((await upload(tenant, 2_000_000_000, 'nome;numero\nAna;5511900000002', 'a.csv')).status).toBe(404);
  });

  it('imports 10,000 rows in one request, all or nothing, with progress events to the importing admin', async () => {
    const list = await addContactList(server, tenant);
    const rows: unknown[][] = [['nome', 'numero', 'email']];
    for (let i = 0; i < 10_000; i += 1)
      rows.push([`Cliente ${i}`, `55119${String(i).padStart(8, '0')}`, `c${i}@example.com`]);
    const file = await xlsx(rows);
    const socket = await openSocket(server, tenant.token);
    const heard = recordEvents(socket);
    try {
      const res = await upload(tenant, list.id, file, 'grande.xlsx');
      expect(res.body).toEqual({ contactListId: list.id, total: 10_000, created: 10_000, updated: 0, errors: [] });
      const event = `company-${tenant.companyId}-ContactListItem`;
      const reload = await heard.waitFor(event, (p) => p.action === 'reload' && p.contactListId === list.id);
      // the ancestor's page merges `records` by id (a reload without them blanked it): the list's first items,
      // also on the list's own event as its upload answer sends them
      expect(reload.records).toHaveLength(100);
      expect(reload.records[0]).toMatchObject({ name: 'Cliente 0', contactListId: list.id });
      const own = await heard.waitFor(`${event}-${list.id}`, (p) => p.action === 'reload');
      expect(own.records.map((r: { id: number }) => r.id)).toEqual(reload.records.map((r: { id: number }) => r.id));
      const progress = heard.heard
        .filter((h) => h.event === event && (h.payload as { action: string }).action === 'import-progress')
        .map((h) => (h.payload as { done: number }).done);
      expect(progress[0]).toBe(0);
      expect(progress.at(-1)).toBe(10_000);
      expect(progress.length).toBeGreaterThanOrEqual(10);
    } finally {
      socket.close();
    }
    const got = await server.request('GET', `/api/contact-lists/${list.id}`, { token: tenant.token });
    expect(got.body.contactsCount).toBe(10_000);
    // the same file again: every row updated, none duplicated
    const again = await upload(tenant, list.id, file, 'grande.xlsx');
    expect(again.body).toMatchObject({ created: 0, updated: 10_000 });
    expect(
      (await server.request('GET', `/api/contact-lists/${list.id}`, { token: tenant.token })).body.contactsCount,
    ).toBe(10_000);
  }, 60_000);

  it('a row the database refuses rolls the whole import back', async () => {
    const list = await addContactList(server, tenant);
    // a name too long for the column once a trigger lengthens it: the insert of that batch fails
    await server.database.executeSql(
      `create or replace function zelo_test_refuse() returns trigger language plpgsql as $$
       begin if new.name = 'Refuse Me' then raise exception 'refused'; end if; return new; end $$`,
    );
    await server.database.executeSql(
      'create trigger zelo_test_refuse before insert on contact_list_items for each row execute function zelo_test_refuse()',
    );
    try {
      const rows: unknown[][] = [['nome', 'numero']];
      for (let i = 0; i < 1500; i += 1) rows.push([`Row ${i}`, `55118${String(i).padStart(8, '0')}`]);
      rows.push(['Refuse Me', '5511700000000']);
      const res = await upload(tenant, list.id, await xlsx(rows), 'x.xlsx');
      expect(res.status).toBe(500);
      expect((await itemsOf(tenant, list.id)).count).toBe(0);
    } finally {
      await server.database.executeSql('drop trigger zelo_test_refuse on contact_list_items');
      await server.database.executeSql('drop function zelo_test_refuse()');
    }
  });
});

describe('WhatsApp validity', () => {
  it('is checked in the background through a connected sandbox connection, and checked again on request', async () => {
    const t = await server.createTenant();
    const list = await addContactList(server, t);
    // no connected connection: items stay unchecked
    const early = await addContactListItem(server, t, list.id, { number: '5511912340000' });
    await validityCheckDone(server.ctx, t.companyId);
    expect(
      (await server.request('GET', `/api/contact-list-items/${early.id}`, { token: t.token })).body.isWhatsappValid,
    ).toBeNull();

    await connectedSandbox(t);
    const socket = await openSocket(server, t.token);
    const heard = recordEvents(socket);
    try {
      const valid = await addContactListItem(server, t, list.id, { number: '5511912341111' });
      // the sandbox: numbers starting with 000 are not WhatsApp accounts
      const invalid = await addContactListItem(server, t, list.id, { number: '00011912342222' });
      await validityCheckDone(server.ctx, t.companyId);
      const itemEvent = `company-${t.companyId}-ContactListItem`;
      // after adding items the checked items come with the reload (the ancestor's page reads `records`)
      const all = [early.id, valid.id, invalid.id].sort().join();
      await heard.waitFor(
        itemEvent,
        (p) =>
          p.action === 'reload' &&
          p.records
            .map((r: { id: number }) => r.id)
            .sort()
            .join() === all,
      );
      const states = async () =>
        Object.fromEntries(
          (await itemsOf(t, list.id)).contacts.map((c) => [c.id, c.isWhatsappValid] as [number, boolean | null]),
        );
      expect(await states()).toEqual({ [early.id]: true, [valid.id]: true, [invalid.id]: false });
      const counted = await server.request('GET', `/api/contact-lists/${list.id}`, { token: t.token });
      expect(counted.body).toMatchObject({ contactsCount: 3, validCount: 2 });

      // an import is checked too
      const imported = await upload(
        t,
        list.id,
        'nome;numero\nImportado;5511912343333\nNao Existe;00011912344444\n',
        'l.csv',
      );
      expect(imported.body.created).toBe(2);
      await until(async () => Object.values(await states()).every((v) => v !== null));
      expect(Object.values(await states()).filter((v) => v === false)).toHaveLength(2);

      // a changed number is checked again
      const moved = await server.request('PUT', `/api/contact-list-items/${invalid.id}`, {
        token: t.token,
        body: { number: '5511912345555' },
      });
      expect(moved.body.isWhatsappValid).toBeNull();
      await until(async () => (await states())[invalid.id] === true);

      // "check again": the list's items are reset and checked
      await server.database.executeSql('update contact_list_items set is_whatsapp_valid = false where id = $1', [
        valid.id,
      ]);
      const again = await server.request('POST', `/api/contact-lists/${list.id}/check`, { token: t.token });
      expect(again.status).toBe(200);
      await until(async () => (await states())[valid.id] === true);
      await server.database.executeSql('update contact_list_items set is_whatsapp_valid = false where id = $1', [
        early.id,
      ]);
      const one = await server.request('POST', `/api/contact-list-items/${early.id}/check`, { token: t.token });
      expect(one).toMatchObject({ status: 200, body: { id: early.id } });
      await until(async () => (await states())[early.id] === true);
    } finally {
      socket.close();
    }
  });
});

describe('realtime', () => {
  it('announces ContactList and ContactListItem changes to the company’s admins only', async () => {
    const t = await server.createTenant();
    const other = await server.createTenant();
    const agent = await createLoggedUser(server, t);
    const adminSocket = await openSocket(server, t.token);
    const agentSocket = await openSocket(server, agent.token);
    const otherSocket = await openSocket(server, other.token);
    const admin = recordEvents(adminSocket);
    const plain = recordEvents(agentSocket);
    const foreign = recordEvents(otherSocket);
    const listEvent = `company-${t.companyId}-ContactList`;
    const itemEvent = `company-${t.companyId}-ContactListItem`;
    try {
      const list = await addContactList(server, t, { name: 'Realtime List' });
      await admin.waitFor(listEvent, (p) => p.action === 'create' && p.record.id === list.id);
      const item = await addContactListItem(server, t, list.id, { name: 'Realtime Item' });
      await admin.waitFor(itemEvent, (p) => p.action === 'create' && p.record.id === item.id);
      await admin.waitFor(listEvent, (p) => p.action === 'update' && p.record.contactsCount === 1);
      await server.request('PUT', `/api/contact-list-items/${item.id}`, { token: t.token, body: { name: 'Renamed' } });
      await admin.waitFor(itemEvent, (p) => p.action === 'update' && p.record.name === 'Renamed');
      await server.request('DELETE', `/api/contact-list-items/${item.id}`, { token: t.token });
      await admin.waitFor(itemEvent, (p) => p.action === 'delete' && p.id === item.id && p.contactListId === list.id);
      await server.request('DELETE', `/api/contact-lists/${list.id}`, { token: t.token });
      await admin.waitFor(listEvent, (p) => p.action === 'delete' && p.id === list.id);
      // the other company's socket is live and hears its own list
      const theirs = await addContactList(server, other);
      await foreign.waitFor(`company-${other.companyId}-ContactList`, (p) => p.record?.id === theirs.id);
      expect(foreign.heard.filter((h) => h.event.includes(`company-${t.companyId}-`))).toEqual([]);
      expect(JSON.stringify(foreign.heard)).not.toContain('Realtime');
      expect(plain.heard.filter((h) => h.event === listEvent || h.event === itemEvent)).toEqual([]);
    } finally {
      adminSocket.close();
      agentSocket.close();
      otherSocket.close();
    }
  });
});
