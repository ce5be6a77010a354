import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeChannels } from '../../../test/channel-fake';
import { openSocket, recordEvents } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { pendingTicket, setupInbox } from '../../../test/inbox';
import { slaPass } from './sla-checker';

let server: TTestServer;
let fake: ReturnType<typeof installFakeChannels>;
beforeAll(async () => {
  server = await startTestServer();
  fake = installFakeChannels(server);
});
afterAll(() => server.close());

type TSlaRow = {
  sla_started_at: Date | string;
  sla_first_response_due_at: Date | string | null;
  sla_resolution_due_at: Date | string | null;
  sla_first_response_at: Date | string | null;
  sla_first_response_breached_at: Date | string | null;
  sla_first_response_met: boolean | null;
  sla_resolution_met: boolean | null;
  sla_dirty: boolean;
};
const slaRow = async (ticketId: number) =>
  (
    await server.database.executeSql(
      `select sla_started_at, sla_first_response_due_at, sla_resolution_due_at, sla_first_response_at,
        sla_first_response_breached_at, sla_first_response_met, sla_resolution_met, sla_dirty
       from tickets where id = $1`,
      [ticketId],
    )
  ).rows[0] as TSlaRow;
const ms = (v: Date | string | null) => (v === null ? null : new Date(v).getTime());

