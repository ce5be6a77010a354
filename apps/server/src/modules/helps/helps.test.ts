import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedUser, type TTenant, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
let superToken: string;
let tenant: TTenant;
let userToken: string;
beforeAll(async () => {
  server = await startTestServer();
  superToken = (await server.superLogin()).token;
  tenant = await server.createTenant();
  userToken = (await createLoggedUser(server, tenant)).token;
});
afterAll(() => server.close());

const helpBody = () => ({ title: unique('How to'), description: 'Watch this', video: 'dQw4w9WgXcQ' });

const addHelp = async () => {
  const res = await server.request('POST', '/api/helps', { token: superToken, body: helpBody() });
  expect(res.status).toBe(201);

  return res.body as { id: number; title: string; description: string; video: string };
};

describe('helps', () => {
  it('any user of any company lists and reads them', async () => {
    const help = await addHelp();
    for (const token of [userToken, tenant.token, superToken]) {
      for (const path of ['/api/helps', '/api/helps/list']) {
        const list = await server.request('GET', path, { token });
        expect(list.status).toBe(200);
        expect(list.body).toContainEqual(
          expect.objectContaining({ id: help.id, title: help.title, video: help.video }),
        );
      }
      expect(await server.request('GET', `/api/helps/${help.id}`, { token })).toMatchObject({
        status: 200,
        body: { id: help.id, description: 'Watch this' },
      });
    }
    expect((await server.request('GET', '/api/helps')).status).toBe(401);
  });

  it('the super user creates, updates and deletes them', async () => {
    const help = await addHelp();
    const body = { title: 'Renamed help', description: 'New text', video: 'abc123' };
    const updated = await server.request('PUT', `/api/helps/${help.id}`, { token: superToken, body });
    expect(updated).toMatchObject({ status: 200, body: { id: help.id, ...body } });
    expect((await server.request('GET', `/api/helps/${help.id}`, { token: userToken })).body).toMatchObject(body);

    expect((await server.request('DELETE', `/api/helps/${help.id}`, { token: superToken })).status).toBe(204);
    expect(await server.request('GET', `/api/helps/${help.id}`, { token: userToken })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_HELP_FOUND' },
    });
  });

  it('admins and users may not write them (403) and nothing changes', async () => {
    const help = await addHelp();
    for (const token of [tenant.token, userToken]) {
      const routes: [string, string, unknown?][] = [
        ['POST', '/api/helps', helpBody()],
        ['PUT', `/api/helps/${help.id}`, helpBody()],
        ['DELETE', `/api/helps/${help.id}`],
      ];
      for (const [method, path, body] of routes) {
        const res = await server.request(method, path, { token, body });
        expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
      }
    }
    const kept = await server.request('GET', `/api/helps/${help.id}`, { token: userToken });
    expect(kept.body).toMatchObject({ title: help.title, description: help.description });
  });

  it('answers 404 ERR_NO_HELP_FOUND for a missing help on read, update and delete', async () => {
    expect(await server.request('GET', '/api/helps/2000000000', { token: userToken })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_HELP_FOUND' },
    });
    for (const [method, body] of [['PUT', helpBody()], ['DELETE']] as const) {
      const res = await server.request(method, '/api/helps/2000000000', { token: superToken, body });
      expect(res, method).toMatchObject({ status: 404, body: { error: 'ERR_NO_HELP_FOUND' } });
    }
  });

  it('validates the body: a title is required, 2 to 100 characters', async () => {
    for (const title of [undefined, 'x', 'y'.repeat(101)]) {
      const res = await server.request('POST', '/api/helps', { token: superToken, body: { title, video: 'v' } });
      expect(res.status, String(title)).toBe(400);
      expect(res.body).toMatchObject({
        error: 'ERR_VALIDATION',
        details: [expect.objectContaining({ path: 'title' })],
      });
    }
  });
});
