import { rooms } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeChannels } from '../../../test/channel-fake';
import {
  createPlan,
  countRows,
  insertConnection,
  openSocket,
  recordEvents,
  type TTenant,
  untilJoined,
} from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { insertContact, insertDefaultConnection, setSetting } from '../../../test/inbox';
import { clientIdOfSchedule, createScheduleSender } from './schedule-sender';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let server: TTestServer;
let tenant: TTenant;
let channels: ReturnType<typeof installFakeChannels>;
let connectionId: number;
beforeAll(async () => {
  server = await startTestServer();
  channels = installFakeChannels(server);
  tenant = await server.createTenant();
  connectionId = await insertDefaultConnection(server, tenant.companyId);
  channels.connect(connectionId);
});
afterAll(() => server.close());

/** a clock the test moves */
const clock = (start: number) => {
  let t = start;
  return {
    now: () => new Date(t),
    set: (ms: number) => {
      t = ms;
    },
    add: (ms: number) => {
      t += ms;
    },
  };
};

const schedule = async (fields: Record<string, unknown>, token = tenant.token) => {
  const res = await server.request('POST', '/api/schedules', {
    token,
    body: { body: 'Your order is ready', ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body as { id: number; sendAt: string };
};

const row = async (id: number) =>
  (
    await server.database.executeSql(
      'select status, sent_at, error_message, ticket_id, job_id from schedules where id = $1',
      [id],
    )
  ).rows[0] as { status: string; sent_at: Date | null; error_message: string | null; ticket_id: number | null };

const messagesOf = (id: number) =>
  countRows(server, 'select count(*) as n from messages where client_id = $1', [clientIdOfSchedule(id)]);

describe('the schedule sender (injected clock)', () => {
  it('sends at sendAt, not before, once, into the contact ticket history, as ENVIADA with sentAt', async () => {
    const contact = await insertContact(server, tenant.companyId, { name: 'Dora' });
    const at = Date.UTC(2040, 0, 1, 12);
    const s = await schedule({
      contactId: contact.id,
      sendAt: new Date(at).toISOString(),
      body: 'Hello {{name}}, see you',
    });
    const c = clock(at - 1000);
    const sender = createScheduleSender(server.ctx, { now: c.now });
    expect(await sender.runDue()).toBe(0);
    expect((await row(s.id)).status).toBe('PENDENTE');
    expect(channels.texts(contact.number)).toEqual([]);
    c.set(at);
    expect(await sender.runDue()).toBe(1);
    const done = await row(s.id);
    expect(done).toMatchObject({ status: 'ENVIADA', error_message: null });
    expect(new Date(done.sent_at!).getTime()).toBe(at);
    expect(channels.texts(contact.number)).toEqual(['Hello Dora, see you']);
    // in the ticket's history like an agent's message, by the schedule's author
    const { rows } = await server.database.executeSql(
      'select m.ticket_id, m.from_me, m.source, m.user_id, t.contact_id, t.whatsapp_id from messages m join tickets t on t.id = m.ticket_id where m.client_id = $1',
      [clientIdOfSchedule(s.id)],
    );
    expect(rows).toEqual([
      {
        ticket_id: done.ticket_id,
        from_me: true,
        source: 'agent',
        user_id: tenant.user.id,
        contact_id: contact.id,
        whatsapp_id: connectionId,
      },
    ]);
    c.add(60_000);
    expect(await sender.runDue()).toBe(0);
    expect(channels.texts(contact.number)).toHaveLength(1);
  });

  it('at start after downtime: due within 24 h is sent, older is ERRO "late"', async () => {
    const contact = await insertContact(server, tenant.companyId);
    const start = Date.UTC(2041, 5, 1, 12);
    const recent = await schedule({ contactId: contact.id, sendAt: new Date(start - 23 * 3_600_000).toISOString() });
    const old = await schedule({ contactId: contact.id, sendAt: new Date(start - 25 * 3_600_000).toISOString() });
    const sender = createScheduleSender(server.ctx, { now: () => new Date(start) });
    await sender.runDue();
    expect(await row(recent.id)).toMatchObject({ status: 'ENVIADA' });
    expect(await row(old.id)).toMatchObject({ status: 'ERRO', error_message: 'late', sent_at: null });
    expect(await messagesOf(old.id)).toBe(0);
    expect(channels.texts(contact.number)).toHaveLength(1);
  });

  it('ERRO paths: a disconnected connection, a failed send, a plan without useSchedules', async () => {
    const at = Date.UTC(2042, 0, 1);
    const sender = createScheduleSender(server.ctx, { now: () => new Date(at) });
    const offline = await insertConnection(server, tenant.companyId);
    const a = await insertContact(server, tenant.companyId);
    const s1 = await schedule({ contactId: a.id, sendAt: new Date(at).toISOString(), whatsappId: offline });
    await sender.runDue();
    expect(await row(s1.id)).toMatchObject({
      status: 'ERRO',
      error_message: 'ERR_WAPP_NOT_INITIALIZED',
      sent_at: null,
    });

    const b = await insertContact(server, tenant.companyId);
    const s2 = await schedule({ contactId: b.id, sendAt: new Date(at).toISOString(), whatsappId: connectionId });
    channels.failNext(1);
    await sender.runDue();
    expect(await row(s2.id)).toMatchObject({ status: 'ERRO', error_message: 'ERR_SENDING_WAPP_MSG' });
    // the failed message stays in the history, marked failed, like any failed agent message
    expect(await messagesOf(s2.id)).toBe(1);

    const other = await server.createTenant();
    const otherConn = await insertDefaultConnection(server, other.companyId);
    channels.connect(otherConn);
    const c = await insertContact(server, other.companyId);
    const s3 = await schedule({ contactId: c.id, sendAt: new Date(at).toISOString() }, other.token);
    const superToken = (await server.superLogin()).token;
    const plan = await createPlan(server, superToken, { useSchedules: false });
    await server.request('PUT', `/api/companies/${other.companyId}`, { token: superToken, body: { planId: plan.id } });
    await sender.runDue();
    expect(await row(s3.id)).toMatchObject({ status: 'ERRO', error_message: 'planDisabled' });
    expect(channels.texts(c.number)).toEqual([]);
  });

  it('defaults to the connection of the contact last ticket, reopening nothing it should not; sends the image', async () => {
    const at = Date.UTC(2043, 0, 1);
    const second = await insertConnection(server, tenant.companyId);
    channels.connect(second);
    const contact = await insertContact(server, tenant.companyId);
    const { rows } = await server.database.executeSql(
      "insert into tickets (company_id, contact_id, whatsapp_id, status, closed_at) values ($1, $2, $3, 'closed', now()) returning id",
      [tenant.companyId, contact.id, second],
    );
    const closedId = (rows[0] as { id: number }).id;
    const s = await schedule({ contactId: contact.id, sendAt: new Date(at).toISOString(), body: 'Here is the photo' });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'photo.png');
    const up = await fetch(`${server.url}/api/schedules/${s.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}` },
      body: form,
    });
    expect(up.status).toBe(200);
    await createScheduleSender(server.ctx, { now: () => new Date(at) }).runDue();
    const done = await row(s.id);
    expect(done.status).toBe('ENVIADA');
    const sent = channels.sent.filter((x) => x.to === contact.number);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ connectionId: second, op: 'media', body: 'Here is the photo' });
    expect(sent[0].media?.mimetype).toBe('image/png');
    // no reopen window set: a new ticket on that connection, the closed one left closed
    const { rows: t } = await server.database.executeSql('select id, whatsapp_id, status from tickets where id = $1', [
      done.ticket_id,
    ]);
    expect(t[0]).toMatchObject({ whatsapp_id: second });
    expect(done.ticket_id).not.toBe(closedId);
  });

  it('a batch: one new pending ticket per new contact (announced), shared by its two schedules; an open ticket used; a recent closed one reopened', async () => {
    const at = Date.UTC(2045, 0, 1);
    const t = await server.createTenant();
    const conn = await insertDefaultConnection(server, t.companyId);
    channels.connect(conn);
    await setSetting(server, t, 'reopenWindowMinutes', '30');
    // one after another: the expectations below list the contacts in id order
    const ana = await insertContact(server, t.companyId, { name: 'Ana' });
    const bia = await insertContact(server, t.companyId, { name: 'Bia' });
    const caio = await insertContact(server, t.companyId, { name: 'Caio' });
    const duda = await insertContact(server, t.companyId, { name: 'Duda' });
    const ticket = async (contactId: number, status: string, closedAt: string | null) =>
      (
        (
          await server.database.executeSql(
            'insert into tickets (company_id, contact_id, whatsapp_id, status, closed_at) values ($1, $2, $3, $4, $5) returning id',
            [t.companyId, contactId, conn, status, closedAt],
          )
        ).rows[0] as { id: number }
      ).id;
    const open = await ticket(caio!.id, 'open', null);
    const closed = await ticket(duda!.id, 'closed', new Date().toISOString());
    const made: { id: number; contactId: number }[] = [];
    for (const [contact, body] of [
      [ana!, 'Hello Ana, first'],
      [ana!, 'Hello Ana, second'],
      [bia!, 'Hello Bia'],
      [caio!, 'Hello Caio'],
      [duda!, 'Hello Duda'],
    ] as const) {
      const s = await schedule(
        { contactId: contact.id, whatsappId: conn, sendAt: new Date(at).toISOString(), body },
        t.token,
      );
      made.push({ id: s.id, contactId: contact.id });
    }
    const socket = await openSocket(server, t.token);
    const heard = recordEvents(socket);
    try {
      await untilJoined(server, rooms.admins(t.companyId));
      // the inbox's pending list, where new and reopened tickets show
      socket.emit('joinTickets', 'pending');
      await untilJoined(server, rooms.status(t.companyId, 'pending'));
      expect(await createScheduleSender(server.ctx, { now: () => new Date(at) }).runDue()).toBe(5);
      const done = await Promise.all(made.map(async (m) => ({ ...m, ...(await row(m.id)) })));
      expect(done.map((d) => d.status)).toEqual(['ENVIADA', 'ENVIADA', 'ENVIADA', 'ENVIADA', 'ENVIADA']);
      const ticketOf = (contactId: number) => done.filter((d) => d.contactId === contactId).map((d) => d.ticket_id);
      const [anaTicket] = ticketOf(ana!.id);
      expect(ticketOf(ana!.id)).toEqual([anaTicket, anaTicket]);
      expect(ticketOf(caio!.id)).toEqual([open]);
      expect(ticketOf(duda!.id)).toEqual([closed]);
      const { rows } = await server.database.executeSql(
        'select contact_id, status, count(*)::int as n from tickets where company_id = $1 group by contact_id, status order by contact_id',
        [t.companyId],
      );
      expect(rows).toEqual([
        { contact_id: ana!.id, status: 'pending', n: 1 },
        { contact_id: bia!.id, status: 'pending', n: 1 },
        { contact_id: caio!.id, status: 'open', n: 1 },
        { contact_id: duda!.id, status: 'pending', n: 1 },
      ]);
      // each message in its ticket's history, the new tickets with their first attendance cycle
      expect(channels.texts(ana!.number)).toEqual(['Hello Ana, first', 'Hello Ana, second']);
      expect(
        await countRows(server, 'select count(*) as n from messages where ticket_id = $1 and from_me', [anaTicket]),
      ).toBe(2);
      expect(
        await countRows(server, 'select count(*) as n from ticket_trackings where ticket_id = $1', [anaTicket]),
      ).toBe(1);
      // the inbox hears of the new and the reopened tickets, the calendar of every outcome
      for (const id of [anaTicket, ...ticketOf(bia!.id), closed]) {
        await heard.waitFor(`company-${t.companyId}-ticket`, (p) => p.action === 'update' && p.ticket.id === id);
      }
      for (const m of made) {
        await heard.waitFor(
          `company-${t.companyId}-schedule`,
          (p) => p.action === 'update' && p.schedule.id === m.id && p.schedule.status === 'ENVIADA',
        );
      }
    } finally {
      socket.close();
    }
  });

  it('two concurrent runners send each due schedule once', async () => {
    const at = Date.UTC(2044, 0, 1);
    const contact = await insertContact(server, tenant.companyId);
    const ids: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      ids.push(
        (await schedule({ contactId: contact.id, sendAt: new Date(at).toISOString(), body: `Message ${i}` })).id,
      );
    }
    const a = createScheduleSender(server.ctx, { now: () => new Date(at), batch: 3, concurrency: 2 });
    const b = createScheduleSender(server.ctx, { now: () => new Date(at), batch: 3, concurrency: 2 });
    const [na, nb] = await Promise.all([a.runDue(), b.runDue()]);
    const { rows: states } = await server.database.executeSql(
      'select id, status, error_message from schedules where id = any($1::int[])',
      [ids],
    );
    expect(states.filter((r) => (r as { status: string }).status !== 'ENVIADA')).toEqual([]);
    expect(na + nb).toBe(12);
    const texts = channels.texts(contact.number);
    expect(texts).toHaveLength(12);
    expect(new Set(texts).size).toBe(12);
    for (const id of ids) expect(await messagesOf(id)).toBe(1);
  });

  it('a claim left by a crashed node is taken over after the lease without storing or sending twice', async () => {
    const at = Date.UTC(2045, 0, 1);
    const contact = await insertContact(server, tenant.companyId);
    const s = await schedule({ contactId: contact.id, sendAt: new Date(at).toISOString() });
    // the node sent it and died before recording the outcome
    await createScheduleSender(server.ctx, { now: () => new Date(at) }).runDue();
    await server.database.executeSql(
      "update schedules set status = 'AGENDADA', sent_at = null, job_id = 'dead-node', updated_at = $2 where id = $1",
      [s.id, new Date(at)],
    );
    const c = clock(at + 60_000);
    const sender = createScheduleSender(server.ctx, { now: c.now, leaseMs: 5 * 60_000 });
    expect(await sender.runDue()).toBe(0); // the lease still runs
    c.add(5 * 60_000);
    expect(await sender.runDue()).toBe(1);
    expect(await row(s.id)).toMatchObject({ status: 'ENVIADA' });
    expect(channels.texts(contact.number)).toHaveLength(1);
    expect(await messagesOf(s.id)).toBe(1);
  });

  it('a stored message the channel never confirmed is sent once more as the same row', async () => {
    const at = Date.UTC(2046, 0, 1);
    const contact = await insertContact(server, tenant.companyId);
    const s = await schedule({ contactId: contact.id, sendAt: new Date(at).toISOString() });
    await createScheduleSender(server.ctx, { now: () => new Date(at) }).runDue();
    channels.sent.splice(0, channels.sent.length);
    // as if the node died between storing and sending
    await server.database.executeSql('update messages set external_id = null, ack = 1 where client_id = $1', [
      clientIdOfSchedule(s.id),
    ]);
    await server.database.executeSql(
      "update schedules set status = 'AGENDADA', sent_at = null, job_id = 'dead', updated_at = $2 where id = $1",
      [s.id, new Date(at - 3_600_000)],
    );
    await createScheduleSender(server.ctx, { now: () => new Date(at) }).runDue();
    expect(await row(s.id)).toMatchObject({ status: 'ENVIADA' });
    expect(channels.texts(contact.number)).toHaveLength(1);
    expect(await messagesOf(s.id)).toBe(1);
  });
});

