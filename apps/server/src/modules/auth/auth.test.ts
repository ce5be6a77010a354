import { createSigner } from 'fast-jwt';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('login', () => {
  it('answers a token, the session user and an httpOnly SameSite refresh cookie', async () => {
    const tenant = await server.createTenant();
    const res = await server.request('POST', '/api/auth/login', {
      body: { email: tenant.email.toUpperCase(), password: tenant.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.body.user).toMatchObject({ email: tenant.email, profile: 'admin', companyId: tenant.companyId });
    expect(res.body.user.company.settings).toEqual(expect.arrayContaining([{ key: 'userRating', value: 'disabled' }]));
    const cookie = res.cookies.find((c) => c.name === 'jrt');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
  });

  it('tells an unknown e-mail from a wrong password', async () => {
    const tenant = await server.createTenant();
    const unknown = await server.request('POST', '/api/auth/login', { body: { email: 'nobody@x.io', password: 'x' } });
    expect(unknown).toMatchObject({ status: 401, body: { error: 'ERR_USER_DONT_EXISTS' } });
    const wrong = await server.request('POST', '/api/auth/login', { body: { email: tenant.email, password: 'nope' } });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'ERR_INVALID_CREDENTIALS' } });
  });

  it('refuses bad input with field details', async () => {
    const res = await server.request('POST', '/api/auth/login', { body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['email', 'password']),
    );
  });

  it("past its due date a company's attendants are refused (402) and its admins get a pay-only session; inactive → 403", async () => {
    const superUser = await server.superLogin();
    const late = await server.createTenant();
    const agent = await server.request('POST', '/api/users', {
      token: late.token,
      body: { name: 'Agent', email: `agent-${late.companyId}@example.com`, password: 'User-Pass-1', profile: 'user' },
    });
    expect(agent.status).toBe(201);
    await server.request('PUT', `/api/companies/${late.companyId}`, {
      token: superUser.token,
      body: { dueDate: '2020-01-01' },
    });
    const res = await server.request('POST', '/api/auth/login', {
      body: { email: agent.body.email, password: 'User-Pass-1' },
    });
    expect(res).toMatchObject({ status: 402, body: { error: 'ERR_SUBSCRIPTION_EXPIRED' } });
    const admin = await server.request('POST', '/api/auth/login', {
      body: { email: late.email, password: late.password },
    });
    expect(admin).toMatchObject({ status: 200, body: { user: { company: { payOnly: true } } } });
    // pay-only: the session routes answer, the others 402 (test/expiry.test.ts has the whole rule)
    expect((await server.request('GET', '/api/settings', { token: admin.body.token })).status).toBe(402);
    expect((await server.request('GET', '/api/auth/me', { token: admin.body.token })).status).toBe(200);

    const off = await server.createTenant();
    await server.request('PUT', `/api/companies/${off.companyId}`, { token: superUser.token, body: { status: false } });
    const res2 = await server.request('POST', '/api/auth/login', {
      body: { email: off.email, password: off.password },
    });
    expect(res2).toMatchObject({ status: 403, body: { error: 'ERR_COMPANY_INACTIVE' } });
  });
});

describe('access tokens', () => {
  it('answers 401 without a token or with a forged one, 403 ERR_SESSION_EXPIRED when expired', async () => {
    expect(await server.request('GET', '/api/auth/me')).toMatchObject({
      status: 401,
      body: { error: 'ERR_NOT_AUTHENTICATED' },
    });
    const forged = createSigner({ key: 'another-secret-0123456789abcdef' })({ sub: 1, cid: 1, sid: 'x' });
    expect((await server.request('GET', '/api/auth/me', { token: forged })).status).toBe(401);

    const tenant = await server.createTenant();
    const sign = createSigner({
      key: 'test-access-secret-0123456789abcdef',
      clockTimestamp: Date.now() - 3_600_000,
      expiresIn: 60_000,
    });
    const claims = JSON.parse(Buffer.from(tenant.token.split('.')[1], 'base64url').toString());
    const expired = sign({ sub: claims.sub, cid: claims.cid, sid: claims.sid });
    expect(await server.request('GET', '/api/auth/me', { token: expired })).toMatchObject({
      status: 403,
      body: { error: 'ERR_SESSION_EXPIRED' },
    });
  });
});

