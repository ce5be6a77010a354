import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMON_WORD,
  DEFAULT_GENERATE,
  generateInbox,
  type TGenerated,
  verifyGenerated,
} from '../../../bench/generate';
import { startTestServer, type TTestServer } from './harness';

/**
 * The benchmarks' data generator (bench/generate.ts) on a small scale, and the ticket list's rules checked
 * against every generated row: what an admin and an agent see, page by page, with and without a search.
 */

let server: TTestServer;
let generated: TGenerated;

const sql = async <T = any>(text: string, values: unknown[] = []) =>
  (await server.database.executeSql(text, values)).rows as T[];

const list = async (token: string, query: string) => {
  const res = await server.request('GET', `/api/tickets?${query}`, { token });
  expect(res.status).toBe(200);

  return res.body as { tickets: any[]; count: number; hasMore: boolean };
};

/** every page of a list, until hasMore is false */
const allPages = async (token: string, query: string) => {
  const ids: number[] = [];
  for (let page = 1; page < 100; page++) {
    const answer = await list(token, `${query}&pageNumber=${page}`);
    ids.push(...answer.tickets.map((t) => t.id));
    if (!answer.hasMore) return ids;
  }
  throw new Error('the list never ended');
};

beforeAll(async () => {
  server = await startTestServer();
  const exec = async (text: string) => (await server.database.executeSql(text)) as { rows: Record<string, unknown>[] };
  generated = await generateInbox(exec, {
    companies: 2,
    tickets: 360,
    messagesPerTicket: 4,
    agentsPerCompany: 3,
    queuesPerCompany: 2,
    connectionsPerCompany: 2,
    label: 'tgen',
  });
});

afterAll(async () => {
  await server?.close();
});

describe('the generated inbox', () => {
  it('keeps every rule of the schema: references, one active ticket per contact and connection, cycles', async () => {
    expect(generated.tickets).toBe(360);
    const broken = await verifyGenerated((text) => server.database.executeSql(text) as never);
    expect(broken).toEqual(Object.fromEntries(Object.keys(broken).map((check) => [check, 0])));
    const [cycles] = await sql(
      `select count(*)::int as n, count(*) filter (where finished_at is null)::int as open from ticket_trackings`,
    );
    const [active] = await sql(`select count(*)::int as n from tickets where status in ('open', 'pending')`);
    expect(cycles).toEqual({ n: 360, open: active.n });
  });

  it("lists exactly the company's open tickets to its admin, newest first, across pages", async () => {
    const [company] = generated.companies;
    const token = (await server.login(company!.admin.email, DEFAULT_GENERATE.password)).token;
    const expected = await sql<{ id: number }>(
      `select id from tickets where company_id = $1 and status = 'open' order by updated_at desc, id desc`,
      [company!.id],
    );
    const first = await list(token, 'status=open&showAll=true&pageNumber=1');
    expect(first.count).toBe(expected.length);
    expect(await allPages(token, 'status=open&showAll=true')).toEqual(expected.map((r) => r.id));
  });

  it('lists to an agent only the pending tickets of their queues and the open tickets they hold', async () => {
    const [company] = generated.companies;
    const agent = company!.agents[0]!;
    const token = (await server.login(agent.email, DEFAULT_GENERATE.password)).token;
    const pending = await sql<{ id: number }>(
      `select id from tickets where company_id = $1 and status = 'pending' and queue_id = any($2::int[])
       order by updated_at desc, id desc`,
      [company!.id, agent.queueIds],
    );
    expect(await allPages(token, 'status=pending')).toEqual(pending.map((r) => r.id));
    const open = await sql<{ id: number }>(
      `select id from tickets where company_id = $1 and status = 'open' and user_id = $2 order by updated_at desc, id desc`,
      [company!.id, agent.id],
    );
    expect(await allPages(token, 'status=open')).toEqual(open.map((r) => r.id));
  });

  it("finds by a word every ticket whose messages hold it, and none of the other company's", async () => {
    const [first, second] = generated.companies;
    const token = (await server.login(first!.admin.email, DEFAULT_GENERATE.password)).token;
    const holding = await sql<{ id: number }>(
      `select t.id from tickets t where t.company_id = $1 and exists (
         select 1 from messages m where m.ticket_id = t.id and m.body ~ $2)
       order by t.updated_at desc, t.id desc`,
      [first!.id, `(^|[^a-z])${COMMON_WORD}`],
    );
    expect(holding.length).toBeGreaterThan(0);
    expect(await allPages(token, `showAll=true&searchParam=${COMMON_WORD}`)).toEqual(holding.map((r) => r.id));
    const theirs = await sql<{ id: number }>('select id from tickets where company_id = $1', [second!.id]);
    const seen = new Set(await allPages(token, 'showAll=true'));
    expect(theirs.some((r) => seen.has(r.id))).toBe(false);
  });

  it('gives long conversations: a 200-message ticket per long contact, whose history spans several tickets', async () => {
    const [company] = generated.companies;
    expect(company!.longTicketIds).toHaveLength(DEFAULT_GENERATE.longContacts);
    const token = (await server.login(company!.admin.email, DEFAULT_GENERATE.password)).token;
    for (const id of company!.longTicketIds) {
      const [row] = await sql<{ messages: number; tickets: number; history: number }>(
        `select (select count(*)::int from messages where ticket_id = t.id) as messages,
           (select count(*)::int from tickets h where h.company_id = t.company_id and h.contact_id = t.contact_id) as tickets,
           (select count(*)::int from messages m join tickets h on h.id = m.ticket_id
             where h.company_id = t.company_id and h.contact_id = t.contact_id) as history
         from tickets t where t.id = $1 and t.company_id = $2`,
        [id, company!.id],
      );
      expect(row!.messages).toBe(DEFAULT_GENERATE.longMessages);
      expect(row!.tickets).toBeGreaterThan(DEFAULT_GENERATE.longExtraTickets);
      const res = await server.request('GET', `/api/messages/${id}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ count: row!.history, hasMore: true });
      expect(res.body.messages).toHaveLength(20);
    }
  });
});
