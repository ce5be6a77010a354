process.env.SANDBOX_OPENING_MS = '0';
process.env.SANDBOX_ACK_MS = '0';

import { events } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAi } from '../../../test/fake-ai';
import { openSocket, recordEvents, untilJoined } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { connectSandbox } from '../../../test/inbox';

/**
 * Issue 22 B.8: a flow's OpenAI node uses the provider it names (base URL and model, as the prompts do) and,
 * when that provider fails, the editor's test panel hears why: the node's step is announced failed with the note
 * written on the ticket.
 */

const KEY = 'sk-flow-provider-key-00001234';

let server: TTestServer;
let ai: Awaited<ReturnType<typeof startFakeAi>>;
beforeAll(async () => {
  server = await startTestServer();
  ai = await startFakeAi({ apiKey: KEY });
});
afterAll(async () => {
  await server.close();
  await ai.close();
});

const at = { x: 0, y: 0 };
const start = { id: '1', type: 'start', position: at, data: { label: 'Inicio do fluxo' } };
const aiNode = {
  id: 'ai',
  type: 'openai',
  position: at,
  data: { typebotIntegration: { name: 'Bot', prompt: 'Seja breve.', apiKey: KEY, model: 'llama3.1:8b' } },
};

describe("a flow OpenAI node's provider", () => {
  it('calls the base URL and model it names, and a failure reaches the test panel with its reason', async () => {
    const tenant = await server.createTenant();
    const flow = await server.request('POST', '/api/flowbuilder', { token: tenant.token, body: { name: 'IA' } });
    const flowId = flow.body.id as number;
    const node = {
      ...aiNode,
      data: { typebotIntegration: { ...aiNode.data.typebotIntegration, baseUrl: ai.baseUrl } },
    };
    const saved = await server.request('POST', '/api/flowbuilder/flow', {
      token: tenant.token,
      body: { idFlow: flowId, nodes: [start, node], connections: [{ id: 'e', source: '1', target: 'ai' }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await connectSandbox(server, tenant.token, { provider: 'sandbox' });
    ai.state.reply = () => 'Olá! Como posso ajudar?';
    const socket = await openSocket(server, tenant.token);
    await untilJoined(server, `company-${tenant.companyId}-admins`);
    const heard = recordEvents(socket);
    try {
      const run = await server.request('POST', `/api/flowbuilder/${flowId}/test-run`, {
        token: tenant.token,
        body: {},
      });
      expect(run.status, JSON.stringify(run.body)).toBe(201);
      const say = (body: string) =>
        server.request('POST', `/api/sandbox/${run.body.connectionId}/inbound`, {
          token: tenant.token,
          body: { from: run.body.contactNumber, name: 'Maria', type: 'text', body },
        });
      await say('Oi, qual o preço?');
      for (let i = 0; i < 250 && ai.chats().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(ai.chats().at(-1)?.json?.model).toBe('llama3.1:8b');

      // the provider fails: the node's step is announced failed, with the note's reason
      ai.state.failWith = 500;
      await say('E o frete?');
      const failed = await heard.waitFor(
        events.flowRun(tenant.companyId),
        (p) => p.runId === run.body.runId && p.status === 'failed',
        8000,
      );
      expect(failed).toMatchObject({ nodeId: 'ai', nodeType: 'openai', flowId });
      expect(failed.reason).toContain('failing with 500');
    } finally {
      socket.close();
    }
  });
});
