import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedUser, createUser, insertQueue, type TTenant } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { insertContact } from '../../../test/inbox';
import { readMail, startSmtpServer } from '../../../test/smtp';
import { sendWeeklyMails } from './weekly-mail';

/**
 * The weekly summary e-mail: the opt-in of the caller, and the pass with a fixed clock sending through a real SMTP
 * server on loopback — one mail per opted-in admin of an active company with its own company's figures, in its
 * language, from Monday 08:00 on the company's clock; none again that week, none to who opted out or to an
 * inactive company; a refused mail retried after its backoff without a repeat; two passes at once send each once.
 *
 * The week: the one whose summary is due next Monday at 09:00 (São Paulo, UTC−3 all year), Monday M. Company A:
 * 1 M 10:00, replied 10:10, resolved 11:00 (Ana, rated 3); 2 M+1 14:00, replied 14:20, resolved 16:00 (Bruno,
 * rated 1); 3 M+2 09:00, open (Ana). Company B: one conversation, open.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** the Monday whose week the pass at NEXT_MONDAY_9 summarises: the week of (now − 8 h) on São Paulo's clock */
const shifted = new Date(Date.now() - 3 * HOUR - 8 * HOUR);
const mondayMs =
  Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate()) -
  ((shifted.getUTCDay() + 6) % 7) * DAY;
const M = new Date(mondayMs).toISOString().slice(0, 10);
/** Monday M+7, 09:00 and 07:59 in São Paulo */
const NEXT_MONDAY_9 = new Date(mondayMs + 7 * DAY + 12 * HOUR);
const NEXT_MONDAY_759 = new Date(mondayMs + 7 * DAY + 10 * HOUR + 59 * 60_000);
const at = (day: number, hhmm: string) =>
  `${new Date(mondayMs + day * DAY).toISOString().slice(0, 10)}T${hhmm}:00-03:00`;

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: TTestServer;
let a: TTenant;
let b: TTenant;
let c: TTenant;
let adminA2: Awaited<ReturnType<typeof createLoggedUser>>;
let adminA3: Awaited<ReturnType<typeof createLoggedUser>>;
let agentA: Awaited<ReturnType<typeof createLoggedUser>>;
const COMPANY_A = 'Acme <Suporte> & Cia';
const ANA = 'Ana <b>&</b>';

const q = (text: string, values: unknown[] = []) => server.database.executeSql(text, values);

const cycle = async (
  t: TTenant,
  f: {
    userId: number | null;
    queueId: number | null;
    created: string;
    reply?: [string, number];
    resolved?: [string, number];
    rate?: number;
  },
) => {
  const contact = await insertContact(server, t.companyId);
  const ticket = await q(
    `insert into tickets (company_id, contact_id, queue_id, user_id, status) values ($1, $2, $3, $4, $5) returning id`,
    [t.companyId, contact.id, f.queueId, f.userId, f.resolved ? 'closed' : 'open'],
  );
  const ticketId = (ticket.rows[0] as { id: number }).id;
  const tracking = await q(
    `insert into ticket_trackings (company_id, ticket_id, user_id, queue_id, created_at, queued_at, first_reply_at,
                                   first_reply_user_id, human_at, first_response_s, first_response_bs, finished_at,
                                   resolution_s, resolution_bs, replies)
     values ($1, $2, $3, $4, $5, $5, $6, $3, $6, $7, $7, $8, $9, $9, $10) returning id`,
    [
      t.companyId,
      ticketId,
      f.userId,
      f.queueId,
      f.created,
      f.reply?.[0] ?? null,
      f.reply?.[1] ?? null,
      f.resolved?.[0] ?? null,
      f.resolved?.[1] ?? null,
      f.resolved ? 1 : null,
    ],
  );
  if (f.rate) {
    await q(
      `insert into user_ratings (company_id, ticket_id, ticket_tracking_id, user_id, rate, created_at)
       values ($1, $2, $3, $4, $5, $6)`,
      [t.companyId, ticketId, (tracking.rows[0] as { id: number }).id, f.userId, f.rate, f.resolved![0]],
    );
  }
};

