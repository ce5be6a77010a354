import type { TTicketListQuery } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, insertQueue } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { insertContact } from '../../../test/inbox';
import { boardScope, ticketListScope } from './ticket-visibility';
import type { TViewer } from './ticket-access';
import { ticketListWhere } from './tickets.service';
import { queryRows } from '../../db/statements';

/**
 * The kept answers' scope (a test of a ticket's place, ticket-visibility.ts) must admit every ticket the list's
 * statement can show: for every viewer and query shape, the scope and the SQL condition are checked against one
 * ticket at every place (status × queue × attendant). They must agree exactly on the place filters; the other
 * filters only narrow the statement.
 */

let server: TTestServer;
let companyId: number;
let q1: number;
let q2: number;
let q3: number;
let u1: number;
let u2: number;
/** one ticket at each place: id → place */
const places = new Map<number, { status: string; queueId: number | null; userId: number | null }>();

beforeAll(async () => {
  server = await startTestServer();
  const tenant = await server.createTenant('Scope');
  companyId = tenant.companyId;
  [q1, q2, q3] = [
    await insertQueue(server, companyId),
    await insertQueue(server, companyId),
    await insertQueue(server, companyId),
  ];
  u1 = (await createUser(server, tenant, { queueIds: [q1, q2] })).id;
  u2 = (await createUser(server, tenant, { queueIds: [q3] })).id;
  for (const status of ['open', 'pending', 'closed'])
    for (const queueId of [q1, q2, q3, null])
      for (const userId of [u1, u2, null]) {
        const contact = await insertContact(server, companyId);
        const { rows } = await server.database.executeSql(
          'insert into tickets (company_id, contact_id, status, queue_id, user_id) values ($1, $2, $3, $4, $5) returning id',
          [companyId, contact.id, status, queueId, userId],
        );
        places.set((rows[0] as { id: number }).id, { status, queueId, userId });
      }
});
afterAll(() => server.close());

const viewers = (): [string, TViewer][] => {
  const base = { companyId, name: 'v', whatsappId: null };
  return [
    ['admin', { ...base, userId: u1, isAdmin: true, allTicket: false, seesNoQueue: true, queueIds: [] }],
    ['agent', { ...base, userId: u1, isAdmin: false, allTicket: false, seesNoQueue: false, queueIds: [q1, q2] }],
    [
      'agent seeing tickets without a queue',
      { ...base, userId: u1, isAdmin: false, allTicket: false, seesNoQueue: true, queueIds: [q1] },
    ],
    [
      'agent with all tickets',
      { ...base, userId: u2, isAdmin: false, allTicket: true, seesNoQueue: true, queueIds: [q3] },
    ],
  ];
};

const queries = (): TTicketListQuery[] => {
  const list: TTicketListQuery[] = [];
  for (const status of [undefined, 'open', 'pending', 'closed'] as const)
    for (const showAll of [false, true])
      for (const queueIds of [undefined, [q1], [q3, q2]])
        for (const users of [undefined, [u2]])
          list.push({ searchParam: '', pageNumber: 1, status, showAll, queueIds, users });

  return list;
};

const listed = async (viewer: TViewer, query: TTicketListQuery) => {
  const where = ticketListWhere(viewer, query, { timeZone: 'UTC' });
  const statement = where.params.render(`select t.id from tickets t where ${where.text}`);
  const rows = await queryRows<{ id: number }>(server.ctx.db, statement.text, statement.values);

  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
};

const admitted = (scope: (p: { status: string; queueId: number | null; userId: number | null }) => boolean) =>
  [...places].filter(([, p]) => scope(p)).map(([id]) => id);

describe('a kept list answer is scoped to exactly the places its statement can show', () => {
  it('every viewer, status, showAll, queue and attendant filter', async () => {
    let shapes = 0;
    for (const [name, viewer] of viewers()) {
      for (const query of queries()) {
        const sql = await listed(viewer, query);
        expect(admitted(ticketListScope(viewer, query)), `${name} ${JSON.stringify(query)}`).toEqual(sql);
        shapes++;
      }
    }
    expect(shapes).toBe(4 * 48);
    // the places are all there (a scope that admitted nothing would agree with an empty company)
    expect(places.size).toBe(36);
  });

  it("the kanban board's scope: open and pending tickets of the viewer's rule", async () => {
    for (const [name, viewer] of viewers()) {
      for (const query of queries().filter((q) => !q.status && !q.users)) {
        const board = [
          ...(await listed(viewer, { ...query, status: 'open' })),
          ...(await listed(viewer, { ...query, status: 'pending' })),
        ].sort((a, b) => a - b);
        expect(admitted(boardScope(viewer, query)), `${name} ${JSON.stringify(query)}`).toEqual(board);
      }
    }
  });
});
