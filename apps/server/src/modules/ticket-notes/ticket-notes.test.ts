import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, addQueue, addTicket } from '../../../test/catalogue-fixtures';
import { createLoggedUser, type TTenant } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
let tenant: TTenant;
let ana: { id: number; name: string; token: string };
let bob: { id: number; token: string };
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
  ana = await createLoggedUser(server, tenant, { name: 'Ana Agent', canSeeTicketsWithoutQueue: true });
  bob = await createLoggedUser(server, tenant, { name: 'Bob Agent', canSeeTicketsWithoutQueue: true });
});
afterAll(() => server.close());

describe('ticket notes', () => {
  it('adds notes and lists them oldest first with the author name', async () => {
    const { ticketId, contactId } = await addTicket(server, tenant);
    const first = await server.request('POST', '/api/ticket-notes', {
      token: ana.token,
      body: { ticketId, contactId, note: 'Called back' },
    });
    expect(first).toMatchObject({
      status: 201,
      body: { note: 'Called back', ticketId, contactId, user: { id: ana.id, name: 'Ana Agent' } },
    });
    await server.request('POST', '/api/ticket-notes', {
      token: bob.token,
      body: { ticketId, contactId, note: 'Second' },
    });
    const list = await server.request('GET', '/api/ticket-notes/list', {
      token: ana.token,
      query: { ticketId, contactId },
    });
    expect(list.status).toBe(200);
    expect(list.body.map((n: { note: string; user: { name: string } }) => [n.note, n.user.name])).toEqual([
      ['Called back', 'Ana Agent'],
      ['Second', 'Bob Agent'],
    ]);
  });

  it('validates the note (≥ 2 characters) and the ticket/contact pair', async () => {
    const { ticketId, contactId } = await addTicket(server, tenant);
    const short = await server.request('POST', '/api/ticket-notes', {
      token: ana.token,
      body: { ticketId, contactId, note: ' a ' },
    });
    expect(short).toMatchObject({ status: 400, body: { details: [{ path: 'note', message: 'tooShort' }] } });
    const stranger = await addContact(server, tenant);
    const mismatch = await server.request('POST', '/api/ticket-notes', {
      token: ana.token,
      body: { ticketId, contactId: stranger.id, note: 'Wrong pair' },
    });
    expect(mismatch).toMatchObject({
      status: 400,
      body: { error: 'ERR_VALIDATION', details: [{ path: 'contactId' }] },
    });
    const missing = await server.request('POST', '/api/ticket-notes', {
      token: ana.token,
      body: { ticketId: 2000000000, contactId, note: 'No ticket' },
    });
    expect(missing).toMatchObject({ status: 404, body: { error: 'ERR_NO_TICKET_FOUND' } });
    expect(
      await server.request('GET', '/api/ticket-notes/list', { token: ana.token, query: { ticketId } }),
    ).toMatchObject({
      status: 400,
      body: { error: 'ERR_VALIDATION' },
    });
  });

  it('a user who may not see the ticket neither reads nor writes its notes (403)', async () => {
    const queue = await addQueue(server, tenant);
    const { ticketId, contactId } = await addTicket(server, tenant, { queueId: queue.id, status: 'pending' });
    expect(
      await server.request('GET', '/api/ticket-notes/list', { token: ana.token, query: { ticketId, contactId } }),
    ).toMatchObject({ status: 403 });
    expect(
      await server.request('POST', '/api/ticket-notes', {
        token: ana.token,
        body: { ticketId, contactId, note: 'Peek' },
      }),
    ).toMatchObject({ status: 403 });
  });

  it('only the author or an admin deletes a note', async () => {
    const { ticketId, contactId } = await addTicket(server, tenant);
    const add = async () =>
      (
        await server.request('POST', '/api/ticket-notes', {
          token: ana.token,
          body: { ticketId, contactId, note: 'Mine' },
        })
      ).body;
    const one = await add();
    expect(await server.request('DELETE', `/api/ticket-notes/${one.id}`, { token: bob.token })).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect((await server.request('DELETE', `/api/ticket-notes/${one.id}`, { token: ana.token })).status).toBe(204);
    const two = await add();
    expect((await server.request('DELETE', `/api/ticket-notes/${two.id}`, { token: tenant.token })).status).toBe(204);
    expect(await server.request('DELETE', `/api/ticket-notes/${two.id}`, { token: tenant.token })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_TICKET_NOTE_FOUND' },
    });
  });
});
