import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQueue, addTag, addTicket } from '../../../test/catalogue-fixtures';
import { rooms } from '@zelo/shared';
import { createLoggedUser, openSocket, recordEvents, type TTenant, unique, untilJoined } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
let tenant: TTenant;
let user: { id: number; token: string };
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
  user = await createLoggedUser(server, tenant);
});
afterAll(() => server.close());

const tagIdsOf = async (ticketId: number) =>
  (
    await server.database.executeSql('select tag_id from ticket_tags where ticket_id = $1 order by tag_id', [ticketId])
  ).rows.map((r) => (r as { tag_id: number }).tag_id);

describe('tags', () => {
  it('creates, validates (name ≥ 3), refuses duplicates per company (409)', async () => {
    const tag = await addTag(server, tenant, { color: '#FF0000' });
    expect(tag).toMatchObject({ color: '#FF0000', kanban: 0, ticketsCount: 0 });
    const short = await server.request('POST', '/api/tags', { token: user.token, body: { name: 'ab' } });
    expect(short).toMatchObject({ status: 400, body: { details: [{ path: 'name', message: 'messageTooShort' }] } });
    const dup = await server.request('POST', '/api/tags', {
      token: user.token,
      body: { name: tag.name.toUpperCase() },
    });
    expect(dup).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_TAG' } });
    const other = await server.createTenant();
    await addTag(server, other, { name: tag.name });
  });

  it('lists: /tags/list, /tags paged with ticketsCount and search, /tags/kanban lanes', async () => {
    const t = await server.createTenant();
    const prefix = unique('lane');
    const lane = await addTag(server, t, { name: `${prefix} lane`, kanban: 1 });
    const plain = await addTag(server, t, { name: `${prefix} plain` });
    for (let i = 0; i < 20; i += 1) await addTag(server, t, { name: `${prefix} more ${String(i).padStart(2, '0')}` });
    const { ticketId } = await addTicket(server, t);
    await server.request('POST', '/api/tags/sync', { token: t.token, body: { ticketId, tags: [{ id: plain.id }] } });
    const all = await server.request('GET', '/api/tags/list', { token: t.token });
    expect(all.body).toHaveLength(22);
    const page = await server.request('GET', '/api/tags', { token: t.token, query: { searchParam: prefix } });
    expect(page.body).toMatchObject({ hasMore: true, count: 22 });
    expect(page.body.tags).toHaveLength(20);
    const found = await server.request('GET', '/api/tags', {
      token: t.token,
      query: { searchParam: `${prefix} plain` },
    });
    expect(found.body.tags).toEqual([expect.objectContaining({ id: plain.id, ticketsCount: 1 })]);
    const kanban = await server.request('GET', '/api/tags/kanban', { token: t.token });
    expect(kanban.body.lista.map((l: { id: number }) => l.id)).toEqual([lane.id]);
  });

  it('users may not make a kanban lane or delete tags (403); admins may', async () => {
    const tag = await addTag(server, tenant);
    const lane = await server.request('POST', '/api/tags', {
      token: user.token,
      body: { name: unique('Lane'), kanban: 1 },
    });
    expect(lane).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    const toLane = await server.request('PUT', `/api/tags/${tag.id}`, { token: user.token, body: { kanban: 1 } });
    expect(toLane.status).toBe(403);
    const rename = await server.request('PUT', `/api/tags/${tag.id}`, {
      token: user.token,
      body: { name: 'Renamed tag' },
    });
    expect(rename).toMatchObject({ status: 200, body: { name: 'Renamed tag', kanban: 0 } });
    expect((await server.request('DELETE', `/api/tags/${tag.id}`, { token: user.token })).status).toBe(403);
    expect(
      (await server.request('PUT', `/api/tags/${tag.id}`, { token: tenant.token, body: { kanban: 1 } })).body.kanban,
    ).toBe(1);
    expect((await server.request('DELETE', `/api/tags/${tag.id}`, { token: tenant.token })).status).toBe(204);
    expect(await server.request('GET', `/api/tags/${tag.id}`, { token: user.token })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_TAG_FOUND' },
    });
  });

  it('sync replaces the ticket tags and announces the ticket', async () => {
    const [a, b, c] = [await addTag(server, tenant), await addTag(server, tenant), await addTag(server, tenant)];
    const { ticketId } = await addTicket(server, tenant);
    const socket = await openSocket(server, tenant.token);
    const heard = recordEvents(socket);
    socket.emit('joinChatBox', String(ticketId));
    try {
      await untilJoined(server, rooms.ticket(tenant.companyId, ticketId));
      const first = await server.request('POST', '/api/tags/sync', {
        token: tenant.token,
        body: { ticketId, tags: [{ id: a.id }, { id: b.id }, { id: a.id }] },
      });
      expect(first.status).toBe(200);
      expect(await tagIdsOf(ticketId)).toEqual([a.id, b.id].sort((x, y) => x - y));
      await server.request('POST', '/api/tags/sync', { token: tenant.token, body: { ticketId, tags: [{ id: c.id }] } });
      expect(await tagIdsOf(ticketId)).toEqual([c.id]);
      const update = await heard.waitFor(
        `company-${tenant.companyId}-ticket`,
        (p) => p.action === 'update' && p.ticket.id === ticketId && p.ticket.tags.length === 1,
      );
      expect(update.ticket.tags[0]).toMatchObject({ id: c.id });
      await server.request('POST', '/api/tags/sync', { token: tenant.token, body: { ticketId, tags: [] } });
      expect(await tagIdsOf(ticketId)).toEqual([]);
    } finally {
      socket.close();
    }
  });

  it('sync refuses unknown tags and tickets (404) and changes nothing', async () => {
    const tag = await addTag(server, tenant);
    const { ticketId } = await addTicket(server, tenant);
    await server.request('POST', '/api/tags/sync', { token: tenant.token, body: { ticketId, tags: [{ id: tag.id }] } });
    const bad = await server.request('POST', '/api/tags/sync', {
      token: tenant.token,
      body: { ticketId, tags: [{ id: 2000000000 }] },
    });
    expect(bad).toMatchObject({ status: 404, body: { error: 'ERR_NO_TAG_FOUND' } });
    expect(await tagIdsOf(ticketId)).toEqual([tag.id]);
    const noTicket = await server.request('POST', '/api/tags/sync', {
      token: tenant.token,
      body: { ticketId: 2000000000, tags: [] },
    });
    expect(noTicket).toMatchObject({ status: 404, body: { error: 'ERR_NO_TICKET_FOUND' } });
    const invalid = await server.request('POST', '/api/tags/sync', { token: tenant.token, body: { ticketId: 'x' } });
    expect(invalid).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });

  it('a user of another queue may not tag the ticket (403)', async () => {
    const queue = await addQueue(server, tenant);
    const tag = await addTag(server, tenant);
    const { ticketId } = await addTicket(server, tenant, { queueId: queue.id, status: 'pending' });
    const res = await server.request('POST', '/api/tags/sync', {
      token: user.token,
      body: { ticketId, tags: [{ id: tag.id }] },
    });
    expect(res).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect(await tagIdsOf(ticketId)).toEqual([]);
  });

  it('kanban moves: DELETE /ticket-tags removes only lane tags, PUT adds one', async () => {
    const lane1 = await addTag(server, tenant, { kanban: 1 });
    const lane2 = await addTag(server, tenant, { kanban: 1 });
    const plain = await addTag(server, tenant);
    const { ticketId } = await addTicket(server, tenant);
    await server.request('POST', '/api/tags/sync', {
      token: tenant.token,
      body: { ticketId, tags: [{ id: lane1.id }, { id: plain.id }] },
    });
    const removed = await server.request('DELETE', `/api/ticket-tags/${ticketId}`, { token: tenant.token });
    expect(removed.status).toBe(200);
    expect(await tagIdsOf(ticketId)).toEqual([plain.id]);
    const added = await server.request('PUT', `/api/ticket-tags/${ticketId}/${lane2.id}`, { token: tenant.token });
    expect(added.status).toBe(200);
    expect(added.body.tags.map((t: { id: number }) => t.id).sort()).toEqual([lane2.id, plain.id].sort());
    // adding it twice is harmless
    expect(
      (await server.request('PUT', `/api/ticket-tags/${ticketId}/${lane2.id}`, { token: tenant.token })).status,
    ).toBe(200);
    expect(
      await server.request('PUT', `/api/ticket-tags/${ticketId}/2000000000`, { token: tenant.token }),
    ).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_TAG_FOUND' },
    });
  });

  it('ticketsCount is right after every change of ticket tags, ticket deletes and tag deletes', async () => {
    const t = await server.createTenant();
    const [a, b, lane] = [await addTag(server, t), await addTag(server, t), await addTag(server, t, { kanban: 1 })];
    const counts = async () => {
      const page = await server.request('GET', '/api/tags', { token: t.token });
      const answered = Object.fromEntries(
        (page.body.tags as { id: number; ticketsCount: number }[]).map((g) => [g.id, g.ticketsCount]),
      );
      const stored = Object.fromEntries(
        (
          await server.database.executeSql(
            'select g.id, (select count(*)::int from ticket_tags tt where tt.tag_id = g.id) as n from tags g where g.company_id = $1',
            [t.companyId],
          )
        ).rows.map((r) => [(r as { id: number }).id, (r as { n: number }).n]),
      );
      expect(answered).toEqual(stored);
      const one = await server.request('GET', `/api/tags/${a.id}`, { token: t.token });
      if (one.status === 200) expect(one.body.ticketsCount).toBe(stored[a.id]);

      return [a.id, b.id, lane.id].map((id) => answered[id]);
    };
    const [x, y, z] = [await addTicket(server, t), await addTicket(server, t), await addTicket(server, t)];
    const sync = (ticketId: number, ids: number[]) =>
      server.request('POST', '/api/tags/sync', { token: t.token, body: { ticketId, tags: ids.map((id) => ({ id })) } });
    await sync(x.ticketId, [a.id, b.id, lane.id]);
    await sync(y.ticketId, [a.id, lane.id]);
    expect(await counts()).toEqual([2, 1, 2]);
    await sync(x.ticketId, [b.id]);
    expect(await counts()).toEqual([1, 1, 1]);
    await server.request('PUT', `/api/ticket-tags/${z.ticketId}/${lane.id}`, { token: t.token });
    await server.request('PUT', `/api/ticket-tags/${z.ticketId}/${lane.id}`, { token: t.token });
    expect(await counts()).toEqual([1, 1, 2]);
    await server.request('DELETE', `/api/ticket-tags/${y.ticketId}`, { token: t.token });
    expect(await counts()).toEqual([1, 1, 1]);
    // a deleted ticket takes its tags along; so does a deleted contact's ticket
    expect((await server.request('DELETE', `/api/tickets/${z.ticketId}`, { token: t.token })).status).toBe(204);
    expect(await counts()).toEqual([1, 1, 0]);
    await server.request('DELETE', `/api/contacts/${y.contactId}`, { token: t.token });
    expect(await counts()).toEqual([0, 1, 0]);
    // several tickets in one statement, then a tag deleted: the others keep their counts
    await server.database.executeSql(
      'insert into ticket_tags (company_id, ticket_id, tag_id) select company_id, id, $2 from tickets where company_id = $1',
      [t.companyId, a.id],
    );
    expect(await counts()).toEqual([1, 1, 0]);
    expect((await server.request('DELETE', `/api/tags/${b.id}`, { token: t.token })).status).toBe(204);
    const after = await server.request('GET', '/api/tags', { token: t.token });
    expect(after.body.tags.map((g: { id: number; ticketsCount: number }) => [g.id, g.ticketsCount]).sort()).toEqual(
      [
        [a.id, 1],
        [lane.id, 0],
      ].sort(),
    );
  });

  it('announces create, update and delete on company-{id}-tag', async () => {
    const socket = await openSocket(server, user.token);
    const heard = recordEvents(socket);
    const event = `company-${tenant.companyId}-tag`;
    try {
      const tag = await addTag(server, tenant);
      await heard.waitFor(event, (p) => p.action === 'create' && p.tag.id === tag.id);
      await server.request('PUT', `/api/tags/${tag.id}`, { token: tenant.token, body: { color: '#000000' } });
      await heard.waitFor(event, (p) => p.action === 'update' && p.tag.color === '#000000');
      await server.request('DELETE', `/api/tags/${tag.id}`, { token: tenant.token });
      await heard.waitFor(event, (p) => p.action === 'delete' && p.tagId === tag.id);
    } finally {
      socket.close();
    }
  });
});
