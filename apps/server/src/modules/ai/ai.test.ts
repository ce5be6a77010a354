process.env.SANDBOX_OPENING_MS = '0';
process.env.SANDBOX_ACK_MS = '0';

import { AI_HANDOVER_PHRASE } from '@zelo/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addQueue } from '../../../test/catalogue-fixtures';
import { FAKE_OGG, startFakeAi } from '../../../test/fake-ai';
import { scanSandbox, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { createInboundHandlers } from '../../inbound/index';
import { aiStage } from './ai-stage';
import { answerWithAi, splitHandover } from './answer';

/** The AI stage through the sandbox: customers write with POST /api/sandbox/:id/inbound; a fake AI answers. */
let server: TTestServer;
let tenant: Awaited<ReturnType<TTestServer['createTenant']>>;
let ai: Awaited<ReturnType<typeof startFakeAi>>;

const sql = async <T = any>(text: string, values: unknown[] = []) =>
  (await server.database.executeSql(text, values)).rows as T[];
const api = async (method: string, path: string, body?: unknown) => {
  const res = await server.request(method, path, { token: tenant.token, body });
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
let seq = 0;
const customer = () => `55119${String(60_000_000 + (Date.now() % 1_000_000) * 10 + (seq++ % 10)).slice(0, 8)}`;

const connect = async (fields: Record<string, unknown> = {}) =>
  scanSandbox(
    server,
    tenant.token,
    (await api('POST', '/api/whatsapp', { name: unique('Conn'), ...fields })).id as number,
  );
const say = (connectionId: number, from: string, body: string, extra: Record<string, unknown> = {}) =>
  api('POST', `/api/sandbox/${connectionId}/inbound`, { from, name: 'Maria Souza', type: 'text', body, ...extra });
const received = async (connectionId: number, to: string) =>
  ((await api('GET', `/api/sandbox/${connectionId}/outbox?to=${to}`)).messages as { body: string }[]).map(
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

const TEXT = 'Você é a assistente virtual da loja Zelo. Responda em português, com educação e objetividade.';
const newPrompt = async (queueId: number, fields: Record<string, unknown> = {}) =>
  (await api('POST', '/api/prompt', {
    name: unique('Prompt'),
    prompt: TEXT,
    model: 'llama3.1:8b',
    maxTokens: 120,
    temperature: 0.7,
    apiKey: ai.state.apiKey,
    baseUrl: ai.baseUrl,
    queueId,
    maxMessages: 10,
    ...fields,
  })) as { id: number };

beforeAll(async () => {
  ai = await startFakeAi();
  server = await startTestServer({ env: { AZURE_TTS_URL: ai.ttsTemplate } });
  tenant = await server.createTenant('AI');
  await sql('update plans set connections = 50, queues = 50');
  server.ctx.channels.setEvents(createInboundHandlers(server.ctx, { mediaRetryMs: 1 }));
});
afterAll(async () => {
  await server?.close();
  await ai?.close();
});
beforeEach(() => {
  ai.state.failWith = 0;
  ai.state.delayMs = 0;
  ai.state.reply = (messages) => `Resposta a: ${messages.at(-1)?.content ?? ''}`;
});

describe('the AI stage', () => {
  it('answers through the ticket’s connection with the history in chronological order and the first name', async () => {
    const queue = await addQueue(server, tenant);
    const prompt = await newPrompt(queue.id);
    const connectionId = await connect({ promptId: prompt.id });
    const from = customer();
    const before = ai.chats().length;
    await say(connectionId, from, 'oi');
    await say(connectionId, from, 'qual o horário?');
    expect(await received(connectionId, from)).toEqual(['Resposta a: oi', 'Resposta a: qual o horário?']);
    const calls = ai.chats().slice(before);
    expect(calls).toHaveLength(2);
    const second = calls[1]?.json;
    expect(second).toMatchObject({ model: 'llama3.1:8b', max_tokens: 120, temperature: 0.7 });
    expect(second.messages[0].role).toBe('system');
    expect(second.messages[0].content).toContain('Maria');
    expect(second.messages[0].content).not.toContain('Souza');
    expect(second.messages[0].content).toContain(TEXT);
    expect(second.messages[0].content).toContain(AI_HANDOVER_PHRASE);
    expect(second.messages.slice(1)).toEqual([
      { role: 'user', content: 'oi' },
      { role: 'assistant', content: 'Resposta a: oi' },
      { role: 'user', content: 'qual o horário?' },
    ]);
    const ticket = await ticketOf(connectionId, from);
    expect(ticket).toMatchObject({ status: 'pending', queue_id: null, user_id: null });
    const [counted] = await sql('select total_tokens from prompts where id = $1', [prompt.id]);
    expect(Number(counted.total_tokens)).toBe(30);
  });

  it('keeps only the last maxMessages text messages', async () => {
    const queue = await addQueue(server, tenant);
    const prompt = await newPrompt(queue.id, { maxMessages: 2 });
    const connectionId = await connect({ promptId: prompt.id });
    const from = customer();
    await say(connectionId, from, 'um');
    await say(connectionId, from, 'dois');
    expect(ai.chats().at(-1)?.json.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Resposta a: um' },
      { role: 'user', content: 'dois' },
    ]);
  });

  it('asks the API for the model id even when the prompt was saved holding its display label', async () => {
    const queue = await addQueue(server, tenant);
    const prompt = await newPrompt(queue.id);
    // a row written before the fix, by a form that sent the suggestion's display text
    await sql('update prompts set model = $1 where id = $2', ['GPT 4.0 (gpt-4o-mini)', prompt.id]);
    const connectionId = await connect({ promptId: prompt.id });
    const before = ai.chats().length;
    await say(connectionId, customer(), 'oi');
    expect(
      ai
        .chats()
        .slice(before)
        .map((c) => c.json.model),
    ).toEqual(['gpt-4o-mini']);
  });

  it('hands over to the prompt’s queue on the phrase, strips it, and leaves the ticket to humans', async () => {
    const queue = await addQueue(server, tenant);
    const prompt = await newPrompt(queue.id);
    const connectionId = await connect({ promptId: prompt.id });
    const from = customer();
    ai.state.reply = () => `${AI_HANDOVER_PHRASE}. Vou chamar um atendente para você.`;
    await say(connectionId, from, 'quero falar com uma pessoa');
    expect(await received(connectionId, from)).toEqual(['Vou chamar um atendente para você.']);
    const ticket = await ticketOf(connectionId, from);
    expect(ticket).toMatchObject({ status: 'pending', queue_id: queue.id, user_id: null, chatbot: false });
    const calls = ai.chats().length;
    await say(connectionId, from, 'alô?');
    expect(ai.chats().length).toBe(calls);
    expect(splitHandover('acao: transferir para o setor de atendimento')).toEqual({ handover: true, text: '' });
    expect(splitHandover('Claro!')).toEqual({ handover: false, text: 'Claro!' });
  });

  it('answers a ticket in a queue with the queue’s prompt', async () => {
    const target = await addQueue(server, tenant);
    const prompt = await newPrompt(target.id);
    const queue = await addQueue(server, tenant, { promptId: prompt.id });
    const connectionId = await connect({ queueIds: [queue.id] });
    const from = customer();
    await say(connectionId, from, 'bom dia');
    const ticket = await ticketOf(connectionId, from);
    expect(ticket.queue_id).toBe(queue.id);
    await say(connectionId, from, 'preciso de ajuda');
    expect((await received(connectionId, from)).at(-1)).toBe('Resposta a: preciso de ajuda');
  });

  it('shows a failing API to the attendants on the ticket and sends nothing; a key change takes effect at once', async () => {
    const queue = await addQueue(server, tenant);
    const prompt = await newPrompt(queue.id);
    const connectionId = await connect({ promptId: prompt.id });
    const from = customer();
    ai.state.failWith = 500;
    await say(connectionId, from, 'olá');
    expect(await received(connectionId, from)).toEqual([]);
    const ticket = await ticketOf(connectionId, from);
    const notes = await sql('select body, is_private, from_me from messages where ticket_id = $1 and is_private', [
      ticket.id,
    ]);
    expect(notes).toHaveLength(1);
    expect(notes[0].body).toContain('A IA não respondeu');
    expect(ticket).toMatchObject({ status: 'pending', user_id: null });

    // a wrong key: 401, written on the ticket
    ai.state.failWith = 0;
    ai.state.apiKey = 'sk-rotated-key-0000000002';
    await say(connectionId, from, 'alguém?');
    expect(await received(connectionId, from)).toEqual([]);
    const more = await sql('select body from messages where ticket_id = $1 and is_private order by id', [ticket.id]);
    expect(more.at(-1).body).toContain('chave da API foi recusada');
    // the new key saved: the next message is answered with it, no restart
    await api('PUT', `/api/prompt/${prompt.id}`, { apiKey: 'sk-rotated-key-0000000002' });
    await say(connectionId, from, 'e agora?');
    expect(await received(connectionId, from)).toEqual(['Resposta a: e agora?']);
    ai.state.apiKey = 'sk-test-key-000000000001';
  });

  it('transcribes an audio message first and answers it', async () => {
    const queue = await addQueue(server, tenant);
    const prompt = await newPrompt(queue.id);
    const connectionId = await connect({ promptId: prompt.id });
    const from = customer();
    const before = ai.calls.length;
    await say(connectionId, from, '', {
      type: 'audio',
      media: { data: FAKE_OGG.toString('base64'), mimetype: 'audio/ogg', fileName: 'voz.ogg' },
    });
    const paths = ai.calls.slice(before).map((c) => c.path);
    expect(paths).toEqual(['/v1/audio/transcriptions', '/v1/chat/completions']);
    expect(ai.calls.slice(before)[0]?.body.toString('latin1')).toContain('whisper-1');
    expect(await received(connectionId, from)).toEqual([`Resposta a: ${ai.state.transcription}`]);
  });

  it('runs one answer at a time per ticket: a message during a run gets one more run, never two at once', async () => {
    const queue = await addQueue(server, tenant);
    const prompt = await newPrompt(queue.id);
    const connectionId = await connect({ promptId: prompt.id });
    const from = customer();
    await say(connectionId, from, 'primeira');
    const ticket = await ticketOf(connectionId, from);
    const base = ai.chats().length;
    ai.state.delayMs = 300;
    const input = { companyId: tenant.companyId, ticketId: ticket.id, body: 'x', connection: {} as never };
    const verdicts = await Promise.all([
      aiStage.run(server.ctx, input, new Date()),
      aiStage.run(server.ctx, input, new Date()),
      aiStage.run(server.ctx, input, new Date()),
    ]);
    expect(verdicts).toEqual(['handled', 'handled', 'handled']);
    // the first run and one re-run for the two that came meanwhile
    expect(ai.chats().length - base).toBe(2);
  });

  it('speaks the reply as a voice note with Azure speech when asked (the flow’s OpenAI node)', async () => {
    const queue = await addQueue(server, tenant);
    const connectionId = await connect();
    const from = customer();
    await say(connectionId, from, 'me responde em áudio');
    const ticket = await ticketOf(connectionId, from);
    const outcome = await answerWithAi(server.ctx, {
      companyId: tenant.companyId,
      ticketId: ticket.id,
      body: 'me responde em áudio',
      speak: true,
      settings: {
        prompt: TEXT,
        apiKey: ai.state.apiKey,
        baseUrl: ai.baseUrl,
        model: 'gpt-4o-mini',
        maxTokens: 100,
        temperature: 1,
        maxMessages: 10,
        queueId: queue.id,
        voice: 'pt-BR-FranciscaNeural',
        voiceKey: ai.state.voiceKey,
        voiceRegion: 'brazilsouth',
      },
    });
    expect(outcome).toBe('answered');
    const tts = ai.calls.filter((c) => c.path === '/tts/brazilsouth/cognitiveservices/v1').at(-1);
    expect(tts?.body.toString()).toContain("name='pt-BR-FranciscaNeural'");
    expect(tts?.headers['x-microsoft-outputformat']).toBe('ogg-48khz-16bit-mono-opus');
    const [sent] = await sql(
      `select media_type, from_me, source from messages where ticket_id = $1 and from_me order by id desc limit 1`,
      [ticket.id],
    );
    expect(sent).toMatchObject({ media_type: 'audio', from_me: true, source: 'bot' });
  });
});
