import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createLoggedUser,
  createUser,
  insertConnection,
  insertQueue,
  limitUsers,
  openExtraSession,
  openSocket,
  recordEvents,
  type TTenant,
  unique,
} from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
let superToken: string;
beforeAll(async () => {
  server = await startTestServer();
  superToken = (await server.superLogin()).token;
});
afterAll(() => server.close());

const newUserBody = (fields: Record<string, unknown> = {}) => ({
  name: 'New User',
  email: `${unique('new')}@example.com`,
  password: 'User-Pass-1',
  ...fields,
});
const usersOf = (companyId: number) =>
  countRows(server, 'select count(*) as n from users where company_id = $1', [companyId]);

describe('GET /users (admin)', () => {
  it('pages 20 at a time with hasMore and count, and searches name and e-mail', async () => {
    const tenant = await server.createTenant();
    await limitUsers(server, superToken, tenant.companyId, 100);
    const prefix = unique('Paged');
    for (let i = 0; i < 21; i += 1) {
      await createUser(server, tenant, { name: `${prefix} ${String(i).padStart(2, '0')}` });
    }
    const page1 = await server.request('GET', '/api/users', { token: tenant.token, query: { searchParam: prefix } });
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ count: 21, hasMore: true });
    expect(page1.body.users).toHaveLength(20);
    const page2 = await server.request('GET', '/api/users', {
      token: tenant.token,
      query: { searchParam: prefix, pageNumber: 2 },
    });
    expect(page2.body).toMatchObject({ count: 21, hasMore: false });
    expect(page2.body.users).toHaveLength(1);
    const ids = [...page1.body.users, ...page2.body.users].map((u: { id: number }) => u.id);
    expect(new Set(ids).size).toBe(21);

    const everyone = await server.request('GET', '/api/users', { token: tenant.token });
    expect(everyone.body.count).toBe(22);
    const byEmail = await server.request('GET', '/api/users', {
      token: tenant.token,
      query: { searchParam: tenant.email.toUpperCase() },
    });
    expect(byEmail.body).toMatchObject({ count: 1, users: [{ email: tenant.email }] });
    expect(JSON.stringify(everyone.body)).not.toMatch(/password/i);
  });
});

