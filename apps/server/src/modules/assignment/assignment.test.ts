import { events, rooms } from '@zelo/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOption } from '../../../test/catalogue-fixtures';
import { createLoggedUser, openSocket, recordEvents, unique, untilJoined } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { connectSandbox, randomNumber } from '../../../test/inbox';
import { pickAssignments } from './assigner';

/**
 * Fair automatic assignment end to end: customers write through the sandbox connection, the real pipeline
 * puts their tickets in the queue, agents are online by their sockets (and offline without one), and the
 * assigner runs as the server runs it. Each test is a company of its own.
 */

process.env.SANDBOX_OPENING_MS = '0';
process.env.SANDBOX_ACK_MS = '0';

let server: TTestServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  server = await startTestServer();
  await sql('update plans set connections = 50, queues = 50, users = 50');
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const sql = async <T = any>(text: string, values: unknown[] = []) =>
  (await server.database.executeSql(text, values)).rows as T[];

const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 8000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

type TTenant = Awaited<ReturnType<TTestServer['createTenant']>>;
type TAgent = Awaited<ReturnType<typeof createLoggedUser>>;

const api = async (token: string, method: string, path: string, body?: unknown) => {
  const res = await server.request(method, path, { token, body });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);

  return res.body;
};

/** a company with one queue (switch as given), a sandbox connection offering only it, and its agents */
const inbox = async (opts: { autoAssign?: boolean; max?: number; agents?: number; options?: boolean } = {}) => {
  const tenant = await server.createTenant('Assign');
  const queue = await api(tenant.token, 'POST', '/api/queue', {
    name: unique('Sales'),
    color: '#0a8',
    ...(opts.autoAssign === undefined ? {} : { autoAssign: opts.autoAssign }),
    ...(opts.max === undefined ? {} : { autoAssignMax: opts.max }),
  });
  if (opts.options) await addOption(server, tenant, { queueId: queue.id, title: 'Boletos', message: 'Um momento' });
  const connectionId = await connectSandbox(server, tenant.token, { queueIds: [queue.id] });
  const agents: TAgent[] = [];
  for (let i = 0; i < (opts.agents ?? 3); i++) {
    agents.push(await createLoggedUser(server, tenant, { name: `Agent ${i + 1}`, queueIds: [queue.id] }));
  }

  return { tenant, queueId: queue.id as number, connectionId, agents };
};

/** the agent's app open: a socket (presence), until it closes */
const goOnline = async (tenant: TTenant, agent: TAgent) => {
  const socket = await openSocket(server, agent.token);
  sockets.push(socket);
  await untilJoined(server, rooms.user(tenant.companyId, agent.id));
  await until(async () => (await sql('select online from users where id = $1', [agent.id]))[0].online, 'online');

  return socket;
};

/** a customer writes; answers the ticket its message made */
const customerWrites = async (tenant: TTenant, connectionId: number, body = 'oi', from = randomNumber()) => {
  await api(tenant.token, 'POST', `/api/sandbox/${connectionId}/inbound`, {
    from,
    name: 'Cliente',
    type: 'text',
    body,
  });
  const [row] = await sql<{ id: number }>(
    `select t.id from tickets t join contacts c on c.id = t.contact_id
     where t.whatsapp_id = $1 and c.number = $2 order by t.id desc limit 1`,
    [connectionId, from],
  );

  return { ticketId: row.id, from };
};

const ticket = async (id: number) =>
  (
    await sql<{ status: string; user_id: number | null; queue_id: number | null }>(
      'select status, user_id, queue_id from tickets where id = $1',
      [id],
    )
  )[0]!;

const assignedTo = async (id: number) => {
  await until(async () => (await ticket(id)).user_id !== null, `ticket ${id} assigned`);
  const row = await ticket(id);
  expect(row.status).toBe('open');

  return row.user_id;
};

/** every kick this node may still owe has run: a sweep over every auto-assign company, then quiet */
const settle = async () => {
  await server.ctx.assignment!.sweep();
  await server.ctx.assignment!.settled();
};

