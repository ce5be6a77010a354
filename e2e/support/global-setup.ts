import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startFakeAi } from '../../apps/server/test/fake-ai';
import { startFakeAsaas } from '../../apps/server/test/fake-asaas';
import { ARTIFACTS_DIR, ROOT_DIR } from './paths';

declare module 'vitest' {
  export interface ProvidedContext {
    /** http://127.0.0.1:<port>, serving the web app and /api */
    baseUrl: string;
    /** the server's DATA_DIR (the mail of a server without SMTP_URL lands in <dataDir>/mail) */
    dataDir: string;
    superEmail: string;
    superPassword: string;
    /** the fake Asaas the server's Pix checkout talks to (its /__control routes fire the payment webhook) */
    asaasUrl: string;
    /** the fake OpenAI-compatible API (and Azure speech) on loopback: its key and base URL */
    aiBaseUrl: string;
    aiApiKey: string;
  }
}

const SUPER_EMAIL = 'super@zelo.test';
const SUPER_PASSWORD = 'Super-Pass1';
const READY_TIMEOUT_MS = 120_000;

const freePort = () =>
  new Promise<number>((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });

const buildWebIfMissing = () => {
  if (existsSync(resolve(ROOT_DIR, 'apps/web/dist/index.html'))) {
    return;
  }
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: ROOT_DIR, stdio: 'inherit' });
  if (build.status !== 0) {
    throw new Error(`building the web app failed (exit ${build.status})`);
  }
};

/** Resolves when the server logs its `readyMs` line; rejects when it exits first or takes too long. */
const waitForReady = (server: ChildProcess, logFile: string) =>
  new Promise<void>((done, fail) => {
    let buffered = '';
    const timer = setTimeout(
      () => fail(new Error(`server not ready after ${READY_TIMEOUT_MS} ms, see ${logFile}`)),
      READY_TIMEOUT_MS,
    );
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code} before it was ready, see ${logFile}`));
    };
    server.once('exit', onExit);
    server.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      if (buffered.includes('"readyMs"')) {
        clearTimeout(timer);
        server.off('exit', onExit);
        buffered = '';
        done();
      } else {
        buffered = buffered.slice(-4096);
      }
    });
  });

const stopServer = async (server: ChildProcess) => {
  if (server.exitCode !== null || server.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((done) => server.once('exit', () => done()));
  server.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((done) => {
    timer = setTimeout(() => done('timeout'), 12_000);
  });
  const outcome = await Promise.race([exited, timeout]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    server.kill('SIGKILL');
    await exited;
  }
};

export default async function setup(project: TestProject) {
  buildWebIfMissing();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const dataDir = await mkdtemp(join(tmpdir(), 'zelo-e2e-'));
  const port = await freePort();
  const logFile = resolve(ARTIFACTS_DIR, 'server.log');
  const log = createWriteStream(logFile);
  // the platform's billing provider: a fake Asaas on loopback, its webhook pointed back at this server
  const asaasWebhookToken = `e2e-asaas-${port}`;
  const asaas = await startFakeAsaas({
    webhook: { url: `http://127.0.0.1:${port}/api/subscription/webhook/asaas`, token: asaasWebhookToken },
  });

  // the AI prompts' OpenAI-compatible API: a fake on loopback (OUTBOUND_ALLOW_HOSTS lets the server reach it)
  const ai = await startFakeAi();

  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ADMIN_EMAIL: SUPER_EMAIL,
      ADMIN_PASSWORD: SUPER_PASSWORD,
      RATE_LIMITS: 'off',
      // bcrypt at its least cost: every spec's logins and new users, the same checks (apps/server passwords.ts)
      PASSWORD_HASH_ROUNDS: '4',
      ASAAS_API_KEY: asaas.apiKey,
      ASAAS_API_URL: asaas.url,
      ASAAS_WEBHOOK_TOKEN: asaasWebhookToken,
      // the fake external services (AI, Typebot, n8n, webhooks) listen on loopback
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      AZURE_TTS_URL: ai.ttsTemplate,
      // WhatsApp Web sessions cannot reach WhatsApp here: they give up after one quick retry (DISCONNECTED)
      BAILEYS_MAX_RETRIES: '1',
      BAILEYS_BACKOFF_MS: '200',
      // service-level targets are whole minutes: the breach check runs every second so a spec waits ~1 minute
      SLA_CHECK_MS: '1000',
      // the e2e server never talks to a real database, mail server or Redis
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);

  try {
    await waitForReady(server, logFile);
  } catch (err) {
    await stopServer(server);
    await asaas.close();
    await ai.close();
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }

  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('dataDir', dataDir);
  project.provide('superEmail', SUPER_EMAIL);
  project.provide('superPassword', SUPER_PASSWORD);
  project.provide('asaasUrl', asaas.url.replace(/\/v3$/, ''));
  project.provide('aiBaseUrl', ai.baseUrl);
  project.provide('aiApiKey', ai.state.apiKey);

  return async () => {
    await stopServer(server);
    await asaas.close();
    await ai.close();
    log.end();
    await rm(dataDir, { recursive: true, force: true });
  };
}
