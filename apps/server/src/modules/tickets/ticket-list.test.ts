import { ZTicketListQuery } from '@zelo/shared';
import { and, count, desc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementName } from '../../db/statements';
import { tickets, ticketTags } from '../../db/schema/index';
import { createLoggedUser } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { pendingTicket, setupInbox } from '../../../test/inbox';
import { loadViewer, type TViewer } from './ticket-access';
import { toTickets } from './ticket-dto';
import { ticketListStatements } from './ticket-list.repo';
import { selectTickets } from './tickets.repo';
import { ticketListWhere } from './tickets.service';

/**
 * The list runs as SQL text in named prepared statements (ticket-list.repo.ts). Here it must answer, for
 * every viewer and filter shape, exactly what the query-builder list it replaced answered: that list is
 * kept below as the reference (searches excepted: tickets.test.ts covers them).
 */

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type TQuery = ReturnType<typeof ZTicketListQuery.parse>;

const referenceList = async (viewer: TViewer, query: TQuery, timeZone: string) => {
  const db = server.ctx.db;
  const showAll = query.showAll === true && (viewer.isAdmin || viewer.allTicket);
  const requested = query.queueIds && query.queueIds.length > 0 ? query.queueIds : undefined;
  const mine = eq(tickets.userId, viewer.userId);
  let visibility: SQL | undefined;
  if (viewer.isAdmin) {
    const queueCond = requested ? or(inArray(tickets.queueId, requested), isNull(tickets.queueId)) : undefined;
    visibility = showAll ? queueCond : and(or(mine, eq(tickets.status, 'pending')), queueCond);
  } else {
    const allowed = requested ? requested.filter((q) => viewer.queueIds.includes(q)) : viewer.queueIds;
    const queueParts: SQL[] = [];
    if (allowed.length) queueParts.push(inArray(tickets.queueId, allowed));
    if (viewer.seesNoQueue) queueParts.push(isNull(tickets.queueId));
    const queueCond = queueParts.length ? or(...queueParts) : sql`false`;
    const ownCond = requested ? and(mine, or(inArray(tickets.queueId, requested), isNull(tickets.queueId))) : mine;
    visibility = showAll ? or(ownCond, queueCond) : or(ownCond, and(eq(tickets.status, 'pending'), queueCond));
  }
  const day = (column: SQL, value: string) =>
    sql`(${column} at time zone ${timeZone})::date = ${value.slice(0, 10)}::date`;
  const conditions: (SQL | undefined)[] = [eq(tickets.companyId, viewer.companyId), visibility];
  if (query.status) conditions.push(eq(tickets.status, query.status));
  if (query.users?.length) conditions.push(inArray(tickets.userId, query.users));
  if (query.tags?.length) {
    const tagIds = [...new Set(query.tags)];
    conditions.push(
      sql`(select count(*) from ${ticketTags} where ${ticketTags.companyId} = ${viewer.companyId} and ${ticketTags.ticketId} = ${tickets.id} and ${inArray(ticketTags.tagId, tagIds)}) = ${tagIds.length}`,
    );
  }
  if (query.withUnreadMessages) conditions.push(gt(tickets.unreadMessages, 0));
  if (query.date) conditions.push(day(sql`${tickets.createdAt}`, query.date));
  if (query.updatedAt) conditions.push(day(sql`${tickets.updatedAt}`, query.updatedAt));
  const where = and(...conditions);
  const rows = await selectTickets(db)
    .where(where)
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(40)
    .offset((query.pageNumber - 1) * 40);
  const [{ total }] = await db.select({ total: count() }).from(tickets).where(where);

  return JSON.parse(JSON.stringify({ tickets: toTickets(rows), count: total, hasMore: total > query.pageNumber * 40 }));
};

let fixture: Awaited<ReturnType<typeof makeFixture>>;