describe('the rule (pure)', () => {
  const agent = (id: number, open: number, last: string | null, queueIds = [1]) => ({
    maxes: queueIds.map(() => 10),
    id,
    name: `A${id}`,
    open,
    lastAssignedAt: last ? new Date(last) : null,
    queueIds,
  });
  const waiting = (ids: number[], queueId = 1, max = 10) => ids.map((id) => ({ id, queueId, max }));
  const now = new Date('2026-03-02T12:00:00Z');

  it('gives each ticket to the fewest open tickets, ties to the longest since its last assignment', () => {
    const agents = [
      agent(1, 2, '2026-03-02T08:00:00Z'),
      agent(2, 1, '2026-03-02T11:00:00Z'),
      agent(3, 1, '2026-03-02T09:00:00Z'),
      agent(4, 3, null),
    ];
    const picked = pickAssignments(waiting([10, 11, 12, 13]), agents, now).map((a) => [a.ticketId, a.userId]);
    // 3 (1 open, older) then 2 (1 open) then 1 (2 open, older than 3's and 2's new ones) then 3
    expect(picked).toEqual([
      [10, 3],
      [11, 2],
      [12, 1],
      [13, 3],
    ]);
  });

  it('never past the cap, never outside the queue, and never-assigned agents first on a tie', () => {
    const agents = [agent(1, 0, '2026-03-01T00:00:00Z'), agent(2, 0, null), agent(3, 0, null, [2])];
    const picked = pickAssignments([...waiting([20, 21, 22], 1, 1), ...waiting([23], 2, 1)], agents, now).map((a) => [
      a.ticketId,
      a.userId,
    ]);
    expect(picked).toEqual([
      [20, 2],
      [21, 1],
      [23, 3],
    ]);
  });
});

