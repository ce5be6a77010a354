import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeChannels } from '../../../test/channel-fake';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { deliver, inbound, insertContact, pendingTicket, setSetting, setupInbox } from '../../../test/inbox';
import { sendTicketText } from '../messages/send-message';
import { runMetricsUntilDone } from './metrics-compute';

let server: TTestServer;
let fake: ReturnType<typeof installFakeChannels>;
let inbox: Awaited<ReturnType<typeof setupInbox>>;
beforeAll(async () => {
  server = await startTestServer();
  fake = installFakeChannels(server);
  inbox = await setupInbox(server, 'Metrics');
  fake.connect(inbox.connectionId);
});
afterAll(() => server.close());

type TCycle = {
  id: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  rating_at: Date | null;
  human_at: Date | null;
  first_reply_at: Date | null;
  first_reply_user_id: number | null;
  transfers: number;
  reopened_at: Date | null;
  bot_until: Date | null;
  replies: number | null;
  first_response_s: number | null;
  first_response_bs: number | null;
  resolution_s: number | null;
  resolution_bs: number | null;
  bot_s: number | null;
  bot_bs: number | null;
  user_id: number | null;
  queue_id: number | null;
};

const cycles = async (ticketId: number) =>
  (await server.database.executeSql('select * from ticket_trackings where ticket_id = $1 order by id', [ticketId]))
    .rows as TCycle[];
const put = (token: string, id: number, body: unknown) => server.request('PUT', `/api/tickets/${id}`, { token, body });
const reply = (token: string, id: number, body: string) =>
  server.request('POST', `/api/messages/${id}`, { token, body: { body } });
const secondsBetween = (a: Date, b: Date) => Math.round((b.getTime() - a.getTime()) / 1000);
const messageTimes = async (ticketId: number, where: string) =>
  (
    (
      await server.database.executeSql(
        `select created_at from messages where ticket_id = $1 and ${where} order by id`,
        [ticketId],
      )
    ).rows as { created_at: Date }[]
  ).map((r) => r.created_at);

