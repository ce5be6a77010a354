import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQueue } from '../../../test/catalogue-fixtures';
import { startAuthRecorder } from '../../../test/auth-recorder';
import { startFakeAi } from '../../../test/fake-ai';
import { startTestServer, type TTestServer } from '../../../test/harness';

/**
 * Issue 20 item 6 for AI prompts: a saved prompt's key goes only to the saved base URL. The model list with
 * another base URL, or an update that changes the base URL while the key comes back masked or not at all,
 * answers ERR_SECRET_RETYPE_REQUIRED; a loopback recorder standing in for the new URL never sees the key.
 */

const KEY = 'sk-stored-key-abcdefgh1234';

let server: TTestServer;
let ai: Awaited<ReturnType<typeof startFakeAi>>;
let recorder: Awaited<ReturnType<typeof startAuthRecorder>>;
let recorderUrl = '';
let received: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  ai = await startFakeAi({ apiKey: KEY });
  recorder = await startAuthRecorder('{"data":[{"id":"stolen-model"}]}');
  recorderUrl = recorder.url;
  received = recorder.received;
});
afterAll(async () => {
  await server.close();
  await ai.close();
  recorder.close();
});

const savedPrompt = async () => {
  const tenant = await server.createTenant();
  const queue = await addQueue(server, tenant);
  const res = await server.request('POST', '/api/prompt', {
    token: tenant.token,
    body: {
      name: 'Assistente',
      prompt: 'Você é a assistente da loja. Responda com educação e clareza sobre pedidos e entregas.',
      model: 'gpt-4o-mini',
      maxTokens: 200,
      temperature: 0.7,
      apiKey: KEY,
      baseUrl: ai.baseUrl,
      queueId: queue.id,
      maxMessages: 10,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return { tenant, prompt: res.body as { id: number; apiKey: string; baseUrl: string } };
};

const refusedRetype = (res: { status: number; body: any }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error).toBe('ERR_SECRET_RETYPE_REQUIRED');
  expect(res.body.details).toEqual([{ path: 'apiKey', message: 'required' }]);
};

describe('a saved prompt key and a new base URL', () => {
  it('the model list sends the stored key only to the stored base URL', async () => {
    const { tenant, prompt } = await savedPrompt();
    received.length = 0;
    refusedRetype(
      await server.request('GET', '/api/prompt/models', {
        token: tenant.token,
        query: { promptId: prompt.id, baseUrl: recorderUrl },
      }),
    );
    // the official API (no base URL) is another address too
    refusedRetype(
      await server.request('GET', '/api/prompt/models', {
        token: tenant.token,
        query: { promptId: prompt.id, baseUrl: '' },
      }),
    );
    expect(received).toEqual([]);
    // the saved URL (a trailing slash aside) still lists with the stored key
    const same = await server.request('GET', '/api/prompt/models', {
      token: tenant.token,
      query: { promptId: prompt.id, baseUrl: `${ai.baseUrl}/` },
    });
    expect(same.body.fromServer).toBe(true);
    // a typed key goes to the new URL, the stored one does not
    const typed = await server.request('GET', '/api/prompt/models', {
      token: tenant.token,
      query: { promptId: prompt.id, baseUrl: recorderUrl },
      headers: { 'x-ai-key': 'sk-typed-for-the-recorder' },
    });
    expect(typed.body.fromServer).toBe(true);
    expect(received).toEqual(['Bearer sk-typed-for-the-recorder']);
  });

  it('an update that moves the base URL needs the key typed again', async () => {
    const { tenant, prompt } = await savedPrompt();
    received.length = 0;
    for (const body of [
      { baseUrl: recorderUrl },
      { baseUrl: recorderUrl, apiKey: prompt.apiKey },
      { ...prompt, baseUrl: recorderUrl },
      { baseUrl: null, apiKey: prompt.apiKey },
    ]) {
      refusedRetype(await server.request('PUT', `/api/prompt/${prompt.id}`, { token: tenant.token, body }));
    }
    const shown = await server.request('GET', `/api/prompt/${prompt.id}`, { token: tenant.token });
    expect(shown.body.baseUrl).toBe(ai.baseUrl);
    // the stored prompt still lists from its own URL only; the recorder saw nothing
    await server.request('GET', '/api/prompt/models', { token: tenant.token, query: { promptId: prompt.id } });
    expect(received).toEqual([]);

    const moved = await server.request('PUT', `/api/prompt/${prompt.id}`, {
      token: tenant.token,
      body: { baseUrl: recorderUrl, apiKey: 'sk-typed-for-the-recorder' },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await server.request('GET', '/api/prompt/models', { token: tenant.token, query: { promptId: prompt.id } });
    expect(received).toEqual(['Bearer sk-typed-for-the-recorder']);
    // unchanged URL, masked key: kept as before
    const kept = await server.request('PUT', `/api/prompt/${prompt.id}`, {
      token: tenant.token,
      body: { ...moved.body, name: 'Assistente 2' },
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
  });
});