describe('automatic assignment', () => {
  it('is off by default: the queue says so and a waiting ticket stays pending', async () => {
    const box = await inbox();
    const queue = await api(box.tenant.token, 'GET', `/api/queue/${box.queueId}`);
    expect(queue).toMatchObject({ autoAssign: false, autoAssignMax: 5 });
    await goOnline(box.tenant, box.agents[0]!);
    const { ticketId } = await customerWrites(box.tenant, box.connectionId);
    await settle();
    expect(await ticket(ticketId)).toEqual({ status: 'pending', user_id: null, queue_id: box.queueId });
  });

  it('gives a new ticket to the agent with the fewest open tickets, ties to the longest since its last one', async () => {
    const box = await inbox({ autoAssign: false, agents: 3 });
    const [a, b, c] = box.agents as [TAgent, TAgent, TAgent];
    for (const agent of box.agents) await goOnline(box.tenant, agent);
    // A holds two open tickets, B one, C none (accepted by hand before the switch is on)
    for (const [agent, count] of [
      [a, 2],
      [b, 1],
    ] as const) {
      for (let i = 0; i < count; i++) {
        const { ticketId } = await customerWrites(box.tenant, box.connectionId);
        await api(agent.token, 'PUT', `/api/tickets/${ticketId}`, { status: 'open' });
      }
    }
    await api(box.tenant.token, 'PUT', `/api/queue/${box.queueId}`, { autoAssign: true, autoAssignMax: 5 });
    const order: (number | null)[] = [];
    for (let i = 0; i < 4; i++) {
      const { ticketId } = await customerWrites(box.tenant, box.connectionId);
      order.push(await assignedTo(ticketId));
    }
    // C (0); B and C tie at 1, B's last (its accept) is older than C's → B; C (1 vs 2, 2); then A, B, C tie
    // at 2 and A's last is the oldest
    expect(order).toEqual([c.id, b.id, c.id, a.id]);
    const loads = await sql<{ user_id: number; n: number }>(
      "select user_id, count(*)::int as n from tickets where user_id = any($1::int[]) and status = 'open' group by user_id order by user_id",
      [[a.id, b.id, c.id]],
    );
    expect(loads.map((l) => l.n)).toEqual([3, 2, 2]);
  });

  it('caps each agent, lets the rest wait, and gives a waiting ticket to whoever frees a place', async () => {
    const box = await inbox({ autoAssign: true, max: 1, agents: 2 });
    const [a, b] = box.agents as [TAgent, TAgent];
    await goOnline(box.tenant, a);
    await goOnline(box.tenant, b);
    const first = await customerWrites(box.tenant, box.connectionId);
    const second = await customerWrites(box.tenant, box.connectionId);
    const third = await customerWrites(box.tenant, box.connectionId);
    const holders = [await assignedTo(first.ticketId), await assignedTo(second.ticketId)];
    expect([...holders].sort()).toEqual([a.id, b.id].sort());
    await settle();
    expect(await ticket(third.ticketId)).toMatchObject({ status: 'pending', user_id: null });
    // A closes its ticket: the third goes to A at once
    const heldByA = holders[0] === a.id ? first.ticketId : second.ticketId;
    await api(a.token, 'PUT', `/api/tickets/${heldByA}`, { status: 'closed' });
    expect(await assignedTo(third.ticketId)).toBe(a.id);
  });

  it('gives nothing to paused or offline agents, and a waiting ticket to one that resumes or comes online', async () => {
    const box = await inbox({ autoAssign: true, max: 1, agents: 3 });
    const [paused, offline, online] = box.agents as [TAgent, TAgent, TAgent];
    await goOnline(box.tenant, paused);
    const away = await api(paused.token, 'PUT', '/api/users/me/away', { away: true });
    expect(away).toEqual({ id: paused.id, away: true, online: true });
    await goOnline(box.tenant, online);
    const first = await customerWrites(box.tenant, box.connectionId);
    expect(await assignedTo(first.ticketId)).toBe(online.id);
    const second = await customerWrites(box.tenant, box.connectionId);
    await settle();
    expect(await ticket(second.ticketId)).toMatchObject({ status: 'pending', user_id: null });
    // the paused agent resumes: the waiting ticket is its own at once
    await api(paused.token, 'PUT', '/api/users/me/away', { away: false });
    expect(await assignedTo(second.ticketId)).toBe(paused.id);
    // the offline agent opens the app: the next waiting ticket is its
    const third = await customerWrites(box.tenant, box.connectionId);
    await settle();
    expect(await ticket(third.ticketId)).toMatchObject({ status: 'pending', user_id: null });
    const socket = await goOnline(box.tenant, offline);
    expect(await assignedTo(third.ticketId)).toBe(offline.id);
    // and going offline again (its last socket closed) it gets no more
    await api(box.tenant.token, 'PUT', `/api/queue/${box.queueId}`, { autoAssignMax: 2 });
    socket.disconnect();
    await until(async () => !(await sql('select online from users where id = $1', [offline.id]))[0].online, 'offline');
    const fourth = await customerWrites(box.tenant, box.connectionId);
    const fifth = await customerWrites(box.tenant, box.connectionId);
    expect([await assignedTo(fourth.ticketId), await assignedTo(fifth.ticketId)].sort()).toEqual(
      [paused.id, online.id].sort(),
    );
  });

  it("announces the assignment as an accept: out of the pending lists, into the agent's open list", async () => {
    const box = await inbox({ autoAssign: true, agents: 1 });
    const [agent] = box.agents as [TAgent];
    const socket = await goOnline(box.tenant, agent);
    const admin = await openSocket(server, box.tenant.token);
    sockets.push(admin);
    admin.emit('joinTickets', 'pending');
    admin.emit('joinTickets', 'open');
    await untilJoined(server, rooms.status(box.tenant.companyId, 'open'));
    const heardByAdmin = recordEvents(admin);
    const heardByAgent = recordEvents(socket);
    const { ticketId } = await customerWrites(box.tenant, box.connectionId);
    expect(await assignedTo(ticketId)).toBe(agent.id);
    const event = events.ticket(box.tenant.companyId);
    await heardByAdmin.waitFor(event, (p) => p.action === 'delete' && p.ticketId === ticketId && p.moved === true);
    const update = await heardByAdmin.waitFor(
      event,
      (p) => p.action === 'update' && p.ticket?.id === ticketId && p.ticket.status === 'open',
    );
    expect(update.ticket).toMatchObject({ userId: agent.id, queueId: box.queueId, status: 'open' });
    await heardByAgent.waitFor(
      event,
      (p) => p.action === 'update' && p.ticket?.id === ticketId && p.ticket.userId === agent.id,
    );
    const list = await api(agent.token, 'GET', '/api/tickets?status=open');
    expect(list.tickets.map((t: { id: number }) => t.id)).toContain(ticketId);
    // the cycle started with the agent, the messages stay unread for it
    const [cycle] = await sql(
      'select user_id, started_at is not null as started from ticket_trackings where ticket_id = $1 and finished_at is null',
      [ticketId],
    );
    expect(cycle).toEqual({ user_id: agent.id, started: true });
    expect((await sql('select unread_messages from tickets where id = $1', [ticketId]))[0].unread_messages).toBe(1);
  });

  it('waits while the options menu talks, and assigns once the customer reaches a leaf', async () => {
    const box = await inbox({ autoAssign: true, agents: 1, options: true });
    await goOnline(box.tenant, box.agents[0]!);
    const { ticketId, from } = await customerWrites(box.tenant, box.connectionId, 'oi');
    await settle();
    expect(await ticket(ticketId)).toMatchObject({ status: 'pending', user_id: null, queue_id: box.queueId });
    expect((await sql('select chatbot from tickets where id = $1', [ticketId]))[0].chatbot).toBe(true);
    await customerWrites(box.tenant, box.connectionId, '1', from);
    expect(await assignedTo(ticketId)).toBe(box.agents[0]!.id);
  });

  it('leaves a ticket an integration, a flow or an AI holds, and takes it once let go', async () => {
    const box = await inbox({ autoAssign: true, agents: 1 });
    await goOnline(box.tenant, box.agents[0]!);
    const { ticketId } = await customerWrites(box.tenant, box.connectionId);
    await assignedTo(ticketId);
    // the same ticket made to wait again, held each way in turn
    const wait = (extra: string) =>
      sql(`update tickets set status = 'pending', user_id = null, ${extra} where id = $1`, [ticketId]);
    const stillWaiting = async () => {
      await settle();
      expect(await ticket(ticketId)).toMatchObject({ status: 'pending', user_id: null });
    };
    await wait('use_integration = true');
    await stillWaiting();
    await wait('use_integration = false, flow_webhook = true');
    await stillWaiting();
    // the queue's AI answers while the plan has it and it has not handed this cycle over
    const [prompt] = await sql<{ id: number }>(
      `insert into prompts (company_id, name, prompt, api_key, queue_id) values ($1, $2, 'x', 'k', $3) returning id`,
      [box.tenant.companyId, unique('Prompt'), box.queueId],
    );
    await sql('update queues set prompt_id = $1 where id = $2', [prompt!.id, box.queueId]);
    await sql('update plans set use_open_ai = true where id = (select plan_id from companies where id = $1)', [
      box.tenant.companyId,
    ]);
    await wait('flow_webhook = false');
    await stillWaiting();
    await sql(
      `update tickets set data_webhook = jsonb_build_object('ai', jsonb_build_object('handoverCycle',
         (select id from ticket_trackings where ticket_id = $1 and finished_at is null))) where id = $1`,
      [ticketId],
    );
    await settle();
    expect(await ticket(ticketId)).toMatchObject({ status: 'open', user_id: box.agents[0]!.id });
    await sql('update plans set use_open_ai = false where id = (select plan_id from companies where id = $1)', [
      box.tenant.companyId,
    ]);
  });

  it('takes a ticket transferred or returned to the queue, and never a ticket of another company', async () => {
    const box = await inbox({ autoAssign: true, agents: 2, max: 1 });
    const other = await inbox({ autoAssign: true, agents: 1 });
    const [a, b] = box.agents as [TAgent, TAgent];
    await goOnline(box.tenant, a);
    const { ticketId } = await customerWrites(box.tenant, box.connectionId);
    expect(await assignedTo(ticketId)).toBe(a.id);
    // A returns it; B comes online first, with nothing: B gets it
    await goOnline(box.tenant, b);
    await api(a.token, 'PUT', `/api/tickets/${ticketId}`, { status: 'pending', userId: null });
    expect(await assignedTo(ticketId)).toBe(b.id);
    // another company's waiting ticket is untouched by this company's agents and sweep
    const foreign = await customerWrites(other.tenant, other.connectionId);
    await settle();
    expect(await ticket(foreign.ticketId)).toMatchObject({ status: 'pending', user_id: null });
    await goOnline(other.tenant, other.agents[0]!);
    expect(await assignedTo(foreign.ticketId)).toBe(other.agents[0]!.id);
  });
});