describe('a ticket transferred, returned to pending, resolved and reopened', () => {
  it('records each instant where it happens and computes its figures per cycle', async () => {
    const { tenant, connectionId, q1, q2, agent1, agent2 } = inbox;
    const { ticketId } = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    // a bot speaks first (a flow, the AI or a queue menu send with source 'bot')
    await sendTicketText(server.ctx, {
      companyId: tenant.companyId,
      ticketId,
      body: 'Hi, I am the bot',
      source: 'bot',
    });
    expect((await put(agent1.token, ticketId, { status: 'open' })).status).toBe(200);
    expect((await put(agent1.token, ticketId, { status: 'pending', userId: null })).status).toBe(200);
    expect((await put(agent1.token, ticketId, { status: 'open' })).status).toBe(200);
    // to another queue (back to pending), then the admin gives it to agent 1 and moves it to agent 2
    expect((await put(agent1.token, ticketId, { queueId: q2, userId: null, status: 'pending' })).status).toBe(200);
    expect((await put(tenant.token, ticketId, { status: 'open', userId: agent1.id })).status).toBe(200);
    expect((await put(tenant.token, ticketId, { userId: agent2.id })).status).toBe(200);
    let [cycle] = await cycles(ticketId);
    expect(cycle.transfers).toBe(2);
    expect(cycle.human_at).not.toBeNull();
    expect(cycle.first_reply_at).toBeNull();
    // nothing is due before a reply or a resolution
    expect(await runMetricsUntilDone(server.ctx)).toEqual({ backfilled: 0, computed: 0 });

    // a private-free agent conversation: two replies by agent 2, then the close
    expect((await reply(agent2.token, ticketId, 'first answer')).status).toBe(201);
    [cycle] = await cycles(ticketId);
    const [firstAgentMessage] = await messageTimes(ticketId, "source = 'agent'");
    expect(cycle.first_reply_at).toEqual(firstAgentMessage);
    expect(cycle.first_reply_user_id).toBe(agent2.id);
    expect((await reply(agent2.token, ticketId, 'second answer')).status).toBe(201);
    expect((await cycles(ticketId))[0].first_reply_at).toEqual(firstAgentMessage);
    // the first response is measured at once, the resolution not yet
    expect(await runMetricsUntilDone(server.ctx)).toEqual({ backfilled: 0, computed: 1 });
    [cycle] = await cycles(ticketId);
    const [botMessage] = await messageTimes(ticketId, "source = 'bot'");
    expect(cycle.bot_until).toEqual(botMessage);
    expect(cycle.first_response_s).toBe(secondsBetween(botMessage, firstAgentMessage));
    expect(cycle.resolution_s).toBeNull();

    expect((await put(agent2.token, ticketId, { status: 'closed' })).status).toBe(200);
    expect(await runMetricsUntilDone(server.ctx)).toEqual({ backfilled: 0, computed: 1 });
    [cycle] = await cycles(ticketId);
    expect(cycle.finished_at).not.toBeNull();
    expect(cycle.replies).toBe(2);
    expect(cycle.resolution_s).toBe(secondsBetween(cycle.created_at, cycle.finished_at!));
    expect(cycle.bot_s).toBe(secondsBetween(cycle.created_at, cycle.human_at!));
    expect(cycle.human_at!.getTime()).toBeLessThanOrEqual(firstAgentMessage.getTime());
    // no working hours set (scheduleType disabled): business time is wall-clock time
    expect(cycle.first_response_bs).toBe(cycle.first_response_s);
    expect(cycle.resolution_bs).toBe(cycle.resolution_s);
    expect(cycle.bot_bs).toBe(cycle.bot_s);
    expect(cycle.reopened_at).toBeNull();

    // reopened by the agent: a new cycle, and the resolved one knows it was reopened
    expect((await put(agent2.token, ticketId, { status: 'open' })).status).toBe(200);
    const [first, second] = await cycles(ticketId);
    expect(first.reopened_at).not.toBeNull();
    expect(Math.abs(first.reopened_at!.getTime() - second.created_at.getTime())).toBeLessThan(2_000);
    expect(second.human_at).not.toBeNull();
    expect(second.first_reply_at).toBeNull();
    expect(second.transfers).toBe(0);
    // the new cycle's own first reply
    expect((await reply(agent2.token, ticketId, 'welcome back')).status).toBe(201);
    await runMetricsUntilDone(server.ctx);
    const [, again] = await cycles(ticketId);
    expect(again.first_reply_user_id).toBe(agent2.id);
    expect(again.first_response_s).toBe(secondsBetween(again.created_at, again.first_reply_at!));
    expect(again.bot_s).toBeNull();
  });

  it('a closed ticket reopened by the customer within the window marks the cycle reopened', async () => {
    const { tenant, connectionId, q1, agent1 } = inbox;
    await setSetting(server, tenant, 'reopenWindowMinutes', '30');
    const { ticketId, contact } = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    await put(agent1.token, ticketId, { status: 'open' });
    await put(agent1.token, ticketId, { status: 'closed' });
    const next = await deliver(server, inbound(connectionId, contact.number, { body: 'one more thing' }));
    expect(next!.ticket.id).toBe(ticketId);
    const [first, second] = await cycles(ticketId);
    expect(first.reopened_at).not.toBeNull();
    expect(second.finished_at).toBeNull();
    await runMetricsUntilDone(server.ctx);
    const [measured] = await cycles(ticketId);
    // resolved without a reply: no first response, no replies, no bot
    expect(measured.first_response_s).toBeNull();
    expect(measured.replies).toBe(0);
    expect(measured.bot_s).toBeNull();
    expect(measured.resolution_s).toBe(secondsBetween(measured.created_at, measured.finished_at!));
    await setSetting(server, tenant, 'reopenWindowMinutes', '0');
  });

  it('the rating request is the resolution; bot and private messages are not replies', async () => {
    const { tenant, connectionId, q1, agent1 } = inbox;
    await setSetting(server, tenant, 'userRating', 'enabled');
    const { ticketId } = await pendingTicket(server, tenant, connectionId, { queueId: q1 });
    await put(agent1.token, ticketId, { status: 'open' });
    await reply(agent1.token, ticketId, 'hello there');
    await server.database.executeSql(
      `insert into messages (company_id, ticket_id, from_me, source, body, is_private, user_id)
       values ($1, $2, true, 'agent', 'a note', true, $3)`,
      [tenant.companyId, ticketId, agent1.id],
    );
    await sendTicketText(server.ctx, { companyId: tenant.companyId, ticketId, body: 'bot later', source: 'bot' });
    await put(agent1.token, ticketId, { status: 'closed' });
    let [cycle] = await cycles(ticketId);
    expect(cycle.rating_at).not.toBeNull();
    expect(cycle.finished_at).toBeNull();
    await runMetricsUntilDone(server.ctx);
    [cycle] = await cycles(ticketId);
    expect(cycle.replies).toBe(1);
    expect(cycle.resolution_s).toBe(secondsBetween(cycle.created_at, cycle.rating_at!));
    // the bot spoke only after a person acted: not bot time, and the wait started with the cycle
    expect(cycle.bot_s).toBeNull();
    expect(cycle.first_response_s).toBe(secondsBetween(cycle.created_at, cycle.first_reply_at!));
    await setSetting(server, tenant, 'userRating', 'disabled');
  });
});

