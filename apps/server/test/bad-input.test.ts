import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, addOption, addQueue, addQuickMessage, addTag, addTicket } from './catalogue-fixtures';
import { countRows, insertConnection, type TTenant } from './fixtures';
import { startTestServer, type TTestServer } from './harness';

/** The bad inputs issue 10 found answering 500: NUL and lone surrogates, empty updates, broken multipart. */

let server: TTestServer;
let tenant: TTenant;
let superToken: string;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
  superToken = (await server.superLogin()).token;
});
afterAll(() => server.close());

const raw = async (
  method: string,
  url: string,
  payload: string | Buffer,
  contentType: string,
  token = tenant.token,
) => {
  const res = await server.app.inject({
    method: method as 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
  });

  return { status: res.statusCode, body: res.json() };
};

const invalidCharacter = (path: string) => ({
  status: 400,
  body: { error: 'ERR_VALIDATION', details: [{ path, message: 'invalidCharacter' }] },
});

describe('NUL and lone surrogates', () => {
  it('in a search → 400 ERR_VALIDATION on every search route', async () => {
    const searches: [string, string][] = [
      ['/api/users', tenant.token],
      ['/api/contacts', tenant.token],
      ['/api/contacts/list', tenant.token],
      ['/api/quick-messages', tenant.token],
      ['/api/tags', tenant.token],
      ['/api/tickets', tenant.token],
      ['/api/companies', superToken],
      ['/api/plans', superToken],
    ];
    for (const [path, token] of searches) {
      const res = await server.request('GET', path, { token, query: { searchParam: 'ana\u0000' } });
      expect(res, path).toMatchObject(invalidCharacter('searchParam'));
    }
  });

  it('in a created entity → 400 ERR_VALIDATION, and nothing is created', async () => {
    const queue = await addQueue(server, tenant);
    const creates: [string, Record<string, unknown>, string][] = [
      ['/api/contacts', { name: 'Ana\u0000', number: '5511999990000' }, 'contacts'],
      ['/api/queue', { name: 'Sales\u0000', color: '#00ff00' }, 'queues'],
      ['/api/tags', { name: 'VIP\u0000' }, 'tags'],
      ['/api/quick-messages', { shortcode: 'hi', message: 'Hello\u0000' }, 'quick_messages'],
      ['/api/queue-options', { queueId: queue.id, title: 'Option\u0000' }, 'queue_options'],
    ];
    for (const [path, body, table] of creates) {
      const before = await countRows(server, `select count(*) as n from ${table} where company_id = $1`, [
        tenant.companyId,
      ]);
      const res = await server.request('POST', path, { token: tenant.token, body });
      expect(res, path).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
      expect(res.body.details[0].message).toBe('invalidCharacter');
      expect(
        await countRows(server, `select count(*) as n from ${table} where company_id = $1`, [tenant.companyId]),
      ).toBe(before);
    }
  });

  it('in a path parameter, a nested value or a key → 400 naming where', async () => {
    expect(await server.request('GET', '/api/users/%00', { token: tenant.token })).toMatchObject(
      invalidCharacter('id'),
    );
    const nested = await server.request('POST', '/api/contacts', {
      token: tenant.token,
      body: { name: 'Ana', number: '5511999990001', extraInfo: [{ name: 'CPF', value: '1\u00002' }] },
    });
    expect(nested).toMatchObject(invalidCharacter('extraInfo.0.value'));
    const key = await server.request('POST', '/api/tags', { token: tenant.token, body: { name: 'Tag', 'x\u0000': 1 } });
    expect(key).toMatchObject(invalidCharacter('x\u0000'));
  });

  it('a lone surrogate in JSON → 400 ERR_VALIDATION; a whole pair is text like any other', async () => {
    for (const text of ['"Ana \\ud800"', '"\\udc00Ana"']) {
      const res = await raw('POST', '/api/tags', `{"name":${text}}`, 'application/json');
      expect(res, text).toMatchObject(invalidCharacter('name'));
    }
    const emoji = await raw('POST', '/api/tags', '{"name":"Ana \\ud83d\\ude00"}', 'application/json');
    expect(emoji).toMatchObject({ status: 201, body: { name: 'Ana 😀' } });
  });
});

