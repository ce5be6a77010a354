process.env.SANDBOX_OPENING_MS = '0';
process.env.SANDBOX_ACK_MS = '0';

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { events } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedUser, openSocket, recordEvents, unique, untilJoined } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { connectSandbox } from '../../../test/inbox';
import { createInboundHandlers } from '../../inbound';
import { resumeDueRuns } from './engine/runner';
import { sweepIdleTestRuns, TEST_RUN_IDLE_MINUTES } from './test-run';

/**
 * The flow builder through HTTP and the sandbox: flows and their document, phrase campaigns, uploads, the
 * engine driven by simulated customers (phrase → question → {{nome}} → menu branch), a burst of messages,
 * a restart mid-flow (a new app on the same database), the ancestor's own flow JSON, and the test run.
 */

let server: TTestServer;
let tenant: Awaited<ReturnType<TTestServer['createTenant']>>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let seq = 0;
const customer = () => `55118${String(60_000_000 + (Date.now() % 1_000_000) * 10 + (seq++ % 10)).slice(0, 8)}`;

const sql = async <T = any>(text: string, values: unknown[] = []) =>
  (await server.database.executeSql(text, values)).rows as T[];

const api = async (method: string, path: string, body?: unknown, token = tenant.token) => {
  const res = await server.request(method, path, { token, body });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

const connect = () => connectSandbox(server, tenant.token);

const say = (connectionId: number, from: string, body: string) =>
  api('POST', `/api/sandbox/${connectionId}/inbound`, { from, name: 'Maria Souza', type: 'text', body });

const received = async (connectionId: number, to: string) =>
  ((await api('GET', `/api/sandbox/${connectionId}/outbox?to=${to}`)).messages as { body: string }[]).map(
    (m) => m.body,
  );

const at = { x: 0, y: 0 };
const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: at, data });
const edge = (source: string, target: string, sourceHandle: string | null = null) => ({
  id: `xy-edge__${source}${sourceHandle ?? ''}-${target}`,
  source,
  target,
  sourceHandle,
});
const start = node('1', 'start', { label: 'Inicio do fluxo' });

/** start → question (nome) → menu (1 vendas, 2 suporte) → branch messages */
const salesFlow = () => ({
  nodes: [
    start,
    node('q', 'question', { typebotIntegration: { message: 'Qual o seu nome?', answerKey: 'nome' } }),
    node('m', 'menu', {
      message: 'Olá {{nome}}, escolha:',
      arrayOption: [
        { number: 1, value: 'Vendas' },
        { number: 2, value: 'Suporte' },
      ],
    }),
    node('v', 'message', { label: 'Vendas para {{nome}}' }),
    node('s', 'message', { label: 'Suporte para {{nome}}' }),
  ],
  connections: [edge('1', 'q'), edge('q', 'm'), edge('m', 'v', 'a1'), edge('m', 's', 'a2')],
});

const newFlow = async (doc: unknown, name = unique('Fluxo').slice(0, 40)) => {
  const flow = await api('POST', '/api/flowbuilder', { name });
  await api('POST', '/api/flowbuilder/flow', { idFlow: flow.id, ...(doc as object) });
  return flow.id as number;
};

const phrase = (flowId: number, whatsappId: number, text: string, status = true) =>
  api('POST', '/api/flowcampaign', { name: unique('Frase').slice(0, 40), flowId, whatsappId, phrase: text, status });

beforeAll(async () => {
  // the engine's behaviour, not the company's share of it (flow-budget.test.ts): a budget this file never reaches
  server = await startTestServer({ env: { TENANT_BUDGET_FLOWS: '1000,16,64' } });
  tenant = await server.createTenant('Flows');
  await sql('update plans set connections = 50, queues = 50, users = 50');
  server.ctx.channels.setEvents(createInboundHandlers(server.ctx));
});
afterAll(async () => {
  await server?.close();
});

