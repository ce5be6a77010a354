import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeChannels } from '../../../test/channel-fake';
import { rooms } from '@zelo/shared';
import { openSocket, recordEvents, untilJoined } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { deliver, inbound, pendingTicket, randomNumber, setupInbox } from '../../../test/inbox';

let server: TTestServer;
let fake: ReturnType<typeof installFakeChannels>;
beforeAll(async () => {
  server = await startTestServer();
  fake = installFakeChannels(server);
});
afterAll(() => server.close());

const joined = async (token: string, joins: [string, unknown?][]) => {
  const socket = await openSocket(server, token);
  const events = recordEvents(socket);
  for (const [event, arg] of joins) socket.emit(event, arg);
  // joins are asynchronous on the server: a round trip through a later event settles them
  await new Promise((r) => setTimeout(r, 150));

  return { socket, events };
};

describe('ticket and message events reach only the allowed sockets', () => {
  it('cross-tenant and queue rules, the ticket room, and the delete to rooms left', async () => {
    const a = await setupInbox(server, 'Alpha');
    const b = await setupInbox(server, 'Beta');
    fake.connect(a.connectionId);
    fake.connect(b.connectionId);
    const all = () =>
      [['joinNotification'], ['joinTickets', 'pending'], ['joinTickets', 'open']] as [string, unknown?][];
    const aAdmin = await joined(a.tenant.token, all());
    const aAgent1 = await joined(a.agent1.token, all());
    const aAgentQ2 = await joined(a.agentQ2.token, all());
    const bAdmin = await joined(b.tenant.token, all());
    // B's user tries to join A's rooms by ticket id
    const sockets = [aAdmin, aAgent1, aAgentQ2, bAdmin];
    try {
      const { ticketId, contact } = await pendingTicket(server, a.tenant, a.connectionId, { queueId: a.q1 });
      bAdmin.socket.emit('joinChatBox', ticketId);
      aAgentQ2.socket.emit('joinChatBox', ticketId);
      await new Promise((r) => setTimeout(r, 150));
      await deliver(server, inbound(a.connectionId, contact.number, { body: 'second' }));
      const ticketEvent = `company-${a.tenant.companyId}-ticket`;
      const messageEvent = `company-${a.tenant.companyId}-appMessage`;
      await aAdmin.events.waitFor(messageEvent, (p) => p.message.body === 'second');
      await aAgent1.events.waitFor(messageEvent, (p) => p.message.body === 'second');
      // accept: the update reaches the admin and the agent; the other queue's agent hears nothing
      await server.request('PUT', `/api/tickets/${ticketId}`, { token: a.agent1.token, body: { status: 'open' } });
      await aAdmin.events.waitFor(ticketEvent, (p) => p.action === 'update' && p.ticket.status === 'open');
      await aAgent1.events.waitFor(ticketEvent, (p) => p.action === 'update' && p.ticket.status === 'open');
      // transfer to queue 2: agentQ2 now hears it, agent1 gets the delete of the rooms it left
      await server.request('PUT', `/api/tickets/${ticketId}`, {
        token: a.agent1.token,
        body: { queueId: a.q2, userId: null, status: 'pending' },
      });
      await aAgentQ2.events.waitFor(ticketEvent, (p) => p.action === 'update' && p.ticket.queueId === a.q2);
      await aAgent1.events.waitFor(ticketEvent, (p) => p.action === 'delete' && p.ticketId === ticketId);
      // B's own event proves B's socket is live, and it heard nothing of A
      await deliver(server, inbound(b.connectionId, randomNumber(), { body: 'beta' }));
      await bAdmin.events.waitFor(`company-${b.tenant.companyId}-appMessage`);
      expect(bAdmin.events.heard.filter((h) => h.event.startsWith(`company-${a.tenant.companyId}-`))).toEqual([]);
      expect(JSON.stringify(bAdmin.events.heard)).not.toContain(contact.number);
      // before the transfer agentQ2 heard nothing of the queue-1 ticket
      const q2Heard = aAgentQ2.events.heard.filter((h) => JSON.stringify(h.payload).includes(contact.number));
      expect(q2Heard.every((h) => (h.payload as { ticket?: { queueId: number } }).ticket?.queueId === a.q2)).toBe(true);
      expect(
        aAgentQ2.events.heard.some(
          (h) => h.event === messageEvent && (h.payload as { message: { body: string } }).message.body === 'second',
        ),
      ).toBe(false);
    } finally {
      for (const s of sockets) s.socket.disconnect();
    }
  });
});