describe('business time of the figures (instants fixed, the settings as they are)', () => {
  const HOUR = 3600;
  // São Paulo (the company's zone, UTC−3): Friday 17:00 → Monday 09:00 first reply → Monday 10:00 resolution
  const created = '2025-01-10T17:00:00-03:00';
  const firstReply = '2025-01-13T09:00:00-03:00';
  const resolved = '2025-01-13T10:00:00-03:00';
  const officeWeek = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => ({
    weekday: d,
    weekdayEn: d,
    startTime: d === 'saturday' || d === 'sunday' ? '00:00' : '08:00',
    endTime: d === 'saturday' || d === 'sunday' ? '00:00' : '18:00',
  }));

  const measured = async (tenantCompanyId: number, queueId: number | null) => {
    const contact = await insertContact(server, tenantCompanyId);
    const { rows } = await server.database.executeSql(
      `with t as (insert into tickets (company_id, contact_id, status, queue_id) values ($1, $2, 'closed', $3) returning id)
       insert into ticket_trackings (company_id, ticket_id, queue_id, created_at, human_at, first_reply_at, finished_at)
       select $1, t.id, $3, $4, $5, $5, $6 from t returning id, ticket_id`,
      [tenantCompanyId, contact.id, queueId, created, firstReply, resolved],
    );
    await runMetricsUntilDone(server.ctx);
    const [cycle] = await cycles((rows[0] as { ticket_id: number }).ticket_id);

    return cycle;
  };

  it('company hours: the weekend and the nights do not count, the wall clock does', async () => {
    const { tenant } = await setupInbox(server, 'Hours');
    const saved = await server.request('PUT', `/api/companies/${tenant.companyId}/schedules`, {
      token: tenant.token,
      body: { schedules: officeWeek },
    });
    expect(saved.status).toBe(200);
    await setSetting(server, tenant, 'scheduleType', 'company');
    const cycle = await measured(tenant.companyId, null);
    expect(cycle.first_response_s).toBe(64 * HOUR);
    expect(cycle.first_response_bs).toBe(2 * HOUR);
    expect(cycle.resolution_s).toBe(65 * HOUR);
    expect(cycle.resolution_bs).toBe(3 * HOUR);
  });

  it("queue hours: the cycle's queue's own week; disabled: every hour", async () => {
    const { tenant, q1 } = await setupInbox(server, 'Queue hours');
    await server.database.executeSql('update queues set schedules = $1 where id = $2', [
      JSON.stringify(officeWeek.map((d) => ({ ...d, startTime: d.startTime === '08:00' ? '09:30' : d.startTime }))),
      q1,
    ]);
    await setSetting(server, tenant, 'scheduleType', 'queue');
    const inQueue = await measured(tenant.companyId, q1);
    // Friday 17:00–18:00 and Monday 09:30–09:00 (nothing): 1 h; resolution adds Monday 09:30–10:00
    expect(inQueue.first_response_bs).toBe(1 * HOUR);
    expect(inQueue.resolution_bs).toBe(1.5 * HOUR);
    // no queue: no hours of its own, every hour counts
    const noQueue = await measured(tenant.companyId, null);
    expect(noQueue.first_response_bs).toBe(64 * HOUR);
    await setSetting(server, tenant, 'scheduleType', 'disabled');
    const disabled = await measured(tenant.companyId, q1);
    expect(disabled.resolution_bs).toBe(65 * HOUR);
  });
});

