import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeChannels } from '../../../test/channel-fake';
import { countRows, createLoggedUser } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { deliver, inbound, insertContact, pendingTicket, setSetting, setupInbox } from '../../../test/inbox';
import { applyMessageUpdate } from '../messages/store-inbound';

let server: TTestServer;
let fake: ReturnType<typeof installFakeChannels>;
let inbox: Awaited<ReturnType<typeof setupInbox>>;
beforeAll(async () => {
  server = await startTestServer();
  fake = installFakeChannels(server);
  inbox = await setupInbox(server);
  fake.connect(inbox.connectionId);
});
afterAll(() => server.close());

const get = (token: string, path: string, query?: Record<string, string | number | boolean>) =>
  server.request('GET', path, { token, query });
const put = (token: string, id: number, body: unknown) => server.request('PUT', `/api/tickets/${id}`, { token, body });
const ids = (res: { body: { tickets: { id: number }[] } }) => res.body.tickets.map((t) => t.id);
const trackings = async (ticketId: number) =>
  (
    await server.database.executeSql(
      'select queued_at, started_at, finished_at, rating_at, user_id from ticket_trackings where ticket_id = $1 order by id',
      [ticketId],
    )
  ).rows as {
    queued_at: Date | null;
    started_at: Date | null;
    finished_at: Date | null;
    rating_at: Date | null;
    user_id: number | null;
  }[];