describe('POST /users', () => {
  let tenant: TTenant;
  beforeAll(async () => {
    tenant = await server.createTenant();
  });

  it('creates a user (201) and announces it to the sockets of the company', async () => {
    const socket = await openSocket(server, tenant.token);
    const events = recordEvents(socket);
    try {
      const body = newUserBody({ email: `${unique('MiXeD')}@Example.com`, profile: 'user', allTicket: 'enabled' });
      const res = await server.request('POST', '/api/users', { token: tenant.token, body });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'New User',
        email: body.email.toLowerCase(),
        profile: 'user',
        allTicket: 'enabled',
        companyId: tenant.companyId,
        queueIds: [],
      });
      expect(res.body.passwordHash).toBeUndefined();
      const event = await events.waitFor(`company-${tenant.companyId}-user`, (p) => p.user?.id === res.body.id);
      expect(event).toMatchObject({ action: 'create', user: { id: res.body.id, email: body.email.toLowerCase() } });
      const session = await server.login(body.email, body.password);
      expect(session.user).toMatchObject({ id: res.body.id, profile: 'user' });
    } finally {
      socket.disconnect();
    }
  });

  it('answers 409 ERR_DUPLICATED_EMAIL for an e-mail in use, in this or another company', async () => {
    const other = await server.createTenant();
    const before = await usersOf(tenant.companyId);
    for (const email of [tenant.email.toUpperCase(), other.email]) {
      const res = await server.request('POST', '/api/users', { token: tenant.token, body: newUserBody({ email }) });
      expect(res, email).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_EMAIL' } });
    }
    expect(await usersOf(tenant.companyId)).toBe(before);
  });

  it('validates the body with field details', async () => {
    const res = await server.request('POST', '/api/users', {
      token: tenant.token,
      body: { name: 'A', email: 'nope', password: '123', profile: 'owner' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['name', 'email', 'password', 'profile']),
    );
  });

  it('accepts queues and a connection of the company', async () => {
    const queueId = await insertQueue(server, tenant.companyId);
    const whatsappId = await insertConnection(server, tenant.companyId);
    const res = await server.request('POST', '/api/users', {
      token: tenant.token,
      body: newUserBody({ queueIds: [queueId, queueId], whatsappId }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ queueIds: [queueId], whatsappId, whatsapp: { id: whatsappId } });
    // an edit of the queues alone
    const second = await insertQueue(server, tenant.companyId);
    const edited = await server.request('PUT', `/api/users/${res.body.id}`, {
      token: tenant.token,
      body: { queueIds: [second] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.queueIds).toEqual([second]);
  });

  it('refuses queues or a connection of another company, or missing ones, and writes nothing', async () => {
    const other = await server.createTenant();
    const ownQueue = await insertQueue(server, tenant.companyId);
    const foreignQueue = await insertQueue(server, other.companyId);
    const foreignConnection = await insertConnection(server, other.companyId);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ queueIds: [ownQueue, foreignQueue] }, 404, 'ERR_NO_QUEUE_FOUND'],
      [{ queueIds: [2000000000] }, 404, 'ERR_NO_QUEUE_FOUND'],
      [{ whatsappId: foreignConnection }, 404, 'ERR_NO_WAPP_FOUND'],
      [{ whatsappId: 2000000000 }, 404, 'ERR_NO_WAPP_FOUND'],
    ];
    const usersBefore = await usersOf(tenant.companyId);
    const membershipsBefore = await countRows(server, 'select count(*) as n from user_queues');
    for (const [fields, status, error] of cases) {
      const body = newUserBody(fields);
      const res = await server.request('POST', '/api/users', { token: tenant.token, body });
      expect(res, JSON.stringify(fields)).toMatchObject({ status, body: { error } });
      expect(await countRows(server, 'select count(*) as n from users where email = $1', [body.email])).toBe(0);
    }
    expect(await usersOf(tenant.companyId)).toBe(usersBefore);
    expect(await countRows(server, 'select count(*) as n from user_queues')).toBe(membershipsBefore);

    // the same on update: the user's queues and connection stay as they were
    const user = await createUser(server, tenant, { queueIds: [ownQueue] });
    for (const [fields, status, error] of cases) {
      const res = await server.request('PUT', `/api/users/${user.id}`, { token: tenant.token, body: fields });
      expect(res, JSON.stringify(fields)).toMatchObject({ status, body: { error } });
    }
    const kept = await server.request('GET', `/api/users/${user.id}`, { token: tenant.token });
    expect(kept.body).toMatchObject({ queueIds: [ownQueue], whatsappId: null });
  });

  it('answers 403 ERR_USER_CREATION_DISABLED while the userCreation setting is disabled', async () => {
    const put = (value: string) =>
      server.request('PUT', '/api/settings/userCreation', { token: tenant.token, body: { value } });
    expect((await put('disabled')).status).toBe(200);
    const before = await usersOf(tenant.companyId);
    const res = await server.request('POST', '/api/users', { token: tenant.token, body: newUserBody() });
    expect(res).toMatchObject({ status: 403, body: { error: 'ERR_USER_CREATION_DISABLED' } });
    expect(await usersOf(tenant.companyId)).toBe(before);
    expect((await put('enabled')).status).toBe(200);
    expect((await server.request('POST', '/api/users', { token: tenant.token, body: newUserBody() })).status).toBe(201);
  });
});

describe('plan user limit', () => {
  it('refuses the user beyond the plan limit with 403 ERR_PLAN_LIMIT_USERS', async () => {
    const tenant = await server.createTenant();
    const plan = await limitUsers(server, superToken, tenant.companyId, 3);
    await createUser(server, tenant);
    await createUser(server, tenant);
    const res = await server.request('POST', '/api/users', { token: tenant.token, body: newUserBody() });
    expect(res).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_LIMIT_USERS' } });
    expect(await usersOf(tenant.companyId)).toBe(3);

    // raising the limit lets the next one in
    const raised = await server.request('PUT', `/api/plans/${plan.id}`, {
      token: superToken,
      body: { name: plan.name, users: 4, connections: plan.connections, queues: plan.queues, value: plan.value },
    });
    expect(raised.status).toBe(200);
    expect((await server.request('POST', '/api/users', { token: tenant.token, body: newUserBody() })).status).toBe(201);
    expect(await usersOf(tenant.companyId)).toBe(4);
  });

  it('concurrent creates never exceed the limit', async () => {
    const tenant = await server.createTenant();
    await limitUsers(server, superToken, tenant.companyId, 4);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        server.request('POST', '/api/users', { token: tenant.token, body: newUserBody() }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, 403, 403, 403]);
    expect(answers.filter((a) => a.status === 403).every((a) => a.body.error === 'ERR_PLAN_LIMIT_USERS')).toBe(true);
    expect(await usersOf(tenant.companyId)).toBe(4);
  });
});

