import { spawnSync } from 'node:child_process';
import { createHmac, createVerify, generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanSandbox, unique } from '../../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../../test/harness';
import { FAKE_MP3, sineSound } from '../../../../test/sounds';
import { createInboundHandlers } from '../../../inbound';
import { runDueDeliveries } from './deliveries';

/**
 * The integrations at runtime through the sandbox channel: real HTTP servers on 127.0.0.1 stand in for Typebot,
 * an n8n / webhook receiver that checks the signature, and Google's token endpoint + Dialogflow's detectIntent.
 */

process.env.SANDBOX_OPENING_MS = '0';
process.env.SANDBOX_ACK_MS = '0';

type THandler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const fake = async (handler: THandler) => {
  const seen: { url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const srv: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => srv.close(r)) };
};
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const rich = (text: string, bold = false) => ({
  type: 'text',
  content: { richText: [{ type: 'p', children: [{ text, bold }] }] },
});

let server: TTestServer;
let tenant: Awaited<ReturnType<TTestServer['createTenant']>>;
let typebot: Awaited<ReturnType<typeof fake>>;
let receiver: Awaited<ReturnType<typeof fake>>;
let google: Awaited<ReturnType<typeof fake>>;
let receiverFailures = 1;
let queueForTransfer = 0;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
let dialogflowReply: Record<string, unknown> = {};
/** a second of sound as MP3 (ffmpeg's sine source), or bytes that only look like one without ffmpeg */
let spokenMp3: Buffer = Buffer.alloc(0);
let hasFfmpeg = false;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sql = async <T = any>(text: string, values: unknown[] = []) =>
  (await server.database.executeSql(text, values)).rows as T[];
const api = async (method: string, path: string, body?: unknown) => {
  const res = await server.request(method, path, { token: tenant.token, body });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
/** a Typebot integration on the fake Typebot (slug my-bot), answering at once; `fields` add to or replace these */
const typebotIntegration = (fields: Record<string, unknown> = {}) =>
  api('POST', '/api/queueIntegration', {
    type: 'typebot',
    name: unique('Bot'),
    urlN8N: typebot.url,
    typebotSlug: 'my-bot',
    typebotDelayMessage: 0,
    ...fields,
  });
let seq = 0;
const customer = () => `55118${String(10_000_000 + (Date.now() % 1_000_000) * 10 + (seq++ % 10)).slice(0, 8)}`;

const connect = async (integrationId: number) =>
  scanSandbox(
    server,
    tenant.token,
    (await api('POST', '/api/whatsapp', { name: unique('Conn'), integrationId })).id as number,
  );
const say = (connectionId: number, from: string, body: string) =>
  api('POST', `/api/sandbox/${connectionId}/inbound`, { from, name: 'Maria Souza', type: 'text', body });
const outbox = async (connectionId: number, to: string) =>
  ((await api('GET', `/api/sandbox/${connectionId}/outbox?to=${to}`)).messages as { body: string }[]).map(
    (m) => m.body,
  );
const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000) => {
  let v = await read();
  for (let i = 0; i < ms / 25 && !ok(v); i++) {
    await sleep(25);
    v = await read();
  }
  return v;
};
const ticketOf = async (connectionId: number, number: string) =>
  (
    await sql(
      `select t.* from tickets t join contacts c on c.id = t.contact_id
       where t.whatsapp_id = $1 and c.number = $2 order by t.id desc limit 1`,
      [connectionId, number],
    )
  )[0];