describe('the backfill of cycles written before the metrics', () => {
  it('reads first replies, first actions and reopenings from the history, then measures them', async () => {
    const { tenant, connectionId, agent1 } = await setupInbox(server, 'History');
    const contact = await insertContact(server, tenant.companyId);
    const q = (text: string, values: unknown[]) => server.database.executeSql(text, values);
    const ticket = (
      (
        await q(
          `insert into tickets (company_id, contact_id, whatsapp_id, status, user_id) values ($1, $2, $3, 'open', $4)
           returning id`,
          [tenant.companyId, contact.id, connectionId, agent1.id],
        )
      ).rows[0] as { id: number }
    ).id;
    const at = (minutes: number) => new Date(Date.parse('2025-03-03T12:00:00Z') + minutes * 60_000).toISOString();
    // cycle 1: customer at 0, bot at 1, accepted at 5, agent at 7 and 9, finished at 20; cycle 2 starts at 30
    await q(
      `insert into ticket_trackings (company_id, ticket_id, user_id, created_at, started_at, finished_at, metrics_backfill)
       values ($1, $2, $3, $4, $5, $6, true), ($1, $2, $3, $7, $7, null, true)`,
      [tenant.companyId, ticket, agent1.id, at(0), at(5), at(20), at(30)],
    );
    const message = (minutes: number, source: string, fromMe: boolean, userId: number | null = null) =>
      q(
        `insert into messages (company_id, ticket_id, from_me, source, body, user_id, created_at)
         values ($1, $2, $3, $4, 'x', $5, $6)`,
        [tenant.companyId, ticket, fromMe, source, userId, at(minutes)],
      );
    await message(0, 'customer', false);
    await message(1, 'bot', true);
    await message(7, 'agent', true, agent1.id);
    await message(9, 'agent', true, agent1.id);
    await message(31, 'customer', false);
    await message(34, 'agent', true, agent1.id);

    const done = await runMetricsUntilDone(server.ctx, 1);
    expect(done.backfilled).toBeGreaterThanOrEqual(2);
    const [first, second] = await cycles(ticket);
    expect(first).toMatchObject({
      first_reply_user_id: agent1.id,
      replies: 2,
      first_response_s: 6 * 60, // from the bot's last word (1) to the reply (7)
      resolution_s: 20 * 60,
      bot_s: 5 * 60, // until the accept
    });
    expect(first.first_reply_at).toEqual(new Date(at(7)));
    expect(first.human_at).toEqual(new Date(at(5)));
    expect(first.reopened_at).toEqual(new Date(at(30)));
    expect(second.first_reply_at).toEqual(new Date(at(34)));
    expect(second.first_response_s).toBe(4 * 60);
    expect(second.reopened_at).toBeNull();
    expect((await q('select count(*)::int as n from ticket_trackings where metrics_backfill', [])).rows[0]).toEqual({
      n: 0,
    });
  });
});
