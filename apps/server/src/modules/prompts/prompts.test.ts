import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedUser } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the lists the connection dialog reads before automation is built', () => {
  it('GET /api/prompt and /api/queueIntegration answer empty lists in the spec’s shapes to any user', async () => {
    const tenant = await server.createTenant();
    const user = await createLoggedUser(server, tenant);
    for (const token of [tenant.token, user.token]) {
      const prompts = await server.request('GET', '/api/prompt', { token });
      expect(prompts).toMatchObject({ status: 200, body: { prompts: [], count: 0, hasMore: false } });
      const integrations = await server.request('GET', '/api/queueIntegration', {
        token,
        query: { searchParam: 'x', pageNumber: 2 },
      });
      expect(integrations).toMatchObject({ status: 200, body: { queueIntegrations: [], count: 0, hasMore: false } });
    }
    expect((await server.request('GET', '/api/prompt')).status).toBe(401);
    const bad = await server.request('GET', '/api/queueIntegration', { token: tenant.token, query: { pageNumber: 0 } });
    expect(bad).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });
});