const weeklyMail = (token: string, body?: { enabled: unknown }) =>
  server.request(body ? 'PUT' : 'GET', '/api/reports/weekly-mail', { token, body });

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  a = await server.createTenant('Weekly A');
  b = await server.createTenant('Weekly B');
  c = await server.createTenant('Weekly C');
  await q('update companies set name = $1 where id = $2', [COMPANY_A, a.companyId]);
  // paid far ahead: the passes below run weeks after today
  await q(`update companies set due_date = '2099-12-31' where id = any($1::int[])`, [[a.companyId, b.companyId]]);
  adminA2 = await createLoggedUser(server, a, { name: 'Second Admin', profile: 'admin' });
  await q(`update users set language = 'en' where id = $1`, [adminA2.id]);
  adminA3 = await createLoggedUser(server, a, { name: 'Third Admin', profile: 'admin' });
  agentA = await createLoggedUser(server, a, { name: 'Agent' });
  const ana = await createUser(server, a, { name: 'Ana' });
  await q('update users set name = $1 where id = $2', [ANA, ana.id]);
  const bruno = await createUser(server, a, { name: 'Bruno' });
  const queueA = await insertQueue(server, a.companyId);
  await cycle(a, {
    userId: ana.id,
    queueId: queueA,
    created: at(0, '10:00'),
    reply: [at(0, '10:10'), 600],
    resolved: [at(0, '11:00'), 3600],
    rate: 3,
  });
  await cycle(a, {
    userId: bruno.id,
    queueId: queueA,
    created: at(1, '14:00'),
    reply: [at(1, '14:20'), 1200],
    resolved: [at(1, '16:00'), 7200],
    rate: 1,
  });
  await cycle(a, { userId: ana.id, queueId: queueA, created: at(2, '09:00') });
  // after the week: in no figure of it
  await cycle(a, { userId: ana.id, queueId: queueA, created: at(7, '08:30') });
  const betaAgent = await createUser(server, b, { name: 'Beta Secret Agent' });
  await cycle(b, { userId: betaAgent.id, queueId: await insertQueue(server, b.companyId), created: at(3, '10:00') });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