describe('a user who is not an admin', () => {
  let tenant: TTenant;
  let user: Awaited<ReturnType<typeof createLoggedUser>>;
  let colleague: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    tenant = await server.createTenant();
    user = await createLoggedUser(server, tenant, { name: 'Plain User' });
    colleague = await createUser(server, tenant, { name: 'Colleague' });
  });

  it('may not create or delete users (403)', async () => {
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/users', newUserBody()],
      ['DELETE', `/api/users/${colleague.id}`],
    ];
    for (const [method, path, body] of routes) {
      const res = await server.request(method, path, { token: user.token, body });
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    }
    expect((await server.request('GET', `/api/users/${colleague.id}`, { token: tenant.token })).status).toBe(200);
  });

  it("searches the users page as the transfer dialog does, reading each one's brief only", async () => {
    const res = await server.request('GET', '/api/users', { token: user.token, query: { searchParam: 'Colleague' } });
    expect(res.status).toBe(200);
    expect(res.body.users).toEqual([
      {
        id: colleague.id,
        name: 'Colleague',
        email: colleague.email,
        profile: 'user',
        online: false,
        away: false,
        queues: [],
      },
    ]);
  });

  it('sees the brief list of the company users', async () => {
    const res = await server.request('GET', '/api/users/list', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.map((u: { id: number }) => u.id).sort()).toEqual([tenant.user.id, user.id, colleague.id].sort());
    expect(Object.keys(res.body[0]).sort()).toEqual(['away', 'email', 'id', 'name', 'online', 'profile']);
  });

  it('reads itself but not another user (403)', async () => {
    expect(await server.request('GET', `/api/users/${user.id}`, { token: user.token })).toMatchObject({
      status: 200,
      body: { id: user.id, name: 'Plain User' },
    });
    for (const id of [colleague.id, tenant.user.id]) {
      const res = await server.request('GET', `/api/users/${id}`, { token: user.token });
      expect(res).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    }
  });

  it('updates its own name and password, nothing of anybody else', async () => {
    const renamed = await server.request('PUT', `/api/users/${user.id}`, {
      token: user.token,
      body: { name: 'Renamed' },
    });
    expect(renamed).toMatchObject({ status: 200, body: { id: user.id, name: 'Renamed', profile: 'user' } });

    const other = await server.request('PUT', `/api/users/${colleague.id}`, {
      token: user.token,
      body: { name: 'Hacked' },
    });
    expect(other).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await server.request('GET', `/api/users/${colleague.id}`, { token: tenant.token })).body.name).toBe(
      'Colleague',
    );

    const password = await server.request('PUT', `/api/users/${user.id}`, {
      token: user.token,
      body: { password: 'Changed-Pass-2' },
    });
    expect(password.status).toBe(200);
    // the session that changed it keeps working
    expect((await server.request('GET', '/api/auth/me', { token: user.token })).status).toBe(200);
    const old = await server.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(old).toMatchObject({ status: 401, body: { error: 'ERR_INVALID_CREDENTIALS' } });
    user.token = (await server.login(user.email, 'Changed-Pass-2')).token;
  });

  it('may not change its own profile, queues or ticket visibility (403)', async () => {
    const queueId = await insertQueue(server, tenant.companyId);
    for (const body of [
      { profile: 'admin' },
      { queueIds: [queueId] },
      { allTicket: 'enabled' },
      { name: 'X Y', profile: 'admin' },
    ]) {
      const res = await server.request('PUT', `/api/users/${user.id}`, { token: user.token, body });
      expect(res, JSON.stringify(body)).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    }
    const kept = await server.request('GET', `/api/users/${user.id}`, { token: user.token });
    expect(kept.body).toMatchObject({ profile: 'user', queueIds: [], allTicket: 'desabled' });
    expect(kept.body.name).not.toBe('X Y');
  });
});

