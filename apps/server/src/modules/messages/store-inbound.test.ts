import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeChannels } from '../../../test/channel-fake';
import { countRows } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { deliver, inbound, randomNumber, setSetting, setupInbox } from '../../../test/inbox';
import { findTicketAwaitingRating } from '../tickets/ticket-lifecycle';

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

const count = (sql: string, values: unknown[]) => countRows(server, sql, values);

describe('storeInboundMessage', () => {
  it('makes the contact, a pending ticket with a tracking row, and the message; unread and lastMessage follow', async () => {
    const number = randomNumber();
    const first = await deliver(server, inbound(inbox.connectionId, number, { pushName: 'Ana Lima', body: 'oi' }));
    expect(first).toMatchObject({ created: true, ticketCreated: true });
    expect(first!.ticket.status).toBe('pending');
    await deliver(server, inbound(inbox.connectionId, number, { body: 'alguém?' }));
    const ticket = await server.request('GET', `/api/tickets/${first!.ticket.id}`, { token: inbox.tenant.token });
    expect(ticket.body).toMatchObject({
      unreadMessages: 2,
      lastMessage: 'alguém?',
      contact: { name: 'Ana Lima', number },
    });
    expect(
      await count('select count(*) as n from ticket_trackings where ticket_id = $1 and queued_at is not null', [
        first!.ticket.id,
      ]),
    ).toBe(1);
  });

  it('stores a replayed delivery once', async () => {
    const number = randomNumber();
    const message = inbound(inbox.connectionId, number);
    const a = await deliver(server, message);
    const b = await deliver(server, { ...message, body: 'changed' });
    const c = await Promise.all([deliver(server, message), deliver(server, message)]);
    expect(a!.created).toBe(true);
    expect(b!.created).toBe(false);
    expect(c.every((x) => x!.created === false)).toBe(true);
    expect(await count('select count(*) as n from messages where external_id = $1', [message.externalId])).toBe(1);
    const ticket = await server.request('GET', `/api/tickets/${a!.ticket.id}`, { token: inbox.tenant.token });
    expect(ticket.body.unreadMessages).toBe(1);
  });

  it('50 simultaneous messages of a new contact: 1 contact, 1 ticket, 50 messages', async () => {
    const number = randomNumber();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        deliver(server, inbound(inbox.connectionId, number, { body: `burst ${i}` })),
      ),
    );
    expect(results.every((r) => r?.created)).toBe(true);
    const companyId = inbox.tenant.companyId;
    expect(
      await count('select count(*) as n from contacts where company_id = $1 and number = $2', [companyId, number]),
    ).toBe(1);
    expect(
      await count(
        'select count(*) as n from tickets t join contacts c on c.id = t.contact_id where c.company_id = $1 and c.number = $2',
        [companyId, number],
      ),
    ).toBe(1);
    expect(
      await count(
        'select count(*) as n from messages m join contacts c on c.id = m.contact_id where c.company_id = $1 and c.number = $2',
        [companyId, number],
      ),
    ).toBe(50);
    const ticket = await server.request('GET', `/api/tickets/${results[0]!.ticket.id}`, { token: inbox.tenant.token });
    expect(ticket.body.unreadMessages).toBe(50);
  });

  it('drops a message for an unknown connection', async () => {
    expect(await deliver(server, inbound(2_000_000_000, randomNumber()))).toBeNull();
  });

  it('reopens a closed ticket inside the reopen window as pending, else starts a new ticket', async () => {
    const { tenant, connectionId, q1, agent1 } = await setupInbox(server, 'Reopen');
    fake.connect(connectionId);
    const number = randomNumber();
    const close = async (ticketId: number) => {
      await server.database.executeSql('update tickets set queue_id = $1 where id = $2', [q1, ticketId]);
      await server.request('PUT', `/api/tickets/${ticketId}`, { token: agent1.token, body: { status: 'open' } });
      const res = await server.request('PUT', `/api/tickets/${ticketId}`, {
        token: agent1.token,
        body: { status: 'closed' },
      });
      expect(res.body.status).toBe('closed');
    };
    const first = await deliver(server, inbound(connectionId, number));
    await close(first!.ticket.id);
    // window 0: a new ticket
    const second = await deliver(server, inbound(connectionId, number));
    expect(second!.ticket.id).not.toBe(first!.ticket.id);
    expect(second!.ticketCreated).toBe(true);
    await close(second!.ticket.id);
    await setSetting(server, tenant, 'reopenWindowMinutes', '30');
    const third = await deliver(server, inbound(connectionId, number));
    expect(third).toMatchObject({ ticketReopened: true, ticketCreated: false });
    expect(third!.ticket).toMatchObject({ id: second!.ticket.id, status: 'pending', userId: null });
    expect(await count('select count(*) as n from ticket_trackings where ticket_id = $1', [second!.ticket.id])).toBe(2);
    // outside the window: new
    await close(third!.ticket.id);
    await server.database.executeSql("update tickets set closed_at = now() - interval '31 minutes' where id = $1", [
      third!.ticket.id,
    ]);
    const fourth = await deliver(server, inbound(connectionId, number));
    expect(fourth!.ticketCreated).toBe(true);
  });

  it('finds the closed ticket that waits for a rating', async () => {
    const { tenant, connectionId, q1, agent1 } = await setupInbox(server, 'Rating');
    fake.connect(connectionId);
    await setSetting(server, tenant, 'userRating', 'enabled');
    const number = randomNumber();
    const first = await deliver(server, inbound(connectionId, number));
    await server.database.executeSql('update tickets set queue_id = $1 where id = $2', [q1, first!.ticket.id]);
    await server.request('PUT', `/api/tickets/${first!.ticket.id}`, { token: agent1.token, body: { status: 'open' } });
    await server.request('PUT', `/api/tickets/${first!.ticket.id}`, {
      token: agent1.token,
      body: { status: 'closed' },
    });
    const waiting = await findTicketAwaitingRating(server.ctx.db, {
      companyId: tenant.companyId,
      connectionId,
      number,
    });
    expect(waiting?.ticket.id).toBe(first!.ticket.id);
    // another number waits for nothing
    expect(
      await findTicketAwaitingRating(server.ctx.db, {
        companyId: tenant.companyId,
        connectionId,
        number: randomNumber(),
      }),
    ).toBeNull();
  });

  it('reconciles the echo of our own send instead of storing it twice', async () => {
    const { ticketId } = await (async () => {
      const number = randomNumber();
      const m = await deliver(server, inbound(inbox.connectionId, number));
      await server.database.executeSql('update tickets set queue_id = $1 where id = $2', [inbox.q1, m!.ticket.id]);
      await server.request('PUT', `/api/tickets/${m!.ticket.id}`, {
        token: inbox.agent1.token,
        body: { status: 'open' },
      });
      return { ticketId: m!.ticket.id, number };
    })();
    const sent = await server.request('POST', `/api/messages/${ticketId}`, {
      token: inbox.agent1.token,
      body: { body: 'echo me' },
    });
    const externalId = fake.sent.at(-1)!.externalId!;
    const contact = (await server.request('GET', `/api/tickets/${ticketId}`, { token: inbox.agent1.token })).body
      .contact;
    const echo = await deliver(
      server,
      inbound(inbox.connectionId, contact.number, { fromMe: true, externalId, body: 'echo me' }),
    );
    expect(echo!.created).toBe(false);
    expect(echo!.message.id).toBe(sent.body.id);
    // a message typed on the phone is stored as ours
    const phone = await deliver(
      server,
      inbound(inbox.connectionId, contact.number, { fromMe: true, body: 'from the phone' }),
    );
    expect(phone!.created).toBe(true);
    expect(phone!.message).toMatchObject({ fromMe: true, read: true });
    expect(await count('select count(*) as n from messages where ticket_id = $1 and from_me', [ticketId])).toBe(2);
  });
});
