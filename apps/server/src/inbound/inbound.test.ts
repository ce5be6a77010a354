import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOption, addQueue } from '../../test/catalogue-fixtures';
import { createLoggedUser, openSocket, recordEvents, scanSandbox, unique, untilJoined } from '../../test/fixtures';
import { startTestServer, type TTestServer } from '../../test/harness';
import { closeIdleOpenChats, closeInactiveTickets, transferWaitingTickets } from './housekeeping';
import { expireCommentWaits } from './rating-comment';
import { createInboundHandlers } from './index';

/**
 * The inbound pipeline through the sandbox driver: customers write with POST /api/sandbox/:id/inbound and
 * read what they got with GET /api/sandbox/:id/outbox. The rules run on an injected clock.
 */

process.env.SANDBOX_OPENING_MS = '0';
process.env.SANDBOX_ACK_MS = '0';

let server: TTestServer;
let tenant: Awaited<ReturnType<TTestServer['createTenant']>>;
/** the pipeline's clock: real time shifted by `shift` ms, or fixed at `fixed` */
const clock = { shift: 0, fixed: null as Date | null };
const now = () => clock.fixed ?? new Date(Date.now() + clock.shift);
const advance = (ms: number) => {
  if (clock.fixed) clock.fixed = new Date(clock.fixed.getTime() + ms);
  else clock.shift += ms;
};