describe('PUT /users/:id (admin)', () => {
  it('changes only the fields sent', async () => {
    const tenant = await server.createTenant();
    const queueId = await insertQueue(server, tenant.companyId);
    const user = await createUser(server, tenant, { profile: 'admin', allTicket: 'enabled', queueIds: [queueId] });
    const res = await server.request('PUT', `/api/users/${user.id}`, {
      token: tenant.token,
      body: { name: 'Only Name' },
    });
    expect(res).toMatchObject({
      status: 200,
      body: { name: 'Only Name', profile: 'admin', allTicket: 'enabled', queueIds: [queueId] },
    });
    const self = await server.request('PUT', `/api/users/${tenant.user.id}`, {
      token: tenant.token,
      body: { name: 'Boss' },
    });
    expect(self).toMatchObject({ status: 200, body: { name: 'Boss', profile: 'admin' } });
  });

  it('answers 404 ERR_NO_USER_FOUND for a missing user', async () => {
    const tenant = await server.createTenant();
    for (const [method, body] of [['GET'], ['PUT', { name: 'Nobody' }], ['DELETE']] as const) {
      const res = await server.request(method, '/api/users/2000000000', { token: tenant.token, body });
      expect(res, method).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
    }
  });

  it('a new password set by an admin ends every session of that user; other changes do not', async () => {
    const tenant = await server.createTenant();
    const user = await createLoggedUser(server, tenant);
    await server.request('PUT', `/api/users/${user.id}`, { token: tenant.token, body: { name: 'Still In' } });
    expect((await server.request('GET', '/api/auth/me', { token: user.token })).status).toBe(200);

    await server.request('PUT', `/api/users/${user.id}`, {
      token: tenant.token,
      body: { password: 'Reset-By-Admin-1' },
    });
    expect(await server.request('GET', '/api/auth/me', { token: user.token })).toMatchObject({
      status: 401,
      body: { error: 'ERR_SESSION_REVOKED' },
    });
    expect((await server.request('GET', '/api/auth/me', { token: tenant.token })).status).toBe(200);
  });

  it("a user's own password change ends the user's other sessions and keeps the current one", async () => {
    const tenant = await server.createTenant();
    const user = await createLoggedUser(server, tenant);
    const otherDevice = await openExtraSession(server, user.id, tenant.companyId);
    expect((await server.request('GET', '/api/auth/me', { token: otherDevice })).status).toBe(200);

    const res = await server.request('PUT', `/api/users/${user.id}`, {
      token: user.token,
      body: { password: 'New-Pass-33' },
    });
    expect(res.status).toBe(200);
    expect(await server.request('GET', '/api/auth/me', { token: otherDevice })).toMatchObject({
      status: 401,
      body: { error: 'ERR_SESSION_REVOKED' },
    });
    expect((await server.request('GET', '/api/auth/me', { token: user.token })).status).toBe(200);
  });
});

