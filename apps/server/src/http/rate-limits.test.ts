import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, limitUsers, type TTenant, unique } from '../../test/fixtures';
import { startTestServer, type TTestServer } from '../../test/harness';

/**
 * The limits of http/rate-limits.ts: keyed on the e-mail as the schema reads it, and per IP across e-mails; the
 * login's failures per e-mail + IP, which throttle guessing without locking the owner out (ASVS 2.2.1).
 */

let server: TTestServer;
let tenant: TTenant;
beforeAll(async () => {
  server = await startTestServer({ env: { RATE_LIMITS: 'on' } });
  tenant = await server.createTenant('Limits');
});
afterAll(() => server.close());

/** a request from the given client address (each test uses addresses of its own), maybe through a proxy */
const from = async (ip: string, method: 'POST', url: string, body?: object, forwardedFor?: string) => {
  const res = await server.app.inject({
    method,
    url,
    payload: body,
    remoteAddress: ip,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

  return { status: res.statusCode, body: res.json() as { error?: string }, headers: res.headers };
};
const login = (ip: string, email: string, password: string) => from(ip, 'POST', '/api/auth/login', { email, password });

/** the same address as a client may type it: spaces, a tab, a newline, another case */
const variants = (email: string) => [
  ` ${email}`,
  `${email} `,
  `\t${email}`,
  `${email}\n`,
  ` \t${email.toUpperCase()}\r\n`,
  email.replace(/^./, (c) => c.toUpperCase()),
];

describe('login', () => {
  it('refuses the guessing source after 10 failures, every spelling counted, while the owner logs in from another IP', async () => {
    const user = await createUser(server, tenant);
    const attacker = '203.1.0.1';
    const tries = [...variants(user.email), ...variants(user.email)].slice(0, 10);
    for (const email of tries) {
      expect((await login(attacker, email, 'wrong-password')).status, JSON.stringify(email)).toBe(401);
    }
    // the attacker's IP is refused, whatever the spelling and even when it finally guesses right
    for (const email of [` ${user.email}`, user.email, `${user.email.toUpperCase()}\t`]) {
      const blocked = await login(attacker, email, user.password);
      expect(blocked, JSON.stringify(email)).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_REQUESTS' } });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    }
    // during the attack the owner, from another IP, gets in with the right password; a typo there is only a 401
    expect((await login('203.1.1.1', user.email, 'typo-password')).status).toBe(401);
    expect((await login('203.1.1.1', user.email, user.password)).status).toBe(200);
    expect((await login('203.1.1.2', ` ${user.email.toUpperCase()}`, user.password)).status).toBe(200);
    expect((await login(attacker, user.email, 'wrong-password')).status).toBe(429);
  });

  it('counts failures only: the right password again and again from one IP is never refused per account', async () => {
    const user = await createUser(server, tenant);
    for (let i = 1; i <= 12; i += 1) {
      expect((await login('203.1.2.1', user.email, user.password)).status, `login ${i}`).toBe(200);
    }
  });

  it('past 100 failures an hour on one account from many IPs, lets each IP one failure, and a fresh IP the right password', async () => {
    const user = await createUser(server, tenant);
    // a botnet: 100 sources, one guess each
    for (let i = 0; i < 100; i += 1) {
      const ip = `203.11.${Math.floor(i / 200)}.${(i % 200) + 1}`;
      expect((await login(ip, user.email, `guess-${i}`)).status, `guess ${i}`).toBe(401);
    }
    // a source that has failed on the account is refused now, the right password included
    expect(await login('203.11.0.1', user.email, user.password)).toMatchObject({ status: 429 });
    // a fresh source has one failure, then it is refused too
    expect((await login('203.11.1.1', user.email, 'guess-x')).status).toBe(401);
    expect((await login('203.11.1.1', user.email, 'guess-y')).status).toBe(429);
    // the owner, from a source that has not failed on the account, gets in
    expect((await login('203.11.2.1', user.email, user.password)).status).toBe(200);
    // other accounts are untouched, from the botnet's sources too
    const other = await createUser(server, tenant);
    expect((await login('203.11.0.2', other.email, other.password)).status).toBe(200);
  }, 60_000);

  it('caps one IP across many e-mails at 100 a minute; another IP is not affected', async () => {
    const ip = '203.2.0.1';
    for (let i = 1; i <= 100; i += 1) {
      const res = await login(ip, `${unique('nobody')}@example.com`, 'wrong-password');
      expect(res.status, `attempt ${i}`).toBe(401);
    }
    const blocked = await login(ip, `${unique('nobody')}@example.com`, 'wrong-password');
    expect(blocked).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_REQUESTS' } });
    expect(await login('203.2.0.2', `${unique('nobody')}@example.com`, 'wrong-password')).toMatchObject({
      status: 401,
    });
  });

  it('lets 50 agents behind one NAT log in twice each within a minute (100 logins)', async () => {
    const superUser = await server.superLogin();
    await limitUsers(server, superUser.token, tenant.companyId, 60);
    const agents = await Promise.all(Array.from({ length: 50 }, () => createUser(server, tenant)));
    const ip = '203.3.0.1';
    // ten at a time, as a shift starts (and so the 100 fit in the minute on a loaded machine)
    for (const round of [1, 2]) {
      for (let i = 0; i < agents.length; i += 10) {
        const batch = agents.slice(i, i + 10);
        const answers = await Promise.all(batch.map((agent) => login(ip, agent.email, agent.password)));
        expect(
          answers.map((a) => a.status),
          `round ${round}`,
        ).toEqual(batch.map(() => 200));
      }
    }
    expect(await login(ip, agents[0].email, agents[0].password)).toMatchObject({ status: 429 });
  }, 120_000);

  it('counts an address the schema refuses only per IP', async () => {
    for (let i = 0; i < 12; i += 1) {
      expect(await login(`203.4.0.${i + 1}`, 'not-an-address', 'x')).toMatchObject({ status: 400 });
    }
  });
});

describe('sign-up', () => {
  const signUp = async (ip: string, email: string) => {
    const plans = await server.request('GET', '/api/plans/list');

    return from(ip, 'POST', '/api/companies/cadastro', {
      name: unique('Company'),
      email,
      password: 'Admin-Pass-1',
      phone: '11999998888',
      planId: plans.body[0].id,
    });
  };

  it('allows 3 an hour per address, whatever its spelling or IP', async () => {
    const email = `${unique('owner')}@example.com`;
    const [first, ...rest] = variants(email);
    expect((await signUp('203.5.0.1', first)).status).toBe(201);
    for (const [i, variant] of rest.slice(0, 2).entries()) {
      expect(await signUp(`203.5.0.${i + 2}`, variant)).toMatchObject({
        status: 409,
        body: { error: 'ERR_DUPLICATED_EMAIL' },
      });
    }
    expect(await signUp('203.5.0.9', `${email}\t`)).toMatchObject({
      status: 429,
      body: { error: 'ERR_TOO_MANY_REQUESTS' },
    });
  });

  it('allows 5 an hour per IP across addresses', async () => {
    for (let i = 0; i < 5; i += 1)
      expect((await signUp('203.6.0.1', `${unique('owner')}@example.com`)).status).toBe(201);
    expect(await signUp('203.6.0.1', `${unique('owner')}@example.com`)).toMatchObject({ status: 429 });
  });
});

describe('password reset', () => {
  it('asks for a code 5 times per address in 15 minutes, whatever its spelling', async () => {
    const user = await createUser(server, tenant);
    const spelled = variants(user.email);
    for (const [i, email] of spelled.slice(0, 5).entries()) {
      const res = await from(`203.7.0.${i + 1}`, 'POST', `/api/forgetpassword/${encodeURIComponent(email)}`);
      expect(res.status, JSON.stringify(email)).toBe(200);
    }
    const blocked = await from('203.7.1.1', 'POST', `/api/forgetpassword/${encodeURIComponent(user.email)}`);
    expect(blocked).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_REQUESTS' } });
  });

  it('asks for codes 20 times per IP across addresses', async () => {
    for (let i = 0; i < 20; i += 1) {
      const res = await from('203.8.0.1', 'POST', `/api/forgetpassword/${unique('nobody')}@example.com`);
      expect(res.status).toBe(404);
    }
    expect(await from('203.8.0.1', 'POST', `/api/forgetpassword/${unique('nobody')}@example.com`)).toMatchObject({
      status: 429,
    });
  });

  it('tries a code 10 times per address, whatever its spelling, and 30 times per IP', async () => {
    const reset = (ip: string, email: string) =>
      from(ip, 'POST', '/api/resetpasswords', {
        email,
        code: '000000',
        password: 'New-Pass-123',
        passwordConfirmation: 'New-Pass-123',
      });
    const email = `${unique('someone')}@example.com`;
    const tries = [...variants(email), ...variants(email)].slice(0, 10);
    for (const [i, spelled] of tries.entries()) {
      expect((await reset(`203.9.0.${i + 1}`, spelled)).status, JSON.stringify(spelled)).toBe(400);
    }
    expect(await reset('203.9.1.1', email.toUpperCase())).toMatchObject({ status: 429 });

    for (let i = 0; i < 30; i += 1) expect((await reset('203.9.2.1', `${unique('x')}@example.com`)).status).toBe(400);
    expect(await reset('203.9.2.1', `${unique('x')}@example.com`)).toMatchObject({ status: 429 });
  });
});

describe('the client IP', () => {
  const forgot = (ip: string, forwardedFor?: string) =>
    from(ip, 'POST', `/api/forgetpassword/${unique('nobody')}@example.com`, undefined, forwardedFor);

  it('is the address that connected: a client on the internet cannot choose another with X-Forwarded-For', async () => {
    for (let i = 0; i < 20; i += 1) expect((await forgot('203.10.0.1', `198.51.100.${i + 1}`)).status).toBe(404);
    expect(await forgot('203.10.0.1', '198.51.100.99')).toMatchObject({ status: 429 });
  });

  it('is the forwarded one behind a proxy on this machine or a private network (TRUST_PROXY)', async () => {
    for (const proxy of ['127.0.0.1', '10.0.0.2']) {
      const client = proxy === '127.0.0.1' ? '198.51.100.1' : '198.51.100.2';
      for (let i = 0; i < 20; i += 1) expect((await forgot(proxy, client)).status).toBe(404);
      expect(await forgot(proxy, client)).toMatchObject({ status: 429 });
      // another client behind the same proxy has its own count
      expect((await forgot(proxy, '198.51.100.3')).status).toBe(404);
    }
  });
});

describe('RATE_LIMITS=off', () => {
  it('lifts every limit', async () => {
    const open = await startTestServer({ env: { RATE_LIMITS: 'off' } });
    try {
      for (let i = 0; i < 12; i += 1) {
        const res = await open.request('POST', '/api/auth/login', {
          body: { email: ' victim@example.com', password: 'wrong-password' },
        });
        expect(res.status).toBe(401);
      }
    } finally {
      await open.close();
    }
  });
});