let seq = 0;
const customer = () => `55119${String(70_000_000 + (Date.now() % 1_000_000) * 10 + (seq++ % 10)).slice(0, 8)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const sql = async <T = any>(text: string, values: unknown[] = []) =>
  (await server.database.executeSql(text, values)).rows as T[];

const api = async (method: string, path: string, body?: unknown, token = tenant.token) => {
  const res = await server.request(method, path, { token, body });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);

  return res.body;
};

/** a sandbox connection, paired and connected */
const connect = async (fields: Record<string, unknown> = {}) =>
  scanSandbox(
    server,
    tenant.token,
    (await api('POST', '/api/whatsapp', { name: unique('Conn'), ...fields })).id as number,
  );

const say = async (connectionId: number, from: string, body: string, extra: Record<string, unknown> = {}) =>
  (
    await api('POST', `/api/sandbox/${connectionId}/inbound`, {
      from,
      name: 'Maria Souza',
      type: 'text',
      body,
      ...extra,
    })
  ).externalId as string;

const received = async (connectionId: number, to: string) =>
  ((await api('GET', `/api/sandbox/${connectionId}/outbox?to=${to}`)).messages as { body: string; ack: number }[]).map(
    (m) => m.body,
  );

const ticketOf = async (connectionId: number, number: string) =>
  (
    await sql(
      `select t.* from tickets t join contacts c on c.id = t.contact_id
       where t.whatsapp_id = $1 and c.number = $2 order by t.id desc limit 1`,
      [connectionId, number],
    )
  )[0];

const setSetting = (key: string, value: string) => api('PUT', `/api/settings/${key}`, { value });

beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant('Inbound');
  await sql('update plans set connections = 50, queues = 50, users = 50');
  server.ctx.channels.setEvents(createInboundHandlers(server.ctx, { now, mediaRetryMs: 1 }));
});

afterAll(async () => {
  await server?.close();
});

describe('inbound → ticket → reply → ack', () => {
  it('stores the message on one pending ticket, answers and follows the acks upwards only', async () => {
    const connectionId = await connect();
    const from = customer();
    await say(connectionId, from, 'olá');
    await say(connectionId, from, 'tem alguém?');
    const ticket = await ticketOf(connectionId, from);
    expect(ticket).toMatchObject({ status: 'pending', unread_messages: 2, last_message: 'tem alguém?' });
    expect(await sql('select body from messages where ticket_id = $1 order by id', [ticket.id])).toEqual([
      { body: 'olá' },
      { body: 'tem alguém?' },
    ]);

    await api('PUT', `/api/tickets/${ticket.id}`, { status: 'open', userId: tenant.user.id });
    const sent = await api('POST', `/api/messages/${ticket.id}`, { body: 'Oi, {{firstName}}!' });
    expect(await received(connectionId, from)).toEqual(['Oi, Maria!']);
    await api('POST', `/api/sandbox/${connectionId}/read`, { to: from });
    const read = async () =>
      (await sql('select ack from messages where id = $1', [sent.id ?? sent.message?.id]))[0]?.ack;
    for (let i = 0; i < 50 && (await read()) !== 4; i++) await sleep(20);
    expect(await read()).toBe(4);
    // a late "delivered" never lowers it
    const [{ external_id }] = await sql('select external_id from messages where id = $1', [
      sent.id ?? sent.message?.id,
    ]);
    await server.ctx.channels.local(connectionId)!; // the session runs here
    await createInboundHandlers(server.ctx).onMessageUpdate({ connectionId, externalId: external_id, ack: 3 });
    expect(await read()).toBe(4);
  });

  it('records edits and deletes made by the customer', async () => {
    const connectionId = await connect();
    const from = customer();
    const id = await say(connectionId, from, 'primeira versão');
    await api('POST', `/api/sandbox/${connectionId}/edit`, { from, externalId: id, body: 'segunda versão' });
    expect((await sql('select body, is_edited from messages where external_id = $1', [id]))[0]).toEqual({
      body: 'segunda versão',
      is_edited: true,
    });
    await api('POST', `/api/sandbox/${connectionId}/delete`, { from, externalId: id });
    expect((await sql('select is_deleted from messages where external_id = $1', [id]))[0].is_deleted).toBe(true);
  });

  it("keeps the ticket's last message true to the customer's edits and deletes, and announces it", async () => {
    const connectionId = await connect();
    const from = customer();
    const socket = await openSocket(server, tenant.token);
    const heard = recordEvents(socket);
    socket.emit('joinTickets', 'pending');
    await untilJoined(server, `company-${tenant.companyId}-pending`);
    const ticketEvent = `company-${tenant.companyId}-ticket`;
    try {
      await say(connectionId, from, 'bom dia');
      const id = await say(connectionId, from, 'qeuro cancelar');
      const ticket = await ticketOf(connectionId, from);
      expect(ticket.last_message).toBe('qeuro cancelar');
      await api('POST', `/api/sandbox/${connectionId}/edit`, { from, externalId: id, body: 'quero cancelar' });
      expect((await ticketOf(connectionId, from)).last_message).toBe('quero cancelar');
      await heard.waitFor(
        ticketEvent,
        (p) => p.action === 'update' && p.ticket.id === ticket.id && p.ticket.lastMessage === 'quero cancelar',
      );
      await api('POST', `/api/sandbox/${connectionId}/delete`, { from, externalId: id });
      expect((await ticketOf(connectionId, from)).last_message).toBe('bom dia');
      await heard.waitFor(
        ticketEvent,
        (p) => p.action === 'update' && p.ticket.id === ticket.id && p.ticket.lastMessage === 'bom dia',
      );
    } finally {
      socket.disconnect();
    }
  });

  it('absorbs replays, unknown connections, status broadcasts and failed media downloads', async () => {
    const connectionId = await connect({ greetingMessage: 'Bem-vindo!' });
    const from = customer();
    await say(connectionId, from, 'oi', { externalId: 'REPLAY-1' });
    await say(connectionId, from, 'oi', { externalId: 'REPLAY-1' });
    const ticket = await ticketOf(connectionId, from);
    expect(
      await sql('select count(*)::int as n from messages where ticket_id = $1 and not from_me', [ticket.id]),
    ).toEqual([{ n: 1 }]);
    expect(await received(connectionId, from)).toEqual(['Bem-vindo!']);

    const handlers = createInboundHandlers(server.ctx, { now, mediaRetryMs: 1 });
    const base = { fromMe: false, isGroup: false, type: 'text' as const, body: 'x', timestamp: new Date() };
    await expect(
      handlers.onMessage({ ...base, connectionId: 987_654, externalId: 'nowhere', from }),
    ).resolves.toBeUndefined();
    await handlers.onMessage({ ...base, connectionId, externalId: 'status-1', from: 'status@broadcast' });
    expect(
      await sql('select count(*)::int as n from messages where external_id in ($1, $2)', ['nowhere', 'status-1']),
    ).toEqual([{ n: 0 }]);

    let attempts = 0;
    await handlers.onMessage({
      ...base,
      connectionId,
      externalId: 'media-fail',
      from,
      type: 'image',
      body: 'foto',
      media: async () => {
        attempts += 1;
        throw new Error('download failed');
      },
    });
    expect(attempts).toBe(3);
    expect((await sql('select body, error_code from messages where external_id = $1', ['media-fail']))[0]).toEqual({
      body: 'foto',
      error_code: 'ERR_WAPP_DOWNLOAD_MEDIA',
    });
  });

  it('ignores group messages while CheckMsgIsGroup is enabled', async () => {
    const connectionId = await connect();
    await setSetting('CheckMsgIsGroup', 'enabled');
    const from = customer();
    await say(connectionId, from, 'no grupo', { group: { id: '120363000000000001', name: 'Grupo' } });
    expect(await sql('select count(*)::int as n from messages where whatsapp_id = $1', [connectionId])).toEqual([
      { n: 0 },
    ]);
  });
});

describe('the bot menu', () => {
  it('offers the queues, walks the options tree with # and 0, answers a leaf once and counts re-sends', async () => {
    clock.fixed = null;
    clock.shift = 0;
    const sales = await addQueue(server, tenant, {
      name: unique('Vendas'),
      orderQueue: 1,
      greetingMessage: 'Vendas aqui',
    });
    const support = await addQueue(server, tenant, { name: unique('Suporte'), orderQueue: 2 });
    const plans = await addOption(server, tenant, {
      queueId: sales.id,
      title: 'Planos',
      message: 'Nossos planos',
      option: '1',
    });
    await addOption(server, tenant, { queueId: sales.id, title: 'Horário', message: 'Abrimos às 8h', option: '2' });
    await addOption(server, tenant, {
      queueId: sales.id,
      parentId: plans.id,
      title: 'Básico',
      message: 'Custa 10',
      option: '1',
    });
    const connectionId = await connect({
      greetingMessage: '{{ms}}, {{firstName}}! Escolha:',
      queueIds: [sales.id, support.id],
      maxUseBotQueues: 3,
    });
    const from = customer();
    const menu = (texts: string[]) => texts.at(-1)!;

    await say(connectionId, from, 'oi');
    let texts = await received(connectionId, from);
    expect(texts).toHaveLength(1);
    expect(menu(texts)).toMatch(
      /^(Bom dia|Boa tarde|Boa noite|Boa madrugada), Maria! Escolha:\n\n\*\[ 1 \]\* - Vendas.*\n\*\[ 2 \]\* - Suporte/,
    );

    // a quick second message does not bring the menu again
    await say(connectionId, from, 'alô?');
    expect(await received(connectionId, from)).toHaveLength(1);

    await say(connectionId, from, '1');
    texts = await received(connectionId, from);
    expect(menu(texts)).toBe('Vendas aqui\n\n*[ 1 ]* - Planos\n*[ 2 ]* - Horário\n*[ # ]* - Menu inicial');
    let ticket = await ticketOf(connectionId, from);
    expect(ticket).toMatchObject({ queue_id: sales.id, chatbot: true, status: 'pending' });

    await say(connectionId, from, '1');
    expect(menu(await received(connectionId, from))).toBe(
      'Nossos planos\n\n*[ 1 ]* - Básico\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial',
    );
    await say(connectionId, from, '0');
    expect(menu(await received(connectionId, from))).toMatch(/^Vendas aqui/);
    await say(connectionId, from, '#');
    expect(menu(await received(connectionId, from))).toMatch(/Escolha:\n\n\*\[ 1 \]\*/);
    ticket = await ticketOf(connectionId, from);
    expect(ticket).toMatchObject({ queue_id: null, chatbot: false });

    await say(connectionId, from, '1');
    await say(connectionId, from, '2');
    texts = await received(connectionId, from);
    expect(menu(texts)).toBe('Abrimos às 8h');
    const count = texts.length;
    // the leaf is answered once; later messages wait for an attendant
    await say(connectionId, from, 'obrigado');
    advance(60_000);
    await say(connectionId, from, 'e agora?');
    expect(await received(connectionId, from)).toHaveLength(count);
    ticket = await ticketOf(connectionId, from);
    expect(ticket).toMatchObject({ queue_id: sales.id, chatbot: false, status: 'pending' });
    // first menu + '#' re-send counted; forward steps are not
    expect(ticket.amount_used_bot_queues).toBe(3);
  });

  it('stops re-sending after maxUseBotQueues and spaces re-sends by timeUseBotQueues', async () => {
    clock.shift = 0;
    const a = await addQueue(server, tenant, { name: unique('A') });
    const b = await addQueue(server, tenant, { name: unique('B') });
    const connectionId = await connect({
      greetingMessage: 'Escolha',
      queueIds: [a.id, b.id],
      maxUseBotQueues: 2,
      timeUseBotQueues: 5,
    });
    const from = customer();
    await say(connectionId, from, 'oi');
    advance(60_000);
    await say(connectionId, from, 'banana'); // too soon: 5 minutes between menus
    expect(await received(connectionId, from)).toHaveLength(1);
    advance(5 * 60_000);
    await say(connectionId, from, 'banana');
    expect(await received(connectionId, from)).toHaveLength(2);
    for (let i = 0; i < 5; i++) {
      advance(10 * 60_000);
      await say(connectionId, from, `banana ${i}`);
    }
    expect(await received(connectionId, from)).toHaveLength(2);
    const ticket = await ticketOf(connectionId, from);
    expect(ticket).toMatchObject({ amount_used_bot_queues: 2, queue_id: null, status: 'pending' });
  });

  it('assigns the only queue with the greeting when sendGreetingMessageOneQueues is enabled', async () => {
    const only = await addQueue(server, tenant, { name: unique('Única'), greetingMessage: 'Fila única' });
    const connectionId = await connect({ greetingMessage: 'Olá {{name}}', queueIds: [only.id] });
    await setSetting('sendGreetingMessageOneQueues', 'enabled');
    const from = customer();
    await say(connectionId, from, 'oi');
    expect(await received(connectionId, from)).toEqual(['Olá Maria Souza', 'Fila única']);
    expect(await ticketOf(connectionId, from)).toMatchObject({ queue_id: only.id, chatbot: false });
    await setSetting('sendGreetingMessageOneQueues', 'disabled');
  });

  it('answers a burst of 50 messages from a new contact once, on one ticket', async () => {
    const a = await addQueue(server, tenant, { name: unique('A') });
    const b = await addQueue(server, tenant, { name: unique('B') });
    const connectionId = await connect({ greetingMessage: 'Menu', queueIds: [a.id, b.id] });
    const from = customer();
    // simultaneous: the whole burst happens at one instant of the pipeline's clock
    clock.fixed = new Date();
    await Promise.all(Array.from({ length: 50 }, (_, i) => say(connectionId, from, `mensagem ${i}`)));
    expect(
      await sql('select count(*)::int as n from contacts where company_id = $1 and number = $2', [
        tenant.companyId,
        from,
      ]),
    ).toEqual([{ n: 1 }]);
    const tickets = await sql('select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = $1', [
      from,
    ]);
    expect(tickets).toHaveLength(1);
    expect(
      await sql('select count(*)::int as n from messages where ticket_id = $1 and not from_me', [tickets[0].id]),
    ).toEqual([{ n: 50 }]);
    expect(await received(connectionId, from)).toHaveLength(1);
    expect((await ticketOf(connectionId, from)).unread_messages).toBe(50);
    clock.fixed = null;
  });
});

describe('working hours', () => {
  // 2025-01-06 is a Monday; São Paulo is UTC-3
  const week = [
    { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
    { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
  ];

  it('company mode: the connection out-of-hours message once per closed period, in the company time zone', async () => {
    await sql("update companies set timezone = 'America/Sao_Paulo', schedules = $2::jsonb where id = $1", [
      tenant.companyId,
      JSON.stringify(week),
    ]);
    await setSetting('scheduleType', 'company');
    const connectionId = await connect({ greetingMessage: 'Bem-vindo', outOfHoursMessage: 'Fechados agora' });
    const from = customer();
    clock.fixed = new Date('2025-01-06T22:00:00Z'); // Monday 19:00 in São Paulo
    await say(connectionId, from, 'oi');
    clock.fixed = new Date('2025-01-06T23:30:00Z');
    await say(connectionId, from, 'alguém?');
    expect(await received(connectionId, from)).toEqual(['Fechados agora']);
    clock.fixed = new Date('2025-01-07T10:59:00Z'); // Tuesday 07:59: no row for Tuesday = open all day
    await say(connectionId, from, 'bom dia');
    expect(await received(connectionId, from)).toEqual(['Fechados agora', 'Bem-vindo']);
    clock.fixed = new Date('2025-01-12T15:00:00Z'); // Sunday noon, 00:00–00:00: closed
    await say(connectionId, from, 'domingo');
    expect((await received(connectionId, from)).at(-1)).toBe('Fechados agora');
    await setSetting('scheduleType', 'disabled');
    clock.fixed = null;
  });

  it('queue mode: the queue out-of-hours message when the chosen queue is closed', async () => {
    await sql("update companies set timezone = 'Asia/Tokyo' where id = $1", [tenant.companyId]);
    await setSetting('scheduleType', 'queue');
    const q = await addQueue(server, tenant, {
      name: unique('Noite'),
      outOfHoursMessage: 'A fila abre às 8h',
      greetingMessage: 'Fila aberta',
      schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }],
    });
    const other = await addQueue(server, tenant, { name: unique('Dia') });
    const connectionId = await connect({ greetingMessage: 'Escolha', queueIds: [q.id, other.id] });
    const from = customer();
    clock.fixed = new Date('2025-01-06T12:00:00Z'); // Monday 21:00 in Tokyo, 12:00 in UTC
    await say(connectionId, from, 'oi');
    const first = (await received(connectionId, from))[0];
    const index = first.split('\n').findIndex((l) => l.includes(q.name));
    await say(connectionId, from, String(index - 1)); // lines: greeting, blank, then the queues
    expect((await received(connectionId, from)).at(-1)).toBe('A fila abre às 8h');
    await say(connectionId, from, 'ainda fechado?');
    expect(await received(connectionId, from)).toHaveLength(2);
    expect(await ticketOf(connectionId, from)).toMatchObject({ queue_id: q.id, chatbot: false });
    await setSetting('scheduleType', 'disabled');
    await sql("update companies set timezone = 'America/Sao_Paulo', schedules = '[]'::jsonb where id = $1", [
      tenant.companyId,
    ]);
    clock.fixed = null;
  });
});

describe('rating, reopen window and calls', () => {
  it('stores a 1–3 reply as the rating, and any other text abandons it for a new conversation', async () => {
    await setSetting('userRating', 'enabled');
    const connectionId = await connect({ ratingMessage: 'Avalie-nos', complationMessage: 'Obrigado, {{firstName}}!' });
    const agent = await createLoggedUser(server, tenant, { name: 'Agent Rating' });
    const from = customer();
    await say(connectionId, from, 'preciso de ajuda');
    const ticket = await ticketOf(connectionId, from);
    await api('PUT', `/api/tickets/${ticket.id}`, { status: 'open', userId: agent.id }, tenant.token);
    await api('PUT', `/api/tickets/${ticket.id}`, { status: 'closed' }, tenant.token);
    expect((await received(connectionId, from)).at(-1)).toMatch(/^Avalie-nos/);

    await say(connectionId, from, '3');
    expect((await received(connectionId, from)).at(-1)).toBe('Obrigado, Maria!');
    expect(
      await sql(
        'select rate, user_id, ticket_tracking_id is not null as linked from user_ratings where ticket_id = $1',
        [ticket.id],
      ),
    ).toEqual([{ rate: 3, user_id: agent.id, linked: true }]);
    expect(
      (await sql('select rated from ticket_trackings where ticket_id = $1 order by id desc limit 1', [ticket.id]))[0]
        .rated,
    ).toBe(true);
    expect(await ticketOf(connectionId, from)).toMatchObject({ id: ticket.id, status: 'closed' });
    expect(
      await sql("select count(*)::int as n from messages where ticket_id = $1 and body = '3'", [ticket.id]),
    ).toEqual([{ n: 1 }]);

    // second cycle: the customer writes something else instead of rating
    const next = await ticketOf(connectionId, from);
    await api('PUT', `/api/tickets/${next.id}`, { status: 'open', userId: agent.id }, tenant.token);
    await api('PUT', `/api/tickets/${next.id}`, { status: 'closed' }, tenant.token);
    await say(connectionId, from, 'outra dúvida');
    const fresh = await ticketOf(connectionId, from);
    expect(fresh.id).not.toBe(next.id);
    expect(fresh.status).toBe('pending');
    expect(await sql('select count(*)::int as n from user_ratings where ticket_id = $1', [next.id])).toEqual([
      { n: 1 },
    ]);
    const cycles = await sql(
      'select finished_at is not null as finished, rated from ticket_trackings where ticket_id = $1 order by id',
      [next.id],
    );
    expect(cycles.every((c) => c.finished)).toBe(true);
    await setSetting('userRating', 'disabled');
  });

  it('asks for a comment after the rating when set, keeps the next message as it, and ends a wait that runs out', async () => {
    await setSetting('userRating', 'enabled');
    await setSetting('userRatingComment', 'enabled');
    await setSetting('userRatingCommentMinutes', '5');
    const connectionId = await connect({ ratingMessage: 'Avalie-nos', complationMessage: 'Até logo, {{firstName}}!' });
    const agent = await createLoggedUser(server, tenant, { name: 'Agent Comment', canSeeTicketsWithoutQueue: true });
    const from = customer();
    await say(connectionId, from, 'preciso de ajuda');
    const ticket = await ticketOf(connectionId, from);
    const cycleOf = async () =>
      (await sql('select id from ticket_trackings where ticket_id = $1 order by id desc limit 1', [ticket.id]))[0].id;
    const closeBy = async () => {
      await api('PUT', `/api/tickets/${ticket.id}`, { status: 'open' }, agent.token);
      const cycle = await cycleOf();
      await api('PUT', `/api/tickets/${ticket.id}`, { status: 'closed' }, agent.token);
      expect((await received(connectionId, from)).at(-1)).toMatch(/^Avalie-nos/);
      return cycle;
    };
    const ratingOf = async (cycle: number) =>
      (
        await sql(
          `select rate, user_id, comment, comment_due_at is not null as waiting from user_ratings
           where ticket_tracking_id = $1`,
          [cycle],
        )
      )[0];
    const COMMENT_REQUEST =
      'Obrigado pela avaliação! Se quiser, escreva na próxima mensagem um comentário sobre o atendimento.';

    // 1. rated, then the comment: stored on the rating and on the closed ticket, then the completion message
    const first = await closeBy();
    await say(connectionId, from, '2');
    expect((await received(connectionId, from)).at(-1)).toBe(COMMENT_REQUEST);
    expect(await ratingOf(first)).toEqual({ rate: 2, user_id: agent.id, comment: null, waiting: true });
    await say(connectionId, from, 'O atendente foi muito rápido');
    expect((await received(connectionId, from)).at(-1)).toBe('Até logo, Maria!');
    expect(await ratingOf(first)).toEqual({
      rate: 2,
      user_id: agent.id,
      comment: 'O atendente foi muito rápido',
      waiting: false,
    });
    expect(await ticketOf(connectionId, from)).toMatchObject({ id: ticket.id, status: 'closed' });
    expect(
      (await sql('select body from messages where ticket_id = $1 and from_me = false order by id', [ticket.id])).map(
        (m) => m.body,
      ),
    ).toEqual(['preciso de ajuda', '2', 'O atendente foi muito rápido']);

    // 2. rated, then silence: the wait runs out and the scan sends the completion message once
    const second = await closeBy();
    await say(connectionId, from, '3');
    expect((await received(connectionId, from)).at(-1)).toBe(COMMENT_REQUEST);
    expect(await expireCommentWaits(server.ctx, now())).toBe(0);
    advance(6 * 60_000);
    const sentBefore = (await received(connectionId, from)).length;
    expect(await expireCommentWaits(server.ctx, now())).toBe(1);
    expect(await expireCommentWaits(server.ctx, now())).toBe(0);
    expect((await received(connectionId, from)).slice(sentBefore)).toEqual(['Até logo, Maria!']);
    expect(await ratingOf(second)).toEqual({ rate: 3, user_id: agent.id, comment: null, waiting: false });

    // 3. rated, and the next message comes too late: no comment, the wait ends, the message is a new conversation
    const third = await closeBy();
    await say(connectionId, from, '1');
    advance(6 * 60_000);
    await say(connectionId, from, 'tenho outra dúvida');
    expect(await ratingOf(third)).toEqual({ rate: 1, user_id: agent.id, comment: null, waiting: false });
    const fresh = await ticketOf(connectionId, from);
    expect(fresh.status).toBe('pending');
    expect(
      await sql("select count(*)::int as n from messages where body = 'tenho outra dúvida' and ticket_id = $1", [
        fresh.id,
      ]),
    ).toEqual([{ n: 1 }]);
    // each cycle was rated once, by the agent who closed it
    expect(
      await sql(
        'select count(*)::int as n, count(distinct ticket_tracking_id)::int as cycles from user_ratings where ticket_id = $1',
        [ticket.id],
      ),
    ).toEqual([{ n: 3, cycles: 3 }]);
    await setSetting('userRatingComment', 'disabled');
    await setSetting('userRating', 'disabled');
  });

  it('reopens a closed ticket within the reopen window, else starts a new one', async () => {
    await setSetting('reopenWindowMinutes', '30');
    const connectionId = await connect();
    const from = customer();
    await say(connectionId, from, 'primeira');
    const first = await ticketOf(connectionId, from);
    await api('PUT', `/api/tickets/${first.id}`, { status: 'closed' });
    await say(connectionId, from, 'voltei');
    expect(await ticketOf(connectionId, from)).toMatchObject({ id: first.id, status: 'pending' });
    await api('PUT', `/api/tickets/${first.id}`, { status: 'closed' });
    await sql(
      "update tickets set closed_at = now() - interval '2 hours', updated_at = now() - interval '2 hours' where id = $1",
      [first.id],
    );
    await say(connectionId, from, 'muito depois');
    const second = await ticketOf(connectionId, from);
    expect(second.id).not.toBe(first.id);
    await setSetting('reopenWindowMinutes', '0');
  });

  it('logs a missed call on the ticket and answers it when calls are disabled', async () => {
    await setSetting('call', 'disabled');
    const connectionId = await connect();
    const from = customer();
    await api('POST', `/api/sandbox/${connectionId}/call`, { from, isVideo: false });
    const ticket = await ticketOf(connectionId, from);
    const [log] = await sql("select body from messages where ticket_id = $1 and media_type = 'call_log'", [ticket.id]);
    expect(log.body).toMatch(/^Chamada de voz perdida às \d\d:\d\d$/);
    expect(await received(connectionId, from)).toEqual([
      'As chamadas de voz e vídeo estão desabilitadas para este WhatsApp. Por favor, envie uma mensagem de texto.',
    ]);
    await setSetting('call', 'enabled');
  });
});

describe('housekeeping jobs', () => {
  it('closes open tickets idle after our last message, once, with the inactivity message', async () => {
    const connectionId = await connect({ expiresTicket: 10, expiresInactiveMessage: 'Encerrado por inatividade' });
    const from = customer();
    await say(connectionId, from, 'oi');
    const ticket = await ticketOf(connectionId, from);
    await api('PUT', `/api/tickets/${ticket.id}`, { status: 'open', userId: tenant.user.id });
    await api('POST', `/api/messages/${ticket.id}`, { body: 'Posso ajudar?' });
    expect(await closeInactiveTickets(server.ctx, new Date(Date.now() + 5 * 60_000))).toBe(0);
    const later = new Date(Date.now() + 11 * 60_000);
    expect(await closeInactiveTickets(server.ctx, later)).toBeGreaterThanOrEqual(1);
    expect(await closeInactiveTickets(server.ctx, later)).toBe(0);
    expect(await ticketOf(connectionId, from)).toMatchObject({ status: 'closed' });
    expect((await received(connectionId, from)).at(-1)).toBe('Encerrado por inatividade');
    expect(
      (
        await sql('select finished_at from ticket_trackings where ticket_id = $1 order by id desc limit 1', [ticket.id])
      )[0].finished_at,
    ).not.toBeNull();

    // a ticket whose last message is the customer's stays open
    const other = customer();
    await say(connectionId, other, 'oi');
    const waiting = await ticketOf(connectionId, other);
    await api('PUT', `/api/tickets/${waiting.id}`, { status: 'open', userId: tenant.user.id });
    await closeInactiveTickets(server.ctx, new Date(Date.now() + 60 * 60_000));
    expect(await ticketOf(connectionId, other)).toMatchObject({ status: 'open' });
  });

  it('closes open chats idle past closeOpenChatsAfterMinutes, whoever wrote last, quietly, and only open ones', async () => {
    const connectionId = await connect({ closeOpenChatsAfterMinutes: 30, expiresInactiveMessage: 'não deve ir' });
    const from = customer();
    await say(connectionId, from, 'oi');
    const ticket = await ticketOf(connectionId, from);
    await api('PUT', `/api/tickets/${ticket.id}`, { status: 'open', userId: tenant.user.id });
    const waiting = customer();
    await say(connectionId, waiting, 'oi');
    const pending = await ticketOf(connectionId, waiting);
    const sentBefore = (await received(connectionId, from)).length;
    expect(await closeIdleOpenChats(server.ctx, new Date(Date.now() + 20 * 60_000))).toBe(0);
    const later = new Date(Date.now() + 31 * 60_000);
    expect(await closeIdleOpenChats(server.ctx, later)).toBeGreaterThanOrEqual(1);
    expect(await closeIdleOpenChats(server.ctx, later)).toBe(0);
    expect(await ticketOf(connectionId, from)).toMatchObject({ status: 'closed' });
    // the customer's message was last: closed all the same, and told nothing
    expect((await received(connectionId, from)).length).toBe(sentBefore);
    // a pending ticket waits for an attendant, not for this rule
    expect(await ticketOf(connectionId, waiting)).toMatchObject({ id: pending.id, status: 'pending' });
    const [cycle] = await sql(
      'select finished_at from ticket_trackings where ticket_id = $1 order by id desc limit 1',
      [ticket.id],
    );
    expect(cycle.finished_at).not.toBeNull();
  });

  it('moves pending tickets without queue to the transfer queue after timeToTransfer', async () => {
    const target = await addQueue(server, tenant, { name: unique('Destino') });
    const connectionId = await connect({ transferQueueId: target.id, timeToTransfer: 15 });
    const from = customer();
    await say(connectionId, from, 'oi');
    const ticket = await ticketOf(connectionId, from);
    expect(await transferWaitingTickets(server.ctx, new Date(Date.now() + 10 * 60_000))).toBe(0);
    expect(await transferWaitingTickets(server.ctx, new Date(Date.now() + 16 * 60_000))).toBeGreaterThanOrEqual(1);
    expect(await ticketOf(connectionId, from)).toMatchObject({ id: ticket.id, queue_id: target.id, status: 'pending' });
    const [cycle] = await sql(
      'select queue_id, queued_at from ticket_trackings where ticket_id = $1 and finished_at is null',
      [ticket.id],
    );
    expect(cycle.queue_id).toBe(target.id);
    expect(await transferWaitingTickets(server.ctx, new Date(Date.now() + 60 * 60_000))).toBe(0);
    // setting sendMsgTransfTicket disabled (default): the customer was told nothing
    const notices = async (id: number) =>
      (await sql("select body from messages where ticket_id = $1 and from_me and source = 'bot'", [id])).map(
        (m: { body: string }) => m.body,
      );
    expect((await notices(ticket.id)).some((b: string) => b.includes(target.name))).toBe(false);

    // enabled: the customer is told which department now has the conversation
    await setSetting('sendMsgTransfTicket', 'enabled');
    const next = customer();
    await say(connectionId, next, 'oi');
    const second = await ticketOf(connectionId, next);
    expect(await transferWaitingTickets(server.ctx, new Date(Date.now() + 16 * 60_000))).toBeGreaterThanOrEqual(1);
    expect(await notices(second.id)).toContainEqual(expect.stringContaining(`*${target.name}*`));
    await setSetting('sendMsgTransfTicket', 'disabled');
  });
});

describe('the batched pipeline', () => {
  /** `count` distinct new customer numbers */
  const customers = (count: number) => {
    const base = 55_119_6000_0000 + Math.floor(Math.random() * 9_000) * 1_000;
    return Array.from({ length: count }, (_, i) => String(base + i));
  };

  it('stores customers writing at once in batches: one contact, ticket, message and event each', async () => {
    const sizes: number[] = [];
    server.ctx.channels.setEvents(
      createInboundHandlers(server.ctx, { now, mediaRetryMs: 1, batch: { onBatch: (n) => sizes.push(n) } }),
    );
    try {
      const connectionId = await connect();
      const socket = await openSocket(server, tenant.token);
      const heard = recordEvents(socket);
      socket.emit('joinNotification');
      await sleep(150);
      const numbers = customers(30);
      const word = unique('palavra')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '');
      await Promise.all(numbers.map((from, i) => say(connectionId, from, `primeira ${i}`)));
      await Promise.all(numbers.map((from, i) => say(connectionId, from, `segunda ${i} ${word}`)));

      // whole batches, not one statement round per message
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(60);
      expect(Math.max(...sizes)).toBeGreaterThan(1);
      const tickets = await sql(
        `select t.*, c.number, c.name from tickets t join contacts c on c.id = t.contact_id
         where t.whatsapp_id = $1 order by c.number`,
        [connectionId],
      );
      expect(tickets).toHaveLength(30);
      tickets.forEach((t: any) => {
        const i = numbers.indexOf(t.number);
        expect(t).toMatchObject({ status: 'pending', unread_messages: 2, last_message: `segunda ${i} ${word}` });
        expect(t.name).toBe('Maria Souza');
      });
      const bodies = await sql<{ body: string; n: number }>(
        'select body, count(*)::int as n from messages where whatsapp_id = $1 group by body',
        [connectionId],
      );
      expect(bodies).toHaveLength(60);
      expect(bodies.every((b) => b.n === 1)).toBe(true);
      const [{ cycles }] = await sql(
        `select count(*)::int as cycles from ticket_trackings where whatsapp_id = $1 and finished_at is null`,
        [connectionId],
      );
      expect(cycles).toBe(30);

      // every stored message announced once, every new ticket and contact too
      const messageEvent = `company-${tenant.companyId}-appMessage`;
      await heard.waitFor(messageEvent, (p) => p.message.body === `segunda 29 ${word}`);
      const announced = heard.heard.filter((h) => h.event === messageEvent).map((h: any) => h.payload.message.body);
      expect(announced.filter((b: string) => b.endsWith(word))).toHaveLength(30);
      expect(new Set(announced).size).toBe(announced.length);
      const created = heard.heard.filter(
        (h: any) => h.event === `company-${tenant.companyId}-ticket` && h.payload.ticket?.whatsappId === connectionId,
      );
      expect(new Set(created.map((h: any) => h.payload.ticket.id)).size).toBe(30);
      socket.close();

      // the search finds them by the words of their messages and by their numbers
      const found = await api('GET', `/api/tickets?showAll=true&status=pending&searchParam=${word}`);
      expect(found.tickets).toHaveLength(30);
      const byNumber = await api('GET', `/api/tickets?showAll=true&status=pending&searchParam=${numbers[7]}`);
      expect(byNumber.tickets.map((t: any) => t.contact.number)).toEqual([numbers[7]]);
    } finally {
      server.ctx.channels.setEvents(createInboundHandlers(server.ctx, { now, mediaRetryMs: 1 }));
    }
  });

  it('greets once per cycle and leaves a ticket an attendant holds to the attendant', async () => {
    const connectionId = await connect({ greetingMessage: 'Olá, {{firstName}}!' });
    const [from] = customers(1);
    await say(connectionId, from!, 'oi');
    await say(connectionId, from!, 'alguém aí?');
    expect(await received(connectionId, from!)).toEqual(['Olá, Maria!']);
    const ticket = await ticketOf(connectionId, from!);
    await api('PUT', `/api/tickets/${ticket.id}`, { status: 'open', userId: tenant.user.id });
    await say(connectionId, from!, 'obrigada');
    expect(await received(connectionId, from!)).toEqual(['Olá, Maria!']);
    expect(await ticketOf(connectionId, from!)).toMatchObject({
      id: ticket.id,
      status: 'open',
      last_message: 'obrigada',
    });
  });

  it('loses none of a batch when one of its messages cannot be stored, and stores a replay once', async () => {
    const connectionId = await connect();
    const handlers = createInboundHandlers(server.ctx, { now, batch: { concurrency: 1 } });
    const numbers = customers(6);
    const base = { connectionId, fromMe: false, isGroup: false, type: 'text' as const, timestamp: new Date() };
    const tag = unique('B');
    const outcomes = await Promise.allSettled([
      ...numbers
        .slice(0, 5)
        .map((from, i) => handlers.onMessage({ ...base, from, externalId: `${tag}-${i}`, body: `ok ${i}` })),
      // longer than any external id the channel may send: refused by the database
      handlers.onMessage({ ...base, from: numbers[5]!, externalId: `${tag}-${'x'.repeat(200)}`, body: 'bad' }),
      // the same delivery twice, reported for two spellings of the sender
      handlers.onMessage({ ...base, from: numbers[0]!, externalId: `${tag}-twice`, body: 'twice' }),
      handlers.onMessage({ ...base, from: `${numbers[0]}@s.whatsapp.net`, externalId: `${tag}-twice`, body: 'twice' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    const stored = await sql<{ body: string }>(
      'select body from messages where whatsapp_id = $1 and not from_me order by body',
      [connectionId],
    );
    expect(stored.map((m) => m.body)).toEqual(['ok 0', 'ok 1', 'ok 2', 'ok 3', 'ok 4', 'twice']);
  });
});