describe('GET /api/tickets', () => {
  it('answers 40 per page, newest update first, with count and hasMore', async () => {
    const { tenant, connectionId } = await setupInbox(server, 'Paging');
    fake.connect(connectionId);
    // 45 pending tickets written in bulk, each a minute apart
    await server.database.executeSql(
      `with c as (
         insert into contacts (company_id, name, number)
         select $1, 'Paged ' || g, '5511900' || lpad(g::text, 6, '0') from generate_series(1, 45) g returning id, number
       )
       insert into tickets (company_id, contact_id, whatsapp_id, status, updated_at)
       select $1, c.id, $2, 'pending', now() - (right(c.number, 6)::int || ' minutes')::interval from c`,
      [tenant.companyId, connectionId],
    );
    const first = await get(tenant.token, '/api/tickets', { status: 'pending', showAll: true });
    expect(first.status).toBe(200);
    expect(first.body.tickets).toHaveLength(40);
    expect(first.body.count).toBe(45);
    expect(first.body.hasMore).toBe(true);
    const times = first.body.tickets.map((t: { updatedAt: string }) => Date.parse(t.updatedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const second = await get(tenant.token, '/api/tickets', { status: 'pending', showAll: true, pageNumber: 2 });
    expect(second.body.tickets).toHaveLength(5);
    expect(second.body.hasMore).toBe(false);
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(45);
  });

  it('shows a plain user the pending tickets of their queues and their own, and refuses showAll', async () => {
    const { tenant, connectionId, q1, q2, agent1, agent2 } = inbox;
    const inQ1 = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    const inQ2 = await pendingTicket(server, tenant, connectionId, { queueId: q2 });
    const noQueue = await pendingTicket(server, tenant, connectionId);
    const accepted = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    expect((await put(agent2.token, accepted.ticketId, { status: 'open' })).status).toBe(200);

    const mine = ids(await get(agent1.token, '/api/tickets'));
    expect(mine).toContain(inQ1.ticketId);
    expect(mine).not.toContain(inQ2.ticketId);
    expect(mine).not.toContain(noQueue.ticketId);
    // another agent's open ticket of the same queue stays out of the default list
    expect(mine).not.toContain(accepted.ticketId);
    // showAll sent by a plain user is ignored on the server
    const forced = ids(await get(agent1.token, '/api/tickets', { showAll: true }));
    expect(forced).not.toContain(accepted.ticketId);
    expect(forced).not.toContain(inQ2.ticketId);
    // asking for another queue does not widen the view
    expect(ids(await get(agent1.token, '/api/tickets', { queueIds: `[${q2}]`, showAll: true }))).not.toContain(
      inQ2.ticketId,
    );
    expect(ids(await get(agent2.token, '/api/tickets', { status: 'open' }))).toContain(accepted.ticketId);
    // the admin sees everything with showAll
    const all = ids(await get(tenant.token, '/api/tickets', { showAll: true }));
    for (const t of [inQ1, inQ2, noQueue, accepted]) expect(all).toContain(t.ticketId);
  });

  it('honours showAll for allTicket users, and no-queue tickets by canSeeTicketsWithoutQueue', async () => {
    const { tenant, connectionId, q1, q2 } = inbox;
    const wide = await createLoggedUser(server, tenant, { queueIds: [q1], allTicket: 'enabled' });
    const noQueueUser = await createLoggedUser(server, tenant, { queueIds: [q1], canSeeTicketsWithoutQueue: true });
    const openInQ1 = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    await put(inbox.agent1.token, openInQ1.ticketId, { status: 'open' });
    const noQueue = await pendingTicket(server, tenant, connectionId);
    const inQ2 = await pendingTicket(server, tenant, connectionId, { queueId: q2 });
    const wideAll = ids(await get(wide.token, '/api/tickets', { showAll: true }));
    expect(wideAll).toContain(openInQ1.ticketId);
    expect(wideAll).toContain(noQueue.ticketId);
    expect(wideAll).not.toContain(inQ2.ticketId);
    const nq = ids(await get(noQueueUser.token, '/api/tickets'));
    expect(nq).toContain(noQueue.ticketId);
    expect(nq).not.toContain(inQ2.ticketId);
  });

  it('filters by status, users, tags (all of them), unread and day, together with the other filters', async () => {
    const { tenant, connectionId, q1, agent1 } = inbox;
    const a = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    const b = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    await put(agent1.token, a.ticketId, { status: 'open' });
    const tag = async (name: string) =>
      (
        (
          await server.database.executeSql('insert into tags (company_id, name) values ($1, $2) returning id', [
            tenant.companyId,
            `${name}-${Math.random()}`,
          ])
        ).rows[0] as { id: number }
      ).id;
    const t1 = await tag('vip');
    const t2 = await tag('late');
    for (const [ticketId, tagId] of [
      [a.ticketId, t1],
      [a.ticketId, t2],
      [b.ticketId, t1],
    ]) {
      await server.database.executeSql('insert into ticket_tags (company_id, ticket_id, tag_id) values ($1, $2, $3)', [
        tenant.companyId,
        ticketId,
        tagId,
      ]);
    }
    const both = ids(await get(tenant.token, '/api/tickets', { showAll: true, tags: `[${t1},${t2}]` }));
    expect(both).toEqual([a.ticketId]);
    const one = ids(await get(tenant.token, '/api/tickets', { showAll: true, tags: `${t1}` }));
    expect(one.sort()).toEqual([a.ticketId, b.ticketId].sort());
    expect(ids(await get(tenant.token, '/api/tickets', { showAll: true, tags: `${t1}`, status: 'pending' }))).toEqual([
      b.ticketId,
    ]);
    const byUser = ids(await get(tenant.token, '/api/tickets', { showAll: true, users: `[${agent1.id}]` }));
    expect(byUser).toContain(a.ticketId);
    expect(byUser).not.toContain(b.ticketId);
    const unread = await get(tenant.token, '/api/tickets', { showAll: true, withUnreadMessages: true });
    expect(unread.body.tickets.every((t: { unreadMessages: number }) => t.unreadMessages > 0)).toBe(true);
    expect(ids(unread)).toContain(b.ticketId);
    // a day filter narrows the other filters instead of replacing them
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const day = ids(await get(tenant.token, '/api/tickets', { showAll: true, tags: `[${t1},${t2}]`, date: today }));
    expect(day).toEqual([a.ticketId]);
    expect(ids(await get(tenant.token, '/api/tickets', { showAll: true, tags: `${t1}`, date: '2001-01-01' }))).toEqual(
      [],
    );
    const dayForAgent = ids(await get(inbox.agentQ2.token, '/api/tickets', { updatedAt: today, showAll: true }));
    expect(dayForAgent).not.toContain(a.ticketId);
  });

  it('searches contact name, number and message text (full-text, prefixes too)', async () => {
    const { tenant, connectionId } = inbox;
    const byName = await pendingTicket(server, tenant, connectionId, { name: 'Zebedeu Quintanilha' });
    const byText = await pendingTicket(server, tenant, connectionId, { body: 'meu pedido chegou quebrado' });
    const search = async (searchParam: string) =>
      ids(await get(tenant.token, '/api/tickets', { showAll: true, searchParam }));
    expect(await search('zebedeu')).toEqual([byName.ticketId]);
    expect(await search(byText.contact.number.slice(-8))).toEqual([byText.ticketId]);
    expect(await search('quebrado')).toEqual([byText.ticketId]);
    expect(await search('pedido quebr')).toEqual([byText.ticketId]);
    expect(await search('"chegou quebrado"')).toEqual([byText.ticketId]);
    expect(await search('inexistente-xyz')).toEqual([]);
    // the search stays inside what the user may see
    expect(ids(await get(inbox.agentQ2.token, '/api/tickets', { searchParam: 'quebrado' }))).toEqual([]);
  });

  it('search ignores accents and case, as users type (contact names, customers’ and agents’ messages)', async () => {
    const { tenant, connectionId } = inbox;
    const search = async (searchParam: string) =>
      ids(await get(tenant.token, '/api/tickets', { showAll: true, searchParam }));
    const upper = await pendingTicket(server, tenant, connectionId, { body: 'quero a PROMOCAO de verão' });
    const accented = await pendingTicket(server, tenant, connectionId, {
      name: 'Açucena Vitória',
      body: 'vi a promoção no site',
    });
    for (const typed of ['promoção', 'PROMOCAO', 'Promoçao', 'promo']) {
      expect((await search(typed)).sort(), typed).toEqual([upper.ticketId, accented.ticketId].sort());
    }
    expect(await search('acucena vitoria')).toEqual([accented.ticketId]);
    expect(await search('AÇUCENA')).toEqual([accented.ticketId]);
    expect(await search('verao')).toEqual([upper.ticketId]);
    // a rebuilt ticket (its message edited) folds the same way
    const [stored] = (
      await server.database.executeSql('select external_id from messages where ticket_id = $1', [accented.ticketId])
    ).rows as { external_id: string }[];
    await applyMessageUpdate(server.ctx, {
      connectionId,
      externalId: stored.external_id,
      edit: { body: 'vi a liquidação no site' },
    });
    expect(await search('LIQUIDACAO')).toEqual([accented.ticketId]);
    expect(await search('açucena')).toEqual([accented.ticketId]);
  });

  it('search follows edits, deletes and renames; finds tickets without messages and numbers as typed', async () => {
    const { tenant, connectionId } = inbox;
    const search = async (searchParam: string) =>
      ids(await get(tenant.token, '/api/tickets', { showAll: true, searchParam }));
    // a ticket opened by an attendant, before any message, is found by its contact
    const contact = await insertContact(server, tenant.companyId, { name: 'Ofélia Brandão', number: '5511987651234' });
    const created = await server.request('POST', '/api/tickets', {
      token: tenant.token,
      body: { contactId: contact.id, whatsappId: connectionId, status: 'open' },
    });
    expect(created.status).toBe(201);
    const ticketId = created.body.id as number;
    expect(await search('ofélia')).toEqual([ticketId]);
    for (const typed of ['5511987651234', '11987651234', '98765', '(11) 98765-1234', '+55 11 98765-1234']) {
      expect(await search(typed), typed).toEqual([ticketId]);
    }
    // renamed: the new name finds it, the old one no longer does
    const renamed = await server.request('PUT', `/api/contacts/${contact.id}`, {
      token: tenant.token,
      body: { name: 'Genoveva Brandão', number: contact.number },
    });
    expect(renamed.status).toBe(200);
    expect(await search('genoveva')).toEqual([ticketId]);
    expect(await search('ofélia')).toEqual([]);
    // a customer's message edited, then deleted: its words follow
    const other = await pendingTicket(server, tenant, connectionId, { body: 'quero um orçamento de marcenaria' });
    expect(await search('marcenaria')).toEqual([other.ticketId]);
    const [stored] = (
      await server.database.executeSql('select external_id from messages where ticket_id = $1', [other.ticketId])
    ).rows as { external_id: string }[];
    await applyMessageUpdate(server.ctx, {
      connectionId,
      externalId: stored.external_id,
      edit: { body: 'quero um orçamento de serralheria' },
    });
    expect(await search('marcenaria')).toEqual([]);
    expect(await search('serralheria')).toEqual([other.ticketId]);
    await applyMessageUpdate(server.ctx, { connectionId, externalId: stored.external_id, deleted: true });
    expect(await search('serralheria')).toEqual([]);
  });

  it('a search is not counted past its page, and hasMore stays exact', async () => {
    const { tenant, connectionId } = inbox;
    for (let i = 0; i < 3; i++) await pendingTicket(server, tenant, connectionId, { body: `tamarindo ${i}` });
    const res = await get(tenant.token, '/api/tickets', { showAll: true, searchParam: 'tamarindo' });
    expect(res.body.count).toBe(3);
    expect(res.body.hasMore).toBe(false);
  });
});

describe('GET /api/tickets/:id and /u/:uuid', () => {
  it('answers the ticket to who may see it and 403 Acesso não permitido to others', async () => {
    const { tenant, connectionId, q1, agent1, agentQ2 } = inbox;
    const { ticketId } = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    const ok = await get(agent1.token, `/api/tickets/${ticketId}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: ticketId, status: 'pending', queueId: q1, tags: [], lastMessage: 'hello' });
    expect((await get(agent1.token, `/api/tickets/u/${ok.body.uuid}`)).body.id).toBe(ticketId);
    const denied = await get(agentQ2.token, `/api/tickets/${ticketId}`);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error: 'ERR_NO_PERMISSION', message: 'Acesso não permitido' });
    expect((await get(agentQ2.token, `/api/tickets/u/${ok.body.uuid}`)).status).toBe(403);
    expect((await get(agent1.token, '/api/tickets/u/not-a-uuid')).status).toBe(404);
    expect((await get(agent1.token, '/api/tickets/999999')).body.error).toBe('ERR_NO_TICKET_FOUND');
  });
});

describe('POST /api/tickets', () => {
  it('opens a ticket for the caller on the default connection, and answers a held contact with 409', async () => {
    const { tenant, q1, agent1, agent2 } = inbox;
    const contact = await insertContact(server, tenant.companyId);
    const noQueue = await server.request('POST', '/api/tickets', {
      token: agent1.token,
      body: { contactId: contact.id, status: 'open' },
    });
    expect(noQueue.status).toBe(400);
    const created = await server.request('POST', '/api/tickets', {
      token: agent1.token,
      body: { contactId: contact.id, queueId: q1, status: 'open' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'open',
      userId: agent1.id,
      queueId: q1,
      whatsappId: inbox.connectionId,
    });
    expect((await trackings(created.body.id))[0].started_at).not.toBeNull();
    // the caller's own ticket is answered so the web opens it
    const again = await server.request('POST', '/api/tickets', {
      token: agent1.token,
      body: { contactId: contact.id, queueId: q1, status: 'open' },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
    // another agent is told who holds it and in which queue
    const held = await server.request('POST', '/api/tickets', {
      token: agent2.token,
      body: { contactId: contact.id, queueId: q1, status: 'open' },
    });
    expect(held.status).toBe(409);
    expect(held.body.error).toBe('ERR_OTHER_OPEN_TICKET');
    expect(held.body.ticket).toMatchObject({ id: created.body.id, user: { id: agent1.id, name: 'Agent One' } });
    expect(held.body.ticket.queue.id).toBe(q1);
    expect(held.body.details).toEqual(expect.arrayContaining([{ path: 'user', message: 'Agent One' }]));
    // unknown contact, queue not the user's own
    expect(
      (await server.request('POST', '/api/tickets', { token: agent1.token, body: { contactId: 999999, queueId: q1 } }))
        .body.error,
    ).toBe('ERR_NO_CONTACT_FOUND');
    const other = await insertContact(server, tenant.companyId);
    expect(
      (
        await server.request('POST', '/api/tickets', {
          token: agent1.token,
          body: { contactId: other.id, queueId: inbox.q2 },
        })
      ).status,
    ).toBe(403);
  });

  it('ERR_NO_DEF_WAPP_FOUND when no connection is given and there is no default', async () => {
    const tenant = await server.createTenant('NoConn');
    const contact = await insertContact(server, tenant.companyId);
    const res = await server.request('POST', '/api/tickets', { token: tenant.token, body: { contactId: contact.id } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_DEF_WAPP_FOUND');
  });
});

describe('PUT /api/tickets/:id transitions', () => {
  it('accept, return, transfer, close and reopen, with tracking rows', async () => {
    const { tenant, connectionId, q1, q2, agent1 } = inbox;
    const { ticketId } = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    const accepted = await put(agent1.token, ticketId, { status: 'open' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'open', userId: agent1.id, unreadMessages: 0 });
    let rows = await trackings(ticketId);
    expect(rows).toHaveLength(1);
    expect(rows[0].started_at).not.toBeNull();
    expect(rows[0].user_id).toBe(agent1.id);

    const returned = await put(agent1.token, ticketId, { status: 'pending', userId: null });
    expect(returned.body).toMatchObject({ status: 'pending', userId: null });
    rows = await trackings(ticketId);
    expect(rows[0].started_at).toBeNull();

    await put(agent1.token, ticketId, { status: 'open' });
    const transferred = await put(agent1.token, ticketId, { queueId: q2, userId: null, status: 'pending' });
    expect(transferred.body).toMatchObject({ status: 'pending', userId: null, queueId: q2 });
    // the agent lost sight of it with the queue
    expect((await get(agent1.token, `/api/tickets/${ticketId}`)).status).toBe(403);

    const toUser = await put(tenant.token, ticketId, { status: 'open', userId: agent1.id });
    expect(toUser.body).toMatchObject({ status: 'open', userId: agent1.id });
    const closed = await put(agent1.token, ticketId, { status: 'closed' });
    expect(closed.body.status).toBe('closed');
    rows = await trackings(ticketId);
    expect(rows.at(-1)!.finished_at).not.toBeNull();

    const reopened = await put(agent1.token, ticketId, { status: 'open' });
    expect(reopened.body).toMatchObject({ status: 'open', userId: agent1.id });
    rows = await trackings(ticketId);
    expect(rows).toHaveLength(2);
    expect(rows[1].finished_at).toBeNull();
    expect(rows[1].started_at).not.toBeNull();
  });

  it('two agents accepting the same ticket: exactly one wins, the other gets 409', async () => {
    const { tenant, connectionId, q1, agent1, agent2 } = inbox;
    for (let round = 0; round < 5; round++) {
      const { ticketId } = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
      const answers = await Promise.all([
        put(agent1.token, ticketId, { status: 'open' }),
        put(agent2.token, ticketId, { status: 'open' }),
      ]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, 409]);
      const loser = answers.find((a) => a.status === 409)!;
      expect(loser.body.error).toBe('ERR_TICKET_ALREADY_ACCEPTED');
      const winner = answers.find((a) => a.status === 200)!;
      const stored = await get(tenant.token, `/api/tickets/${ticketId}`);
      expect(stored.body.userId).toBe(winner.body.userId);
    }
  });

  it('checks who may do what', async () => {
    const { tenant, connectionId, q1, agent1, agent2, agentQ2 } = inbox;
    const { ticketId } = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    // outside the queue: not even visible
    expect((await put(agentQ2.token, ticketId, { status: 'open' })).status).toBe(403);
    // accept only for oneself
    expect((await put(agent1.token, ticketId, { status: 'open', userId: agent2.id })).status).toBe(403);
    expect((await put(agent1.token, ticketId, { status: 'open' })).status).toBe(200);
    // another agent may not return, close or transfer a ticket they do not hold
    expect((await put(agent2.token, ticketId, { status: 'pending' })).status).toBe(403);
    expect((await put(agent2.token, ticketId, { status: 'closed' })).status).toBe(403);
    expect((await put(agent2.token, ticketId, { userId: agent2.id })).status).toBe(403);
    // bot state is for the system only
    expect((await put(agent1.token, ticketId, { chatbot: true })).status).toBe(200);
    // the admin may
    expect((await put(tenant.token, ticketId, { userId: agent2.id })).body.userId).toBe(agent2.id);
    expect((await put(agent2.token, ticketId, { status: 'closed' })).status).toBe(200);
    // delete is for admins
    expect((await server.request('DELETE', `/api/tickets/${ticketId}`, { token: agent2.token })).status).toBe(403);
    expect((await server.request('DELETE', `/api/tickets/${ticketId}`, { token: tenant.token })).status).toBe(204);
    expect((await get(tenant.token, `/api/tickets/${ticketId}`)).status).toBe(404);
  });

  it('reopen refuses with ERR_OTHER_OPEN_TICKET when the contact has another active ticket', async () => {
    const { tenant, connectionId, q1, agent1 } = inbox;
    const { ticketId, contact } = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    await put(agent1.token, ticketId, { status: 'open' });
    await put(agent1.token, ticketId, { status: 'closed' });
    const next = await deliver(server, inbound(connectionId, contact.number));
    expect(next!.ticket.id).not.toBe(ticketId);
    const res = await put(agent1.token, ticketId, { status: 'open' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_OTHER_OPEN_TICKET');
    expect(res.body.ticket.id).toBe(next!.ticket.id);
  });

  it('sends the greeting on accept, transfer notices, the rating request and the completion message', async () => {
    const { tenant, connectionId, q1, q2, agent1 } = await setupInbox(server, 'Auto');
    fake.connect(connectionId);
    await server.database.executeSql(
      "update whatsapps set complation_message = 'Obrigado, {{firstName}}!', rating_message = 'Avalie-nos' where id = $1",
      [connectionId],
    );
    await server.database.executeSql("update queues set name = 'Financeiro' where id = $1", [q2]);
    await setSetting(server, tenant, 'sendGreetingAccepted', 'enabled');
    await setSetting(server, tenant, 'sendMsgTransfTicket', 'enabled');
    const { ticketId, contact } = await pendingTicket(server, tenant, connectionId, {
      queueId: q1,
      name: 'Maria Souza',
    });
    await put(agent1.token, ticketId, { status: 'open' });
    let texts = fake.texts(contact.number);
    expect(texts[0]).toMatch(
      /^\*Mensagem Automática\*:\n(Bom dia|Boa tarde|Boa noite|Boa madrugada) \*Maria Souza\*, meu nome é \*Agent One\*/,
    );
    await put(agent1.token, ticketId, { queueId: q2, userId: null, status: 'pending' });
    texts = fake.texts(contact.number);
    expect(texts[1]).toContain('departamento *Financeiro*');
    // completion message with variables
    await put(tenant.token, ticketId, { status: 'open' });
    await put(tenant.token, ticketId, { status: 'closed' });
    expect(fake.texts(contact.number).at(-1)).toBe('Obrigado, Maria!');
    const stored = await server.request('GET', `/api/messages/${ticketId}`, { token: tenant.token });
    expect(stored.body.messages.at(-1)).toMatchObject({ body: 'Obrigado, Maria!', fromMe: true, source: 'system' });

    // with userRating: the rating request, ratingAt recorded, the ticket closed and the cycle left open
    await setSetting(server, tenant, 'userRating', 'enabled');
    const second = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    await put(agent1.token, second.ticketId, { status: 'open' });
    const closed = await put(agent1.token, second.ticketId, { status: 'closed' });
    expect(closed.body.status).toBe('closed');
    expect(fake.texts(second.contact.number).at(-1)).toMatch(/^Avalie-nos\n\n\*Digite de 1 a 3/);
    const rows = await trackings(second.ticketId);
    expect(rows.at(-1)).toMatchObject({ finished_at: null, user_id: agent1.id });
    expect(rows.at(-1)!.rating_at).not.toBeNull();
  });

  it("the greeting on accept reaches the customer once although the ancestor's client posts it too", async () => {
    const { tenant, connectionId, q1, agent1 } = await setupInbox(server, 'Greet');
    fake.connect(connectionId);
    await setSetting(server, tenant, 'sendGreetingAccepted', 'enabled');
    const { ticketId, contact } = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    // the ancestor's TicketListItemCustom: PUT open, then its own greeting through POST /messages/:id
    await put(agent1.token, ticketId, { status: 'open' });
    const ancestorGreeting = {
      read: 1,
      fromMe: true,
      mediaUrl: '',
      body: '*Mensagem Automática:*\n{{ms}} *{{name}}*, meu nome é *Agent One* e agora vou prosseguir com seu atendimento!',
    };
    const posted = await server.request('POST', `/api/messages/${ticketId}`, {
      token: agent1.token,
      body: ancestorGreeting,
    });
    expect(posted.status).toBeLessThan(300);
    const greetings = fake.texts(contact.number).filter((t) => t.includes('meu nome é *Agent One*'));
    expect(greetings).toHaveLength(1);
    const stored = await server.request('GET', `/api/messages/${ticketId}`, { token: agent1.token });
    expect(
      stored.body.messages.filter((m: { body: string }) => m.body.includes('meu nome é *Agent One*')),
    ).toHaveLength(1);
    // any other text of the agent is sent as usual
    await server.request('POST', `/api/messages/${ticketId}`, { token: agent1.token, body: { body: 'Olá!' } });
    expect(fake.texts(contact.number).at(-1)).toBe('Olá!');
  });

  it('answers English transfer notices for an English company', async () => {
    const { tenant, connectionId, q1, agent1, agent2 } = await setupInbox(server, 'English');
    fake.connect(connectionId);
    await server.database.executeSql("update companies set language = 'en' where id = $1", [tenant.companyId]);
    await setSetting(server, tenant, 'sendMsgTransfTicket', 'enabled');
    const { ticketId, contact } = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    await put(agent1.token, ticketId, { status: 'open' });
    await put(agent1.token, ticketId, { userId: agent2.id });
    expect(fake.texts(contact.number).at(-1)).toContain('transferred to the agent *Agent Two*');
  });
});

describe('updateTicket by the system', () => {
  it('works without a user and may set bot state', async () => {
    const { updateTicket } = await import('./tickets.service');
    const { tenant, connectionId, q1 } = inbox;
    const { ticketId } = await pendingTicket(server, tenant, connectionId);
    const ticket = await updateTicket(server.ctx, { system: true, companyId: tenant.companyId }, ticketId, {
      queueId: q1,
      chatbot: true,
    });
    expect(ticket).toMatchObject({ queueId: q1, status: 'pending', chatbot: true });
    expect(
      await countRows(
        server,
        'select count(*) as n from ticket_trackings where ticket_id = $1 and chatbot_at is not null',
        [ticketId],
      ),
    ).toBe(1);
  });
});

describe('kept list answers (list-answers.ts)', () => {
  type TRow = { id: number; lastMessage: string; contact: { name: string }; tags: { name: string }[] };
  const row = async (token: string, ticketId: number) => {
    const res = await get(token, '/api/tickets', { status: 'pending', showAll: true });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');

    return (res.body.tickets as TRow[]).find((t) => t.id === ticketId);
  };

  it('answers what every announced change made of the list: a new message, a renamed contact, a tag', async () => {
    const { tenant, connectionId } = await setupInbox(server, 'Kept lists');
    fake.connect(connectionId);
    const { ticketId, contact } = await pendingTicket(server, tenant, connectionId, { body: 'primeira' });
    expect((await row(tenant.token, ticketId))?.lastMessage).toBe('primeira');
    // the same list again is the kept answer
    expect(server.ctx.listAnswers.size()).toBeGreaterThan(0);
    expect((await row(tenant.token, ticketId))?.lastMessage).toBe('primeira');

    await deliver(server, inbound(connectionId, contact.number, { body: 'segunda' }));
    expect((await row(tenant.token, ticketId))?.lastMessage).toBe('segunda');

    const renamed = await server.request('PUT', `/api/contacts/${contact.id}`, {
      token: tenant.token,
      body: { name: 'Cliente Renomeado', number: contact.number },
    });
    expect(renamed.status).toBe(200);
    expect((await row(tenant.token, ticketId))?.contact.name).toBe('Cliente Renomeado');

    const tag = await server.request('POST', '/api/tags', {
      token: tenant.token,
      body: { name: 'vip', color: '#ff0000' },
    });
    expect(tag.status).toBe(201);
    const synced = await server.request('POST', '/api/tags/sync', {
      token: tenant.token,
      body: { ticketId, tags: [{ id: tag.body.id }] },
    });
    expect(synced.status).toBe(200);
    expect((await row(tenant.token, ticketId))?.tags.map((t) => t.name)).toEqual(['vip']);

    const recoloured = await server.request('PUT', `/api/tags/${tag.body.id}`, {
      token: tenant.token,
      body: { name: 'muito vip', color: '#00ff00' },
    });
    expect(recoloured.status).toBe(200);
    expect((await row(tenant.token, ticketId))?.tags.map((t) => t.name)).toEqual(['muito vip']);
  });

  it("keeps one company's answers when another company changes, and never hands them to another viewer", async () => {
    const one = await setupInbox(server, 'Kept one');
    const two = await setupInbox(server, 'Kept two');
    fake.connect(one.connectionId);
    fake.connect(two.connectionId);
    const { ticketId } = await pendingTicket(server, one.tenant, one.connectionId, { queueId: one.q1 });
    const first = await get(one.tenant.token, '/api/tickets', { status: 'pending', showAll: true });
    // a write nobody announces is not read while the kept answer stands...
    await server.database.executeSql("update tickets set last_message = 'sem aviso' where id = $1", [ticketId]);
    await pendingTicket(server, two.tenant, two.connectionId);
    const again = await get(one.tenant.token, '/api/tickets', { status: 'pending', showAll: true });
    expect(again.body).toEqual(first.body);
    // ...an agent of the queue runs another statement (its own visibility) and reads it
    const agentView = await get(one.agent1.token, '/api/tickets', { status: 'pending' });
    expect((agentView.body.tickets as TRow[]).find((t) => t.id === ticketId)?.lastMessage).toBe('sem aviso');
    // and the agent of the other queue does not see it at all
    const otherQueue = await get(one.agentQ2.token, '/api/tickets', { status: 'pending' });
    expect(ids(otherQueue)).not.toContain(ticketId);
  });
});
