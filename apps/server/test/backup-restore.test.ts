import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsUpTo, readJournal } from '../src/backup/levels';
import { verifyArchive } from '../src/backup/verify';
import { openPglite, openPostgres, runMigrations, type TDatabase } from '../src/db/client';
import { openSecret, sealSecret, useSecretKey } from '../src/lib/secrets';
import { api, dataDirFromTemplate, startNode as startProcess, type TNode } from './nodes';

/**
 * Backup and restore through the real commands and real server processes: a Zelo filled with tickets, media, a
 * sealed prompt key and a WhatsApp Web session's auth state is backed up while inbound messages keep arriving,
 * restored into a fresh directory and a fresh PostgreSQL database, started, and found whole; a PostgreSQL Zelo is
 * restored into an embedded one; a target that is not empty, a damaged archive and an archive from an older
 * migration level are handled as documented.
 */
const BASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROOT = resolve(import.meta.dirname, '..');
const ADMIN = { email: 'backup@zelo.test', password: 'Backup-Pass-1' };
const PROMPT_KEY = 'sk-live-backup-0123456789';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(30_000)]);

const dirs: string[] = [];
const tempDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `zelo-${label}-`));
  dirs.push(dir);
  return dir;
};
const databases: string[] = [];
let admin: pg.Client;
const newDatabase = async () => {
  const name = `backup_rt_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  databases.push(name);
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

const BASE_ENV = {
  HOST: '127.0.0.1',
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  RATE_LIMITS: 'off',
  JOBS: 'off',
  LOG_LEVEL: 'info',
  SANDBOX_OPENING_MS: '10',
  SANDBOX_ACK_MS: '10',
};
/** the test run's own variables must not reach the processes (a DATABASE_URL, a ZELO_SECRET_KEY…) */
const cleanEnv = () => {
  const env = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'ZELO_SECRET_KEY',
    'JWT_SECRET',
    'JWT_REFRESH_SECRET',
    'MEDIA_STORE',
    'DATA_DIR',
  ]) {
    delete env[name];
  }
  return env;
};

const running: TNode[] = [];
/** a server process (test/nodes.ts) on `DATA_DIR` or `DATABASE_URL`, without the test run's own variables */
const startNode = async (env: Record<string, string>): Promise<TNode> => {
  const node = await startProcess('backup', { ...BASE_ENV, ...env }, { baseEnv: cleanEnv() });
  running.push(node);
  return node;
};
const stopNode = (node: TNode) =>
  new Promise<void>((done) => {
    if (node.proc.exitCode !== null) return done();
    node.proc.once('exit', () => done());
    node.proc.kill('SIGTERM');
  });

const runCli = (script: 'backup' | 'restore', args: string[], env: Record<string, string>) =>
  new Promise<{ code: number; out: string }>((done) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, `src/backup/${script}-cli.ts`), ...args], {
      env: { ...cleanEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    proc.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    proc.on('exit', (code) => done({ code: code ?? -1, out }));
  });

const login = async (node: TNode) => {
  const res = await api(node, 'POST', '/api/auth/login', undefined, ADMIN);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
};

/** a sandbox connection paired on `node` */
const sandbox = async (node: TNode, token: string, name: string) => {
  const created = await api(node, 'POST', '/api/whatsapp', token, { name });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  await expect
    .poll(async () => (await api(node, 'GET', `/api/whatsapp/${id}`, token)).body.status, { timeout: 20_000 })
    .toBe('qrcode');
  expect((await api(node, 'POST', `/api/sandbox/${id}/scan`, token, {})).status).toBe(200);
  await expect
    .poll(async () => (await api(node, 'GET', `/api/whatsapp/${id}`, token)).body.status, { timeout: 20_000 })
    .toBe('CONNECTED');
  return id;
};

/** every table's rows, from a database the test opens itself */
const countsOf = async (database: TDatabase, tables: string[]) => {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await database.executeSql(`select count(*)::int as n from "${table}"`);
    counts[table] = (rows[0] as { n: number }).n;
  }
  return counts;
};

/** a database filled before its server starts: a queue, a prompt with a sealed key, a session's auth state */
const fillDirectly = async (database: TDatabase, key: Buffer) => {
  await runMigrations(database);
  const { ensureSuperUser } = await import('../src/lib/seed');
  const { createLogger } = await import('../src/lib/logger');
  await ensureSuperUser(database.db, { ...ADMIN, log: createLogger({ level: 'silent' }) });
  const company = (
    (await database.executeSql('select company_id as id from users where email = $1', [ADMIN.email])).rows[0] as {
      id: number;
    }
  ).id;
  useSecretKey(key);
  const queue = (
    (
      await database.executeSql(
        `insert into queues (company_id, name, color) values ($1, 'Vendas', '#123456') returning id`,
        [company],
      )
    ).rows[0] as { id: number }
  ).id;
  await database.executeSql(
    `insert into prompts (company_id, name, prompt, api_key, queue_id) values ($1, 'Atendente', 'Seja gentil com o cliente.', $2, $3)`,
    [company, sealSecret(PROMPT_KEY), queue],
  );
  const phone = (
    (await database.executeSql(`insert into whatsapps (company_id, name) values ($1, 'Phone') returning id`, [company]))
      .rows[0] as { id: number }
  ).id;
  for (let i = 0; i < 40; i++) {
    await database.executeSql('insert into channel_auth_state (connection_id, key, value) values ($1, $2, $3)', [
      phone,
      i === 0 ? 'creds' : `pre-key-${i}`,
      JSON.stringify({ noiseKey: randomBytes(32).toString('base64'), i }),
    ]);
  }
  return { phone };
};

/** what a restored Zelo must hold: the rows counted in the manifest, the key, the session, the media, the inbox */
const expectRestored = async (
  database: TDatabase,
  manifest: Awaited<ReturnType<typeof verifyArchive>>['manifest'],
  key: Buffer,
  phone: number,
) => {
  const expected = Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]));
  expect(await countsOf(database, Object.keys(expected))).toEqual(expected);
  // the snapshot is whole: no message without its ticket, no ticket without its contact
  const orphans = await database.executeSql(
    `select (select count(*) from messages m where not exists (select 1 from tickets t where t.id = m.ticket_id))::int
          + (select count(*) from tickets t where not exists (select 1 from contacts c where c.id = t.contact_id))::int as n`,
  );
  expect((orphans.rows[0] as { n: number }).n).toBe(0);
  useSecretKey(key);
  const prompt = (await database.executeSql(`select api_key from prompts where name = 'Atendente'`)).rows[0] as {
    api_key: string;
  };
  expect(openSecret(prompt.api_key)).toBe(PROMPT_KEY);
  const auth = await database.executeSql('select count(*)::int as n from channel_auth_state where connection_id = $1', [
    phone,
  ]);
  expect((auth.rows[0] as { n: number }).n).toBe(40);
};

beforeAll(async () => {
  admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
});
afterAll(async () => {
  await Promise.all(running.map(stopNode));
  for (const name of databases)
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
  await admin.end();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('backup of a running embedded Zelo, restored into a fresh directory and a fresh PostgreSQL database', () => {
  it('is consistent while messages keep arriving, and the restored servers find everything', async () => {
    const source = tempDir('bk-source');
    const key = randomBytes(32);
    writeFileSync(join(source, 'secret.key'), key.toString('hex'));
    // the run's migrated template when there is one: the migrations from nothing take ~15 s here
    await dataDirFromTemplate(source);
    const filled = await openPglite({ dataDir: join(source, 'db') });
    const { phone } = await fillDirectly(filled, key);
    await filled.close();

    const node = await startNode({ DATA_DIR: source });
    const token = await login(node);
    const connection = await sandbox(node, token, 'Backup sandbox');
    const photo = await api(node, 'POST', `/api/sandbox/${connection}/inbound`, token, {
      from: '5511977770000',
      type: 'image',
      body: 'foto',
      media: { data: PNG.toString('base64'), mimetype: 'image/png', fileName: 'foto.png' },
    });
    expect(photo.status, JSON.stringify(photo.body)).toBe(200);
    for (let i = 0; i < 30; i++) {
      await api(node, 'POST', `/api/sandbox/${connection}/inbound`, token, {
        from: `55119700${1000 + i}`,
        body: `oi ${i}`,
      });
    }

    // inbound keeps arriving on the running server while the backup runs: one message every ~50 ms, not back to
    // back — a server kept busy without a break made the copy wait behind every request (~60 s of the backup here)
    let flowing = true;
    let arrived = 0;
    const flood = (async () => {
      for (let i = 0; flowing; i++) {
        const res = await api(node, 'POST', `/api/sandbox/${connection}/inbound`, token, {
          from: `55119800${1000 + (i % 50)}`,
          body: `durante o backup ${i}`,
        });
        if (res.status === 200) arrived += 1;
        await new Promise((done) => setTimeout(done, 50));
      }
    })();
    const archive = join(tempDir('bk-archive'), 'zelo.tar');
    const backup = await runCli('backup', ['--out', archive], { DATA_DIR: source });
    flowing = false;
    await flood;
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toMatch(/the running server paused \d+ ms/);
    expect(arrived).toBeGreaterThan(0);
    const { manifest } = await verifyArchive(archive);
    expect(manifest.source).toBe('pglite');
    expect(manifest.migrations.count).toBe(readJournal().entries.length);
    expect(manifest.media.files).toBeGreaterThanOrEqual(1);
    expect(manifest.tables.find((t) => t.name === 'messages')!.rows).toBeGreaterThanOrEqual(31);
    const stored = (await api(node, 'GET', '/api/tickets?status=pending&showAll=true', token)).body
      .tickets as unknown[];
    expect(stored.length).toBeGreaterThan(0);
    await stopNode(node);

    // into a fresh directory, and (at the same time) into a fresh PostgreSQL database (embedded → PostgreSQL)
    const intoDir = tempDir('bk-restored');
    const intoPgDir = tempDir('bk-restored-pg');
    const databaseUrl = await newDatabase();
    const [restored, onPg] = await Promise.all([
      runCli('restore', ['--in', archive], { DATA_DIR: intoDir }),
      runCli('restore', ['--in', archive], { DATA_DIR: intoPgDir, DATABASE_URL: databaseUrl }),
    ]);
    expect(restored.code, restored.out).toBe(0);
    expect(readFileSync(join(intoDir, 'secret.key'), 'utf8')).toBe(key.toString('hex'));
    const embedded = await openPglite({ dataDir: join(intoDir, 'db') });
    await expectRestored(embedded, manifest, key, phone);
    await embedded.close();

    expect(onPg.code, onPg.out).toBe(0);
    const postgres = await openPostgres(databaseUrl, 2);
    await expectRestored(postgres, manifest, key, phone);
    await postgres.close();

    // both start (side by side) and serve what the source served: the inbox, the photo's bytes, a login with the
    // old password
    const targets: Record<string, string>[] = [
      { DATA_DIR: intoDir },
      { DATA_DIR: intoPgDir, DATABASE_URL: databaseUrl },
    ];
    const started = await Promise.all(targets.map((env) => startNode(env)));
    for (const back of started) {
      const again = await login(back);
      const tickets = (await api(back, 'GET', '/api/tickets?status=pending&showAll=true', again)).body.tickets as {
        id: number;
      }[];
      expect(tickets.length).toBeGreaterThan(0);
      const photoEntry = Object.entries(manifest.entries).find(
        ([name, entry]) => name.startsWith('media/') && entry.size === PNG.length,
      );
      const media = await fetch(`${back.url}/public/${photoEntry![0].slice('media/'.length)}`);
      expect(media.status).toBe(200);
      expect(Buffer.from(await media.arrayBuffer())).toEqual(PNG);
      expect(media.headers.get('x-content-type-options')).toBe('nosniff');
      const prompts = await api(back, 'GET', '/api/prompt', again);
      expect(prompts.status).toBe(200);
      expect(JSON.stringify(prompts.body)).toContain('Atendente');
      await stopNode(back);
    }

    // a restore into a target that is no longer empty is refused, and goes through with --force
    const refused = await runCli('restore', ['--in', archive], { DATA_DIR: intoDir });
    expect(refused.code, refused.out).toBe(2);
    expect(refused.out).toContain('not empty');
    const forced = await runCli('restore', ['--in', archive, '--force'], { DATA_DIR: intoDir });
    expect(forced.code, forced.out).toBe(0);
  }, 420_000);
});

describe('a PostgreSQL Zelo', () => {
  it('is backed up from a snapshot while it serves, and restored into an embedded one', async () => {
    const databaseUrl = await newDatabase();
    const key = randomBytes(32);
    const source = await openPostgres(databaseUrl, 2);
    const { phone } = await fillDirectly(source, key);
    await source.close();
    const env = { DATA_DIR: tempDir('bk-pg-source'), DATABASE_URL: databaseUrl, ZELO_SECRET_KEY: key.toString('hex') };
    const node = await startNode(env);
    const token = await login(node);
    const connection = await sandbox(node, token, 'PG sandbox');
    let flowing = true;
    const flood = (async () => {
      for (let i = 0; flowing; i++) {
        await api(node, 'POST', `/api/sandbox/${connection}/inbound`, token, {
          from: `55118800${1000 + (i % 20)}`,
          body: `pg ${i}`,
        });
      }
    })();
    const archive = join(tempDir('bk-pg-archive'), 'zelo.tar');
    const backup = await runCli('backup', ['--out', archive], env);
    flowing = false;
    await flood;
    expect(backup.code, backup.out).toBe(0);
    await stopNode(node);
    const { manifest } = await verifyArchive(archive);
    expect(manifest.source).toBe('postgres');

    // the environment's key is the archive's: accepted; another key is refused before anything is written
    const into = tempDir('bk-pg-restored');
    const wrongKey = await runCli('restore', ['--in', archive], {
      DATA_DIR: into,
      ZELO_SECRET_KEY: randomBytes(32).toString('hex'),
    });
    expect(wrongKey.code, wrongKey.out).toBe(2);
    const restored = await runCli('restore', ['--in', archive], { DATA_DIR: into });
    expect(restored.code, restored.out).toBe(0);
    const embedded = await openPglite({ dataDir: join(into, 'db') });
    await expectRestored(embedded, manifest, key, phone);
    await embedded.close();
  }, 240_000);
});

describe('archives from elsewhere', () => {
  it('an archive at an older migration level is loaded there and migrated forward; a damaged one is refused', async () => {
    const journal = readJournal();
    const older = journal.entries.length - 1;
    const source = tempDir('bk-old');
    const database = await openPglite({ dataDir: join(source, 'db') });
    const folder = migrationsUpTo(older);
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(database.db as never, { migrationsFolder: folder });
    rmSync(folder, { recursive: true, force: true });
    await database.executeSql(`insert into plans (name) values ('Plano antigo')`);
    await database.close();
    const archive = join(tempDir('bk-old-archive'), 'old.tar');
    const backup = await runCli('backup', ['--out', archive], { DATA_DIR: source });
    expect(backup.code, backup.out).toBe(0);
    expect((await verifyArchive(archive)).manifest.migrations.count).toBe(older);

    // one byte changed in the middle: refused, nothing written
    const damaged = join(tempDir('bk-damaged'), 'damaged.tar');
    const bytes = readFileSync(archive);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    writeFileSync(damaged, bytes);
    const intoDamaged = tempDir('bk-damaged-into');
    const refused = await runCli('restore', ['--in', damaged], { DATA_DIR: intoDamaged });
    expect(refused.code, refused.out).toBe(2);
    expect(refused.out).toMatch(/damaged|not a tar/);

    const into = tempDir('bk-old-into');
    const restored = await runCli('restore', ['--in', archive], { DATA_DIR: into });
    expect(restored.code, restored.out).toBe(0);
    const back = await openPglite({ dataDir: join(into, 'db') });
    const level = await back.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect((level.rows[0] as { n: number }).n).toBe(journal.entries.length);
    const plans = await back.executeSql(`select count(*)::int as n from plans where name = 'Plano antigo'`);
    expect((plans.rows[0] as { n: number }).n).toBe(1);
    await back.close();
  }, 180_000);
});
