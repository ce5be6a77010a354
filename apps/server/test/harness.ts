import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { inject } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, type TConfig } from '../src/config';
import { openPglite, openPostgres, type TDatabase } from '../src/db/client';
import { createLogger } from '../src/lib/logger';
import type { TMailer } from '../src/mail/mailer';
import { ensureSuperUser } from '../src/lib/seed';
import { usePasswordRounds } from '../src/modules/users/passwords';
import { TEMPLATE_FILE } from './global-setup';

export const SUPER = { email: 'super@zelo.test', password: 'Super-Pass-1' };
/** the bearer of GET /metrics on every test server */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789';

/** A fresh database for one test file: a copy of the migrated template. */
export const openTestDatabase = async (): Promise<TDatabase> => {
  const template = inject('pgTemplate');
  if (!template) return openPglite({ loadDataDir: new Blob([readFileSync(TEMPLATE_FILE)]) });
  const base = process.env.TEST_DATABASE_URL!;
  const name = `zelo_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), 5);
  const close = database.close;

  return {
    ...database,
    close: async () => {
      await close();
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.end();
    },
  };
};

type TRequest = {
  token?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  cookies?: Record<string, string>;
  headers?: Record<string, string>;
};

export type TTestServer = Awaited<ReturnType<typeof startTestServer>>;

export const startTestServer = async (
  opts: {
    mailer?: TMailer;
    redisUrl?: string;
    database?: TDatabase;
    env?: Record<string, string>;
    /** settings no variable sets (the web app's folder) */
    config?: Partial<TConfig>;
    /** where the server's log goes (silent when not given), at this level */
    log?: { destination: DestinationStream; level?: string };
  } = {},
) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'zelo-test-'));
  const database = opts.database ?? (await openTestDatabase());
  const config = loadConfig({
    DATA_DIR: dataDir,
    RATE_LIMITS: 'off',
    JOBS: 'off',
    LOG_LEVEL: 'silent',
    // bcrypt at its least cost: the same hashing and checks, 64× cheaper than production's 10 (passwords.test.ts)
    PASSWORD_HASH_ROUNDS: '4',
    FLOW_TYPING_MS: '0',
    FLOW_ELEMENT_GAP_MS: '0',
    JWT_SECRET: 'test-access-secret-0123456789abcdef',
    JWT_REFRESH_SECRET: 'test-refresh-secret-0123456789abcdef',
    // one key for every server of a run (a restarted server opens what the first one sealed)
    ZELO_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    // the fake external services (AI, Typebot, n8n, webhooks) listen on loopback
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    // /metrics on (and its counting), as an operator would run it; a test that wants it off passes ''
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    ...(opts.redisUrl ? { REDIS_URL: opts.redisUrl } : {}),
    ...opts.env,
  });
  Object.assign(config, opts.config);
  // the server's own logger (redaction, error serializer), silent unless a test reads what it writes
  const logger = opts.log
    ? createLogger({ level: opts.log.level ?? 'info', destination: opts.log.destination })
    : createLogger({ level: 'silent' });
  usePasswordRounds(config.passwordHashRounds);
  await ensureSuperUser(database.db, { ...SUPER, log: logger });
  const { app, ctx, drain } = await buildApp({ config, database, logger, mailer: opts.mailer });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const request = async (method: string, path: string, req: TRequest = {}) => {
    const res: LightMyRequestResponse = await app.inject({
      method: method as 'GET',
      url: path,
      query: req.query as Record<string, string>,
      payload: req.body as object,
      cookies: req.cookies,
      headers: { ...(req.token ? { authorization: `Bearer ${req.token}` } : {}), ...req.headers },
    });
    let body: any;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = res.body;
    }

    return { status: res.statusCode, body, headers: res.headers, cookies: res.cookies };
  };

  const login = async (email: string, password: string) => {
    const res = await request('POST', '/api/auth/login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    const refresh = res.cookies.find((c) => c.name === 'jrt')?.value ?? '';

    return { token: res.body.token as string, user: res.body.user, refresh };
  };

  let tenantSeq = 0;
  /** a company signed up through the public route, with its first admin logged in */
  const createTenant = async (label = 'Tenant') => {
    tenantSeq += 1;
    const suffix = `${tenantSeq}${randomBytes(3).toString('hex')}`;
    const email = `admin-${suffix}@example.com`;
    const password = 'Admin-Pass-1';
    const plans = await request('GET', '/api/plans/list');
    const res = await request('POST', '/api/companies/cadastro', {
      body: { name: `${label} ${suffix}`, email, password, phone: '11999998888', planId: plans.body[0].id },
    });
    if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
    const session = await login(email, password);

    return { company: res.body, companyId: res.body.id as number, email, password, ...session };
  };

  return {
    app,
    ctx,
    drain,
    database,
    url,
    request,
    login,
    createTenant,
    superLogin: () => login(SUPER.email, SUPER.password),
    close: async () => {
      await app.close();
      if (!opts.database) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
