import { type TTicketListQuery, ZTicketListQuery } from '@zelo/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeChannels } from '../../../test/channel-fake';
import { createLoggedUser, openSocket } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { deliver, inbound, insertContact, setupInbox } from '../../../test/inbox';
import type { TAuth } from '../../http/authenticate';
import { createListAnswers } from './list-answers';
import { listTickets } from './tickets.service';

/**
 * No kept list ever shows a stale ticket once its change was announced (list-answers.ts keeps an answer until a
 * change its scope admits). Agents and an admin hold sockets joined as the web app joins them, and lists as their
 * screens ask for them (open and pending of their queues, the admin's "all", a search). Through a ticket's whole
 * life (created, queued, messages, accepted, transferred, tagged, read, closed, reopened, its contact renamed,
 * deleted) every socket event makes its receiver read every one of its lists at once, through the server (kept
 * answers), and each answer must equal the same statement read afresh from the database (just before or just
 * after it, or differ only by a change announced since: the step's later commits go on meanwhile); after each step every
 * reader's lists are compared again, so the kept answers are the ones the next step can leave stale.
 */

let server: TTestServer;
let fake: ReturnType<typeof installFakeChannels>;
beforeAll(async () => {
  server = await startTestServer();
  fake = installFakeChannels(server);
});
afterAll(() => server.close());

type TReader = {
  name: string;
  token: string;
  auth: TAuth;
  lists: Record<string, string | number | boolean>[];
  socket?: Socket;
};

