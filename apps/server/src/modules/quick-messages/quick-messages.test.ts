import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuickMessage } from '../../../test/catalogue-fixtures';
import { createLoggedUser, openSocket, recordEvents, type TTenant, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
let tenant: TTenant;
let ana: { id: number; token: string };
let bob: { id: number; token: string };
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
  ana = await createLoggedUser(server, tenant, { name: 'Ana' });
  bob = await createLoggedUser(server, tenant, { name: 'Bob' });
});
afterAll(() => server.close());

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe('quick messages', () => {
  it('/quick-messages/list answers the active shared ones and the caller own, whatever companyId/userId say', async () => {
    const shared = await addQuickMessage(server, ana.token, { geral: true });
    const anaOwn = await addQuickMessage(server, ana.token, { geral: false });
    const bobOwn = await addQuickMessage(server, bob.token, { geral: false });
    const inactive = await addQuickMessage(server, bob.token, { geral: true });
    await server.request('PUT', `/api/quick-messages/${inactive.id}`, { token: bob.token, body: { status: false } });
    const forBob = await server.request('GET', '/api/quick-messages/list', {
      token: bob.token,
      query: { companyId: 1, userId: ana.id },
    });
    expect(forBob.status).toBe(200);
    expect(ids(forBob.body)).toEqual(expect.arrayContaining([shared.id, bobOwn.id]));
    expect(ids(forBob.body)).not.toContain(anaOwn.id);
    expect(ids(forBob.body)).not.toContain(inactive.id);
    expect(forBob.body.find((q: { id: number }) => q.id === shared.id)).toMatchObject({
      shortcode: shared.shortcode,
      message: 'Hello there',
      isMedia: false,
      mediaPath: null,
    });
  });

  it('pages with search; users see shared and own, admins see all', async () => {
    const prefix = unique('page');
    for (let i = 0; i < 21; i += 1)
      await addQuickMessage(server, ana.token, { shortcode: `${prefix}-${String(i).padStart(2, '0')}` });
    const hidden = await addQuickMessage(server, ana.token, { shortcode: `${prefix}-zz`, geral: false });
    const page1 = await server.request('GET', '/api/quick-messages', {
      token: bob.token,
      query: { searchParam: prefix },
    });
    expect(page1.body).toMatchObject({ hasMore: true, count: 21 });
    expect(page1.body.records).toHaveLength(20);
    const page2 = await server.request('GET', '/api/quick-messages', {
      token: bob.token,
      query: { searchParam: prefix, pageNumber: 2 },
    });
    expect(page2.body).toMatchObject({ hasMore: false });
    expect(ids(page2.body.records)).not.toContain(hidden.id);
    const admin = await server.request('GET', '/api/quick-messages', {
      token: tenant.token,
      query: { searchParam: prefix },
    });
    expect(admin.body.count).toBe(22);
  });

  it('shortcodes are unique per company (409), case-insensitively; validation 400', async () => {
    const q = await addQuickMessage(server, ana.token);
    const dup = await server.request('POST', '/api/quick-messages', {
      token: bob.token,
      body: { shortcode: q.shortcode.toUpperCase(), message: 'x' },
    });
    expect(dup).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_SHORTCODE' } });
    const other = await server.createTenant();
    await addQuickMessage(server, other.token, { shortcode: q.shortcode });
    const empty = await server.request('POST', '/api/quick-messages', { token: bob.token, body: { shortcode: ' ' } });
    expect(empty).toMatchObject({ status: 400, body: { details: [{ path: 'shortcode', message: 'required' }] } });
  });

  it('only the author or an admin changes or deletes one; another private one reads as missing', async () => {
    const shared = await addQuickMessage(server, ana.token, { geral: true });
    const own = await addQuickMessage(server, ana.token, { geral: false });
    expect(
      await server.request('PUT', `/api/quick-messages/${shared.id}`, { token: bob.token, body: { message: 'no' } }),
    ).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect((await server.request('DELETE', `/api/quick-messages/${shared.id}`, { token: bob.token })).status).toBe(403);
    expect(await server.request('GET', `/api/quick-messages/${own.id}`, { token: bob.token })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUICK_MESSAGE_FOUND' },
    });
    const edit = await server.request('PUT', `/api/quick-messages/${shared.id}`, {
      token: ana.token,
      body: { message: 'Edited' },
    });
    expect(edit).toMatchObject({ status: 200, body: { message: 'Edited' } });
    expect((await server.request('DELETE', `/api/quick-messages/${own.id}`, { token: tenant.token })).status).toBe(204);
    expect((await server.request('GET', `/api/quick-messages/${own.id}`, { token: ana.token })).status).toBe(404);
  });

  it('announces shared ones to the company and private ones to their author only', async () => {
    const bobSocket = await openSocket(server, bob.token);
    const anaSocket = await openSocket(server, ana.token);
    const bobHeard = recordEvents(bobSocket);
    const anaHeard = recordEvents(anaSocket);
    const event = `company-${tenant.companyId}-quickemessage`;
    try {
      const priv = await addQuickMessage(server, ana.token, { geral: false });
      const shared = await addQuickMessage(server, ana.token, { geral: true });
      await anaHeard.waitFor(event, (p) => p.record?.id === priv.id);
      await bobHeard.waitFor(event, (p) => p.action === 'create' && p.record.id === shared.id);
      expect(bobHeard.heard.some((h) => (h.payload as { record?: { id: number } }).record?.id === priv.id)).toBe(false);
    } finally {
      bobSocket.close();
      anaSocket.close();
    }
  });
});
