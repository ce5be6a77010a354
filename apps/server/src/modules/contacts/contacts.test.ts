import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, digits } from '../../../test/catalogue-fixtures';
import {
  countRows,
  createLoggedUser,
  insertConnection,
  openSocket,
  recordEvents,
  type TTenant,
  unique,
} from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { AppError } from '../../http/errors';

let server: TTestServer;
let tenant: TTenant;
let userToken: string;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
  userToken = (await createLoggedUser(server, tenant)).token;
});
afterAll(() => server.close());

const contactsOf = (companyId: number) =>
  countRows(server, 'select count(*) as n from contacts where company_id = $1', [companyId]);

/** an .xlsx workbook built with exceljs: a header row, then the rows */
const workbook = async (header: string[], rows: unknown[][]) => {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Contatos');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);

  return Buffer.from(await book.xlsx.writeBuffer());
};

/** a multipart/form-data body with one file field */
const multipart = (fileName: string, data: Buffer, contentType = 'application/octet-stream') => {
  const boundary = `----zelo${unique('b')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);

  return { payload: Buffer.concat([head, data, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
};

const importFile = async (token: string, fileName: string, data: Buffer) => {
  const body = multipart(fileName, data);
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/contacts/import',
    payload: body.payload,
    headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
  });

  return { status: res.statusCode, body: JSON.parse(res.body) };
};

describe('contacts CRUD', () => {
  it('creates a contact with extra info, keeping only the digits of the number', async () => {
    const number = digits();
    const masked = `+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4)}`;
    const res = await server.request('POST', '/api/contacts', {
      token: userToken,
      body: {
        name: 'Maria Silva',
        number: masked,
        email: 'maria@example.com',
        extraInfo: [{ name: 'CPF', value: '1' }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Maria Silva', number, email: 'maria@example.com', disableBot: false });
    expect(res.body.extraInfo).toEqual([{ id: expect.any(Number), name: 'CPF', value: '1' }]);
    const read = await server.request('GET', `/api/contacts/${res.body.id}`, { token: userToken });
    expect(read.body).toEqual(res.body);
  });

  it('answers 400 with details for a short name, a short number and a bad e-mail', async () => {
    const res = await server.request('POST', '/api/contacts', {
      token: userToken,
      body: { name: 'A', number: '12-34', email: 'not-mail' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'tooShort' },
        { path: 'number', message: 'tooShort' },
        { path: 'email', message: 'invalidEmail' },
      ]),
    );
  });

  it('says a number with letters is no number (not "too short")', async () => {
    const res = await server.request('POST', '/api/contacts', {
      token: userToken,
      body: { name: 'Letters', number: 'abcdefghijk' },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'number', message: 'invalidNumber' }]);
  });

  it('refuses a second contact with the same number in the company (409), also on update', async () => {
    const first = await addContact(server, tenant);
    const again = await server.request('POST', '/api/contacts', {
      token: userToken,
      body: { name: 'Someone Else', number: first.number },
    });
    expect(again).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_CONTACT' } });
    const second = await addContact(server, tenant);
    const moved = await server.request('PUT', `/api/contacts/${second.id}`, {
      token: userToken,
      body: { number: first.number },
    });
    expect(moved).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_CONTACT' } });
    // another company may hold the same number
    const other = await server.createTenant();
    await addContact(server, other, { number: first.number });
  });

  it('concurrent creations of one number make exactly one contact', async () => {
    const number = digits();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        server.request('POST', '/api/contacts', { token: userToken, body: { name: `Racer ${i}`, number } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(5);
    expect(
      await countRows(server, 'select count(*) as n from contacts where company_id = $1 and number = $2', [
        tenant.companyId,
        number,
      ]),
    ).toBe(1);
  });

  it('replaces the extra info as a set on update and keeps it when absent', async () => {
    const contact = await addContact(server, tenant, {
      extraInfo: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
    });
    const [a] = contact.extraInfo as { id: number; name: string }[];
    const res = await server.request('PUT', `/api/contacts/${contact.id}`, {
      token: userToken,
      body: {
        name: 'Renamed Contact',
        extraInfo: [
          { id: a.id, name: 'A', value: 'changed' },
          { name: 'C', value: '3' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Renamed Contact');
    expect(res.body.extraInfo).toEqual([
      { id: a.id, name: 'A', value: 'changed' },
      { id: expect.any(Number), name: 'C', value: '3' },
    ]);
    const kept = await server.request('PUT', `/api/contacts/${contact.id}`, { token: userToken, body: { email: '' } });
    expect(kept.body.extraInfo).toHaveLength(2);
  });

  it('toggles disableBot', async () => {
    const contact = await addContact(server, tenant);
    const on = await server.request('PUT', `/api/contacts/toggleDisableBot/${contact.id}`, { token: userToken });
    expect(on.body.disableBot).toBe(true);
    const off = await server.request('PUT', `/api/contacts/toggleDisableBot/${contact.id}`, { token: userToken });
    expect(off.body.disableBot).toBe(false);
  });

  it('only admins delete (403 for users), and a missing id is 404', async () => {
    const contact = await addContact(server, tenant);
    expect(await server.request('DELETE', `/api/contacts/${contact.id}`, { token: userToken })).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect((await server.request('DELETE', `/api/contacts/${contact.id}`, { token: tenant.token })).status).toBe(204);
    expect(await server.request('GET', `/api/contacts/${contact.id}`, { token: userToken })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_CONTACT_FOUND' },
    });
    expect((await server.request('DELETE', '/api/contacts/2000000000', { token: tenant.token })).status).toBe(404);
  });

  it('announces create, update and delete on company-{id}-contact', async () => {
    const socket = await openSocket(server, tenant.token);
    const events = recordEvents(socket);
    const event = `company-${tenant.companyId}-contact`;
    try {
      const contact = await addContact(server, tenant);
      await events.waitFor(event, (p) => p.action === 'create' && p.contact.id === contact.id);
      await server.request('PUT', `/api/contacts/${contact.id}`, { token: userToken, body: { name: 'Live Name' } });
      await events.waitFor(event, (p) => p.action === 'update' && p.contact.name === 'Live Name');
      await server.request('DELETE', `/api/contacts/${contact.id}`, { token: tenant.token });
      await events.waitFor(event, (p) => p.action === 'delete' && p.contactId === contact.id);
    } finally {
      socket.close();
    }
  });
});

describe('contact lists', () => {
  it('pages 20 at a time with count and hasMore, searching name, number and e-mail', async () => {
    const t = await server.createTenant();
    const prefix = unique('Paged');
    for (let i = 0; i < 21; i += 1) {
      await addContact(server, t, { name: `${prefix} ${String(i).padStart(2, '0')}` });
    }
    const page1 = await server.request('GET', '/api/contacts', { token: t.token, query: { searchParam: prefix } });
    expect(page1.body).toMatchObject({ count: 21, hasMore: true });
    expect(page1.body.contacts).toHaveLength(20);
    expect(page1.body.contacts[0].name).toBe(`${prefix} 00`);
    const page2 = await server.request('GET', '/api/contacts', {
      token: t.token,
      query: { searchParam: prefix, pageNumber: 2 },
    });
    expect(page2.body).toMatchObject({ count: 21, hasMore: false });
    expect(page2.body.contacts).toHaveLength(1);

    const mail = await addContact(server, t, { email: `${unique('find')}@mail.test` });
    const byMail = await server.request('GET', '/api/contacts', { token: t.token, query: { searchParam: mail.email } });
    expect(byMail.body.contacts.map((c: { id: number }) => c.id)).toEqual([mail.id]);
    const byNumber = await server.request('GET', '/api/contacts', {
      token: t.token,
      query: { searchParam: mail.number.slice(-7) },
    });
    expect(byNumber.body.contacts.map((c: { id: number }) => c.id)).toContain(mail.id);
  });

  it('searches numbers with a number-like text only, not with the digits of a name', async () => {
    const t = await server.createTenant();
    const ana = await addContact(server, t, { name: 'Ana 7', number: '5511900000001' });
    const bia = await addContact(server, t, { name: 'Bia', number: '5511977777777' });
    const ids = async (searchParam: string) =>
      (await server.request('GET', '/api/contacts', { token: t.token, query: { searchParam } })).body.contacts.map(
        (c: { id: number }) => c.id,
      );
    expect(await ids(ana.name)).toEqual([ana.id]);
    expect(await ids('+55 (11) 97777')).toEqual([bia.id]);
  });

  it('filters by creation day and date range', async () => {
    const t = await server.createTenant();
    const old = await addContact(server, t);
    await server.database.executeSql("update contacts set created_at = '2024-03-10T15:00:00Z' where id = $1", [old.id]);
    const today = await addContact(server, t);
    const day = await server.request('GET', '/api/contacts', { token: t.token, query: { date: '2024-03-10' } });
    expect(day.body.contacts.map((c: { id: number }) => c.id)).toEqual([old.id]);
    const range = await server.request('GET', '/api/contacts', {
      token: t.token,
      query: { dateStart: '2024-03-11' },
    });
    expect(range.body.contacts.map((c: { id: number }) => c.id)).toEqual([today.id]);
    const bad = await server.request('GET', '/api/contacts', { token: t.token, query: { date: '10/03/2024' } });
    expect(bad).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });

  it('/contacts/list answers at most 50 brief rows, searchable', async () => {
    const t = await server.createTenant();
    const prefix = unique('Brief');
    const many = Array.from({ length: 55 }, (_, i) => ({ Nome: `${prefix} ${i}`, Telefone: digits() }));
    const up = await server.request('POST', '/api/contacts/upload', { token: t.token, body: many });
    expect(up.body.newContacts).toHaveLength(55);
    const list = await server.request('GET', '/api/contacts/list', { token: t.token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(50);
    expect(Object.keys(list.body[0]).sort()).toEqual(['email', 'id', 'isGroup', 'name', 'number', 'profilePicUrl']);
    const one = await server.request('GET', '/api/contacts/list', {
      token: t.token,
      query: { searchParam: `${prefix} 54` },
    });
    expect(one.body.map((c: { name: string }) => c.name)).toEqual([`${prefix} 54`]);
  });
});

describe('contact search and count (migration 0025)', () => {
  const search = async (token: string, searchParam: string, pageNumber = 1) =>
    (await server.request('GET', '/api/contacts', { token, query: { searchParam, pageNumber } })).body as {
      contacts: { id: number; name: string }[];
      count: number;
      hasMore: boolean;
    };
  const idsOf = async (token: string, searchParam: string) =>
    (await search(token, searchParam)).contacts.map((c) => c.id);

  it('finds a contact by any part of its name, e-mail or number, accents and case ignored', async () => {
    const t = await server.createTenant();
    const joao = await addContact(server, t, {
      name: 'João Conceição Müller',
      number: '5521987650123',
      email: 'Joao.Conceicao@Exemplo.com.br',
    });
    const plain = await addContact(server, t, { name: 'JOAO PEREIRA', number: '5521912340000' });
    const other = await addContact(server, t, { name: 'Bia Souza', number: '5521955550000' });
    // inside a word, either way round: the accent typed or not, in any case
    expect(await idsOf(t.token, 'conceicao')).toEqual([joao.id]);
    expect(await idsOf(t.token, 'CONCEIÇÃO')).toEqual([joao.id]);
    expect(await idsOf(t.token, 'muller')).toEqual([joao.id]);
    expect((await idsOf(t.token, 'joão')).sort()).toEqual([joao.id, plain.id].sort());
    expect((await idsOf(t.token, 'oao')).sort()).toEqual([joao.id, plain.id].sort());
    expect(await idsOf(t.token, 'ção mü')).toEqual([joao.id]);
    // the e-mail's parts, the number's digits (punctuated or not) and a short piece of either
    expect(await idsOf(t.token, 'exemplo.com')).toEqual([joao.id]);
    expect(await idsOf(t.token, '@EXEMPLO')).toEqual([joao.id]);
    expect(await idsOf(t.token, '98765')).toEqual([joao.id]);
    expect(await idsOf(t.token, '(21) 98765-0123')).toEqual([joao.id]);
    expect((await idsOf(t.token, '55')).sort()).toEqual([joao.id, plain.id, other.id].sort());
    // 1 and 2 characters: any piece of a name or e-mail, accents and case ignored; none that nobody has
    expect((await idsOf(t.token, 'ã')).sort()).toEqual([joao.id, plain.id, other.id].sort());
    expect(await idsOf(t.token, 'ÜL')).toEqual([joao.id]);
    expect(await idsOf(t.token, 'bI')).toEqual([other.id]);
    expect(await idsOf(t.token, 'xq')).toEqual([]);
    expect(await idsOf(t.token, 'q')).toEqual([]);
    // nothing matches across the name and the e-mail, nor a search's wildcard characters
    expect(await idsOf(t.token, 'müllerjoao')).toEqual([]);
    expect(await idsOf(t.token, 'rj')).toEqual([]);
    expect(await idsOf(t.token, '%')).toEqual([]);
    expect(await idsOf(t.token, 'jo_o')).toEqual([]);
  });

  it("searches the company's own contacts only, and never a flow test run's customer", async () => {
    const mine = await server.createTenant();
    const theirs = await server.createTenant();
    const name = unique('Tenancy Ñandú');
    const own = await addContact(server, mine, { name });
    await addContact(server, theirs, { name });
    await server.database.executeSql(
      "insert into contacts (company_id, name, number, is_test) values ($1, $2, '5500000000001', true)",
      [mine.companyId, name],
    );
    expect(await idsOf(mine.token, name.toLowerCase().replace('ñ', 'n').replace('ú', 'u'))).toEqual([own.id]);
    expect(await idsOf(mine.token, 'nd')).toEqual([own.id]);
  });

  it('keeps the words of a contact renamed or re-mailed by any path, the API or SQL', async () => {
    const t = await server.createTenant();
    const c = await addContact(server, t, { name: 'Antes Nome' });
    await server.request('PUT', `/api/contacts/${c.id}`, { token: t.token, body: { name: 'Depois Sobrenome' } });
    expect(await idsOf(t.token, 'antes')).toEqual([]);
    expect(await idsOf(t.token, 'sobrenome')).toEqual([c.id]);
    await server.database.executeSql("update contacts set email = 'renomeado@exemplo.test' where id = $1", [c.id]);
    expect(await idsOf(t.token, 'renomeado')).toEqual([c.id]);
    expect(await idsOf(t.token, 'mk')).toEqual([]);
  });

  it('pages a search in name order, reading one row past the page for hasMore (count: rows up to it)', async () => {
    const t = await server.createTenant();
    const prefix = unique('Ordem');
    for (let i = 24; i >= 0; i -= 1) await addContact(server, t, { name: `${prefix} ${String(i).padStart(2, '0')}` });
    const first = await search(t.token, prefix);
    expect(first.contacts.map((c) => c.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `${prefix} ${String(i).padStart(2, '0')}`),
    );
    expect(first).toMatchObject({ count: 21, hasMore: true });
    const second = await search(t.token, prefix, 2);
    expect(second.contacts).toHaveLength(5);
    expect(second).toMatchObject({ count: 25, hasMore: false });
  });

  it('finds the contacts that sort past the first thousand by name, as the ones before', async () => {
    const t = await server.createTenant();
    await server.database.executeSql(
      `insert into contacts (company_id, name, number)
       select $1, 'Aaa Filler ' || lpad(g::text, 5, '0'), '55219' || lpad(g::text, 8, '0') from generate_series(1, $2) g`,
      [t.companyId, 1050],
    );
    const late = [
      await addContact(server, t, { name: 'Zé Alvo Um' }),
      await addContact(server, t, { name: 'Zuleica Alvo Dois', email: 'zq@alvo.test' }),
    ];
    // common: the page is filled among the first contacts in name order
    const common = await search(t.token, 'filler', 2);
    expect(common.contacts.map((c) => c.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Aaa Filler ${String(21 + i).padStart(5, '0')}`),
    );
    expect(common).toMatchObject({ count: 41, hasMore: true });
    // rare and late: from the index, still in name order; 2 characters as well
    const byName = (
      await server.database.executeSql(
        "select id from contacts where company_id = $1 and name like '%Alvo%' order by lower(name), id",
        [t.companyId],
      )
    ).rows.map((r) => (r as { id: number }).id);
    expect([...byName].sort((a, b) => a - b)).toEqual(late.map((c) => c.id).sort((a, b) => a - b));
    expect(await idsOf(t.token, 'ALVO')).toEqual(byName);
    expect(await idsOf(t.token, 'ze')).toEqual([late[0].id]);
    expect(await idsOf(t.token, 'zq')).toEqual([late[1].id]);
    // a deep page of a common term
    const deep = await search(t.token, 'filler', 53);
    expect(deep.contacts.map((c) => c.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Aaa Filler ${String(1041 + i).padStart(5, '0')}`),
    );
    expect(deep).toMatchObject({ count: 1050, hasMore: false });
  });

  it('counts the unfiltered page from the kept count, right after every kind of write', async () => {
    const t = await server.createTenant();
    const count = async () => {
      const page = await search(t.token, '');
      const stored = await contactsOf(t.companyId);
      const tests = await countRows(server, 'select count(*) as n from contacts where company_id = $1 and is_test', [
        t.companyId,
      ]);

      return { answered: page.count, stored: stored - tests };
    };
    expect(await count()).toEqual({ answered: 0, stored: 0 });
    const a = await addContact(server, t);
    await addContact(server, t);
    expect(await count()).toEqual({ answered: 2, stored: 2 });
    await server.request('POST', '/api/contacts/upload', {
      token: t.token,
      body: [
        { name: 'Up One', number: digits() },
        { name: 'Up Two', number: digits() },
      ],
    });
    expect(await count()).toEqual({ answered: 4, stored: 4 });
    // SQL of any path (the inbound pipeline, the importer), a flow test customer, and deletes
    await server.database.executeSql(
      `insert into contacts (company_id, name, number, is_test)
       select $1, 'Bulk ' || g, '55119' || lpad(g::text, 8, '0'), g = 3 from generate_series(1, 3) g`,
      [t.companyId],
    );
    expect(await count()).toEqual({ answered: 6, stored: 6 });
    await server.request('DELETE', `/api/contacts/${a.id}`, { token: t.token });
    await server.database.executeSql("delete from contacts where company_id = $1 and name like 'Bulk %'", [
      t.companyId,
    ]);
    expect(await count()).toEqual({ answered: 3, stored: 3 });
    // a page past the end still says how many there are
    expect((await search(t.token, '', 9)).count).toBe(3);
  });
});

describe('POST /contacts/upload (JSON rows)', () => {
  it('creates the good rows, lists the bad ones with their reason, in either column naming', async () => {
    const t = await server.createTenant();
    const taken = await addContact(server, t);
    const good1 = digits();
    const good2 = digits();
    const res = await server.request('POST', '/api/contacts/upload', {
      token: t.token,
      body: [
        { Nome: 'Good One', Telefone: Number(good1), Email: 'one@example.com' },
        { name: 'Good Two', number: good2 },
        { Nome: 'Short Number', Telefone: '123' },
        { Nome: 'Taken Number', Telefone: taken.number },
        { Nome: 'Bad Mail', Telefone: digits(), Email: 'nope' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.newContacts.map((c: { contactName: string }) => c.contactName)).toEqual(['Good One', 'Good Two']);
    expect(res.body.errorBag).toEqual([
      { contactName: 'Short Number', error: 'ERR_VALIDATION', details: [{ path: 'number', message: 'tooShort' }] },
      { contactName: 'Taken Number', error: 'ERR_DUPLICATED_CONTACT' },
      { contactName: 'Bad Mail', error: 'ERR_VALIDATION', details: [{ path: 'email', message: 'invalidEmail' }] },
    ]);
    expect(await contactsOf(t.companyId)).toBe(3);
    const one = await server.request('GET', `/api/contacts/${res.body.newContacts[0].contactId}`, { token: t.token });
    expect(one.body).toMatchObject({ number: good1, email: 'one@example.com' });
  });

  it('answers 400 for a body that is not an array of rows', async () => {
    const res = await server.request('POST', '/api/contacts/upload', { token: userToken, body: { Nome: 'x' } });
    expect(res).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });
});

describe('POST /contacts/import (.xlsx)', () => {
  it('imports good rows in order, reports bad rows, and sends progress every 50 rows', async () => {
    const t = await server.createTenant();
    const taken = await addContact(server, t);
    const rows: unknown[][] = [];
    for (let i = 0; i < 118; i += 1) rows.push([`Row ${String(i).padStart(3, '0')}`, Number(digits()), '']);
    rows.push(['Bad Number', '12', '']);
    rows.push(['Dup Number', taken.number, 'dup@example.com']);
    rows.push(['', '', '']);
    const data = await workbook(['Nome', 'Telefone', 'Email'], rows);
    const socket = await openSocket(server, t.token);
    const events = recordEvents(socket);
    try {
      const res = await importFile(t.token, 'contatos.xlsx', data);
      expect(res.status).toBe(200);
      expect(res.body.newContacts).toHaveLength(118);
      expect(res.body.newContacts[0].contactName).toBe('Row 000');
      expect(res.body.newContacts[117].contactName).toBe('Row 117');
      expect(res.body.errorBag).toEqual([
        { contactName: 'Bad Number', error: 'ERR_VALIDATION', details: [{ path: 'number', message: 'tooShort' }] },
        { contactName: 'Dup Number', error: 'ERR_DUPLICATED_CONTACT' },
      ]);
      expect(await contactsOf(t.companyId)).toBe(119);
      const event = `company-${t.companyId}-contact`;
      await events.waitFor(event, (p) => p.action === 'import-progress' && p.done === 120);
      const progress = events.heard
        .filter((h) => h.event === event && (h.payload as { action: string }).action === 'import-progress')
        .map((h) => h.payload);
      expect(progress).toEqual([
        { action: 'import-progress', done: 50, total: 120 },
        { action: 'import-progress', done: 100, total: 120 },
        { action: 'import-progress', done: 120, total: 120 },
      ]);
    } finally {
      socket.close();
    }
  });

  it('reads the english header names in any order and case', async () => {
    const t = await server.createTenant();
    const number = digits();
    const data = await workbook(['EMAIL', 'Number', 'name'], [['x@example.com', number, 'English Header']]);
    const res = await importFile(t.token, 'CONTACTS.XLSX', data);
    expect(res.status).toBe(200);
    expect(res.body.newContacts).toEqual([{ contactName: 'English Header', contactId: expect.any(Number) }]);
    const contact = await server.request('GET', `/api/contacts/${res.body.newContacts[0].contactId}`, {
      token: t.token,
    });
    expect(contact.body).toMatchObject({ number, email: 'x@example.com' });
  });

  it('refuses a file that is not an .xlsx by content or by name (415) and writes nothing', async () => {
    const t = await server.createTenant();
    const csv = Buffer.from(`Nome;Telefone\nCsv Person;${digits()}\n`);
    expect(await importFile(t.token, 'contatos.xlsx', csv)).toMatchObject({
      status: 415,
      body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' },
    });
    const real = await workbook(['Nome', 'Telefone'], [['Named Wrong', digits()]]);
    expect(await importFile(t.token, 'contatos.csv', real)).toMatchObject({
      status: 415,
      body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' },
    });
    const json = await server.request('POST', '/api/contacts/import', { token: t.token, body: [{ Nome: 'x' }] });
    expect(json).toMatchObject({ status: 415, body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' } });
    expect(await contactsOf(t.companyId)).toBe(0);
  });

  it('answers 400 for a broken workbook and for a sheet without the name and number columns', async () => {
    const t = await server.createTenant();
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    expect(await importFile(t.token, 'broken.xlsx', broken)).toMatchObject({
      status: 400,
      body: { error: 'ERR_INVALID_SPREADSHEET' },
    });
    const headless = await workbook(['Foo', 'Bar'], [['a', 'b']]);
    expect(await importFile(t.token, 'headless.xlsx', headless)).toMatchObject({
      status: 400,
      body: { error: 'ERR_INVALID_SPREADSHEET' },
    });
    expect(await contactsOf(t.companyId)).toBe(0);
  });
});

describe('number check through the default connection', () => {
  it('without a channel registry or a connected default connection, the number is kept as typed', async () => {
    const t = await server.createTenant();
    const contact = await addContact(server, t);
    expect(contact.number).toMatch(/^55\d{11}$/);
  });

  it('with a connected default connection: canonical numbers kept, invalid ones refused, failures reported', async () => {
    const t = await server.createTenant();
    const connectionId = await insertConnection(server, t.companyId);
    await server.database.executeSql("update whatsapps set is_default = true, status = 'CONNECTED' where id = $1", [
      connectionId,
    ]);
    const asked: { connectionId: number; number: string }[] = [];
    const fake = {
      session: (id: number) => ({
        checkNumber: async (number: string) => {
          asked.push({ connectionId: id, number });
          if (number.endsWith('0000')) return null;
          if (number.endsWith('9999')) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
          // the channel answers its canonical form (here: without the mobile 9)
          return number.length === 13 ? `${number.slice(0, 4)}${number.slice(5)}` : number;
        },
      }),
    };
    const ctx = server.ctx as unknown as { channels?: unknown };
    const previous = ctx.channels;
    ctx.channels = fake;
    try {
      const ok = await server.request('POST', '/api/contacts', {
        token: t.token,
        body: { name: 'Checked', number: '5511987654321' },
      });
      expect(ok).toMatchObject({ status: 201, body: { number: '551187654321' } });
      expect(asked).toEqual([{ connectionId, number: '5511987654321' }]);
      const invalid = await server.request('POST', '/api/contacts', {
        token: t.token,
        body: { name: 'Not On WhatsApp', number: '5511900000000' },
      });
      expect(invalid).toMatchObject({ status: 400, body: { error: 'ERR_WAPP_INVALID_CONTACT' } });
      const failed = await server.request('POST', '/api/contacts', {
        token: t.token,
        body: { name: 'Check Failed', number: '5511900009999' },
      });
      expect(failed).toMatchObject({ status: 502, body: { error: 'ERR_WAPP_CHECK_CONTACT' } });
      const upload = await server.request('POST', '/api/contacts/upload', {
        token: t.token,
        body: [{ Nome: 'Row Invalid', Telefone: '5511900000000' }],
      });
      expect(upload.body.errorBag).toEqual([{ contactName: 'Row Invalid', error: 'ERR_WAPP_INVALID_CONTACT' }]);
      expect(await contactsOf(t.companyId)).toBe(1);
    } finally {
      ctx.channels = previous;
    }
  });
});