beforeAll(async () => {
  const ffmpeg = spawnSync('ffmpeg', ['-version']).status === 0 ? 'ffmpeg' : null;
  hasFfmpeg = ffmpeg !== null;
  spokenMp3 = sineSound(ffmpeg, 'mp3', FAKE_MP3);
  typebot = await fake((req, body, res) => {
    if (req.url === '/files/resposta.mp3') {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end(spokenMp3);
      return;
    }
    if (req.url?.endsWith('/startChat')) {
      return json(res, 200, {
        sessionId: `s-${typebot.seen.length}`,
        messages: [rich('Olá, '), rich('bem-vindo', true)],
        input: { type: 'text input' },
      });
    }
    const { message } = JSON.parse(body) as { message: string };
    if (message === 'menu')
      return json(res, 200, {
        messages: [rich('Escolha:')],
        input: { type: 'choice input', items: [{ content: 'Vendas' }, { content: 'Suporte' }] },
      });
    if (message === 'parar') return json(res, 200, { messages: [rich('#{"stopBot":true}')], input: {} });
    if (message === 'fila') return json(res, 200, { messages: [rich(`#{"queueId":${queueForTransfer}}`)], input: {} });
    if (message === '???') return json(res, 200, { messages: [], input: { type: 'text input' } });
    if (message === 'áudio')
      return json(res, 200, {
        messages: [{ type: 'audio', content: { url: `${typebot.url}/files/resposta.mp3` } }],
        input: { type: 'text input' },
      });
    return json(res, 200, { messages: [rich(`Você disse: ${message}`)], input: { type: 'text input' } });
  });
  receiver = await fake((_req, _body, res) => {
    if (receiverFailures > 0) {
      receiverFailures -= 1;
      return json(res, 500, { error: 'busy' });
    }
    return json(res, 200, { ok: true });
  });
  google = await fake((req, body, res) => {
    if (req.url === '/token') {
      const assertion = new URLSearchParams(body).get('assertion') ?? '';
      const [h, c, s] = assertion.split('.');
      const valid = createVerify('RSA-SHA256')
        .update(`${h}.${c}`)
        .verify(publicKey, Buffer.from(s ?? '', 'base64url'));
      const claims = JSON.parse(Buffer.from(c ?? '', 'base64url').toString());
      if (!valid || claims.iss !== 'bot@proj.iam.gserviceaccount.com')
        return json(res, 400, { error: 'invalid_grant' });
      return json(res, 200, { access_token: 'token-123', expires_in: 3600 });
    }
    if (req.headers.authorization !== 'Bearer token-123') return json(res, 401, { error: { message: 'no token' } });
    return json(res, 200, dialogflowReply);
  });
  server = await startTestServer({ env: { DIALOGFLOW_API_URL: google.url } });
  tenant = await server.createTenant('Integrations');
  await sql('update plans set connections = 50, queues = 50, users = 50');
  server.ctx.channels.setEvents(createInboundHandlers(server.ctx, { mediaRetryMs: 1 }));
});
afterAll(async () => {
  await server?.close();
  await Promise.all([typebot?.close(), receiver?.close(), google?.close()]);
});