describe('flows: list and document', () => {
  it('creates, searches, renames, toggles, duplicates and deletes; names are unique per company', async () => {
    const name = unique('Atendimento').slice(0, 30);
    const created = await server.request('POST', '/api/flowbuilder', { token: tenant.token, body: { name } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, active: true });
    const again = await server.request('POST', '/api/flowbuilder', { token: tenant.token, body: { name } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_DUPLICATED_FLOW');
    const short = await server.request('POST', '/api/flowbuilder', { token: tenant.token, body: { name: 'a' } });
    expect(short.status).toBe(400);

    const list = await api('GET', `/api/flowbuilder?searchParam=${encodeURIComponent(name.toUpperCase())}`);
    expect(list.flows.map((f: { id: number }) => f.id)).toEqual([created.body.id]);
    const renamed = await api('PUT', '/api/flowbuilder', { flowId: created.body.id, name: `${name} 2` });
    expect(renamed.name).toBe(`${name} 2`);
    expect((await api('PUT', '/api/flowbuilder', { flowId: created.body.id, active: false })).active).toBe(false);

    await api('POST', '/api/flowbuilder/flow', { idFlow: created.body.id, ...salesFlow() });
    const copy = await api('POST', '/api/flowbuilder/duplicate', { flowId: created.body.id });
    expect(copy.name).toBe(`${name} 2 - cópia`);
    const copied = await api('GET', `/api/flowbuilder/flow/${copy.id}`);
    expect(copied.flow.flow.nodes).toHaveLength(5);
    expect(copied.flow.variables).toEqual(['nome']);

    expect(await api('DELETE', `/api/flowbuilder/${created.body.id}`)).toEqual({ message: 'ok' });
    const gone = await server.request('GET', `/api/flowbuilder/flow/${created.body.id}`, { token: tenant.token });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('ERR_NO_FLOW_FOUND');
  });

  it('saves the document: one start node, unique ids, edges to existing nodes; garbage refused', async () => {
    const flow = await api('POST', '/api/flowbuilder', { name: unique('Doc').slice(0, 40) });
    const save = (body: Record<string, unknown>) =>
      server.request('POST', '/api/flowbuilder/flow', { token: tenant.token, body: { idFlow: flow.id, ...body } });
    const empty = await save({ nodes: [], connections: [] });
    expect(empty.status).toBe(200);
    expect(empty.body.flow.flow).toEqual({ nodes: [], connections: [] });

    const noStart = await save({ nodes: [node('m', 'message', { label: 'x' })], connections: [] });
    expect(noStart.status).toBe(400);
    expect(noStart.body.error).toBe('ERR_FLOW_START_NODE');
    const twoStarts = await save({ nodes: [start, { ...start, id: '2' }], connections: [] });
    expect(twoStarts.body.error).toBe('ERR_FLOW_START_NODE');
    const dup = await save({ nodes: [start, node('1', 'message', { label: 'x' })], connections: [] });
    expect(dup.body.error).toBe('ERR_FLOW_GRAPH');
    const dangling = await save({ nodes: [start], connections: [edge('1', 'ghost')] });
    expect(dangling.status).toBe(400);
    expect(dangling.body).toMatchObject({ error: 'ERR_FLOW_GRAPH', details: [{ path: 'connections.0.target' }] });
    for (const nodes of [
      [start, { id: 'x', type: 'bogus', position: at, data: {} }],
      [start, node('i', 'interval', { sec: 500 })],
      [start, node('q', 'question', { typebotIntegration: { message: 'x' } })],
      [start, { id: 'x', type: 'message', data: { label: 'sem posição' } }],
      'not a list',
    ]) {
      const res = await save({ nodes, connections: [] });
      expect(res.status, JSON.stringify(nodes)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const missing = await server.request('POST', '/api/flowbuilder/flow', {
      token: tenant.token,
      body: { idFlow: 2_000_000_000, nodes: [], connections: [] },
    });
    expect(missing.status).toBe(404);
  });

  it('seals the OpenAI node secrets, masks them on load, and a masked value sent back keeps the stored one', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const ai = (apiKey: string, voiceKey = '') =>
      node('ai', 'openai', { typebotIntegration: { name: 'Bot', apiKey, prompt: 'Seja breve.', voiceKey } });
    const flowId = await newFlow({ nodes: [start, ai(secret, 'azure-key-9999')], connections: [edge('1', 'ai')] });
    const [{ flow: stored }] = await sql('select flow from flow_builders where id = $1', [flowId]);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(JSON.stringify(stored)).not.toContain('azure-key-9999');
    const loaded = await api('GET', `/api/flowbuilder/flow/${flowId}`);
    const settings = loaded.flow.flow.nodes[1].data.typebotIntegration;
    expect(settings.apiKey).not.toContain('0123456789');
    expect(settings.apiKey.endsWith('cdef')).toBe(true);
    // sent back as loaded: kept
    await api('POST', '/api/flowbuilder/flow', { idFlow: flowId, ...loaded.flow.flow });
    const [{ flow: kept }] = await sql('select flow from flow_builders where id = $1', [flowId]);
    expect(kept.nodes[1].data.typebotIntegration.apiKey).toBe(stored.nodes[1].data.typebotIntegration.apiKey);
    // a new value replaces it
    await api('POST', '/api/flowbuilder/flow', {
      idFlow: flowId,
      nodes: [start, ai('sk-new-key-7777')],
      connections: [],
    });
    const reloaded = await api('GET', `/api/flowbuilder/flow/${flowId}`);
    expect(reloaded.flow.flow.nodes[1].data.typebotIntegration.apiKey.endsWith('7777')).toBe(true);
  });

  it('uploads images, audio and MP4 video typed by content within the spec limits', async () => {
    const PNG = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(64)]);
    const MOV = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypqt  '), Buffer.alloc(64)]);
    const post = (path: string, files: { name: string; data: Buffer }[]) => {
      const form = new FormData();
      for (const f of files) form.append('medias', new Blob([f.data]), f.name);
      return fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.token}` },
        body: form,
      });
    };
    const img = await post('/api/flowbuilder/img', [{ name: 'foto.png', data: PNG }]);
    expect(img.status).toBe(200);
    const body = (await img.json()) as any;
    expect(body).toMatchObject({ kind: 'image', original: 'foto.png', mime: 'image/png' });
    expect((await fetch(new URL(body.url, server.url))).status).toBe(200);
    // named .png but a PDF inside
    const fake = await post('/api/flowbuilder/img', [{ name: 'foto.png', data: Buffer.from('%PDF-1.4\n%%EOF\n') }]);
    expect(fake.status).toBe(415);
    expect(((await fake.json()) as any).error).toBe('ERR_FLOW_MEDIA_TYPE');
    const big = await post('/api/flowbuilder/img', [
      { name: 'big.png', data: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]) },
    ]);
    expect(big.status).toBe(413);
    expect(((await big.json()) as any).error).toBe('ERR_FLOW_MEDIA_TOO_LARGE');
    expect((await post('/api/flowbuilder/video', [{ name: 'v.mp4', data: MP4 }])).status).toBe(200);
    const mov = await post('/api/flowbuilder/video', [{ name: 'v.mp4', data: MOV }]);
    expect(mov.status).toBe(415);
    const content = await post('/api/flowbuilder/content', [
      { name: 'a.png', data: PNG },
      { name: 'b.mp4', data: MP4 },
    ]);
    const names = (await content.json()) as string[];
    expect(names).toHaveLength(2);
    expect(await sql('select kind from flow_uploads where path = any($1::text[]) order by id', [names])).toEqual([
      { kind: 'image' },
      { kind: 'video' },
    ]);
  });
});

describe('phrase campaigns', () => {
  it('CRUD in the ancestor shapes; links checked in the company', async () => {
    const connectionId = await connect();
    const flowId = await newFlow(salesFlow());
    const created = await phrase(flowId, connectionId, 'quero comprar');
    expect(created).toMatchObject({ flowId, whatsappId: connectionId, phrase: 'quero comprar', status: true });
    expect((await api('GET', '/api/flowcampaign')).flow.map((c: { id: number }) => c.id)).toContain(created.id);
    expect((await api('GET', `/api/flowcampaign/${created.id}`)).details.name).toBe(created.name);
    const updated = await api('PUT', '/api/flowcampaign', { id: created.id, status: false, phrase: 'oi' });
    expect(updated).toMatchObject({ status: false, phrase: 'oi' });
    const other = await server.createTenant('Other');
    const foreign = await server.request('POST', '/api/flowcampaign', {
      token: other.token,
      body: { name: 'x y', flowId, whatsappId: connectionId, phrase: 'oi' },
    });
    expect(foreign.status).toBe(404);
    const agent = await createLoggedUser(server, tenant);
    expect((await server.request('DELETE', `/api/flowcampaign/${created.id}`, { token: agent.token })).status).toBe(
      403,
    );
    expect(await api('DELETE', `/api/flowcampaign/${created.id}`)).toEqual({ message: 'ok' });
  });
});

describe('the engine through the sandbox', () => {
  it('phrase → question → {{nome}} filled → menu branch; an inactive phrase does nothing', async () => {
    const connectionId = await connect();
    const flowId = await newFlow(salesFlow());
    await phrase(flowId, connectionId, 'Promoção de Verão');
    await phrase(flowId, connectionId, 'desligada', false);
    const from = customer();
    await say(connectionId, from, 'desligada');
    expect(await received(connectionId, from)).toEqual([]);
    await say(connectionId, from, '  PROMOCAO de verao ');
    expect(await received(connectionId, from)).toEqual(['Qual o seu nome?']);
    await say(connectionId, from, 'Joana');
    await say(connectionId, from, '2');
    const out = await received(connectionId, from);
    expect(out).toContain('Olá Joana, escolha:\n\n[1] Vendas\n[2] Suporte');
    expect(out).toContain('Suporte para Joana');
    expect(out).not.toContain('Vendas para Joana');
    const [run] = await sql(
      'select r.status, r.variables from flow_runs r join tickets t on t.id = r.ticket_id join contacts c on c.id = t.contact_id where c.number = $1',
      [from],
    );
    expect(run).toEqual({ status: 'done', variables: { nome: 'Joana' } });
  });

  it('an unknown menu answer repeats the menu 3 times, then the ticket goes to the connection queue', async () => {
    const connectionId = await connect();
    const queue = await api('POST', '/api/queue', { name: unique('Fila').slice(0, 30), color: '#123456' });
    await api('PUT', `/api/whatsapp/${connectionId}`, { queueIds: [queue.id] });
    const flowId = await newFlow(salesFlow());
    await phrase(flowId, connectionId, 'menu');
    const from = customer();
    for (const body of ['menu', 'Ana', 'x', 'y', 'z', 'w']) await say(connectionId, from, body);
    const menus = (await received(connectionId, from)).filter((b) => b.startsWith('Olá Ana'));
    expect(menus).toHaveLength(4);
    const [ticket] = await sql(
      'select t.status, t.queue_id from tickets t join contacts c on c.id = t.contact_id where c.number = $1',
      [from],
    );
    expect(ticket).toEqual({ status: 'pending', queue_id: queue.id });
  });

  it('a burst of 5 messages at once runs each step once', async () => {
    const connectionId = await connect();
    const flowId = await newFlow({
      nodes: [
        start,
        node('q', 'question', { typebotIntegration: { message: 'Nome?', answerKey: 'nome' } }),
        node('m', 'message', { label: 'Obrigado {{nome}}' }),
      ],
      connections: [edge('1', 'q'), edge('q', 'm')],
    });
    await phrase(flowId, connectionId, 'começar');
    const from = customer();
    await say(connectionId, from, 'começar');
    await Promise.all(['A', 'B', 'C', 'D', 'E'].map((b) => say(connectionId, from, b)));
    const thanks = (await received(connectionId, from)).filter((b) => b.startsWith('Obrigado'));
    expect(thanks).toHaveLength(1);
    const steps = await sql(
      `select s.node_id, s.status from flow_run_steps s join flow_runs r on r.id = s.run_id
       join tickets t on t.id = r.ticket_id join contacts c on c.id = t.contact_id where c.number = $1 and s.status = 'running'`,
      [from],
    );
    expect(steps.map((s) => s.node_id).sort()).toEqual(['1', 'm']);
  });

  it("an attendant accepting the ticket ends the run: later messages are the attendant's", async () => {
    const connectionId = await connect();
    const flowId = await newFlow(salesFlow());
    await phrase(flowId, connectionId, 'aceitar');
    const from = customer();
    await say(connectionId, from, 'aceitar');
    const [ticket] = await sql(
      'select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = $1 and t.whatsapp_id = $2',
      [from, connectionId],
    );
    await api('PUT', `/api/tickets/${ticket.id}`, { status: 'open', userId: tenant.user.id });
    await say(connectionId, from, 'Paula');
    expect(await received(connectionId, from)).toEqual(['Qual o seu nome?']);
    const [run] = await sql('select status, reason from flow_runs where ticket_id = $1', [ticket.id]);
    expect(run).toEqual({ status: 'done', reason: 'accepted' });
  });

  it('a ticket node whose queue was deleted leaves the ticket pending without a queue; an inactive flow starts nothing', async () => {
    const connectionId = await connect();
    const queue = await api('POST', '/api/queue', { name: unique('Some').slice(0, 30), color: '#654321' });
    const flowId = await newFlow({
      nodes: [start, node('t', 'ticket', { data: { id: queue.id, name: 'Some' } })],
      connections: [edge('1', 't')],
    });
    await api('DELETE', `/api/queue/${queue.id}`);
    await phrase(flowId, connectionId, 'fila');
    const from = customer();
    await say(connectionId, from, 'fila');
    const [row] = await sql(
      `select t.status, t.queue_id, r.status as run, r.reason from tickets t join contacts c on c.id = t.contact_id
       join flow_runs r on r.ticket_id = t.id where c.number = $1`,
      [from],
    );
    expect(row).toEqual({ status: 'pending', queue_id: null, run: 'failed', reason: 'queue-deleted' });

    const idle = await newFlow({
      nodes: [start, node('m', 'message', { label: 'inativo' })],
      connections: [edge('1', 'm')],
    });
    await api('PUT', '/api/flowbuilder', { flowId: idle, active: false });
    await phrase(idle, connectionId, 'inativo');
    const other = customer();
    await say(connectionId, other, 'inativo');
    expect(await received(connectionId, other)).toEqual([]);
  });

  it('welcome flow for a first contact; the flow on another connection does not fire', async () => {
    const connectionId = await connect();
    const other = await connect();
    const welcome = await newFlow({
      nodes: [start, node('w', 'message', { label: 'Bem-vindo!' })],
      connections: [edge('1', 'w')],
    });
    await api('PUT', `/api/whatsapp/${connectionId}`, { flowIdWelcome: welcome });
    expect((await api('GET', `/api/whatsapp/${connectionId}`)).flowIdWelcome).toBe(welcome);
    const from = customer();
    await say(connectionId, from, 'oi');
    await say(connectionId, from, 'oi de novo');
    expect(await received(connectionId, from)).toEqual(['Bem-vindo!']);
    await say(other, from, 'oi');
    expect(await received(other, from)).toEqual([]);
    const otherTenant = await server.createTenant('Other2');
    const foreignFlow = await server.request('PUT', `/api/whatsapp/${connectionId}`, {
      token: tenant.token,
      body: { flowIdNotPhrase: 2_000_000_000 },
    });
    expect(foreignFlow.status).toBe(404);
    expect(otherTenant.companyId).not.toBe(tenant.companyId);
  });

  it("a flowbuilder integration that names no flow runs the connection's welcome flow, also in a queue", async () => {
    const connectionId = await connect();
    const welcome = await newFlow({
      nodes: [start, node('w', 'message', { label: 'Bem-vindo à fila!' })],
      connections: [edge('1', 'w')],
    });
    // the ancestor's integration dialog sends no flowId for a flowbuilder integration
    const integration = await api('POST', '/api/queueIntegration', { type: 'flowbuilder', name: unique('FB') });
    expect(integration.flowId).toBeNull();
    const queue = await api('POST', '/api/queue', {
      name: unique('Fila'),
      color: '#336699',
      integrationId: integration.id,
    });
    // the connection's only queue takes the first message's ticket
    await api('PUT', `/api/whatsapp/${connectionId}`, { queueIds: [queue.id] });
    const from = customer();
    await say(connectionId, from, 'oi');
    const [ticket] = await sql(
      'select t.queue_id from tickets t join contacts c on c.id = t.contact_id where c.number = $1',
      [from],
    );
    expect(ticket.queue_id).toBe(queue.id);
    expect(await received(connectionId, from)).toEqual([]);
    // now the connection has a welcome flow: the queue's integration runs it on the next message
    await api('PUT', `/api/whatsapp/${connectionId}`, { flowIdWelcome: welcome });
    await say(connectionId, from, 'quero ajuda');
    expect(await received(connectionId, from)).toEqual(['Bem-vindo à fila!']);
  });

  it('a queue whose integration is a flow, picked from the menu, starts its flow at once', async () => {
    const flowId = await newFlow({
      nodes: [start, node('w', 'message', { label: 'Fluxo do setor começou' })],
      connections: [edge('1', 'w')],
    });
    const integration = await api('POST', '/api/queueIntegration', { type: 'flowbuilder', name: unique('F'), flowId });
    const color = () =>
      `#${Math.floor(Math.random() * 0xffffff)
        .toString(16)
        .padStart(6, '0')}`;
    const plain = await api('POST', '/api/queue', { name: unique('Vendas'), color: color() });
    const flowQueue = await api('POST', '/api/queue', {
      name: unique('Fluxo'),
      color: color(),
      integrationId: integration.id,
    });
    const connectionId = await connectSandbox(server, tenant.token, {
      greetingMessage: 'Escolha um setor',
      queueIds: [plain.id, flowQueue.id],
    });
    const from = customer();
    await say(connectionId, from, 'oi');
    const [menu] = await received(connectionId, from);
    const option = menu
      ?.split('\n')
      .find((l) => l.includes(flowQueue.name))
      ?.match(/\d+/)?.[0];
    expect(option).toBeDefined();
    await say(connectionId, from, option!);
    // no second message needed: the flow's first message follows the choice
    expect((await received(connectionId, from)).slice(1)).toEqual(['Fluxo do setor começou']);
  });

  it('an interval survives a restart: a due run resumes from the database', async () => {
    const connectionId = await connect();
    const flowId = await newFlow({
      nodes: [
        start,
        node('i', 'interval', { label: 'Intervalo 60 seg.', sec: 60 }),
        node('m', 'message', { label: 'depois do intervalo' }),
      ],
      connections: [edge('1', 'i'), edge('i', 'm')],
    });
    await phrase(flowId, connectionId, 'espera');
    const from = customer();
    await say(connectionId, from, 'espera');
    await say(connectionId, from, 'ainda?');
    expect(await received(connectionId, from)).toEqual([]);
    await sql("update flow_runs set resume_at = now() - interval '1 second' where wait = 'interval'");
    expect(await resumeDueRuns(server.ctx)).toBeGreaterThanOrEqual(1);
    expect(await received(connectionId, from)).toEqual(['depois do intervalo']);
  });

  it("a content block's interval parks the run in the database too: the rest goes when it is due", async () => {
    const connectionId = await connect();
    const flowId = await newFlow({
      nodes: [
        start,
        node('blk', 'singleBlock', {
          seq: ['message0', 'interval1', 'message2'],
          elements: [
            { type: 'message', value: 'antes', number: 'message0' },
            { type: 'interval', value: '60', number: 'interval1' },
            { type: 'message', value: 'depois', number: 'message2' },
          ],
        }),
      ],
      connections: [edge('1', 'blk')],
    });
    await phrase(flowId, connectionId, 'bloco');
    const from = customer();
    await say(connectionId, from, 'bloco');
    await say(connectionId, from, 'ainda?');
    expect(await received(connectionId, from)).toEqual(['antes']);
    await sql("update flow_runs set resume_at = now() - interval '1 second' where wait = 'interval'");
    expect(await resumeDueRuns(server.ctx)).toBeGreaterThanOrEqual(1);
    expect(await received(connectionId, from)).toEqual(['antes', 'depois']);
  });

  it('an ancestor flow JSON (as its editor saves it) imports and runs unchanged', async () => {
    const doc = JSON.parse(readFileSync(resolve(import.meta.dirname, 'fixtures/ancestor-flow.json'), 'utf8'));
    const connectionId = await connect();
    const flowId = await newFlow(doc);
    const loaded = await api('GET', `/api/flowbuilder/flow/${flowId}`);
    expect(loaded.flow.flow.nodes.map((n: { id: string }) => n.id)).toEqual(doc.nodes.map((n: { id: string }) => n.id));
    expect(loaded.flow.variables).toEqual(['nome']);
    await phrase(flowId, connectionId, 'ola');
    const from = customer();
    await say(connectionId, from, 'olá');
    await say(connectionId, from, 'Carlos');
    await say(connectionId, from, '1');
    const out = await received(connectionId, from);
    expect(out).toContain('Seja bem-vindo à nossa loja!');
    expect(out).toContain('Como posso te chamar?');
    expect(out).toContain('Perfeito Carlos! Um vendedor já vai te atender.');
  });

  it('the test run starts an inactive flow for a fresh simulated customer and announces each node', async () => {
    await connect();
    const flowId = await newFlow(salesFlow());
    await api('PUT', '/api/flowbuilder', { flowId, active: false });
    const socket = await openSocket(server, tenant.token);
    try {
      await untilJoined(server, `company-${tenant.companyId}-admins`);
      const seen = recordEvents(socket);
      const res = await server.request('POST', `/api/flowbuilder/${flowId}/test-run`, {
        token: tenant.token,
        body: {},
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ flowId });
      const { connectionId, contactNumber } = res.body;
      const [conn] = await sql('select provider, company_id from whatsapps where id = $1', [connectionId]);
      expect(conn).toEqual({ provider: 'sandbox', company_id: tenant.companyId });
      expect(await received(connectionId, contactNumber)).toEqual(['Qual o seu nome?']);
      await say(connectionId, contactNumber, 'Bia');
      const flowRuns = () =>
        seen.heard.filter((e) => e.event === events.flowRun(tenant.companyId)).map((e) => e.payload as any);
      for (let i = 0; i < 100 && !flowRuns().some((p) => p?.variables?.nome === 'Bia'); i++) await sleep(20);
      const steps = flowRuns();
      expect(steps[0]).toMatchObject({ runId: res.body.runId, nodeId: '1', status: 'running' });
      expect(steps.some((s) => s.nodeId === 'q' && s.status === 'waiting')).toBe(true);
      expect(steps.some((s) => s.nodeId === 'm' && s.variables.nome === 'Bia')).toBe(true);
      const run = await api('GET', `/api/flowbuilder/run/${res.body.runId}`);
      expect(run.run).toMatchObject({ test: true, status: 'waiting', nodeId: 'm', variables: { nome: 'Bia' } });
    } finally {
      socket.close();
    }
    // no sandbox connection: a clear error
    const lone = await server.createTenant('NoSandbox');
    const flow = await server.request('POST', '/api/flowbuilder', { token: lone.token, body: { name: 'Sem sandbox' } });
    await server.request('POST', '/api/flowbuilder/flow', {
      token: lone.token,
      body: { idFlow: flow.body.id, nodes: [start], connections: [] },
    });
    const none = await server.request('POST', `/api/flowbuilder/${flow.body.id}/test-run`, {
      token: lone.token,
      body: {},
    });
    expect(none.status).toBe(409);
    expect(none.body.error).toBe('ERR_NO_SANDBOX_CONNECTION');
  });
});

describe('test runs leave no trace (issue 22 B.3)', () => {
  const dashboard = async () => {
    // the dashboard's rollup folds its deltas every second
    await sleep(1500);
    return (await api('GET', '/api/dashboard?days=7')).counters;
  };
  const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

  it('its customer and ticket are in no list, count or event, and go when the editor ends the test', async () => {
    await connect();
    const flowId = await newFlow(salesFlow());
    const before = await dashboard();
    const reportBefore = await api('GET', '/api/reports/summary');
    const socket = await openSocket(server, tenant.token);
    let run: { runId: number; ticketId: number; contactId: number; contactNumber: string; connectionId: number };
    try {
      await untilJoined(server, `company-${tenant.companyId}-admins`);
      const seen = recordEvents(socket);
      run = await api('POST', `/api/flowbuilder/${flowId}/test-run`, {});
      await say(run.connectionId, run.contactNumber, 'Bia');
      const menu = 'Olá Bia, escolha:\n\n[1] Vendas\n[2] Suporte';
      for (let i = 0; i < 200 && !(await received(run.connectionId, run.contactNumber)).includes(menu); i++)
        await sleep(20);
      expect(await received(run.connectionId, run.contactNumber)).toContain(menu);
      // the ticket is there, and the flow runs on it
      expect((await sql('select is_test from tickets where id = $1', [run.ticketId]))[0]).toEqual({ is_test: true });
      await sleep(300);
      // only the simulator's far side (which plays the customer) hears of it: no ticket, message or contact event
      const mentions = seen.heard.filter((e) => JSON.stringify(e.payload).includes(run.contactNumber));
      expect(mentions.length).toBeGreaterThan(0);
      expect(mentions.filter((e) => e.event !== `company-${tenant.companyId}-sandbox`)).toEqual([]);
    } finally {
      socket.close();
    }
    for (const status of ['pending', 'open', 'closed']) {
      const list = await api('GET', `/api/tickets?status=${status}&showAll=true`);
      expect(ids(list.tickets)).not.toContain(run.ticketId);
    }
    expect(ids((await api('GET', '/api/tickets?showAll=true')).tickets)).not.toContain(run.ticketId);
    const kanban = await api('GET', '/api/ticket/kanban');
    expect(JSON.stringify(kanban)).not.toContain(run.contactNumber);
    expect(ids((await api('GET', '/api/contacts')).contacts)).not.toContain(run.contactId);
    expect(ids((await api('GET', `/api/contacts?searchParam=${run.contactNumber}`)).contacts)).toEqual([]);
    expect(await dashboard()).toEqual(before);
    // a person who takes the simulated customer's ticket gives it an attendance cycle; the reports leave it out
    const taken = await server.request('PUT', `/api/tickets/${run.ticketId}`, {
      token: tenant.token,
      body: { status: 'open', userId: tenant.user.id },
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(await sql('select count(*)::int as n from ticket_trackings where ticket_id = $1', [run.ticketId])).toEqual([
      { n: 1 },
    ]);
    expect(await api('GET', '/api/reports/summary')).toEqual(reportBefore);

    // the editor closes its test: nothing of it stays
    expect((await server.request('DELETE', `/api/flowbuilder/run/${run.runId}`, { token: tenant.token })).status).toBe(
      204,
    );
    expect(await sql('select id from contacts where id = $1', [run.contactId])).toEqual([]);
    expect(await sql('select id from tickets where id = $1', [run.ticketId])).toEqual([]);
    expect(await sql('select id from messages where ticket_id = $1', [run.ticketId])).toEqual([]);
    expect(await sql('select id from flow_runs where id = $1', [run.runId])).toEqual([]);
    expect(await received(run.connectionId, run.contactNumber)).toEqual([]);
    const again = await server.request('DELETE', `/api/flowbuilder/run/${run.runId}`, { token: tenant.token });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('ERR_NO_FLOW_RUN_FOUND');
    expect(await dashboard()).toEqual(before);
  });

  it("ends only test runs: a real customer's run is not deleted through it", async () => {
    const connectionId = await connect();
    const flowId = await newFlow(salesFlow());
    await phrase(flowId, connectionId, 'real');
    const from = customer();
    await say(connectionId, from, 'real');
    const [row] = await sql(
      'select r.id from flow_runs r join tickets t on t.id = r.ticket_id join contacts c on c.id = t.contact_id where c.number = $1',
      [from],
    );
    const res = await server.request('DELETE', `/api/flowbuilder/run/${row.id}`, { token: tenant.token });
    expect(res.status).toBe(404);
    expect(await sql('select id from contacts where number = $1', [from])).toHaveLength(1);
  });

  it('a test nobody ended is swept after its idle time; a live one stays', async () => {
    await connect();
    const flowId = await newFlow(salesFlow());
    const idle = await api('POST', `/api/flowbuilder/${flowId}/test-run`, {});
    const live = await api('POST', `/api/flowbuilder/${flowId}/test-run`, {});
    const old = new Date(Date.now() - (TEST_RUN_IDLE_MINUTES + 1) * 60_000).toISOString();
    await sql('update contacts set updated_at = $1 where id = $2', [old, idle.contactId]);
    await sql('update tickets set updated_at = $1 where id = $2', [old, idle.ticketId]);
    expect(await sweepIdleTestRuns(server.ctx)).toBe(1);
    expect(await sql('select id from contacts where id in ($1, $2)', [idle.contactId, live.contactId])).toEqual([
      { id: live.contactId },
    ]);
  });
});

describe('restart mid-flow', () => {
  it('a new app on the same database resumes a waiting question', async () => {
    const connectionId = await connect();
    const flowId = await newFlow(salesFlow());
    await phrase(flowId, connectionId, 'reiniciar');
    const from = customer();
    await say(connectionId, from, 'reiniciar');
    expect(await received(connectionId, from)).toEqual(['Qual o seu nome?']);
    // the first app lets the connection go, as a stopping node does (on PostgreSQL a session is owned by one node)
    await server.ctx.channels.stop(connectionId);
    const second = await startTestServer({ database: server.database });
    try {
      second.ctx.channels.setEvents(createInboundHandlers(second.ctx));
      await second.ctx.channels.start({ id: connectionId, companyId: tenant.companyId, provider: 'sandbox' });
      for (let i = 0; i < 200; i++) {
        const res = await second.request('POST', `/api/sandbox/${connectionId}/scan`, {
          token: tenant.token,
          body: {},
        });
        if (res.status === 200) break;
        await sleep(20);
      }
      // the pairing is acknowledged before the session reports itself connected
      for (let i = 0; i < 500 && second.ctx.channels.state(connectionId)?.status !== 'CONNECTED'; i++) await sleep(20);
      expect(second.ctx.channels.state(connectionId)?.status).toBe('CONNECTED');
      const res = await second.request('POST', `/api/sandbox/${connectionId}/inbound`, {
        token: tenant.token,
        body: { from, name: 'Maria Souza', type: 'text', body: 'Rita' },
      });
      expect(res.status).toBeLessThan(300);
      const out = await second.request('GET', `/api/sandbox/${connectionId}/outbox?to=${from}`, {
        token: tenant.token,
      });
      expect(out.body.messages.map((m: { body: string }) => m.body)).toContain(
        'Olá Rita, escolha:\n\n[1] Vendas\n[2] Suporte',
      );
    } finally {
      await second.close();
    }
  });
});
