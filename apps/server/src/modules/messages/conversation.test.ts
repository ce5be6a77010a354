import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeChannels } from '../../../test/channel-fake';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { deliver, inbound, pendingTicket, setupInbox } from '../../../test/inbox';
import { loadTicketDto } from '../tickets/ticket-dto';
import { toMessage } from './message-dto';
import { statementName } from '../../db/statements';
import { conversationStatement } from './conversation.repo';
import { findMessageRow } from './messages.repo';

/**
 * The conversation page's one statement (conversation.repo.ts) against the Drizzle reads it replaced: each
 * message as `toMessage` makes it from `findMessageRow`, the ticket as `loadTicketDto`, the pages in the
 * order of the contact's whole history; and its kept answers (messages.service.ts `listMessages`).
 */

let server: TTestServer;
let fake: ReturnType<typeof installFakeChannels>;
let inbox: Awaited<ReturnType<typeof setupInbox>>;
beforeAll(async () => {
  server = await startTestServer();
  fake = installFakeChannels(server);
  inbox = await setupInbox(server, 'Conversation');
  fake.connect(inbox.connectionId);
});
afterAll(() => server.close());

const sql = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await server.database.executeSql(text, values)).rows as T[];

const page = async (token: string, ticketId: number, pageNumber = 1) => {
  const res = await server.request('GET', `/api/messages/${ticketId}`, { token, query: { pageNumber } });
  expect(res.status).toBe(200);

  return res.body as {
    messages: { id: number; body: string; contact: { name: string } | null }[];
    ticket: unknown;
    count: number;
    hasMore: boolean;
  };
};

/** what the Drizzle reads answer for these ids, in this order (JSON round trip: what goes on the wire) */
const reference = async (ids: number[]) => {
  const list = [];
  for (const id of ids)
    list.push(toMessage(server.ctx.config, (await findMessageRow(server.ctx.db, inbox.tenant.companyId, id))!));

  return JSON.parse(JSON.stringify(list));
};

/** the contact's whole history, newest first, as the page must order it */
const historyIds = async (contactId: number) =>
  (
    await sql<{ id: number }>(
      `select m.id from messages m where m.ticket_id in (select id from tickets where company_id = $1 and contact_id = $2)
       order by m.created_at desc, m.id desc`,
      [inbox.tenant.companyId, contactId],
    )
  ).map((r) => Number(r.id));