describe('admins', () => {
  it('the last admin can not be demoted (409 ERR_LAST_ADMIN); with two, one can', async () => {
    const tenant = await server.createTenant();
    const self = await server.request('PUT', `/api/users/${tenant.user.id}`, {
      token: tenant.token,
      body: { profile: 'user' },
    });
    expect(self).toMatchObject({ status: 409, body: { error: 'ERR_LAST_ADMIN' } });
    expect((await server.request('GET', '/api/auth/me', { token: tenant.token })).body.profile).toBe('admin');

    const second = await createUser(server, tenant, { profile: 'admin' });
    const demoted = await server.request('PUT', `/api/users/${second.id}`, {
      token: tenant.token,
      body: { profile: 'user' },
    });
    expect(demoted).toMatchObject({ status: 200, body: { profile: 'user' } });
  });

  it('two admins demoting each other at once leave one admin', async () => {
    const tenant = await server.createTenant();
    const second = await createLoggedUser(server, tenant, { profile: 'admin' });
    const answers = await Promise.all([
      server.request('PUT', `/api/users/${second.id}`, { token: tenant.token, body: { profile: 'user' } }),
      server.request('PUT', `/api/users/${tenant.user.id}`, { token: second.token, body: { profile: 'user' } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)?.body.error).toBe('ERR_LAST_ADMIN');
    expect(
      await countRows(server, "select count(*) as n from users where company_id = $1 and profile = 'admin'", [
        tenant.companyId,
      ]),
    ).toBe(1);
  });

  it('two admins deleting each other at once leave one admin', async () => {
    const tenant = await server.createTenant();
    const second = await createLoggedUser(server, tenant, { profile: 'admin' });
    const answers = await Promise.all([
      server.request('DELETE', `/api/users/${second.id}`, { token: tenant.token }),
      server.request('DELETE', `/api/users/${tenant.user.id}`, { token: second.token }),
    ]);
    expect(answers.filter((a) => a.status === 204)).toHaveLength(1);
    // the loser either finds the last admin guard or is already signed out with its deleted user
    const loser = answers.find((a) => a.status !== 204)!;
    expect([409, 401]).toContain(loser.status);
    expect(
      await countRows(server, "select count(*) as n from users where company_id = $1 and profile = 'admin'", [
        tenant.companyId,
      ]),
    ).toBe(1);
  });

  it('an admin can not delete itself (409 ERR_CANNOT_DELETE_SELF)', async () => {
    const tenant = await server.createTenant();
    await createUser(server, tenant, { profile: 'admin' });
    const res = await server.request('DELETE', `/api/users/${tenant.user.id}`, { token: tenant.token });
    expect(res).toMatchObject({ status: 409, body: { error: 'ERR_CANNOT_DELETE_SELF' } });
    expect((await server.request('GET', '/api/auth/me', { token: tenant.token })).status).toBe(200);
  });
});

describe('DELETE /users/:id', () => {
  it('deletes (204), announces it, and the deleted user is signed out', async () => {
    const tenant = await server.createTenant();
    const user = await createLoggedUser(server, tenant);
    const socket = await openSocket(server, tenant.token);
    const events = recordEvents(socket);
    try {
      const res = await server.request('DELETE', `/api/users/${user.id}`, { token: tenant.token });
      expect(res.status).toBe(204);
      const event = await events.waitFor(`company-${tenant.companyId}-user`, (p) => p.action === 'delete');
      expect(event).toEqual({ action: 'delete', userId: user.id });
    } finally {
      socket.disconnect();
    }
    expect((await server.request('GET', `/api/users/${user.id}`, { token: tenant.token })).status).toBe(404);
    expect((await server.request('GET', '/api/auth/me', { token: user.token })).status).toBe(401);
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(login.status).toBe(401);
  });
});

describe('POST /users/set-language/:lang', () => {
  it("sets a user's language without touching the company's", async () => {
    const tenant = await server.createTenant();
    const user = await createLoggedUser(server, tenant);
    const res = await server.request('POST', '/api/users/set-language/es', { token: user.token });
    expect(res).toMatchObject({ status: 200, body: { language: 'es' } });
    expect((await server.request('GET', '/api/auth/me', { token: user.token })).body.language).toBe('es');
    expect(
      (await server.request('GET', `/api/companies/${tenant.companyId}`, { token: tenant.token })).body.language,
    ).toBe('pt');
  });

  it("an admin's choice also sets the company's language", async () => {
    const tenant = await server.createTenant();
    const res = await server.request('POST', '/api/users/set-language/en', { token: tenant.token });
    expect(res).toMatchObject({ status: 200, body: { language: 'en' } });
    expect((await server.request('GET', '/api/auth/me', { token: tenant.token })).body.language).toBe('en');
    expect(
      (await server.request('GET', `/api/companies/${tenant.companyId}`, { token: tenant.token })).body.language,
    ).toBe('en');
  });

  it('refuses a language outside pt, en, es (400)', async () => {
    const tenant = await server.createTenant();
    for (const lang of ['fr', 'EN', 'x']) {
      const res = await server.request('POST', `/api/users/set-language/${lang}`, { token: tenant.token });
      expect(res, lang).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    }
    expect((await server.request('GET', '/api/auth/me', { token: tenant.token })).body.language).toBeNull();
  });
});