describe('service-level targets on tickets', () => {
  it('a ticket crossing its first-response target is stamped and notified once, to its agent and the admins', async () => {
    const inbox = await setupInbox(server, 'Sla');
    const { tenant, q1, agent1, agentQ2 } = inbox;
    fake.connect(inbox.connectionId);
    const put = await server.request('PUT', `/api/queue/${q1}`, {
      token: tenant.token,
      body: { slaFirstResponseMinutes: 1, slaResolutionHours: 2 },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ slaFirstResponseMinutes: 1, slaResolutionHours: 2 });
    const { ticketId } = await pendingTicket(server, tenant, inbox.connectionId, { queueId: q1 });
    expect((await slaRow(ticketId)).sla_dirty).toBe(true);

    await slaPass(server.ctx);
    const row = await slaRow(ticketId);
    expect(row.sla_dirty).toBe(false);
    // no working hours set: every minute counts
    expect(ms(row.sla_first_response_due_at)).toBe(ms(row.sla_started_at)! + 60_000);
    expect(ms(row.sla_resolution_due_at)).toBe(ms(row.sla_started_at)! + 2 * 3_600_000);
    const shown = await server.request('GET', `/api/tickets/${ticketId}`, { token: tenant.token });
    expect(shown.body.sla.firstResponseDueAt).toBe(new Date(row.sla_first_response_due_at!).toISOString());

    await server.request('PUT', `/api/tickets/${ticketId}`, {
      token: agent1.token,
      body: { status: 'open', userId: agent1.id },
    });
    const sockets = await Promise.all([tenant.token, agent1.token, agentQ2.token].map((t) => openSocket(server, t)));
    const [admin, agent, other] = sockets.map(recordEvents);
    try {
      await new Promise((r) => setTimeout(r, 150));
      const event = `company-${tenant.companyId}-sla`;
      const later = new Date(ms(row.sla_first_response_due_at)! + 1000);
      // two checks at once (two nodes): one claim
      const passes = await Promise.all([slaPass(server.ctx, later), slaPass(server.ctx, later)]);
      const mine = passes.flatMap((p) => p.breaches).filter((b) => b.breach.id === ticketId);
      expect(mine.map((b) => b.kind)).toEqual(['firstResponse']);
      const heard = await agent!.waitFor(event, (p) => p.ticketId === ticketId);
      expect(heard).toMatchObject({ action: 'breach', kind: 'firstResponse', userId: agent1.id, queueId: q1 });
      await admin!.waitFor(event, (p) => p.ticketId === ticketId);
      // a third check finds nothing new
      expect((await slaPass(server.ctx, later)).breaches.filter((b) => b.breach.id === ticketId)).toEqual([]);
      await new Promise((r) => setTimeout(r, 150));
      expect(agent!.heard.filter((h) => h.event === event)).toHaveLength(1);
      expect(admin!.heard.filter((h) => h.event === event)).toHaveLength(1);
      expect(other!.heard.filter((h) => h.event === event)).toEqual([]);
      const breached = await slaRow(ticketId);
      expect(breached.sla_first_response_breached_at).not.toBeNull();
      expect(breached.sla_first_response_met).toBe(false);

      // the late reply is recorded, still missed; closing within the resolution target meets it
      const sent = await server.request('POST', `/api/messages/${ticketId}`, {
        token: agent1.token,
        body: { body: 'hello, late' },
      });
      expect(sent.status).toBeLessThan(300);
      const replied = await slaRow(ticketId);
      expect(replied.sla_first_response_at).not.toBeNull();
      expect(replied.sla_first_response_met).toBe(false);
      await server.request('PUT', `/api/tickets/${ticketId}`, { token: agent1.token, body: { status: 'closed' } });
      expect((await slaRow(ticketId)).sla_resolution_met).toBe(true);

      // reopened: a new cycle, its figures cleared and its due times computed again
      await server.request('PUT', `/api/tickets/${ticketId}`, { token: tenant.token, body: { status: 'pending' } });
      const reopened = await slaRow(ticketId);
      expect(reopened).toMatchObject({
        sla_dirty: true,
        sla_first_response_at: null,
        sla_first_response_breached_at: null,
        sla_first_response_met: null,
        sla_resolution_met: null,
      });
      expect(ms(reopened.sla_started_at)).toBeGreaterThan(ms(row.sla_started_at)!);
    } finally {
      for (const s of sockets) s.disconnect();
    }
  });

  it('a reply within target meets it; a changed target applies to the open tickets from the change on', async () => {
    const inbox = await setupInbox(server, 'Sla2');
    const { tenant, q1, agent1 } = inbox;
    fake.connect(inbox.connectionId);
    // the company default applies while the queue has none of its own
    expect(
      (
        await server.request('PUT', '/api/settings/slaFirstResponseMinutes', {
          token: tenant.token,
          body: { value: '30' },
        })
      ).status,
    ).toBe(200);
    const { ticketId } = await pendingTicket(server, tenant, inbox.connectionId, { queueId: q1 });
    await slaPass(server.ctx);
    const first = await slaRow(ticketId);
    expect(ms(first.sla_first_response_due_at)).toBe(ms(first.sla_started_at)! + 30 * 60_000);
    expect(first.sla_resolution_due_at).toBeNull();

    // the queue's own target wins, for the open ticket too, from the same cycle start
    await server.request('PUT', `/api/queue/${q1}`, { token: tenant.token, body: { slaFirstResponseMinutes: 10 } });
    expect((await slaRow(ticketId)).sla_dirty).toBe(true);
    await slaPass(server.ctx);
    const changed = await slaRow(ticketId);
    expect(ms(changed.sla_first_response_due_at)).toBe(ms(first.sla_started_at)! + 10 * 60_000);

    await server.request('PUT', `/api/tickets/${ticketId}`, {
      token: agent1.token,
      body: { status: 'open', userId: agent1.id },
    });
    await server.request('POST', `/api/messages/${ticketId}`, { token: agent1.token, body: { body: 'hi' } });
    const answered = await slaRow(ticketId);
    expect(answered.sla_first_response_met).toBe(true);
    // an answered ticket is never claimed as a first-response breach
    const far = new Date(Date.now() + 86_400_000);
    expect((await slaPass(server.ctx, far)).breaches.filter((b) => b.breach.id === ticketId)).toEqual([]);
  });

  it('each cycle keeps its outcome after a reopening, and the reports count the share within target', async () => {
    const inbox = await setupInbox(server, 'SlaShare');
    const { tenant, q1, agent1 } = inbox;
    fake.connect(inbox.connectionId);
    await server.request('PUT', `/api/queue/${q1}`, {
      token: tenant.token,
      body: { slaFirstResponseMinutes: 1, slaResolutionHours: 2 },
    });
    const { ticketId } = await pendingTicket(server, tenant, inbox.connectionId, { queueId: q1 });
    const accept = () =>
      server.request('PUT', `/api/tickets/${ticketId}`, {
        token: agent1.token,
        body: { status: 'open', userId: agent1.id },
      });
    const reply = () =>
      server.request('POST', `/api/messages/${ticketId}`, { token: agent1.token, body: { body: 'oi' } });
    const close = () =>
      server.request('PUT', `/api/tickets/${ticketId}`, { token: agent1.token, body: { status: 'closed' } });

    // cycle 1: answered and resolved within target
    await slaPass(server.ctx);
    await accept();
    await reply();
    await close();
    // cycle 2 (reopened): the first response is missed, the resolution met
    await server.request('PUT', `/api/tickets/${ticketId}`, { token: tenant.token, body: { status: 'pending' } });
    await slaPass(server.ctx);
    await accept();
    const due = ms((await slaRow(ticketId)).sla_first_response_due_at)!;
    await slaPass(server.ctx, new Date(due + 1000));
    await reply();
    await close();

    const { rows } = await server.database.executeSql(
      'select sla_first_response_met as fr, sla_resolution_met as res from ticket_trackings where ticket_id = $1 order by id',
      [ticketId],
    );
    expect(rows).toEqual([
      { fr: true, res: true },
      { fr: false, res: true },
    ]);
    const summary = await server.request('GET', '/api/reports/summary', { token: tenant.token });
    expect(summary.body.sla).toEqual({
      firstResponse: { decided: 2, met: 1, share: 0.5 },
      resolution: { decided: 2, met: 2, share: 1 },
    });
    const queues = await server.request('GET', '/api/reports/queues', { token: tenant.token });
    const row = (queues.body.rows as { queueId: number; sla: unknown }[]).find((r) => r.queueId === q1);
    expect(row?.sla).toEqual(summary.body.sla);
  });

  it('bad targets are refused with a validation error', async () => {
    const inbox = await setupInbox(server, 'Sla3');
    const bad = await server.request('PUT', `/api/queue/${inbox.q1}`, {
      token: inbox.tenant.token,
      body: { slaFirstResponseMinutes: -3 },
    });
    expect(bad.status).toBe(400);
    const badSetting = await server.request('PUT', '/api/settings/slaResolutionHours', {
      token: inbox.tenant.token,
      body: { value: 'soon' },
    });
    expect(badSetting.status).toBe(400);
  });
});