// ~20 s on a quiet machine; a loaded one (the browser tests beside this suite) has taken over 60 s
describe('kept ticket lists after announced changes', () => {
  it('every list read right after each event equals the database', async () => {
    const inbox = await setupInbox(server, 'Stale');
    const { tenant, connectionId, q1, q2 } = inbox;
    fake.connect(connectionId);
    const both = await createLoggedUser(server, tenant, { name: 'Agent Both', queueIds: [q1, q2] });
    const companyId = tenant.companyId;
    const authOf = (userId: number, isAdmin: boolean): TAuth =>
      ({ userId, companyId, isAdmin, company: { timezone: 'America/Sao_Paulo' } }) as TAuth;
    const agentLists = (queueIds: number[]): TReader['lists'] => [
      { status: 'open', queueIds: JSON.stringify(queueIds) },
      { status: 'pending', queueIds: JSON.stringify(queueIds) },
      { status: 'open', queueIds: JSON.stringify(queueIds), searchParam: 'hello' },
    ];
    const readers: TReader[] = [
      {
        name: 'admin',
        token: tenant.token,
        auth: authOf(tenant.user.id, true),
        lists: [
          { status: 'open', showAll: true },
          { status: 'pending', showAll: true },
          { status: 'open' },
          { status: 'closed', showAll: true },
          { showAll: true, searchParam: 'hello' },
          { status: 'open', showAll: true, queueIds: JSON.stringify([q2]) },
        ],
      },
      { name: 'agent1', token: inbox.agent1.token, auth: authOf(inbox.agent1.id, false), lists: agentLists([q1]) },
      { name: 'agent2', token: inbox.agent2.token, auth: authOf(inbox.agent2.id, false), lists: agentLists([q1]) },
      { name: 'agentQ2', token: inbox.agentQ2.token, auth: authOf(inbox.agentQ2.id, false), lists: agentLists([q2]) },
      { name: 'both', token: both.token, auth: authOf(both.id, false), lists: agentLists([q1, q2]) },
    ];
    // the same statement with nothing kept
    const fresh = { ...server.ctx, listAnswers: createListAnswers({ enabled: false }) };
    const mismatches: string[] = [];
    let compared = 0;
    const inFlight = new Set<Promise<void>>();
    let lastEvent = Date.now();
    let step = 'setup';

    // every announcement the server makes (what makes kept answers stale), timed
    const announcedAt: number[] = [];
    const listAnswers = server.ctx.listAnswers as { changed: typeof server.ctx.listAnswers.changed };
    const changed = listAnswers.changed;
    listAnswers.changed = (companyId, change) => {
      announcedAt.push(performance.now());
      changed(companyId, change);
    };
    /**
     * The kept answer must show the database as it is once every change committed so far was announced. The
     * step's later writes go on meanwhile (on PostgreSQL from other pool connections), and a write is announced
     * just after its commit, so the database is read just before and just after the kept answer: equal to either,
     * the answer is current. Equal to neither, it is stale unless a change was announced since the kept read
     * began (then the difference is that change, committed and not yet announced when the answer was read).
     */
    const compare = async (reader: TReader, why: string) => {
      for (const list of reader.lists) {
        const query: TTicketListQuery = ZTicketListQuery.parse({ pageNumber: 1, ...list });
        const database = async () =>
          JSON.stringify(JSON.parse((await listTickets(fresh, reader.auth, query)).toString()));
        const before = await database();
        const asked = performance.now();
        const kept = await server.request('GET', '/api/tickets', { token: reader.token, query: list });
        const after = await database();
        compared++;
        const answer = JSON.stringify(kept.body);
        if (kept.status === 200 && (answer === before || answer === after)) continue;
        // a commit is announced within milliseconds
        await new Promise((r) => setTimeout(r, 250));
        if (kept.status === 200 && announcedAt.some((at) => at > asked)) continue;
        mismatches.push(
          `${step} / ${why}: ${reader.name} ${JSON.stringify(list)} kept ${answer} database before ${before} after ${after}`,
        );
      }
    };
    const track = (work: Promise<void>) => {
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    };
    // every reader's lists, once no event has arrived for a while and the reads they started are done
    const settle = async () => {
      while (Date.now() - lastEvent < 150 || inFlight.size > 0) {
        await Promise.all([...inFlight]);
        await new Promise((r) => setTimeout(r, 30));
      }
      for (const reader of readers) await compare(reader, 'after the step');
    };

    for (const reader of readers) {
      const socket = await openSocket(server, reader.token);
      socket.emit('joinNotification');
      socket.emit('joinTickets', 'open');
      socket.emit('joinTickets', 'pending');
      socket.onAny((event: string) => {
        if (!event.endsWith('-ticket') && !event.endsWith('-appMessage') && !event.endsWith('-contact')) return;
        lastEvent = Date.now();
        // read at once, as a screen does when it hears of a change
        track(compare(reader, `right after ${event}`));
      });
      reader.socket = socket;
    }
    await new Promise((r) => setTimeout(r, 200));
    try {
      const put = async (token: string, id: number, body: Record<string, unknown>) => {
        const res = await server.request('PUT', `/api/tickets/${id}`, { token, body });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      };
      // a ticket already waiting in queue 1, so the pending lists are not empty
      const other = await insertContact(server, companyId, { name: 'Waiting customer' });
      step = 'another customer writes';
      const waiting = await deliver(server, inbound(connectionId, other.number, { body: 'hello there' }));
      await settle();
      step = 'the waiting ticket goes to queue 1';
      await put(tenant.token, waiting!.ticket.id, { queueId: q1 });
      await settle();
      for (const reader of readers) await compare(reader, 'warm');

      const contact = await insertContact(server, companyId, { name: 'Busy customer' });
      step = 'a new customer writes';
      const first = await deliver(server, inbound(connectionId, contact.number, { body: 'hello, my order' }));
      const ticketId = first!.ticket.id;
      await settle();
      step = 'queued in queue 1';
      await put(tenant.token, ticketId, { queueId: q1 });
      await settle();
      step = 'writes again while pending';
      await deliver(server, inbound(connectionId, contact.number, { body: 'anyone?' }));
      await settle();
      step = 'agent1 accepts';
      await put(inbox.agent1.token, ticketId, { status: 'open', userId: inbox.agent1.id });
      await settle();
      step = 'writes while open';
      await deliver(server, inbound(connectionId, contact.number, { body: 'thanks' }));
      await settle();
      step = 'agent1 answers';
      const sent = await server.request('POST', `/api/messages/${ticketId}`, {
        token: inbox.agent1.token,
        body: { body: 'hello, looking into it' },
      });
      expect(sent.status).toBeLessThan(300);
      await settle();
      step = 'transferred to queue 2, waiting';
      await put(inbox.agent1.token, ticketId, { queueId: q2, userId: null, status: 'pending' });
      await settle();
      step = 'agentQ2 accepts';
      await put(inbox.agentQ2.token, ticketId, { status: 'open', userId: inbox.agentQ2.id });
      await settle();
      step = 'handed to agent2 in queue 1';
      await put(tenant.token, ticketId, { queueId: q1, userId: inbox.agent2.id, status: 'open' });
      await settle();
      step = 'handed to the agent of both queues, same queue';
      await put(tenant.token, ticketId, { userId: both.id });
      await settle();
      step = 'tagged';
      const tag = await server.request('POST', '/api/tags', { token: tenant.token, body: { name: 'Stale tag' } });
      await server.request('PUT', `/api/ticket-tags/${ticketId}/${tag.body.id}`, { token: tenant.token });
      await settle();
      step = 'writes, then read by its attendant';
      await deliver(server, inbound(connectionId, contact.number, { body: 'are you there' }));
      await settle();
      expect((await server.request('GET', `/api/messages/${ticketId}`, { token: both.token })).status).toBe(200);
      await settle();
      step = 'closed';
      await put(both.token, ticketId, { status: 'closed' });
      await settle();
      step = 'writes after the close';
      await deliver(server, inbound(connectionId, contact.number, { body: 'hello again' }));
      await settle();
      step = 'the contact renamed';
      const renamed = await server.request('PUT', `/api/contacts/${contact.id}`, {
        token: tenant.token,
        body: { name: 'Renamed customer', number: contact.number },
      });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      await settle();
      step = 'the waiting ticket deleted';
      const deleted = await server.request('DELETE', `/api/tickets/${waiting!.ticket.id}`, { token: tenant.token });
      expect(deleted.status).toBe(204);
      await settle();
    } finally {
      for (const reader of readers) reader.socket?.disconnect();
    }
    expect(mismatches).toEqual([]);
    // the reads happened: every step, every reader, every list, on events and after each step
    expect(compared).toBeGreaterThan(500);
    // and the kept answers were used (the lists were read again and again)
    expect(server.ctx.listAnswers.size()).toBeGreaterThan(0);
  }, 180_000);
});

