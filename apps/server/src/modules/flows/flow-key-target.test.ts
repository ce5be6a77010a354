process.env.SANDBOX_OPENING_MS = '0';
process.env.SANDBOX_ACK_MS = '0';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthRecorder } from '../../../test/auth-recorder';
import { startFakeAi } from '../../../test/fake-ai';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { connectSandbox } from '../../../test/inbox';

/**
 * Issue 20 item 6 for the flow builder: an OpenAI node's stored key follows only its stored base URL. Saving
 * the node with another base URL and the key masked answers ERR_SECRET_RETYPE_REQUIRED; a test run then still
 * calls the stored URL, and a loopback recorder standing in for the new URL never sees the key.
 */

const KEY = 'sk-flow-stored-key-0000abcd';

let server: TTestServer;
let ai: Awaited<ReturnType<typeof startFakeAi>>;
let recorder: Awaited<ReturnType<typeof startAuthRecorder>>;
let recorderUrl = '';
let received: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  ai = await startFakeAi({ apiKey: KEY });
  recorder = await startAuthRecorder('{}');
  recorderUrl = recorder.url;
  received = recorder.received;
});
afterAll(async () => {
  await server.close();
  await ai.close();
  recorder.close();
});

const at = { x: 0, y: 0 };
const start = { id: '1', type: 'start', position: at, data: { label: 'Inicio do fluxo' } };
const aiNode = (settings: Record<string, unknown>) => ({
  id: 'ai',
  type: 'openai',
  position: at,
  data: { typebotIntegration: { name: 'Bot', prompt: 'Seja breve.', ...settings } },
});
const connections = [{ id: 'e1', source: '1', target: 'ai', sourceHandle: null }];

describe("a flow OpenAI node's stored key and a new base URL", () => {
  it('needs the key typed again; the stored key never reaches the new URL', async () => {
    const tenant = await server.createTenant();
    const save = (idFlow: number, settings: Record<string, unknown>) =>
      server.request('POST', '/api/flowbuilder/flow', {
        token: tenant.token,
        body: { idFlow, nodes: [start, aiNode(settings)], connections },
      });
    const flow = await server.request('POST', '/api/flowbuilder', { token: tenant.token, body: { name: 'Bot IA' } });
    const flowId = flow.body.id as number;
    expect((await save(flowId, { apiKey: KEY, baseUrl: ai.baseUrl })).status).toBe(200);
    const loaded = await server.request('GET', `/api/flowbuilder/flow/${flowId}`, { token: tenant.token });
    const masked = loaded.body.flow.flow.nodes[1].data.typebotIntegration.apiKey as string;
    expect(masked).not.toContain('stored');

    for (const settings of [
      { apiKey: masked, baseUrl: recorderUrl },
      { apiKey: masked, baseUrl: '' }, // the official API is another address too
    ]) {
      const res = await save(flowId, settings);
      expect(res.status, JSON.stringify(settings)).toBe(400);
      expect(res.body.error).toBe('ERR_SECRET_RETYPE_REQUIRED');
      expect(res.body.details).toEqual([{ path: 'nodes.1.data.typebotIntegration.apiKey', message: 'required' }]);
    }
    // the same URL keeps the masked key
    expect((await save(flowId, { apiKey: masked, baseUrl: `${ai.baseUrl}/` })).status).toBe(200);

    // a test run calls the stored URL with the stored key; the recorder hears nothing
    await connectSandbox(server, tenant.token, { provider: 'sandbox' });
    const run = await server.request('POST', `/api/flowbuilder/${flowId}/test-run`, { token: tenant.token, body: {} });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    await server.request('POST', `/api/sandbox/${run.body.connectionId}/inbound`, {
      token: tenant.token,
      body: { from: run.body.contactNumber, name: 'Maria', type: 'text', body: 'Oi, qual o preço?' },
    });
    for (let i = 0; i < 250 && ai.chats().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(ai.chats().length).toBeGreaterThan(0);
    expect(ai.chats().every((c) => c.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(received).toEqual([]);

    // typed again: stored for the new URL
    expect((await save(flowId, { apiKey: 'sk-typed-for-the-recorder', baseUrl: recorderUrl })).status).toBe(200);
  });
});
