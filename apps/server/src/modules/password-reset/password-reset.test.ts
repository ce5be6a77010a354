import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { startSmtpServer } from '../../../test/smtp';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: TTestServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const NEW_PASSWORD = 'NovaSenha123';

/** asks for a code and reads it from the e-mail that reached the SMTP server */
const requestCode = async (email: string) => {
  const mail = smtp.next();
  const res = await server.request('POST', `/api/forgetpassword/${encodeURIComponent(email)}`);
  expect(res.status).toBe(200);
  const received = await mail;
  expect(received.to).toEqual([email]);
  const code = received.raw.match(/\b(\d{6})\b/)?.[1];
  expect(code).toBeDefined();

  return { code: code!, raw: received.raw };
};

const reset = (email: string, code: string, password = NEW_PASSWORD) =>
  server.request('POST', '/api/resetpasswords', {
    body: { email, code, password, passwordConfirmation: password },
  });

describe('password reset', () => {
  it('e-mails a code through SMTP; the code sets a new password once, and ends the open sessions', async () => {
    const tenant = await server.createTenant();
    const { code, raw } = await requestCode(tenant.email);
    expect(raw).not.toContain(NEW_PASSWORD);

    expect((await reset(tenant.email, code)).status).toBe(200);
    expect((await server.request('GET', '/api/auth/me', { token: tenant.token })).status).toBe(401);
    await server.login(tenant.email, NEW_PASSWORD);
    const old = await server.request('POST', '/api/auth/login', {
      body: { email: tenant.email, password: tenant.password },
    });
    expect(old.body.error).toBe('ERR_INVALID_CREDENTIALS');

    // single use
    expect(await reset(tenant.email, code, 'OutraSenha123')).toMatchObject({
      status: 400,
      body: { error: 'ERR_INVALID_RESET_CODE' },
    });
  });

  it('answers 404 ERR_USER_DONT_EXISTS for an unknown e-mail and sends nothing', async () => {
    const before = smtp.inbox.length;
    const res = await server.request('POST', '/api/forgetpassword/nobody%40example.com');
    expect(res).toMatchObject({ status: 404, body: { error: 'ERR_USER_DONT_EXISTS' } });
    expect(smtp.inbox.length).toBe(before);
  });

  it('refuses a wrong code, and locks the code after 5 wrong tries', async () => {
    const tenant = await server.createTenant();
    const { code } = await requestCode(tenant.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect((await reset(tenant.email, wrong)).body.error).toBe('ERR_INVALID_RESET_CODE');
    }
    expect((await reset(tenant.email, code)).body.error).toBe('ERR_INVALID_RESET_CODE');
  });

  it('a new code replaces the previous one', async () => {
    const tenant = await server.createTenant();
    const first = await requestCode(tenant.email);
    const second = await requestCode(tenant.email);
    if (first.code !== second.code) expect((await reset(tenant.email, first.code)).status).toBe(400);
    expect((await reset(tenant.email, second.code)).status).toBe(200);
  });

  it('refuses an expired code', async () => {
    const tenant = await server.createTenant();
    const { code } = await requestCode(tenant.email);
    await server.database.executeSql(
      "update password_resets set expires_at = now() - interval '1 minute' where user_id = $1",
      [tenant.user.id],
    );
    expect((await reset(tenant.email, code)).body.error).toBe('ERR_INVALID_RESET_CODE');
  });

  it('validates the new password: 8+ characters with upper, lower and digit, and the confirmation', async () => {
    const tenant = await server.createTenant();
    const weak = await server.request('POST', '/api/resetpasswords', {
      body: { email: tenant.email, code: '123456', password: 'weakpass', passwordConfirmation: 'weakpass' },
    });
    expect(weak).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect(weak.body.details).toContainEqual({ path: 'password', message: 'passwordWeak' });
    const mismatch = await server.request('POST', '/api/resetpasswords', {
      body: { email: tenant.email, code: '123456', password: 'Strong123', passwordConfirmation: 'Strong124' },
    });
    expect(mismatch.body.details).toContainEqual({ path: 'passwordConfirmation', message: 'passwordMismatch' });
  });
});

describe("the ancestor's path form: POST /resetpasswords/:email/:token/:password", () => {
  it('sets the new password with the e-mailed code, once, with the same rules', async () => {
    const tenant = await server.createTenant();
    const { code } = await requestCode(tenant.email);
    const path = (c: string, password: string) =>
      `/api/resetpasswords/${encodeURIComponent(tenant.email)}/${c}/${encodeURIComponent(password)}`;

    const weak = await server.request('POST', path(code, 'weakpass'));
    expect(weak).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect(weak.body.details).toContainEqual({ path: 'password', message: 'passwordWeak' });

    expect((await server.request('POST', path(code, NEW_PASSWORD))).status).toBe(200);
    await server.login(tenant.email, NEW_PASSWORD);
    expect((await server.request('POST', path(code, 'OutraSenha123'))).body.error).toBe('ERR_INVALID_RESET_CODE');
  });

  it('never writes the password in the path to the log, even at trace level', async () => {
    const lines: string[] = [];
    const traced = await startTestServer({
      env: { SMTP_URL: smtp.url, LOG_LEVEL: 'trace' },
      log: { level: 'trace', destination: { write: (line: string) => lines.push(line) } },
    });
    try {
      const tenant = await traced.createTenant();
      const mail = smtp.next();
      await traced.request('POST', `/api/forgetpassword/${encodeURIComponent(tenant.email)}`);
      const code = (await mail).raw.match(/\b(\d{6})\b/)![1];
      const secret = 'Path-Secret-9876';
      const wrong = code === '000000' ? '111111' : '000000';
      expect((await traced.request('POST', `/api/resetpasswords/${tenant.email}/${wrong}/${secret}`)).status).toBe(400);
      expect((await traced.request('POST', `/api/resetpasswords/${tenant.email}/${code}/${secret}`)).status).toBe(200);
      const log = lines.join('');
      expect(log).toContain('/api/resetpasswords/:email/:token/:password');
      expect(log).not.toContain(secret);
    } finally {
      await traced.close();
    }
  });
});