/**
 * A customer's message patches the kept first pages that may show its ticket (list-patch.ts) instead of reading
 * them again. After each change below, every list is read at the very moment its announcement is made (before
 * the patch's read of the row is done, as a screen that hears of it at once), and again once the step is over;
 * both must equal the same statement read from the database, with nothing else writing meanwhile. The agent's open
 * list has a second page, so a message can bring a ticket from it onto the first.
 */
describe('kept ticket lists patched by row changes', () => {
  it('every list read as a change is announced equals the database, the patched ones included', async () => {
    const inbox = await setupInbox(server, 'Patched');
    const { tenant, connectionId, q1, q2, agent1, agentQ2 } = inbox;
    fake.connect(connectionId);
    const companyId = tenant.companyId;
    const authOf = (userId: number, isAdmin: boolean): TAuth =>
      ({ userId, companyId, isAdmin, company: { timezone: 'America/Sao_Paulo' } }) as TAuth;
    const q = (fields: Record<string, unknown>) => ZTicketListQuery.parse({ pageNumber: 1, ...fields });
    const agentLists = (queueIds: number[]) => [
      q({ status: 'open', queueIds: JSON.stringify(queueIds) }),
      q({ status: 'pending', queueIds: JSON.stringify(queueIds) }),
    ];
    const readers = [
      {
        name: 'agent1',
        token: agent1.token,
        auth: authOf(agent1.id, false),
        lists: [
          ...agentLists([q1]),
          q({ status: 'open', queueIds: JSON.stringify([q1]), pageNumber: 2 }),
          q({ status: 'open', queueIds: JSON.stringify([q1]), withUnreadMessages: true }),
          q({ status: 'open', queueIds: JSON.stringify([q1]), searchParam: 'hello' }),
        ],
      },
      { name: 'agent2', token: inbox.agent2.token, auth: authOf(inbox.agent2.id, false), lists: agentLists([q1]) },
      { name: 'agentQ2', token: agentQ2.token, auth: authOf(agentQ2.id, false), lists: agentLists([q2]) },
      {
        name: 'admin',
        token: tenant.token,
        auth: authOf(tenant.user.id, true),
        lists: [q({ status: 'open', showAll: true }), q({ status: 'pending', showAll: true }), q({ status: 'open' })],
      },
    ];
    const fresh = { ...server.ctx, listAnswers: createListAnswers({ enabled: false }) };
    const database = async (auth: TAuth, query: TTicketListQuery) =>
      JSON.parse((await listTickets(fresh, auth, query)).toString());
    const kept = async (auth: TAuth, query: TTicketListQuery) =>
      JSON.parse((await listTickets(server.ctx, auth, query)).toString());

    // tickets as a busy day leaves them: agent1 attends 45 in queue 1 (a second page), agentQ2 3 in queue 2,
    // 4 wait in each queue; their times a minute apart, written straight to the database before any list is kept
    const made: { id: number; number: string }[] = [];
    const ticketOf = async (place: { status: string; queueId: number; userId: number | null }) => {
      const contact = await insertContact(server, companyId);
      const stored = await deliver(server, inbound(connectionId, contact.number, { body: 'hello' }));
      const id = stored!.ticket.id;
      await server.database.executeSql(
        `update tickets set status = $2, queue_id = $3, user_id = $4,
           updated_at = now() - interval '1 minute' * (1000 - $5::int) where id = $1`,
        [id, place.status, place.queueId, place.userId, made.length],
      );
      made.push({ id, number: contact.number });
      return made[made.length - 1]!;
    };
    const own: { id: number; number: string }[] = [];
    for (let i = 0; i < 45; i++) own.push(await ticketOf({ status: 'open', queueId: q1, userId: agent1.id }));
    const waitingQ1: { id: number; number: string }[] = [];
    for (let i = 0; i < 4; i++) waitingQ1.push(await ticketOf({ status: 'pending', queueId: q1, userId: null }));
    const ownQ2: { id: number; number: string }[] = [];
    for (let i = 0; i < 3; i++) ownQ2.push(await ticketOf({ status: 'open', queueId: q2, userId: agentQ2.id }));
    for (let i = 0; i < 4; i++) await ticketOf({ status: 'pending', queueId: q2, userId: null });

    // every list read at the moment each change is announced (through the kept answers)
    let onAnnounce: Promise<unknown[]>[] = [];
    const listAnswers = server.ctx.listAnswers as { changed: typeof server.ctx.listAnswers.changed };
    const changed = listAnswers.changed;
    listAnswers.changed = (id, change) => {
      changed(id, change);
      if (id !== companyId) return;
      for (const reader of readers) onAnnounce.push(Promise.all(reader.lists.map((list) => kept(reader.auth, list))));
    };
    const mismatches: string[] = [];
    const compare = async (step: string) => {
      const atAnnouncement = await Promise.all(onAnnounce);
      onAnnounce = [];
      for (const reader of readers) {
        for (const [i, list] of reader.lists.entries()) {
          const expected = await database(reader.auth, list);
          const after = await kept(reader.auth, list);
          const what = `${step}: ${reader.name} ${JSON.stringify(list)}`;
          if (JSON.stringify(after) !== JSON.stringify(expected)) mismatches.push(`${what} after the step`);
          // the reads made as the step's last change was announced
          const last = atAnnouncement[atAnnouncement.length - readers.length + readers.indexOf(reader)];
          if (last && JSON.stringify(last[i]) !== JSON.stringify(expected)) mismatches.push(`${what} as announced`);
        }
      }
    };
    const warm = async () => {
      for (const reader of readers) for (const list of reader.lists) await kept(reader.auth, list);
    };
    const writes = async (customer: { number: string }, body: string) => {
      await deliver(server, inbound(connectionId, customer.number, { body }));
    };
    const put = async (token: string, id: number, body: Record<string, unknown>) => {
      const res = await server.request('PUT', `/api/tickets/${id}`, { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };

    await warm();
    await compare('warm');
    const patchedBefore = server.ctx.listAnswers.counts().patched;
    const steps: [string, () => Promise<unknown>][] = [
      ['a message on an own ticket of the first page', () => writes(own[40]!, 'on the first page')],
      ['a message on an own ticket of the second page', () => writes(own[2]!, 'from the second page')],
      ['another from the second page', () => writes(own[0]!, 'from the second page too')],
      ['a message on the own ticket already first', () => writes(own[0]!, 'again')],
      ['a message on a ticket waiting in queue 1', () => writes(waitingQ1[1]!, 'waiting')],
      ['a message on a ticket of queue 2', () => writes(ownQ2[0]!, 'other queue')],
      [
        'read by its attendant (unread reset)',
        () => server.request('GET', `/api/messages/${own[0]!.id}`, { token: agent1.token }),
      ],
      ['accepted by agent1', () => put(agent1.token, waitingQ1[0]!.id, { status: 'open', userId: agent1.id })],
      ['a message on the ticket just accepted', () => writes(waitingQ1[0]!, 'accepted')],
      [
        'transferred to queue 2, waiting',
        () => put(agent1.token, own[30]!.id, { queueId: q2, userId: null, status: 'pending' }),
      ],
      ['a message on the ticket transferred', () => writes(own[30]!, 'transferred')],
      [
        'agent1 answers',
        async () => {
          const sent = await server.request('POST', `/api/messages/${own[35]!.id}`, {
            token: agent1.token,
            body: { body: 'hello, looking into it' },
          });
          expect(sent.status).toBeLessThan(300);
          // the send's receipt comes later
          await new Promise((r) => setTimeout(r, 300));
        },
      ],
      ['closed', () => put(agent1.token, own[20]!.id, { status: 'closed' })],
    ];
    for (const [step, work] of steps) {
      await work();
      await compare(step);
      await warm();
    }
    expect(mismatches).toEqual([]);
    // the messages were patched into the kept pages, not read again
    expect(server.ctx.listAnswers.counts().patched - patchedBefore).toBeGreaterThan(20);
  }, 180_000);
});