describe('a move: delete to every socket in the rooms left, then the update', () => {
  /** the `company-{id}-ticket` events a socket heard about one ticket, in order */
  const movesOf = (heard: { event: string; payload: unknown }[], event: string, ticketId: number) =>
    heard
      .filter((h) => h.event === event)
      .map(
        (h) =>
          h.payload as { action: string; ticketId?: number; moved?: boolean; ticket?: { id: number; status: string } },
      )
      .filter((p) => (p.ticketId ?? p.ticket?.id) === ticketId)
      .map((p) =>
        p.action === 'delete' ? `delete${p.moved ? ' moved' : ''}` : `${p.action} ${p.ticket?.status ?? ''}`.trim(),
      );

  it('a socket in both the old and the new rooms hears the delete, then the update (accept, transfer, return)', async () => {
    const a = await setupInbox(server, 'Moves');
    fake.connect(a.connectionId);
    const event = `company-${a.tenant.companyId}-ticket`;
    // one socket for every list, as the ancestor's client has: the admin's and the queue agent's
    const every = [['joinNotification'], ['joinTickets', 'pending'], ['joinTickets', 'open']] as [string, unknown?][];
    const admin = await joined(a.tenant.token, every);
    const agent = await joined(a.agent1.token, every);
    try {
      const { ticketId } = await pendingTicket(server, a.tenant, a.connectionId, { queueId: a.q1 });
      const put = (token: string, body: Record<string, unknown>) =>
        server.request('PUT', `/api/tickets/${ticketId}`, { token, body });
      // accept
      expect((await put(a.agent1.token, { status: 'open', userId: a.agent1.id })).status).toBe(200);
      for (const s of [admin, agent])
        await s.events.waitFor(event, (p) => p.action === 'update' && p.ticket.status === 'open');
      for (const s of [admin, agent])
        expect(movesOf(s.events.heard, event, ticketId).slice(-2)).toEqual(['delete moved', 'update open']);
      // return to waiting
      expect((await put(a.agent1.token, { status: 'pending', userId: null })).status).toBe(200);
      for (const s of [admin, agent])
        await s.events.waitFor(event, (p) => p.action === 'update' && p.ticket.status === 'pending');
      for (const s of [admin, agent])
        expect(movesOf(s.events.heard, event, ticketId).slice(-2)).toEqual(['delete moved', 'update pending']);
      // accept again, then transfer to another attendant of the same queue
      await put(a.agent1.token, { status: 'open', userId: a.agent1.id });
      await agent.events.waitFor(
        event,
        (p) => p.action === 'update' && p.ticket.userId === a.agent1.id && p.ticket.status === 'open',
      );
      await admin.events.waitFor(
        event,
        (p) => p.action === 'update' && p.ticket.userId === a.agent1.id && p.ticket.status === 'open',
      );
      expect((await put(a.agent1.token, { userId: a.agent2.id, status: 'open' })).status).toBe(200);
      await admin.events.waitFor(event, (p) => p.action === 'update' && p.ticket.userId === a.agent2.id);
      // the admin's rooms all still hold it: an update in place, no delete
      expect(movesOf(admin.events.heard, event, ticketId).slice(-3)).toEqual([
        'delete moved',
        'update open',
        'update open',
      ]);
      // agent1 left the ticket's user room: the delete reaches it; the queue's open room still shows it the update
      await agent.events.waitFor(event, (p) => p.action === 'update' && p.ticket.userId === a.agent2.id);
      expect(movesOf(agent.events.heard, event, ticketId).slice(-2)).toEqual(['delete moved', 'update open']);
      // a real delete carries no `moved`
      expect((await server.request('DELETE', `/api/tickets/${ticketId}`, { token: a.tenant.token })).status).toBe(204);
      const gone = await admin.events.waitFor(event, (p) => p.action === 'delete' && !p.moved);
      expect(gone).toEqual({ action: 'delete', ticketId });
    } finally {
      admin.socket.disconnect();
      agent.socket.disconnect();
    }
  });
});