describe('Typebot', () => {
  it('starts a chat with the prefilled variables, continues it, offers choices and finishes by keyword', async () => {
    const integration = await typebotIntegration({
      typebotExpires: 10,
      typebotKeywordFinish: 'sair',
      typebotKeywordRestart: 'reiniciar',
      typebotRestartMessage: 'Vamos recomeçar',
      typebotUnknownMessage: 'Não entendi',
    });
    const conn = await connect(integration.id);
    const from = customer();
    await say(conn, from, 'oi');
    expect(
      await until(
        () => outbox(conn, from),
        (o) => o.length >= 2,
      ),
    ).toEqual(['Olá, ', '*bem-vindo*']);
    const start = typebot.seen.find((s) => s.url === '/api/v1/typebots/my-bot/startChat');
    expect(JSON.parse(start!.body).prefilledVariables).toEqual({ number: from, pushName: 'Maria Souza' });
    const ticket = await ticketOf(conn, from);
    expect(ticket).toMatchObject({ use_integration: true, integration_id: integration.id, typebot_status: true });
    const session = ticket.typebot_session_id as string;

    await say(conn, from, 'menu');
    expect(
      (
        await until(
          () => outbox(conn, from),
          (o) => o.length >= 4,
        )
      ).slice(2),
    ).toEqual(['Escolha:', '▶️ Vendas\n▶️ Suporte']);
    expect(typebot.seen.at(-1)).toMatchObject({ url: `/api/v1/sessions/${session}/continueChat` });
    await say(conn, from, '???');
    expect(
      (
        await until(
          () => outbox(conn, from),
          (o) => o.length >= 5,
        )
      ).at(-1),
    ).toBe('Não entendi');

    await say(conn, from, 'reiniciar');
    const restarted = await until(
      () => outbox(conn, from),
      (o) => o.length >= 8,
    );
    expect(restarted.slice(5)).toEqual(['Vamos recomeçar', 'Olá, ', '*bem-vindo*']);
    expect((await ticketOf(conn, from)).typebot_session_id).not.toBe(session);

    await say(conn, from, 'SAIR');
    expect(
      (
        await until(
          () => ticketOf(conn, from),
          (t) => t.status === 'closed',
        )
      ).status,
    ).toBe('closed');
  });

  it('a queue with a Typebot picked from the menu starts the bot at once, not at the next message', async () => {
    const integration = await typebotIntegration();
    const color = () =>
      `#${Math.floor(Math.random() * 0xffffff)
        .toString(16)
        .padStart(6, '0')}`;
    const plain = await api('POST', '/api/queue', { name: unique('Vendas'), color: color() });
    const bot = await api('POST', '/api/queue', {
      name: unique('Robô'),
      color: color(),
      greetingMessage: 'Você está no atendimento automático',
      integrationId: integration.id,
    });
    const created = await api('POST', '/api/whatsapp', {
      name: unique('Conn'),
      greetingMessage: 'Escolha um setor',
      queueIds: [plain.id, bot.id],
    });
    const conn = await scanSandbox(server, tenant.token, created.id as number);
    const from = customer();
    await say(conn, from, 'oi');
    const [menu] = await until(
      () => outbox(conn, from),
      (o) => o.length >= 1,
    );
    const option = menu
      ?.split('\n')
      .find((l) => l.includes(bot.name))
      ?.match(/\d+/)?.[0];
    expect(option).toBeDefined();
    await say(conn, from, option!);
    // the queue's greeting, then the Typebot's opening, with no further message from the customer
    const after = await until(
      () => outbox(conn, from),
      (o) => o.length >= 4,
    );
    expect(after.slice(1)).toEqual(['Você está no atendimento automático', 'Olá, ', '*bem-vindo*']);
    expect(await ticketOf(conn, from)).toMatchObject({ queue_id: bot.id, use_integration: true, typebot_status: true });
  });

  it("sends Typebot's audio bubbles as voice notes", async () => {
    const integration = await typebotIntegration({ typebotExpires: 10 });
    const conn = await connect(integration.id);
    const from = customer();
    await say(conn, from, 'oi');
    await until(
      () => outbox(conn, from),
      (o) => o.length >= 2,
    );
    await say(conn, from, 'áudio');
    const ticket = await ticketOf(conn, from);
    const [audio] = await until(
      () =>
        sql<{ media_type: string; media_mime: string; media_name: string }>(
          `select media_type, media_mime, media_name from messages
           where ticket_id = $1 and from_me = true and media_type is not null`,
          [ticket.id],
        ),
      (rows) => rows.length > 0,
    );
    expect(audio?.media_type).toBe('audio');
    if (hasFfmpeg) {
      expect(audio).toMatchObject({ media_mime: 'audio/ogg; codecs=opus', media_name: 'resposta.ogg' });
    } else {
      expect(audio?.media_mime).toBe('audio/mpeg');
    }
  });

  it('control commands stop the bot or move the ticket to a queue', async () => {
    const queue = await api('POST', '/api/queue', { name: unique('Fila'), color: '#112233' });
    queueForTransfer = queue.id;
    const integration = await typebotIntegration();
    const conn = await connect(integration.id);
    const a = customer();
    await say(conn, a, 'oi');
    await until(
      () => outbox(conn, a),
      (o) => o.length >= 2,
    );
    await say(conn, a, 'fila');
    const moved = await until(
      () => ticketOf(conn, a),
      (t) => t.queue_id === queue.id,
    );
    expect(moved).toMatchObject({
      queue_id: queue.id,
      status: 'pending',
      use_integration: false,
      integration_id: null,
    });

    const b = customer();
    await say(conn, b, 'oi');
    await until(
      () => outbox(conn, b),
      (o) => o.length >= 2,
    );
    await say(conn, b, 'parar');
    const stopped = await until(
      () => ticketOf(conn, b),
      (t) => !t.use_integration,
    );
    expect(stopped).toMatchObject({ use_integration: false, typebot_session_id: null, queue_id: null });
  });
});