describe('an update with no known field', () => {
  it('answers 200 with the entity unchanged (contacts, queues, queue options, quick messages, tags)', async () => {
    const queue = await addQueue(server, tenant);
    const entities = [
      `/api/contacts/${(await addContact(server, tenant)).id}`,
      `/api/queue/${queue.id}`,
      `/api/queue-options/${(await addOption(server, tenant, { queueId: queue.id })).id}`,
      `/api/quick-messages/${(await addQuickMessage(server, tenant.token)).id}`,
      `/api/tags/${(await addTag(server, tenant)).id}`,
    ];
    for (const path of entities) {
      const before = await server.request('GET', path, { token: tenant.token });
      expect(before.status, path).toBe(200);
      for (const body of [{}, { unknownField: 'x', read: 1 }]) {
        const res = await server.request('PUT', path, { token: tenant.token, body });
        expect(res.status, `${path} ${JSON.stringify(body)} ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.id).toBe(before.body.id);
      }
      const after = await server.request('GET', path, { token: tenant.token });
      expect(after.body, path).toEqual(before.body);
    }
  });

  it('answers 200 with the company unchanged for the super user', async () => {
    const path = `/api/companies/${tenant.companyId}`;
    const before = await server.request('GET', path, { token: superToken });
    const res = await server.request('PUT', path, { token: superToken, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await server.request('GET', path, { token: superToken })).body).toEqual(before.body);
  });
});

describe('malformed multipart → 400, never 500', () => {
  const cutShort = '--zz\r\nContent-Disposition: form-data; name="medias"; filename="a.png"\r\n\r\n\x89PNG';

  it('on a message with media, the sandbox inbound and the contact import', async () => {
    const { ticketId } = await addTicket(server, tenant);
    const connectionId = await insertConnection(server, tenant.companyId);
    for (const url of [`/api/messages/${ticketId}`, `/api/sandbox/${connectionId}/inbound`, '/api/contacts/import']) {
      for (const [label, payload, type] of [
        ['no boundary', 'x', 'multipart/form-data'],
        ['an empty boundary', 'x', 'multipart/form-data; boundary='],
        ['a boundary over 70 characters', 'x', `multipart/form-data; boundary=${'b'.repeat(300)}`],
        ['a file part cut short', cutShort, 'multipart/form-data; boundary=zz'],
      ]) {
        const res = await raw('POST', url, payload, type);
        expect(res, `${url}: ${label}`).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
      }
    }
  });

  it('a NUL in an agent’s multipart caption → 400 ERR_VALIDATION', async () => {
    const { ticketId } = await addTicket(server, tenant);
    const payload = [
      '--zz',
      'Content-Disposition: form-data; name="body"',
      '',
      'caption\u0000',
      '--zz',
      'Content-Disposition: form-data; name="medias"; filename="a.txt"',
      'Content-Type: text/plain',
      '',
      'hello',
      '--zz--',
      '',
    ].join('\r\n');
    const res = await raw('POST', `/api/messages/${ticketId}`, payload, 'multipart/form-data; boundary=zz');
    expect(res).toMatchObject(invalidCharacter('body'));
    expect(await countRows(server, 'select count(*) as n from messages where ticket_id = $1', [ticketId])).toBe(0);
  });
});

describe('what the router refuses', () => {
  it('a path that is not valid percent-encoding, or a parameter over 300 characters → 400 ERR_VALIDATION', async () => {
    for (const path of ['/api/users/%', '/api/users/%ED%A0%80', `/api/users/${'9'.repeat(400)}`]) {
      const res = await server.request('GET', path, { token: tenant.token });
      expect(res, path).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    }
  });
});