describe('leaveTickets', () => {
  /** the rooms the server holds the socket in */
  const roomsOf = async (socketId: string | undefined) => {
    const found = (await server.ctx.realtime.io.fetchSockets()).find((s) => s.id === socketId);
    if (!found) throw new Error('socket not found on the server');

    return [...found.rooms].filter((r) => r !== socketId).sort();
  };

  it("takes a non-admin out of that status's queue rooms, and only those", async () => {
    const a = await setupInbox(server, 'Leave');
    fake.connect(a.connectionId);
    const companyId = a.tenant.companyId;
    const pending = await pendingTicket(server, a.tenant, a.connectionId, { queueId: a.q1 });
    const open = await pendingTicket(server, a.tenant, a.connectionId, { queueId: a.q1 });
    // open in queue 1 with another attendant: agent1 hears it only through its queue's open room
    await server.database.executeSql("update tickets set status = 'open', user_id = $1 where id = $2", [
      a.agent2.id,
      open.ticketId,
    ]);
    const socket = await openSocket(server, a.agent1.token);
    const events = recordEvents(socket);
    try {
      socket.emit('joinTickets', 'pending');
      socket.emit('joinTickets', 'open');
      await untilJoined(server, rooms.queueStatus(companyId, a.q1, 'pending'));
      await untilJoined(server, rooms.queueStatus(companyId, a.q1, 'open'));
      const before = await roomsOf(socket.id);
      expect(before).toContain(rooms.queueStatus(companyId, a.q1, 'pending'));
      const messageEvent = `company-${companyId}-appMessage`;
      const heard = (body: string) => events.waitFor(messageEvent, (p) => p.message.body === body);
      await deliver(server, inbound(a.connectionId, pending.contact.number, { body: 'pending 1' }));
      await deliver(server, inbound(a.connectionId, open.contact.number, { body: 'open 1' }));
      await heard('pending 1');
      await heard('open 1');

      socket.emit('leaveTickets', 'pending');
      // a join and its leave sent at once: the leave waits for the join
      socket.emit('joinTickets', 'closed');
      socket.emit('leaveTickets', 'closed');
      // joins and leaves run in order: once a later join is done, so are the leaves before it
      socket.emit('joinChatBox', open.ticketId);
      await untilJoined(server, rooms.ticket(companyId, open.ticketId));
      expect(await roomsOf(socket.id)).toEqual(
        [...before.filter((r) => !r.endsWith('-pending')), rooms.ticket(companyId, open.ticketId)].sort(),
      );
      // the pending ticket is silent now; the open one (sent after it) still arrives, and so do the base rooms
      await deliver(server, inbound(a.connectionId, pending.contact.number, { body: 'pending 2' }));
      await deliver(server, inbound(a.connectionId, open.contact.number, { body: 'open 2' }));
      await heard('open 2');
      expect(events.heard.some((h) => JSON.stringify(h.payload).includes('pending 2'))).toBe(false);
      server.ctx.realtime.toUser(companyId, a.agent1.id, 'probe', { n: 1 });
      server.ctx.realtime.toCompany(companyId, 'probe', { n: 2 });
      await events.waitFor('probe', (p) => p.n === 1);
      await events.waitFor('probe', (p) => p.n === 2);
    } finally {
      socket.disconnect();
    }
  });
});