describe('n8n / webhook', () => {
  it('sends signed deliveries, retries a failed one with backoff and logs them for the admin', async () => {
    const secret = 'shared-secret-for-tests';
    const integration = await api('POST', '/api/queueIntegration', {
      type: 'n8n',
      name: unique('N8N'),
      urlN8N: `${receiver.url}/hook`,
      webhookSecret: secret,
    });
    const conn = await connect(integration.id);
    const from = customer();
    receiverFailures = 1;
    const before = receiver.seen.length;
    await say(conn, from, 'preciso de ajuda');
    await until(
      async () => receiver.seen.length,
      (n) => n > before,
    );
    const [row] = await until(
      () => sql('select * from integration_deliveries where integration_id = $1', [integration.id]),
      (r) => r[0]?.last_status === 500,
    );
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status: 500 });
    const first = receiver.seen[before]!;
    const ts = first.headers['x-zelo-timestamp'] as string;
    const expected = `sha256=${createHmac('sha256', secret).update(`${ts}.${first.body}`).digest('hex')}`;
    expect(first.headers['x-zelo-signature']).toBe(expected);
    expect(first.headers['x-zelo-delivery']).toBe(row.delivery_id);
    const payload = JSON.parse(first.body);
    expect(payload).toMatchObject({
      event: 'message.received',
      deliveryId: row.delivery_id,
      integration: { id: integration.id, type: 'n8n' },
      message: { body: 'preciso de ajuda', fromMe: false },
      contact: { number: from, name: 'Maria Souza' },
      connection: { id: conn },
    });
    // not due yet: nothing sent
    expect(await runDueDeliveries(server.ctx, new Date())).toBe(0);
    expect(await runDueDeliveries(server.ctx, new Date(Date.now() + 11_000))).toBe(1);
    const retry = receiver.seen.at(-1)!;
    expect(retry.body).toBe(first.body);
    expect(retry.headers['x-zelo-delivery']).toBe(row.delivery_id);
    const log = await api('GET', `/api/queueIntegration/${integration.id}/deliveries`);
    expect(log.deliveries[0]).toMatchObject({ deliveryId: row.delivery_id, status: 'delivered', attempts: 2 });
    expect((await ticketOf(conn, from)).use_integration).toBe(true);
  });
});

