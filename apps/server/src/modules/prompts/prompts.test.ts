import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQueue } from '../../../test/catalogue-fixtures';
import { startFakeAi } from '../../../test/fake-ai';
import { createLoggedUser, createPlan, openSocket, recordEvents, untilJoined } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { openSecret } from '../../lib/secrets';

let server: TTestServer;
let ai: Awaited<ReturnType<typeof startFakeAi>>;
beforeAll(async () => {
  server = await startTestServer();
  ai = await startFakeAi();
});
afterAll(async () => {
  await server.close();
  await ai.close();
});

const TEXT = 'Você é a assistente da loja. Responda com educação e clareza sobre pedidos e entregas.';
const sql = async <T = any>(text: string, values: unknown[] = []) =>
  (await server.database.executeSql(text, values)).rows as T[];

const body = (queueId: number, fields: Record<string, unknown> = {}) => ({
  name: 'Assistente',
  prompt: TEXT,
  model: 'gpt-4o-mini',
  maxTokens: 200,
  temperature: 0.7,
  apiKey: 'sk-proj-abcdefghijklmnop1234',
  queueId,
  maxMessages: 10,
  ...fields,
});

describe('AI prompts', () => {
  it('creates with the key sealed at rest and masked on every read; a masked key sent back keeps it', async () => {
    const tenant = await server.createTenant();
    const queue = await addQueue(server, tenant);
    const created = await server.request('POST', '/api/prompt', { token: tenant.token, body: body(queue.id) });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Assistente',
      apiKey: 'sk-••••••1234',
      temperature: 0.7,
      queueId: queue.id,
      queue: { id: queue.id, name: queue.name },
      voice: 'texto',
      baseUrl: null,
    });
    const [row] = await sql('select api_key from prompts where id = $1', [created.body.id]);
    expect(row.api_key).toMatch(/^enc:v1:/);
    expect(row.api_key).not.toContain('abcdefghijklmnop');
    expect(openSecret(row.api_key)).toBe('sk-proj-abcdefghijklmnop1234');

    const list = await server.request('GET', '/api/prompt', { token: tenant.token });
    expect(list.body).toMatchObject({
      count: 1,
      hasMore: false,
      prompts: [{ id: created.body.id, apiKey: 'sk-••••••1234' }],
    });
    expect(JSON.stringify(list.body)).not.toContain('abcdefghijklmnop');

    // the ancestor's form sends the whole record back, masked key included
    const shown = await server.request('GET', `/api/prompt/${created.body.id}`, { token: tenant.token });
    const kept = await server.request('PUT', `/api/prompt/${created.body.id}`, {
      token: tenant.token,
      body: { ...shown.body, name: 'Assistente 2' },
    });
    expect(kept).toMatchObject({ status: 200, body: { name: 'Assistente 2', apiKey: 'sk-••••••1234' } });
    const [same] = await sql('select api_key from prompts where id = $1', [created.body.id]);
    expect(same.api_key).toBe(row.api_key);
    const changed = await server.request('PUT', `/api/prompt/${created.body.id}`, {
      token: tenant.token,
      body: { apiKey: 'sk-another-key-99998888' },
    });
    expect(changed.body.apiKey).toBe('sk-••••••8888');
    const [after] = await sql('select api_key from prompts where id = $1', [created.body.id]);
    expect(openSecret(after.api_key)).toBe('sk-another-key-99998888');

    const gone = await server.request('DELETE', `/api/prompt/${created.body.id}`, { token: tenant.token });
    expect(gone).toMatchObject({ status: 200, body: { message: expect.any(String) } });
    expect((await server.request('GET', `/api/prompt/${created.body.id}`, { token: tenant.token })).body.error).toBe(
      'ERR_NO_PROMPT_FOUND',
    );
  });

  it('stores and shows the model id: a suggestion’s display text or a known label becomes its id', async () => {
    const tenant = await server.createTenant();
    const queue = await addQueue(server, tenant);
    const created = await server.request('POST', '/api/prompt', {
      token: tenant.token,
      body: body(queue.id, { model: 'GPT 4.0 (gpt-4o-mini)' }),
    });
    expect(created).toMatchObject({ status: 200, body: { model: 'gpt-4o-mini' } });
    const [row] = await sql('select model from prompts where id = $1', [created.body.id]);
    expect(row.model).toBe('gpt-4o-mini');
    const typed = await server.request('PUT', `/api/prompt/${created.body.id}`, {
      token: tenant.token,
      body: { model: 'llama3.1:8b' },
    });
    expect(typed.body.model).toBe('llama3.1:8b');
    // a row saved before the fix, holding the label, is read (and sent to the API) as the id
    await sql('update prompts set model = $1 where id = $2', ['GPT 3.5 turbo (gpt-3.5-turbo-1106)', created.body.id]);
    const shown = await server.request('GET', `/api/prompt/${created.body.id}`, { token: tenant.token });
    expect(shown.body.model).toBe('gpt-3.5-turbo-1106');
  });

  it('validates as spec 3 §5 says, with catalogue codes and nothing written', async () => {
    const tenant = await server.createTenant();
    const queue = await addQueue(server, tenant);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'abc' }, 'name'],
      [{ prompt: 'curto demais' }, 'prompt'],
      [{ temperature: 1.5 }, 'temperature'],
      [{ maxTokens: 0 }, 'maxTokens'],
      [{ apiKey: '' }, 'apiKey'],
      [{ queueId: null }, 'queueId'],
      [{ maxMessages: -1 }, 'maxMessages'],
      [{ baseUrl: 'ftp://x.example' }, 'baseUrl'],
      [{ voice: 'pt-BR-Nobody' }, 'voice'],
    ];
    for (const [fields, path] of cases) {
      const res = await server.request('POST', '/api/prompt', { token: tenant.token, body: body(queue.id, fields) });
      expect(res.status, path).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    // no sector chosen (the form's empty choice, or none): says what is missing, not "invalid"
    for (const queueId of ['', null, undefined]) {
      const res = await server.request('POST', '/api/prompt', {
        token: tenant.token,
        body: body(queue.id, { queueId }),
      });
      expect(res.body.details, String(queueId)).toContainEqual({ path: 'queueId', message: 'sectorRequired' });
    }
    const other = await server.createTenant();
    const foreignQueue = await addQueue(server, other);
    expect(
      (await server.request('POST', '/api/prompt', { token: tenant.token, body: body(foreignQueue.id) })).body.error,
    ).toBe('ERR_NO_QUEUE_FOUND');
    // a private base URL the operator did not allow
    const refused = await server.request('POST', '/api/prompt', {
      token: tenant.token,
      body: body(queue.id, { baseUrl: 'http://10.1.2.3:11434/v1' }),
    });
    expect(refused).toMatchObject({ status: 400, body: { error: 'ERR_OUTBOUND_URL_REFUSED' } });
    expect(await sql('select id from prompts where company_id = $1', [tenant.companyId])).toEqual([]);
    // a loopback one the operator allowed (tests allow 127.0.0.1)
    const ok = await server.request('POST', '/api/prompt', {
      token: tenant.token,
      body: body(queue.id, { baseUrl: `${ai.baseUrl}/`, temperature: '0.2' }),
    });
    expect(ok).toMatchObject({ status: 200, body: { baseUrl: ai.baseUrl, temperature: 0.2 } });
    const dup = await server.request('POST', '/api/prompt', {
      token: tenant.token,
      body: body(queue.id, { name: 'ASSISTENTE' }),
    });
    expect(dup).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_PROMPT' } });
  });

  it('answers the list to every user, empty without useOpenAi; writes need an admin of such a plan', async () => {
    const tenant = await server.createTenant();
    const queue = await addQueue(server, tenant);
    const user = await createLoggedUser(server, tenant);
    const created = await server.request('POST', '/api/prompt', { token: tenant.token, body: body(queue.id) });
    expect((await server.request('GET', '/api/prompt', { token: user.token })).body.count).toBe(1);
    expect((await server.request('POST', '/api/prompt', { token: user.token, body: body(queue.id) })).status).toBe(403);
    const superUser = await server.superLogin();
    const plan = await createPlan(server, superUser.token, { useOpenAi: false });
    await server.request('PUT', `/api/companies/${tenant.companyId}`, {
      token: superUser.token,
      body: { planId: plan.id },
    });
    const admin = await server.login(tenant.email, tenant.password);
    const list = await server.request('GET', '/api/prompt', { token: admin.token });
    expect(list).toMatchObject({ status: 200, body: { prompts: [], count: 0, hasMore: false } });
    for (const [method, path] of [
      ['GET', `/api/prompt/${created.body.id}`],
      ['PUT', `/api/prompt/${created.body.id}`],
      ['DELETE', `/api/prompt/${created.body.id}`],
      ['POST', '/api/prompt'],
      ['GET', '/api/prompt/models'],
    ] as const) {
      const res = await server.request(method, path, {
        token: admin.token,
        body: method === 'GET' ? undefined : body(queue.id),
      });
      expect(res.body.error, `${method} ${path}`).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });

  it('suggests the spec’s models plus what the base URL’s /models lists, with a typed or the stored key', async () => {
    const tenant = await server.createTenant();
    const queue = await addQueue(server, tenant);
    const plain = await server.request('GET', '/api/prompt/models', { token: tenant.token });
    expect(plain.body).toEqual({
      fromServer: false,
      models: [
        { value: 'gpt-3.5-turbo-1106', label: 'GPT 3.5 turbo' },
        { value: 'gpt-4o-mini', label: 'GPT 4.0' },
      ],
    });
    const typed = await server.request('GET', '/api/prompt/models', {
      token: tenant.token,
      query: { baseUrl: ai.baseUrl },
      headers: { 'x-ai-key': ai.state.apiKey },
    });
    expect(typed.body.fromServer).toBe(true);
    expect(typed.body.models.map((m: { value: string }) => m.value)).toEqual([
      'gpt-3.5-turbo-1106',
      'gpt-4o-mini',
      'llama3.1:8b',
      'qwen2.5:7b',
    ]);
    const saved = await server.request('POST', '/api/prompt', {
      token: tenant.token,
      body: body(queue.id, { baseUrl: ai.baseUrl, apiKey: ai.state.apiKey }),
    });
    const stored = await server.request('GET', '/api/prompt/models', {
      token: tenant.token,
      query: { promptId: saved.body.id },
    });
    expect(stored.body.fromServer).toBe(true);
    // a wrong key or a server that does not answer: the spec's models only
    const wrong = await server.request('GET', '/api/prompt/models', {
      token: tenant.token,
      query: { baseUrl: ai.baseUrl },
      headers: { 'x-ai-key': 'sk-wrong' },
    });
    expect(wrong.body).toMatchObject({ fromServer: false });
    expect(
      (
        await server.request('GET', '/api/prompt/models', {
          token: tenant.token,
          query: { baseUrl: 'http://192.168.0.9/v1' },
        })
      ).body.error,
    ).toBe('ERR_OUTBOUND_URL_REFUSED');
  });

  it('announces create, update and delete to the company’s admins with the keys masked', async () => {
    const tenant = await server.createTenant();
    const queue = await addQueue(server, tenant);
    const socket = await openSocket(server, tenant.token);
    await untilJoined(server, `company-${tenant.companyId}-admins`);
    const seen = recordEvents(socket);
    const event = `company-${tenant.companyId}-prompt`;
    const created = await server.request('POST', '/api/prompt', { token: tenant.token, body: body(queue.id) });
    expect(await seen.waitFor(event, (p) => p.action === 'create')).toMatchObject({
      prompt: { id: created.body.id, apiKey: 'sk-••••••1234' },
    });
    await server.request('PUT', `/api/prompt/${created.body.id}`, { token: tenant.token, body: { maxTokens: 300 } });
    expect(await seen.waitFor(event, (p) => p.action === 'update')).toMatchObject({ prompt: { maxTokens: 300 } });
    await server.request('DELETE', `/api/prompt/${created.body.id}`, { token: tenant.token });
    expect(await seen.waitFor(event, (p) => p.action === 'delete')).toEqual({
      action: 'delete',
      promptId: created.body.id,
    });
    expect(JSON.stringify(seen.heard)).not.toContain('abcdefghijklmnop');
    socket.close();
  });
});
