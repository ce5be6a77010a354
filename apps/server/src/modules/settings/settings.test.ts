import { SETTING_DEFINITIONS, SETTING_KEYS } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedUser, openSocket, recordEvents, type TTenant } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
let tenant: TTenant;
let user: Awaited<ReturnType<typeof createLoggedUser>>;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
  user = await createLoggedUser(server, tenant);
});
afterAll(() => server.close());

const settingValue = (list: { key: string; value: string }[], key: string) => list.find((s) => s.key === key)?.value;

describe('GET /settings', () => {
  it('answers every known key once, with its default when never stored', async () => {
    const fresh = await server.createTenant();
    const res = await server.request('GET', '/api/settings', { token: fresh.token });
    expect(res.status).toBe(200);
    expect(res.body.map((s: { key: string }) => s.key).sort()).toEqual([...SETTING_KEYS].sort());
    for (const key of SETTING_KEYS) {
      expect(settingValue(res.body, key), key).toBe(SETTING_DEFINITIONS[key].default);
    }
  });

  it('is readable by a user who is not an admin', async () => {
    const res = await server.request('GET', '/api/settings', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(SETTING_KEYS.length);
  });
});

describe('PUT /settings/:key', () => {
  it('an admin updates a setting; it is read back and announced to the company', async () => {
    const socket = await openSocket(server, user.token);
    const events = recordEvents(socket);
    try {
      const res = await server.request('PUT', '/api/settings/userRating', {
        token: tenant.token,
        body: { value: 'enabled' },
      });
      expect(res).toMatchObject({ status: 200, body: { key: 'userRating', value: 'enabled' } });
      const event = await events.waitFor(`company-${tenant.companyId}-settings`);
      expect(event).toEqual({ action: 'update', setting: { key: 'userRating', value: 'enabled' } });
    } finally {
      socket.disconnect();
    }
    const list = await server.request('GET', '/api/settings', { token: user.token });
    expect(settingValue(list.body, 'userRating')).toBe('enabled');
    // stored once: a second update replaces the value
    await server.request('PUT', '/api/settings/userRating', { token: tenant.token, body: { value: 'disabled' } });
    const again = await server.request('GET', '/api/settings', { token: tenant.token });
    expect(again.body.filter((s: { key: string }) => s.key === 'userRating')).toEqual([
      { key: 'userRating', value: 'disabled' },
    ]);
  });

  it('answers 404 ERR_NO_SETTING_FOUND for an unknown key', async () => {
    for (const key of ['noSuchSetting', 'constructor', '__proto__']) {
      const res = await server.request('PUT', `/api/settings/${key}`, {
        token: tenant.token,
        body: { value: 'enabled' },
      });
      expect(res, key).toMatchObject({ status: 404, body: { error: 'ERR_NO_SETTING_FOUND' } });
    }
    const list = await server.request('GET', '/api/settings', { token: tenant.token });
    expect(list.body).toHaveLength(SETTING_KEYS.length);
  });

  it.each([
    ['userRating', 'maybe'],
    ['scheduleType', 'everywhere'],
    ['chatBotType', 'voice'],
    ['reopenWindowMinutes', '-5'],
    ['campaignsEnabled', 'yes'],
  ])('refuses an invalid value of %s (400) and keeps the stored one', async (key, value) => {
    const before = settingValue((await server.request('GET', '/api/settings', { token: tenant.token })).body, key);
    const res = await server.request('PUT', `/api/settings/${key}`, { token: tenant.token, body: { value } });
    expect(res).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    const after = settingValue((await server.request('GET', '/api/settings', { token: tenant.token })).body, key);
    expect(after).toBe(before);
  });

  it('refuses a body without a string value (400)', async () => {
    for (const body of [{}, { value: 1 }, { value: 'x'.repeat(2001) }]) {
      const res = await server.request('PUT', '/api/settings/asaas', { token: tenant.token, body });
      expect(res, JSON.stringify(body).slice(0, 40)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    }
  });

  it('a user who is not an admin gets 403 and changes nothing', async () => {
    const res = await server.request('PUT', '/api/settings/sendGreetingAccepted', {
      token: user.token,
      body: { value: 'enabled' },
    });
    expect(res).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    const list = await server.request('GET', '/api/settings', { token: tenant.token });
    expect(settingValue(list.body, 'sendGreetingAccepted')).toBe('disabled');
  });
});

describe('secret settings', () => {
  it('asaas is plain for admins and masked for everybody else, in answers and in events', async () => {
    const secret = '{"token":"$aact_live_secret"}';
    const userSocket = await openSocket(server, user.token);
    const adminSocket = await openSocket(server, tenant.token);
    const userEvents = recordEvents(userSocket);
    const adminEvents = recordEvents(adminSocket);
    try {
      const res = await server.request('PUT', '/api/settings/asaas', { token: tenant.token, body: { value: secret } });
      expect(res).toMatchObject({ status: 200, body: { key: 'asaas', value: secret } });
      const event = `company-${tenant.companyId}-settings`;
      expect(await adminEvents.waitFor(event)).toEqual({ action: 'update', setting: { key: 'asaas', value: secret } });
      const masked = await userEvents.waitFor(event);
      expect(masked.setting.key).toBe('asaas');
      expect(masked.setting.value).not.toContain('secret');
      expect(userEvents.heard.filter((h) => h.event === event)).toHaveLength(1);
    } finally {
      userSocket.disconnect();
      adminSocket.disconnect();
    }

    const forAdmin = await server.request('GET', '/api/settings', { token: tenant.token });
    expect(settingValue(forAdmin.body, 'asaas')).toBe(secret);
    const forUser = await server.request('GET', '/api/settings', { token: user.token });
    expect(settingValue(forUser.body, 'asaas')).toEqual(expect.any(String));
    expect(settingValue(forUser.body, 'asaas')).not.toContain('secret');
    expect(JSON.stringify(forUser.body)).not.toContain('aact_live');
  });
});