describe('GET /api/messages/:ticketId in one statement', () => {
  it('answers every kind of message and the ticket as the Drizzle reads do, page by page across tickets', async () => {
    const { ticketId, contact } = await pendingTicket(server, inbox.tenant, inbox.connectionId, { queueId: inbox.q1 });
    for (let i = 0; i < 6; i++)
      await deliver(server, inbound(inbox.connectionId, contact.number, { body: `old ${i}` }));
    await sql(`update tickets set status = 'closed' where id = $1`, [ticketId]);
    const next = (await deliver(server, inbound(inbox.connectionId, contact.number, { body: 'new ticket' })))!;
    expect(next.ticket.id).not.toBe(ticketId);
    const current = next.ticket.id;
    for (let i = 0; i < 30; i++) await deliver(server, inbound(inbox.connectionId, contact.number, { body: `m${i}` }));
    const ids = await historyIds(contact.id);
    expect(ids).toHaveLength(38);
    // every shape of message: quoted (with and without the quoted sender's name), deleted, edited, private,
    // media (and an empty media name), failed with and without a reason, sent by an attendant
    const [a, b, c, d, e, f, g, h] = ids;
    await sql('update messages set quoted_msg_id = $1 where id = $2', [ids[5], a]);
    await sql('update messages set quoted_msg_id = $1 where id = $2', [b, ids[6]]);
    await sql(`update messages set is_deleted = true, media_url = 'x.png', media_type = 'image' where id = $1`, [b]);
    await sql(`update messages set is_edited = true, body = 'edited' where id = $1`, [c]);
    await sql(`update messages set is_private = true, from_me = true, source = 'agent', user_id = $1 where id = $2`, [
      inbox.agent1.id,
      d,
    ]);
    await sql(
      `update messages set media_url = 'a1b2.pdf', media_name = 'nota.pdf', media_type = 'application',
      media_mime = 'application/pdf' where id = $1`,
      [e],
    );
    await sql(`update messages set media_url = '', media_type = 'image' where id = $1`, [f]);
    await sql(
      `update messages set ack = 0, error_code = 'ERR_SENDING_WAPP_MSG', error_message = 'gone' where id = $1`,
      [g],
    );
    await sql(`update messages set ack = 0, error_code = null, error_message = 'stale' where id = $1`, [h]);
    // equal times: the id breaks the tie
    await sql('update messages set created_at = (select created_at from messages where id = $1) where id = any($2)', [
      ids[10],
      ids.slice(9, 14),
    ]);
    server.ctx.conversationAnswers.changed(inbox.tenant.companyId);
    const ordered = await historyIds(contact.id);

    const token = inbox.tenant.token;
    const first = await page(token, current);
    expect(first.count).toBe(38);
    expect(first.hasMore).toBe(true);
    expect(first.messages).toEqual(await reference(ordered.slice(0, 20).reverse()));
    expect(first.ticket).toEqual(
      JSON.parse(JSON.stringify(await loadTicketDto(server.ctx.db, inbox.tenant.companyId, current))),
    );
    const second = await page(token, current, 2);
    expect(second).toMatchObject({ count: 38, hasMore: false });
    expect(second.messages).toEqual(await reference(ordered.slice(20, 40).reverse()));
    // the closed ticket shows the same history, with its own ticket
    const old = await page(token, ticketId, 2);
    expect(old.messages.map((m) => m.id)).toEqual(ordered.slice(20, 40).reverse());
    expect((old.ticket as { id: number }).id).toBe(ticketId);
    expect(await page(token, current, 3)).toMatchObject({ messages: [], count: 38, hasMore: false });
  });

  it("follows the ticket in a group: the members' messages, each with its sender", async () => {
    const group = `1203630${Math.floor(Math.random() * 1e9)}`;
    let ticketId = 0;
    for (const [n, who] of ['5511911110001', '5511911110002', '5511911110001'].entries()) {
      const stored = await deliver(
        server,
        inbound(inbox.connectionId, group, {
          isGroup: true,
          groupName: 'Família',
          participant: who,
          participantName: `Membro ${who.slice(-1)}`,
          body: `g${n}`,
        }),
      );
      ticketId = stored!.ticket.id;
    }
    const answer = await page(inbox.tenant.token, ticketId);
    const ids = answer.messages.map((m) => m.id);
    expect(ids).toHaveLength(3);
    expect(answer.messages).toEqual(await reference(ids));
    expect(answer.messages.map((m) => m.contact?.name)).toEqual(['Membro 1', 'Membro 2', 'Membro 1']);
  });

  it('keeps the answer until the company changes, and checks every reader against it', async () => {
    const { ticketId, contact } = await pendingTicket(server, inbox.tenant, inbox.connectionId, { queueId: inbox.q1 });
    await server.request('PUT', `/api/tickets/${ticketId}`, { token: inbox.agent1.token, body: { status: 'open' } });
    await deliver(server, inbound(inbox.connectionId, contact.number, { body: 'are you there?' }));
    // another agent of the queue looks: kept, nothing read
    const looked = await page(inbox.agent2.token, ticketId);
    expect(looked.messages.at(-1)).toMatchObject({ body: 'are you there?', read: false });
    expect((looked.ticket as { unreadMessages: number }).unreadMessages).toBe(1);
    // an agent of another queue is refused though the answer is kept
    const refused = await server.request('GET', `/api/messages/${ticketId}`, { token: inbox.agentQ2.token });
    expect(refused.status).toBe(403);
    // an unannounced write is not seen while the answer is kept…
    await sql(`update messages set body = 'silently changed' where ticket_id = $1`, [ticketId]);
    expect((await page(inbox.agent2.token, ticketId)).messages.at(-1)).toMatchObject({ body: 'are you there?' });
    // …an announced one is: a new message
    await deliver(server, inbound(inbox.connectionId, contact.number, { body: 'hello?' }));
    const fresh = await page(inbox.agent2.token, ticketId);
    expect(fresh.messages.map((m) => m.body).slice(-2)).toEqual(['silently changed', 'hello?']);
    // the attendant reads it from the kept answer: marked read, receipts sent
    const before = fake.sent.length;
    const read = await page(inbox.agent1.token, ticketId);
    expect((read.ticket as { unreadMessages: number }).unreadMessages).toBe(0);
    expect(fake.sent.slice(before).filter((s) => s.op === 'read')).toHaveLength(1);
    expect((await page(inbox.agent2.token, ticketId)).messages.at(-1)).toMatchObject({ body: 'hello?', read: true });
    // a ticket of no one (another company's or missing) answers 404 every time
    for (let i = 0; i < 2; i++) {
      expect((await server.request('GET', '/api/messages/99999999', { token: inbox.tenant.token })).status).toBe(404);
    }
  });

  it('runs each page under one name, and PostgreSQL keeps its generic plan', async () => {
    const { ticketId } = await pendingTicket(server, inbox.tenant, inbox.connectionId, { queueId: inbox.q1 });
    await page(inbox.tenant.token, ticketId);
    if (server.database.kind !== 'postgres') return;
    const client = await server.database.pool!.connect();
    try {
      for (const offset of [0, 20]) {
        const text = conversationStatement(20, offset);
        const name = statementName(text)!;
        for (let i = 0; i < 8; i++) {
          await client.query({ name, text, values: [inbox.tenant.companyId, ticketId + (i % 2)] });
        }
        const [plans] = (
          await client.query('select generic_plans, custom_plans from pg_prepared_statements where name = $1', [name])
        ).rows;
        expect(Number(plans.generic_plans)).toBeGreaterThan(0);
        expect(Number(plans.custom_plans)).toBeLessThanOrEqual(5);
      }
    } finally {
      client.release();
    }
  });
});