describe('refresh tokens', () => {
  it('rotates: each refresh cookie works once, and a replay ends the session', async () => {
    const tenant = await server.createTenant();
    const first = await server.request('POST', '/api/auth/refresh_token', { cookies: { jrt: tenant.refresh } });
    expect(first.status).toBe(200);
    expect(first.body.user.id).toBe(tenant.user.id);
    const rotated = first.cookies.find((c) => c.name === 'jrt')!.value;
    expect(rotated).not.toBe(tenant.refresh);

    const replay = await server.request('POST', '/api/auth/refresh_token', { cookies: { jrt: tenant.refresh } });
    expect(replay).toMatchObject({ status: 401, body: { error: 'ERR_SESSION_REVOKED' } });
    // the replay revoked the session, so even the newest cookie and the access token stop working
    expect((await server.request('POST', '/api/auth/refresh_token', { cookies: { jrt: rotated } })).status).toBe(401);
    expect(await server.request('GET', '/api/auth/me', { token: first.body.token })).toMatchObject({
      status: 401,
      body: { error: 'ERR_SESSION_REVOKED' },
    });
  });

  it('answers 401 without a cookie or with garbage', async () => {
    expect((await server.request('POST', '/api/auth/refresh_token')).status).toBe(401);
    expect((await server.request('POST', '/api/auth/refresh_token', { cookies: { jrt: 'abc.def' } })).status).toBe(401);
  });

  it('is stored hashed, never in clear', async () => {
    const tenant = await server.createTenant();
    const { rows } = await server.database.executeSql(
      'select refresh_token_hash from user_sessions where user_id = $1',
      [tenant.user.id],
    );
    const secret = tenant.refresh.split('.')[1];
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect((rows[0] as { refresh_token_hash: string }).refresh_token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('logout and single session', () => {
  it('logout revokes the session: the access token and the refresh cookie stop working', async () => {
    const tenant = await server.createTenant();
    expect((await server.request('DELETE', '/api/auth/logout', { token: tenant.token })).status).toBe(204);
    expect((await server.request('GET', '/api/auth/me', { token: tenant.token })).status).toBe(401);
    expect((await server.request('POST', '/api/auth/refresh_token', { cookies: { jrt: tenant.refresh } })).status).toBe(
      401,
    );
  });

  it('a new login revokes the other sessions and sends them the auth event', async () => {
    const tenant = await server.createTenant();
    const socket = io(server.url, { auth: { token: tenant.token }, transports: ['websocket'] });
    await new Promise<void>((resolve) => socket.on('ready', () => resolve()));
    const heard = new Promise<unknown>((resolve) => socket.on(`company-${tenant.companyId}-auth`, resolve));

    const second = await server.login(tenant.email, tenant.password);
    expect(await heard).toEqual({ action: 'update', user: { id: tenant.user.id } });
    socket.disconnect();
    expect(await server.request('GET', '/api/auth/me', { token: tenant.token })).toMatchObject({
      status: 401,
      body: { error: 'ERR_SESSION_REVOKED' },
    });
    expect((await server.request('POST', '/api/auth/refresh_token', { cookies: { jrt: tenant.refresh } })).status).toBe(
      401,
    );
    expect((await server.request('GET', '/api/auth/me', { token: second.token })).status).toBe(200);
  });
});

describe('GET /auth/me', () => {
  it('answers the session user with company, plan flags and settings', async () => {
    const tenant = await server.createTenant();
    const res = await server.request('GET', '/api/auth/me', { token: tenant.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: tenant.user.id,
      profile: 'admin',
      super: false,
      company: { id: tenant.companyId, status: true, plan: { useKanban: true } },
    });
  });
});