describe('Dialogflow', () => {
  const sa = () =>
    JSON.stringify({
      type: 'service_account',
      client_email: 'bot@proj.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      token_uri: `${google.url}/token`,
    });

  /** a Dialogflow integration (project proj, pt-BR) on a fresh sandbox connection */
  const agentOnConnection = async () => {
    const name = unique('Agente');
    const integration = await api('POST', '/api/queueIntegration', {
      type: 'dialogflow',
      name,
      projectName: 'proj',
      jsonContent: sa(),
      language: 'pt-BR',
    });

    return { name, conn: await connect(integration.id) };
  };

  it('answers through detectIntent with the ticket as the session, and leaves at the end of the conversation', async () => {
    const { name, conn } = await agentOnConnection();
    const from = customer();
    dialogflowReply = { queryResult: { fulfillmentMessages: [{ text: { text: ['Como posso ajudar?'] } }] } };
    await say(conn, from, 'oi');
    expect(
      await until(
        () => outbox(conn, from),
        (o) => o.length >= 1,
        8000,
      ),
    ).toEqual([`*${name}:*\nComo posso ajudar?`]);
    const ticket = await ticketOf(conn, from);
    const call = google.seen.filter((s) => s.url.includes(':detectIntent')).at(-1)!;
    expect(call.url).toBe(`/v2/projects/proj/agent/sessions/zelo-${ticket.uuid}:detectIntent`);
    expect(JSON.parse(call.body)).toEqual({ queryInput: { text: { text: 'oi', languageCode: 'pt-BR' } } });

    dialogflowReply = { queryResult: {} };
    await say(conn, from, 'blá');
    expect(
      (
        await until(
          () => outbox(conn, from),
          (o) => o.length >= 2,
        )
      ).at(-1),
    ).toBe('Não consegui entender sua dúvida.');
    dialogflowReply = {
      queryResult: { fulfillmentText: 'Até logo', diagnosticInfo: { end_conversation: true } },
    };
    await say(conn, from, 'tchau');
    const left = await until(
      () => ticketOf(conn, from),
      (t) => !t.use_integration,
    );
    expect(left).toMatchObject({ use_integration: false, integration_id: null });
  });

  it("hears a customer's voice note, and answers with a payload's image and reaction and the agent's spoken audio", async () => {
    const { name, conn } = await agentOnConnection();
    const from = customer();
    dialogflowReply = {
      queryResult: {
        fulfillmentMessages: [
          { text: { text: ['Entendi o seu áudio'] } },
          { payload: { image: `${typebot.url}/files/resposta.mp3`, react: '👍' } },
        ],
      },
      outputAudio: spokenMp3.toString('base64'),
    };
    await api('POST', `/api/sandbox/${conn}/inbound`, {
      from,
      name: 'Maria Souza',
      type: 'audio',
      media: { data: spokenMp3.toString('base64'), mimetype: 'audio/mpeg', fileName: 'voz.mp3' },
    });
    const ticket = await until(
      () => ticketOf(conn, from),
      (t) => Boolean(t),
    );
    const sent = await until(
      () =>
        sql<{ body: string; media_type: string | null; media_mime: string | null }>(
          'select body, media_type, media_mime from messages where ticket_id = $1 and from_me = true order by id',
          [ticket.id],
        ),
      (rows) => rows.length >= 4,
      10_000,
    );
    const call = google.seen.filter((c) => c.url.includes(':detectIntent')).at(-1)!;
    const query = JSON.parse(call.body);
    if (hasFfmpeg) {
      // the agent hears the voice note as Ogg/Opus at 16 kHz
      expect(query.queryInput.audioConfig).toEqual({
        audioEncoding: 'AUDIO_ENCODING_OGG_OPUS',
        sampleRateHertz: 16000,
        languageCode: 'pt-BR',
      });
      expect(Buffer.from(query.inputAudio, 'base64').subarray(0, 4).toString()).toBe('OggS');
    } else {
      expect(query.queryInput.text).toBeDefined();
    }
    expect(sent[0]?.body).toBe(`*${name}:*\nEntendi o seu áudio`);
    // the payload's image (here a sound file served at that URL: sent by what it is), then the reaction
    expect(sent[1]?.media_type).toBe('audio');
    expect(sent[2]?.body).toBe('👍');
    // the agent's spoken answer as a voice note
    expect(sent[3]?.media_type).toBe('audio');
    if (hasFfmpeg) expect(sent[3]?.media_mime).toBe('audio/ogg; codecs=opus');
  });

  it('testSession tries the agent with "Olá" and says clearly when it fails', async () => {
    dialogflowReply = { queryResult: { fulfillmentText: 'Oi!', intent: { displayName: 'Welcome' } } };
    const ok = await server.request('POST', '/api/queueIntegration/testSession', {
      token: tenant.token,
      body: { projectName: 'proj', jsonContent: sa(), language: 'pt-BR' },
    });
    expect(ok).toMatchObject({ status: 200, body: { ok: true, intent: 'Welcome', texts: ['Oi!'] } });
    const olá = google.seen.filter((s) => s.url.includes(':detectIntent')).at(-1)!;
    expect(JSON.parse(olá.body).queryInput.text.text).toBe('Olá');
    const wrongKey = JSON.stringify({
      ...JSON.parse(sa()),
      client_email: 'intruder@proj.iam.gserviceaccount.com',
    });
    const refused = await server.request('POST', '/api/queueIntegration/testSession', {
      token: tenant.token,
      body: { projectName: 'proj', jsonContent: wrongKey, language: 'pt-BR' },
    });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe('ERR_INTEGRATION_TEST_FAILED');
    // the client's own JSON is unusable, or aims at an address the guard refuses: 400, no upstream was called;
    // a broken or incomplete key file is said on its field, with how to fix it
    const calls = google.seen.length;
    const unusable = [
      '{}',
      'not json',
      '{"type": "service_account", "client_email": ',
      JSON.stringify({ client_email: 'a@proj.iam.gserviceaccount.com', private_key: 'not a key' }),
      JSON.stringify({ ...JSON.parse(sa()), token_uri: 'http://10.1.2.3/token' }),
    ];
    for (const jsonContent of unusable) {
      const bad = await server.request('POST', '/api/queueIntegration/testSession', {
        token: tenant.token,
        body: { projectName: 'proj', jsonContent, language: 'pt-BR' },
      });
      expect(bad.status, jsonContent).toBe(400);
      expect(['ERR_VALIDATION', 'ERR_OUTBOUND_URL_REFUSED']).toContain(bad.body.error);
    }
    for (const jsonContent of ['{}', '{"type": "service_account", "client_email": ']) {
      const bad = await server.request('POST', '/api/queueIntegration/testSession', {
        token: tenant.token,
        body: { projectName: 'proj', jsonContent, language: 'pt-BR' },
      });
      expect(bad.body.details, jsonContent).toEqual([{ path: 'jsonContent', message: 'invalidServiceAccount' }]);
    }
    expect(google.seen.length).toBe(calls);
  });
});