describe('the weekly summary opt-in', () => {
  it("is the caller's own: off, on, off again, answering where the mail goes", async () => {
    expect((await weeklyMail(a.token)).body).toEqual({ enabled: false, email: a.email });
    const on = await weeklyMail(a.token, { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ enabled: true, email: a.email });
    expect((await weeklyMail(a.token)).body).toEqual({ enabled: true, email: a.email });
    // another admin of the company still has it off
    expect((await weeklyMail(adminA2.token)).body).toEqual({ enabled: false, email: adminA2.email });
    expect((await weeklyMail(a.token, { enabled: false })).body).toEqual({ enabled: false, email: a.email });
    expect((await weeklyMail(a.token)).body.enabled).toBe(false);
    // twice on is once on
    await weeklyMail(a.token, { enabled: true });
    expect((await weeklyMail(a.token, { enabled: true })).body.enabled).toBe(true);
    const rows = await q('select count(*)::int as n from report_mail_optins where user_id = $1', [a.user.id]);
    expect(rows.rows).toEqual([{ n: 1 }]);
  });

  it('is for admins, and takes a boolean', async () => {
    expect((await weeklyMail(agentA.token)).status).toBe(403);
    const refused = await weeklyMail(agentA.token, { enabled: true });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');
    const bad = await weeklyMail(a.token, { enabled: 'maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
  });
});

describe('the weekly summary e-mail', () => {
  const messageIds = () => smtp.inbox.map((m) => readMail(m.raw).header('message-id'));

  beforeAll(async () => {
    for (const token of [a.token, adminA2.token, adminA3.token, b.token, c.token]) {
      expect((await weeklyMail(token, { enabled: true })).status).toBe(200);
    }
    await weeklyMail(adminA3.token, { enabled: false });
    // C stops paying attention: inactive, no mail
    await q('update companies set status = false where id = $1', [c.companyId]);
    server.ctx.sessions.forget({ companyId: c.companyId });
  });

  it('waits for Monday 08:00 on the company clock', async () => {
    expect(await sendWeeklyMails(server.ctx, NEXT_MONDAY_759)).toEqual({ sent: 0, failed: 0 });
    expect(smtp.inbox).toHaveLength(0);
  });

  it("sends each opted-in admin of an active company its company's week, in its language, once", async () => {
    expect(await sendWeeklyMails(server.ctx, NEXT_MONDAY_9)).toEqual({ sent: 3, failed: 0 });
    expect(smtp.inbox.map((m) => m.to[0]).sort()).toEqual([a.email, adminA2.email, b.email].sort());

    const pt = readMail(smtp.inbox.find((m) => m.to[0] === a.email)!.raw);
    expect(pt.header('subject')).toMatch(/^Zelo: resumo da semana de .+ — Acme <Suporte> & Cia$/);
    expect(pt.header('message-id')).toBe(`<weekly-${a.user.id}-${M}@localhost>`);
    for (const line of [
      '- Conversas abertas: 3',
      '- Conversas resolvidas: 2',
      '- Primeira resposta (horário de expediente): mediana 15 min · p90 19 min',
      '- Resolução (horário de expediente): mediana 1 h 30 min · p90 1 h 54 min',
      '- Satisfação: 50% (2 avaliações)',
      '- Em aberto no fim da semana: 1',
      `1. ${ANA} — 1 resolvida · 1ª resposta 10 min · satisfação 100%`,
      '2. Bruno — 1 resolvida · 1ª resposta 20 min · satisfação 0%',
    ]) {
      expect(pt.text).toContain(line);
    }
    expect(pt.text).toContain('http://localhost');
    // tenant text escaped in the HTML part
    expect(pt.html).toContain('Ana &lt;b&gt;&amp;&lt;/b&gt;');
    expect(pt.html).toContain('Acme &lt;Suporte&gt; &amp; Cia');
    expect(pt.html).not.toContain(ANA);
    expect(pt.html).not.toContain('<Suporte>');
    expect(pt.html).toContain('<strong>3</strong>');

    const en = readMail(smtp.inbox.find((m) => m.to[0] === adminA2.email)!.raw);
    expect(en.header('subject')).toMatch(/^Zelo: your week from .+ — Acme <Suporte> & Cia$/);
    expect(en.text).toContain('Hello, Second Admin.');
    expect(en.text).toContain('- Conversations opened: 3');
    expect(en.text).toContain('- First response (business hours): median 15 min · p90 19 min');

    const beta = readMail(smtp.inbox.find((m) => m.to[0] === b.email)!.raw);
    expect(beta.text).toContain('- Conversas abertas: 1');
    expect(beta.text).toContain('- Conversas resolvidas: 0');
    expect(beta.text).toContain('- Em aberto no fim da semana: 1');
    for (const mail of [pt, en]) expect(`${mail.text}${mail.html}`).not.toContain('Beta Secret Agent');

    // the same week again, later: nothing
    expect(await sendWeeklyMails(server.ctx, new Date(NEXT_MONDAY_9.getTime() + 5 * HOUR))).toEqual({
      sent: 0,
      failed: 0,
    });
    expect(await sendWeeklyMails(server.ctx, new Date(NEXT_MONDAY_9.getTime() + 6 * DAY))).toEqual({
      sent: 0,
      failed: 0,
    });
    expect(smtp.inbox).toHaveLength(3);
  });

  it('retries a mail the SMTP server refused, after its backoff, without repeating the others', async () => {
    const monday = new Date(NEXT_MONDAY_9.getTime() + 7 * DAY);
    smtp.failNext(1);
    expect(await sendWeeklyMails(server.ctx, monday)).toEqual({ sent: 2, failed: 1 });
    expect(smtp.inbox).toHaveLength(5);
    expect(await sendWeeklyMails(server.ctx, new Date(monday.getTime() + 60_000))).toEqual({ sent: 0, failed: 0 });
    expect(await sendWeeklyMails(server.ctx, new Date(monday.getTime() + 6 * 60_000))).toEqual({ sent: 1, failed: 0 });
    expect(await sendWeeklyMails(server.ctx, new Date(monday.getTime() + 60 * 60_000))).toEqual({
      sent: 0,
      failed: 0,
    });
    expect(smtp.inbox).toHaveLength(6);
    expect(
      smtp.inbox
        .slice(3)
        .map((m) => m.to[0])
        .sort(),
    ).toEqual([a.email, adminA2.email, b.email].sort());
    expect(new Set(messageIds()).size).toBe(6);
  });

  it('two passes at once send each mail once', async () => {
    const monday = new Date(NEXT_MONDAY_9.getTime() + 14 * DAY);
    const [one, two] = await Promise.all([sendWeeklyMails(server.ctx, monday), sendWeeklyMails(server.ctx, monday)]);
    expect(one.sent + two.sent).toBe(3);
    expect(smtp.inbox).toHaveLength(9);
    expect(new Set(messageIds()).size).toBe(9);
    expect(smtp.inbox.some((m) => m.to.includes(c.email) || m.to.includes(adminA3.email))).toBe(false);
  });
});