const makeFixture = async () => {
  const inbox = await setupInbox(server, 'List');
  const { tenant, connectionId, q1, q2, agent1, agent2 } = inbox;
  const wide = await createLoggedUser(server, tenant, { queueIds: [q1], allTicket: 'enabled' });
  const noQueueUser = await createLoggedUser(server, tenant, { queueIds: [q2], canSeeTicketsWithoutQueue: true });
  const sql = (text: string, values: unknown[]) => server.database.executeSql(text, values);
  // 45 pending tickets in the first queue (two pages), others spread over queues, users and statuses
  await sql(
    `with c as (
       insert into contacts (company_id, name, number)
       select $1, 'Listed ' || g, '5511800' || lpad(g::text, 6, '0') from generate_series(1, 45) g returning id, number
     )
     insert into tickets (company_id, contact_id, whatsapp_id, queue_id, status, updated_at)
     select $1, c.id, $2, $3, 'pending', now() - (right(c.number, 6)::int || ' minutes')::interval from c`,
    [tenant.companyId, connectionId, q1],
  );
  const a = await pendingTicket(server, tenant, connectionId, { queueId: q1, body: 'first' });
  const b = await pendingTicket(server, tenant, connectionId, { queueId: q2, body: 'second' });
  const c = await pendingTicket(server, tenant, connectionId, { body: 'no queue' });
  const d = await pendingTicket(server, tenant, connectionId, { queueId: q1, body: 'taken' });
  const e = await pendingTicket(server, tenant, connectionId, { queueId: q2, body: 'closed' });
  await sql(`update tickets set status = 'open', user_id = $1, unread_messages = 0 where id = $2`, [
    agent1.id,
    a.ticketId,
  ]);
  await sql(`update tickets set status = 'open', user_id = $1 where id = $2`, [agent2.id, d.ticketId]);
  await sql(`update tickets set status = 'open', user_id = $1 where id = $2`, [agent1.id, c.ticketId]);
  await sql(`update tickets set status = 'closed', user_id = $1 where id = $2`, [agent2.id, e.ticketId]);
  const tag = async (name: string, color: string) =>
    (
      (
        await sql('insert into tags (company_id, name, color) values ($1, $2, $3) returning id', [
          tenant.companyId,
          name,
          color,
        ])
      ).rows[0] as { id: number }
    ).id;
  const t1 = await tag('vip', '#ff0000');
  const t2 = await tag('late', '#00ff00');
  for (const [ticketId, tagId] of [
    [a.ticketId, t1],
    [a.ticketId, t2],
    [b.ticketId, t1],
    [d.ticketId, t2],
  ]) {
    await sql('insert into ticket_tags (company_id, ticket_id, tag_id) values ($1, $2, $3)', [
      tenant.companyId,
      ticketId,
      tagId,
    ]);
  }
  const today = new Date().toISOString().slice(0, 10);
  const viewers = {
    admin: tenant.token,
    agent1: agent1.token,
    agentQ2: inbox.agentQ2.token,
    wide: wide.token,
    noQueue: noQueueUser.token,
  };
  const ids = {
    admin: tenant.user.id as number,
    agent1: agent1.id,
    agentQ2: inbox.agentQ2.id,
    wide: wide.id,
    noQueue: noQueueUser.id,
  };
  const queries: Record<string, string>[] = [
    {},
    { status: 'open' },
    { status: 'pending' },
    { status: 'closed' },
    { showAll: 'true' },
    { showAll: 'true', status: 'open' },
    { showAll: 'true', status: 'pending', pageNumber: '2' },
    { queueIds: `[${q1}]` },
    { queueIds: `[${q1},${q2}]`, status: 'pending' },
    { queueIds: `[${q2}]`, showAll: 'true' },
    { users: `[${agent1.id}]`, showAll: 'true' },
    { users: `[${agent1.id},${agent2.id}]`, status: 'open', showAll: 'true' },
    { tags: `[${t1}]`, showAll: 'true' },
    { tags: `[${t1},${t2}]` },
    { withUnreadMessages: 'true', showAll: 'true' },
    { date: today, showAll: 'true' },
    { updatedAt: today, status: 'open' },
    { pageNumber: '2' },
    // past the end, and nothing at all
    { showAll: 'true', pageNumber: '4' },
    { status: 'closed', users: `[${inbox.agentQ2.id}]`, showAll: 'true' },
  ];

  return { tenant, viewers, ids, queries };
};

describe('the ticket list as prepared statements', () => {
  beforeAll(async () => {
    fixture = await makeFixture();
  });

  it('answers every viewer and filter shape exactly as the query-builder list did', async () => {
    let compared = 0;
    for (const [who, token] of Object.entries(fixture.viewers)) {
      const viewer = await loadViewer(server.ctx.db, {
        companyId: fixture.tenant.companyId,
        userId: fixture.ids[who as keyof typeof fixture.ids],
      });
      for (const raw of fixture.queries) {
        const res = await server.request('GET', '/api/tickets', { token, query: raw });
        expect(res.status, `${who} ${JSON.stringify(raw)}`).toBe(200);
        const expected = await referenceList(viewer, ZTicketListQuery.parse(raw), 'America/Sao_Paulo');
        expect(res.body, `${who} ${JSON.stringify(raw)}`).toEqual(expected);
        compared += expected.tickets.length;
      }
    }
    // the shapes are not all empty
    expect(compared).toBeGreaterThan(200);
  });

  it('runs each shape under one name whatever its values, and PostgreSQL keeps the generic plan', async () => {
    const viewer = await loadViewer(server.ctx.db, { companyId: fixture.tenant.companyId, userId: fixture.ids.agent1 });
    const other = { ...viewer, userId: fixture.ids.wide, queueIds: [...viewer.queueIds, 999_999] };
    const shapes = fixture.queries.map((raw) => ZTicketListQuery.parse(raw));
    for (const query of shapes) {
      const one = ticketListStatements(ticketListWhere(viewer, query, { timeZone: 'UTC' }), 40, 0);
      const two = ticketListStatements(ticketListWhere(other, query, { timeZone: 'UTC' }), 40, 0);
      // the values differ (user, queue list length), the text does not
      expect(two.page.text).toBe(one.page.text);
      expect(two.count.text).toBe(one.count.text);
      expect(statementName(two.page.text, { shape: true })).toBe(statementName(one.page.text, { shape: true }));
    }
    if (server.database.kind !== 'postgres') return;
    const client = await server.database.pool!.connect();
    try {
      for (const query of shapes) {
        const { page, count: counted } = ticketListStatements(
          ticketListWhere(viewer, query, { timeZone: 'UTC' }),
          40,
          0,
        );
        for (const statement of [page, counted]) {
          const name = statementName(statement.text, { shape: true })!;
          for (let i = 0; i < 8; i++) await client.query({ name, text: statement.text, values: statement.values });
          const [plans] = (
            await client.query('select generic_plans, custom_plans from pg_prepared_statements where name = $1', [name])
          ).rows;
          expect(Number(plans.generic_plans), statement.text).toBeGreaterThan(0);
          expect(Number(plans.custom_plans), statement.text).toBeLessThanOrEqual(5);
        }
      }
    } finally {
      client.release();
    }
  });
});