describe('the schedule sender pauses a company past its due date (issue 13)', () => {
  it('leaves its due schedule PENDENTE and unsent, and sends it once the company has paid', async () => {
    const late = await server.createTenant('Late payer');
    const lateConnection = await insertDefaultConnection(server, late.companyId);
    channels.connect(lateConnection);
    const contact = await insertContact(server, late.companyId, { name: 'Eva' });
    const s = await schedule({ contactId: contact.id, sendAt: new Date(Date.now() - 1000).toISOString() }, late.token);
    await server.database.executeSql("update companies set due_date = '2020-01-01' where id = $1", [late.companyId]);
    server.ctx.sessions.forget({ companyId: late.companyId });
    const sender = createScheduleSender(server.ctx);
    expect(await sender.runDue()).toBe(0);
    expect(await row(s.id)).toMatchObject({ status: 'PENDENTE', sent_at: null, job_id: null });
    expect(channels.texts(contact.number)).toEqual([]);
    // paid: the due date moves forward; a new sender (a restart, or the recheck a minute later) sends it
    await server.database.executeSql("update companies set due_date = '2099-01-01' where id = $1", [late.companyId]);
    server.ctx.sessions.forget({ companyId: late.companyId });
    expect(await createScheduleSender(server.ctx).runDue()).toBe(1);
    expect((await row(s.id)).status).toBe('ENVIADA');
    expect(channels.texts(contact.number)).toHaveLength(1);
  });
});

describe('the schedule sender (real clock)', () => {
  it('its timer sends a schedule within 2 s of sendAt, and announces it', async () => {
    const contact = await insertContact(server, tenant.companyId);
    const socket = await openSocket(server, tenant.token);
    const heard = recordEvents(socket);
    const sender = createScheduleSender(server.ctx, { pollMs: 1000 });
    sender.start();
    try {
      const sendAt = new Date(Date.now() + 1500);
      const s = await schedule({ contactId: contact.id, sendAt: sendAt.toISOString() });
      await heard.waitFor(
        `company-${tenant.companyId}-schedule`,
        (p) => p.action === 'update' && p.schedule.id === s.id && p.schedule.status === 'ENVIADA',
      );
      const done = await row(s.id);
      const late = new Date(done.sent_at!).getTime() - sendAt.getTime();
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(2000);
      expect(channels.texts(contact.number)).toHaveLength(1);
    } finally {
      socket.close();
      await sender.stop();
    }
  });
});
