import { randomBytes } from 'node:crypto';
import { sql as drizzleSql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../../test/fixtures';
import { startTestServer, type TTestServer } from '../../test/harness';
import { startJobs } from '../jobs/boss';
import { lookupHash } from './secrets';

/**
 * Issue 20 item 4: a race on connection tokens wrote Cloud API secrets to the log, because a failed query was
 * logged with its parameters. Each way the server logs a failure runs here with known secret strings, with
 * the server's own logger writing at debug level into memory, and the log is searched for them.
 */

const lines: string[] = [];
const logText = () => lines.join('');
let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { LOG_LEVEL: 'debug' },
    log: { level: 'debug', destination: { write: (line: string) => lines.push(line) } },
  });
  // a database that refuses one connection name: a failed query on a route whose parameters hold secrets
  await server.database.executeSql(`
    create function refuse_log_probe() returns trigger language plpgsql as $$
    begin
      if new.name like 'Log probe%' then raise exception 'refused by the test'; end if;
      return new;
    end $$;
    create trigger refuse_log_probe before insert on whatsapps for each row execute function refuse_log_probe();
  `);
});
afterAll(() => server.close());

const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

/** the log holds none of these, and no sealed value (`enc:v1:`: a query parameter) either */
const expectNoneLogged = (secrets: string[]) => {
  const text = logText();
  for (const value of secrets) expect(text, value).not.toContain(value);
  expect(text).not.toContain('enc:v1:');
};

const logged = (msg: string) =>
  lines.map((line) => JSON.parse(line) as Record<string, any>).filter((entry) => entry.msg === msg);

describe('no secret in the log', () => {
  it('a failed query on a route is logged by its code and query name, never its parameters', async () => {
    const tenant = await server.createTenant('Log');
    const secrets = {
      token: `Api_${secret('token')}`,
      accessToken: secret('EAAGaccess'),
      appSecret: secret('appsecret'),
      verifyToken: secret('verify'),
      greeting: secret('greeting'),
      refresh: secret('refresh'),
    };
    const res = await server.request('POST', '/api/whatsapp', {
      token: tenant.token,
      cookies: { jrt: secrets.refresh },
      body: {
        name: `Log probe ${unique('x')}`,
        token: secrets.token,
        greetingMessage: secrets.greeting,
        provider: 'cloud-api',
        channelConfig: {
          phoneNumberId: '1234567890',
          businessAccountId: '9876543210',
          accessToken: secrets.accessToken,
          appSecret: secrets.appSecret,
          verifyToken: secrets.verifyToken,
        },
      },
    });
    expect(res.status).toBe(500);
    expectNoneLogged([...Object.values(secrets), lookupHash(secrets.token), tenant.token]);
    const [entry] = logged('request failed');
    expect(entry.err).toMatchObject({ code: 'P0001', query: 'insert "whatsapps"' });
    expect(entry.route).toBe('/api/whatsapp');
  });

  it('a request carrying secrets in its URL, headers and body is logged without them', async () => {
    const verifyToken = secret('hubverify');
    const socketToken = secret('sockettoken');
    const apiToken = `Api_${secret('bearer')}`;
    const password = secret('password');
    await server.app.inject({
      method: 'GET',
      url: `/api/channels/cloud-api/999999/webhook?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1`,
    });
    await server.app.inject({ method: 'GET', url: `/socket.io/?EIO=4&transport=polling&token=${socketToken}` });
    await server.app.inject({
      method: 'POST',
      url: '/api/messages/send',
      headers: { authorization: `Bearer ${apiToken}`, cookie: `jrt=${password}` },
      payload: { number: '5511999990000', body: password },
    });
    await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'x@example.com', password } });
    // the requests were logged (debug), by path
    expect(logText()).toContain('/api/channels/cloud-api/999999/webhook');
    // whatever a module hands the logger, known secret fields are redacted at any of the first levels
    server.ctx.log.warn(
      {
        headers: { authorization: `Bearer ${apiToken}`, cookie: `jrt=${password}` },
        body: { password, config: { apiKey: apiToken, channelSecret: { appSecret: verifyToken } } },
        token: socketToken,
      },
      'probe',
    );
    expectNoneLogged([verifyToken, socketToken, apiToken, password]);
    expect(logged('probe')[0].headers.authorization).toBe('[redacted]');
  });

  it('a failed job is logged and stored by its code, never its query parameters', async () => {
    const value = secret('jobsecret');
    const jobs = await startJobs(
      server.database,
      [
        {
          name: 'log-probe',
          handler: async () => {
            await server.ctx.db.execute(drizzleSql`select ${value}::int`);
          },
          work: { pollingIntervalSeconds: 0.5 },
        },
      ],
      server.ctx.log,
    );
    try {
      await jobs.send('log-probe', {}, { retryLimit: 0 });
      const until = Date.now() + 20_000;
      let output: unknown;
      while (Date.now() < until) {
        const { rows } = await server.database.executeSql(
          "select output from pgboss.job where name = 'log-probe' and state = 'failed'",
        );
        if (rows.length) {
          output = (rows[0] as { output: unknown }).output;
          break;
        }
        await new Promise((resume) => setTimeout(resume, 200));
      }
      expect(output).toBeDefined();
      expect(JSON.stringify(output)).not.toContain(value);
      expect(logged('job failed')[0].err).toMatchObject({ query: 'select', cause: { code: '22P02' } });
      expectNoneLogged([value]);
    } finally {
      await jobs.stop();
    }
  });
});
