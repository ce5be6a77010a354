import { rooms } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, addQueue, addTag, addTicket, insertTicket } from '../../../test/catalogue-fixtures';
import {
  createLoggedUser,
  createPlan,
  openSocket,
  recordEvents,
  type TTenant,
  unique,
  untilJoined,
} from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type TCard = { id: number; uuid: string; contact: { name: string }; tags: { id: number; kanban: number }[] };
type TLane = {
  lane: 'open' | number;
  tag: { id: number; name: string } | null;
  count: number;
  hasMore: boolean;
  tickets: TCard[];
};

const board = async (token: string, query: Record<string, unknown> = {}) => {
  const res = await server.request('GET', '/api/ticket/kanban', { token, query: { perLane: 50, ...query } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body.lanes as TLane[];
};
const laneIds = (lanes: TLane[], lane: 'open' | number) =>
  lanes.find((l) => l.lane === lane)?.tickets.map((t) => t.id) ?? [];

const tag = (ticketId: number, tagId: number) =>
  server.database.executeSql(
    'insert into ticket_tags (company_id, ticket_id, tag_id) select company_id, id, $2 from tickets where id = $1',
    [ticketId, tagId],
  );
/** spreads updated_at so the order is known: a higher `minutesAgo` is older */
const age = (ticketId: number, minutesAgo: number) =>
  server.database.executeSql(`update tickets set updated_at = now() - make_interval(mins => $2) where id = $1`, [
    ticketId,
    minutesAgo,
  ]);

describe('GET /api/ticket/kanban', () => {
  let tenant: TTenant;
  beforeAll(async () => {
    tenant = await server.createTenant();
  });

  it('answers the lanes: "open" first, then each kanban tag by name, with counts and cards', async () => {
    const t = await server.createTenant();
    const zeta = await addTag(server, t, { name: `Zeta ${unique()}`, kanban: 1, color: '#112233' });
    const alpha = await addTag(server, t, { name: `Alpha ${unique()}`, kanban: 1 });
    const plain = await addTag(server, t, { name: `Plain ${unique()}` });
    const untagged = await addTicket(server, t, { status: 'pending' });
    const plainOnly = await addTicket(server, t, { status: 'pending' });
    await tag(plainOnly.ticketId, plain.id);
    const inZeta = await addTicket(server, t, { status: 'pending' });
    await tag(inZeta.ticketId, zeta.id);
    await tag(inZeta.ticketId, plain.id);
    const inBoth = await addTicket(server, t, { status: 'pending' });
    await tag(inBoth.ticketId, zeta.id);
    await tag(inBoth.ticketId, alpha.id);
    const closed = await addTicket(server, t, { status: 'closed' });
    await tag(closed.ticketId, zeta.id);
    await age(untagged.ticketId, 1);
    await age(plainOnly.ticketId, 2);
    await age(inZeta.ticketId, 3);
    await age(inBoth.ticketId, 4);

    const lanes = await board(t.token, { showAll: true });
    expect(lanes.map((l) => l.lane)).toEqual(['open', alpha.id, zeta.id]);
    expect(lanes[0]).toMatchObject({ tag: null, count: 2, hasMore: false });
    expect(laneIds(lanes, 'open')).toEqual([untagged.ticketId, plainOnly.ticketId]);
    expect(laneIds(lanes, alpha.id)).toEqual([inBoth.ticketId]);
    expect(laneIds(lanes, zeta.id)).toEqual([inZeta.ticketId, inBoth.ticketId]);
    expect(lanes[2]).toMatchObject({ tag: { id: zeta.id, color: '#112233' }, count: 2, hasMore: false });
    const card = lanes[2].tickets[0];
    expect(card).toMatchObject({
      id: inZeta.ticketId,
      status: 'pending',
      lastMessage: '',
      contact: { id: inZeta.contactId, name: inZeta.contact.name, number: inZeta.contact.number },
      queue: null,
      user: null,
    });
    expect(card.tags.map((x) => [x.id, x.kanban]).sort()).toEqual(
      [
        [plain.id, 0],
        [zeta.id, 1],
      ].sort(),
    );
    expect(new Date((card as unknown as { updatedAt: string }).updatedAt).toISOString()).toBe(
      (card as unknown as { updatedAt: string }).updatedAt,
    );

    // the ancestor's call: every ticket once, with its tags
    const whole = await server.request('GET', '/api/ticket/kanban', {
      token: t.token,
      query: { queueIds: '[]', showAll: 'true' },
    });
    expect(whole.body).toMatchObject({ count: 4, hasMore: false });
    expect(whole.body.tickets.map((x: TCard) => x.id)).toEqual([
      untagged.ticketId,
      plainOnly.ticketId,
      inZeta.ticketId,
      inBoth.ticketId,
    ]);
  });

  it('the whole answer holds the very cards of the lanes, each ticket once, newest first', async () => {
    const t = await server.createTenant();
    const queue = await addQueue(server, t, { name: `Fila "Ção" ${unique()}` });
    const agent = await createLoggedUser(server, t, { queueIds: [queue.id] });
    const laneA = await addTag(server, t, { name: `Lane \\ "A" ${unique()}`, kanban: 1, color: '#123456' });
    const laneB = await addTag(server, t, { name: `Lane B ${unique()}`, kanban: 1 });
    // made last but named first: a card's tags come in name order, not in the order they were made
    const plain = await addTag(server, t, { name: `Atendimento ${unique()}` });
    const tickets = [
      await addTicket(server, t, { status: 'pending' }),
      await addTicket(server, t, { status: 'open', queueId: queue.id, userId: agent.id }),
      await addTicket(server, t, { status: 'pending', queueId: queue.id }),
      await addTicket(server, t, { status: 'open', userId: t.user.id }),
      await addTicket(server, t, { status: 'pending', queueId: queue.id }),
    ];
    const closed = await addTicket(server, t, { status: 'closed', queueId: queue.id });
    await tag(tickets[1].ticketId, laneA.id);
    await tag(tickets[2].ticketId, laneA.id);
    await tag(tickets[2].ticketId, laneB.id);
    await tag(tickets[2].ticketId, plain.id);
    await tag(tickets[3].ticketId, plain.id);
    await tag(closed.ticketId, laneA.id);
    // text that JSON must escape, in every string a card carries
    await server.database.executeSql(
      `update contacts set name = $2, profile_pic_url = 'https://pics.test/a b.jpg?x="1"' where id = $1`,
      [tickets[2].contactId, 'Zé "Aspas" \\ Barra\t😀'],
    );
    await server.database.executeSql('update tickets set last_message = $2, unread_messages = 3 where id = $1', [
      tickets[2].ticketId,
      'linha 1\nlinha "2" \u0001 fim',
    ]);
    // two tickets with the same updated_at: the higher id first
    for (const [i, x] of tickets.entries()) await age(x.ticketId, i === 4 ? 2 : 10 - i);
    await server.database.executeSql(
      'update tickets set updated_at = (select updated_at from tickets where id = $1) where id = $2',
      [tickets[3].ticketId, tickets[4].ticketId],
    );

    const compare = async (token: string, query: Record<string, string>) => {
      const lanes = await board(token, { ...query, perLane: 100 });
      const cards = new Map<number, TCard & { updatedAt: string }>();
      for (const lane of lanes)
        for (const card of lane.tickets) cards.set(card.id, card as TCard & { updatedAt: string });
      const expected = [...cards.values()].sort((a, b) =>
        a.updatedAt === b.updatedAt ? b.id - a.id : b.updatedAt.localeCompare(a.updatedAt),
      );
      const whole = await server.request('GET', '/api/ticket/kanban', { token, query });
      expect(whole.status).toBe(200);
      expect(whole.body).toEqual({ tickets: expected, count: expected.length, hasMore: false });

      return expected.map((x) => x.id);
    };
    const all = await compare(t.token, { showAll: 'true', queueIds: '[]' });
    expect([...all].sort((a, b) => a - b)).toEqual(tickets.map((x) => x.ticketId).sort((a, b) => a - b));
    expect(all.slice(0, 2)).toEqual([tickets[4].ticketId, tickets[3].ticketId].sort((a, b) => b - a));
    // an agent: their own and their queue's pending tickets, the same way
    expect((await compare(agent.token, {})).length).toBeGreaterThan(1);
  });

  it('pages each lane: the board gives the first cards and hasMore, `lane` the next pages', async () => {
    const t = await server.createTenant();
    const lane = await addTag(server, t, { kanban: 1 });
    const contact = await addContact(server, t);
    const ids: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      // one contact, several tickets: the board does not care about the one-active-ticket rule's connection
      const id = await insertTicket(server, t.companyId, (await addContact(server, t)).id, { status: 'pending' });
      await tag(id, lane.id);
      await age(id, i);
      ids.push(id);
    }
    const open = await insertTicket(server, t.companyId, contact.id, { status: 'pending' });
    const first = await board(t.token, { perLane: 3 });
    expect(first.find((l) => l.lane === lane.id)).toMatchObject({ count: 7, hasMore: true });
    expect(laneIds(first, lane.id)).toEqual(ids.slice(0, 3));
    expect(first[0]).toMatchObject({ lane: 'open', count: 1, hasMore: false });
    expect(laneIds(first, 'open')).toEqual([open]);

    const page = async (pageNumber: number) =>
      (
        await server.request('GET', '/api/ticket/kanban', {
          token: t.token,
          query: { lane: lane.id, pageNumber, limit: '3' },
        })
      ).body as TLane;
    expect(await page(2)).toMatchObject({ lane: lane.id, tag: { id: lane.id }, count: 7, hasMore: true });
    expect((await page(2)).tickets.map((c) => c.id)).toEqual(ids.slice(3, 6));
    expect(await page(3)).toMatchObject({ count: 7, hasMore: false, tickets: [{ id: ids[6] }] });
    expect(await page(4)).toMatchObject({ count: 7, hasMore: false, tickets: [] });
    const openLane = await server.request('GET', '/api/ticket/kanban', { token: t.token, query: { lane: 'open' } });
    expect(openLane.body).toMatchObject({ lane: 'open', tag: null, count: 1, tickets: [{ id: open }] });
  });

  it('refuses a lane that is not a kanban tag of the company (404) and bad paging (400)', async () => {
    const other = await server.createTenant();
    const foreign = await addTag(server, other, { kanban: 1 });
    const plain = await addTag(server, tenant);
    for (const lane of [foreign.id, plain.id, 2000000000]) {
      const res = await server.request('GET', '/api/ticket/kanban', { token: tenant.token, query: { lane } });
      expect(res, String(lane)).toMatchObject({ status: 404, body: { error: 'ERR_NO_TAG_FOUND' } });
    }
    const bad: Record<string, string | number>[] = [
      { lane: 'closed' },
      { perLane: 0 },
      { perLane: 101 },
      { lane: 'open', limit: 'x' },
    ];
    for (const query of bad) {
      const res = await server.request('GET', '/api/ticket/kanban', { token: tenant.token, query });
      expect(res, JSON.stringify(query)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    }
  });

  it('shows a user their own tickets and pending ones of their queues; showAll only for admins', async () => {
    const t = await server.createTenant();
    const q1 = await addQueue(server, t);
    const q2 = await addQueue(server, t);
    const agent = await createLoggedUser(server, t, { queueIds: [q1.id], allTicket: 'enabled' });
    const colleague = await createLoggedUser(server, t, { queueIds: [q1.id] });
    const mineOpen = await addTicket(server, t, { status: 'open', queueId: q1.id, userId: agent.id });
    const theirsOpen = await addTicket(server, t, { status: 'open', queueId: q1.id, userId: colleague.id });
    const pendingQ1 = await addTicket(server, t, { status: 'pending', queueId: q1.id });
    const pendingQ2 = await addTicket(server, t, { status: 'pending', queueId: q2.id });
    const adminsOpen = await addTicket(server, t, { status: 'open', queueId: q2.id, userId: t.user.id });
    const ids = (lanes: TLane[]) => laneIds(lanes, 'open').sort((a, b) => a - b);
    const sorted = (...list: { ticketId: number }[]) => list.map((x) => x.ticketId).sort((a, b) => a - b);

    // a user: own and pending of their queues, showAll ignored (even with allTicket), other queues refused
    const own = sorted(mineOpen, pendingQ1);
    expect(ids(await board(agent.token))).toEqual(own);
    expect(ids(await board(agent.token, { showAll: true, queueIds: `[${q1.id}]` }))).toEqual(own);
    expect(ids(await board(agent.token, { showAll: true, queueIds: `[${q2.id}]` }))).toEqual([]);
    // an admin: own and pending, or with showAll every ticket, kept to the queues asked for (and no queue)
    expect(ids(await board(t.token))).toEqual(sorted(pendingQ1, pendingQ2, adminsOpen));
    expect(ids(await board(t.token, { showAll: true }))).toEqual(
      sorted(mineOpen, theirsOpen, pendingQ1, pendingQ2, adminsOpen),
    );
    expect(ids(await board(t.token, { showAll: true, queueIds: JSON.stringify([q1.id]) }))).toEqual(
      sorted(mineOpen, theirsOpen, pendingQ1),
    );
    expect(
      (await server.request('GET', '/api/ticket/kanban', { token: agent.token, query: { queueIds: '[1' } })).status,
    ).toBe(400);
  });

  it('needs the plan flag useKanban, as /tags/kanban does (403)', async () => {
    const superUser = await server.superLogin();
    const t = await server.createTenant();
    const plan = await createPlan(server, superUser.token, { useKanban: false });
    expect(
      (
        await server.request('PUT', `/api/companies/${t.companyId}`, {
          token: superUser.token,
          body: { planId: plan.id },
        })
      ).status,
    ).toBe(200);
    for (const path of ['/api/ticket/kanban', '/api/tags/kanban']) {
      const res = await server.request('GET', path, { token: t.token });
      expect(res, path).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
    }
    // tags themselves are not a kanban feature
    expect((await server.request('GET', '/api/tags', { token: t.token })).status).toBe(200);
  });

  it('a move (DELETE then PUT /ticket-tags) keeps other tags, announces the ticket and shows on the board', async () => {
    const t = await server.createTenant();
    const lane1 = await addTag(server, t, { kanban: 1 });
    const lane2 = await addTag(server, t, { kanban: 1 });
    const plain = await addTag(server, t);
    const { ticketId } = await addTicket(server, t, { status: 'pending' });
    await tag(ticketId, plain.id);
    expect(laneIds(await board(t.token), 'open')).toEqual([ticketId]);
    const socket = await openSocket(server, t.token);
    const heard = recordEvents(socket);
    socket.emit('joinTickets', 'pending');
    try {
      await untilJoined(server, rooms.status(t.companyId, 'pending'));
      expect((await server.request('PUT', `/api/ticket-tags/${ticketId}/${lane1.id}`, { token: t.token })).status).toBe(
        200,
      );
      await heard.waitFor(
        `company-${t.companyId}-ticket`,
        (p) =>
          p.action === 'update' &&
          p.ticket.id === ticketId &&
          p.ticket.tags.some((x: { id: number }) => x.id === lane1.id),
      );
      // the kept board was forgotten by the announcement
      expect(laneIds(await board(t.token), lane1.id)).toEqual([ticketId]);
      expect(laneIds(await board(t.token), 'open')).toEqual([]);
      expect((await server.request('DELETE', `/api/ticket-tags/${ticketId}`, { token: t.token })).status).toBe(200);
      await server.request('PUT', `/api/ticket-tags/${ticketId}/${lane2.id}`, { token: t.token });
      const after = await board(t.token);
      expect(laneIds(after, lane1.id)).toEqual([]);
      expect(laneIds(after, lane2.id)).toEqual([ticketId]);
      expect(
        after
          .find((l) => l.lane === lane2.id)
          ?.tickets[0].tags.map((x) => x.id)
          .sort(),
      ).toEqual([lane2.id, plain.id].sort());
      // a tag renamed reaches the cards (tag events forget kept boards too)
      await server.request('PUT', `/api/tags/${lane2.id}`, { token: t.token, body: { name: 'Renamed lane' } });
      expect((await board(t.token)).find((l) => l.lane === lane2.id)?.tag?.name).toBe('Renamed lane');
    } finally {
      socket.close();
    }
  });
});
