import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 12's crash test: a real Zelo process (its own data directory, pg-boss jobs on) runs a campaign of 20
 * recipients on a sandbox connection, one send a second; it is killed with SIGKILL in the middle, started again on
 * the same data, and the simulator's outbox holds exactly one message per recipient once the campaign finished.
 */

const MAIN = resolve(import.meta.dirname, '../src/main.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'zelo-campaign-crash-'));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
const ADMIN = { email: 'crash-admin@zelo.test', password: 'Crash-Pass-1' };
const running: ChildProcess[] = [];
afterAll(() => {
  for (const p of running) if (p.exitCode === null) p.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const start = async () => {
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      JOBS: 'on',
      DATABASE_URL: '',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'super-crash@zelo.test',
      ADMIN_PASSWORD: 'Super-Crash-1',
      SANDBOX_OPENING_MS: '10',
      SANDBOX_ACK_MS: '10',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(proc);
  let output = '';
  proc.stdout!.on('data', (c: Buffer) => {
    output += c.toString();
  });
  proc.stderr!.on('data', (c: Buffer) => {
    output += c.toString();
  });
  await until(async () => {
    if (proc.exitCode !== null) throw new Error(`Zelo exited: ${output}`);
    return fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
  }, 300_000);

  return { proc, output: () => output };
};

const until = async (check: () => Promise<boolean>, timeoutMs: number) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
};

const api = async (method: string, path: string, token?: string, body?: unknown) => {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();

  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

const login = async () => {
  const res = await api('POST', '/auth/login', undefined, ADMIN);
  expect(res.status).toBe(200);

  return res.body.token as string;
};

describe('a campaign through kill -9', () => {
  it('sends exactly one message per recipient after a crash in the middle and a restart', async () => {
    let zelo = await start();
    const plans = await api('GET', '/plans/list');
    const signUp = await api('POST', '/companies/cadastro', undefined, {
      name: 'Crash Co',
      email: ADMIN.email,
      password: ADMIN.password,
      phone: '11999998888',
      planId: plans.body[0].id,
    });
    expect(signUp.status).toBe(201);
    let token = await login();
    const conn = await api('POST', '/whatsapp', token, { name: 'Crash Sandbox' });
    expect(conn.status).toBe(201);
    const connectionId = conn.body.id as number;
    await until(async () => (await api('GET', `/whatsapp/${connectionId}`, token)).body.status === 'qrcode', 120_000);
    expect((await api('POST', `/sandbox/${connectionId}/scan`, token, {})).status).toBe(200);
    await until(
      async () => (await api('GET', `/whatsapp/${connectionId}`, token)).body.status === 'CONNECTED',
      120_000,
    );

    // the audience: 20 contacts with a ticket carrying the tag
    const tag = await api('POST', '/tags', token, { name: 'Crash Audience' });
    const numbers: string[] = [];
    for (let i = 0; i < 20; i++) {
      const number = `55119880${String(10_000 + i)}`;
      numbers.push(number);
      const contact = await api('POST', '/contacts', token, { name: `Cliente ${i}`, number });
      expect(contact.status).toBe(201);
      const ticket = await api('POST', '/tickets', token, {
        contactId: contact.body.id,
        whatsappId: connectionId,
        status: 'pending',
      });
      expect([200, 201]).toContain(ticket.status);
      const synced = await api('POST', '/tags/sync', token, { ticketId: ticket.body.id, tags: [{ id: tag.body.id }] });
      expect(synced.status).toBe(200);
    }
    // one send a second: no random part, a 1 s pause after every send
    const saved = await api('POST', '/campaign-settings', token, {
      settings: { messageInterval: 0, longerIntervalAfter: 1, greaterInterval: 1, variables: [] },
    });
    expect(saved.status).toBe(200);
    const campaign = await api('POST', '/campaigns', token, {
      name: 'Crash Campaign',
      message1: 'Oferta para {nome}',
      whatsappId: connectionId,
      tagListId: tag.body.id,
      scheduledAt: new Date().toISOString(),
    });
    expect(campaign.status).toBe(201);
    const outbox = async () =>
      (await api('GET', `/sandbox/${connectionId}/outbox`, token, undefined)).body?.messages as { to: string }[];

    // mid-campaign: some sent, some not
    await until(async () => (await outbox()).length >= 6, 180_000);
    zelo.proc.kill('SIGKILL');
    await new Promise((ok) => zelo.proc.once('exit', ok));

    zelo = await start();
    token = await login();
    const report = async () => (await api('GET', `/campaigns/${campaign.body.id}/report`, token)).body;
    await until(async () => (await report())?.campaign?.status === 'FINALIZADA', 300_000);
    const received = await outbox();
    const perRecipient = new Map<string, number>();
    for (const m of received) perRecipient.set(m.to, (perRecipient.get(m.to) ?? 0) + 1);
    expect([...perRecipient.keys()].sort()).toEqual([...numbers].sort());
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
    expect(received).toHaveLength(20);
    const final = await report();
    expect(final.counts).toMatchObject({ valid: 20, sent: 20, failed: 0, queued: 0 });
    zelo.proc.kill('SIGTERM');
    await new Promise((ok) => zelo.proc.once('exit', ok));
  }, 900_000);
});
