/**
 * The Atendechat importer end to end: a real PostgreSQL source built from the ancestor's schema and filled as
 * the ancestor writes, imported with the real command into the embedded database and into PostgreSQL, then
 * Zelo started on the result and used as the ancestor's users would.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, openPostgres, runMigrations, type TDatabase } from '../src/db/client';
import { acquireDirLock } from '../src/db/lock';
import { importAtendechat } from '../src/import/atendechat/cli';
import type { TPrinter } from '../src/import/atendechat/report';
import { ensureSuperUser } from '../src/lib/seed';
import { createDatabase, createSource, fillSample, OLD, TICKET_UUID, type TSourceDb } from './atendechat/source';
import { startTestServer } from './harness';

const SERVER = resolve(import.meta.dirname, '..');
const FIRST = { email: 'first@zelo.local', password: 'First-Pass-1' };

/** the command as an operator runs it, in a process of its own */
const runCli = (args: string[], env: Record<string, string>, watch?: (kill: () => void) => void) =>
  new Promise<{ code: number | null; signal: string | null; out: string }>((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/import/atendechat/cli.ts', ...args], {
      cwd: SERVER,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    });
    let out = '';
    const take = (chunk: Buffer) => {
      out += chunk.toString();
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = watch ? setInterval(() => watch(() => child.kill('SIGKILL')), 20) : undefined;
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      done({ code, signal, out });
    });
  });

const collect = (): TPrinter & { text: () => string } => {
  const lines: string[] = [];

  return { line: (t) => lines.push(t), progress: () => undefined, done: () => undefined, text: () => lines.join('\n') };
};

/** a Zelo as its first start leaves it: migrated, one plan, the operator's company and super user */
const firstStart = async (database: TDatabase) => {
  await runMigrations(database);
  await ensureSuperUser(database.db, { ...FIRST, log: pino({ level: 'silent' }) });
};

const count = async (database: TDatabase, text: string) =>
  Number(((await database.executeSql(text)).rows[0] as { n: number }).n);

let source: TSourceDb;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'zelo-import-'));
  dirs.push(dir);

  return dir;
};

beforeAll(async () => {
  source = await createSource();
  await fillSample(source);
});
afterAll(async () => {
  await source?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('import into the embedded database', () => {
  const dataDir = tempDir();

  it('imports with the real command, and Zelo then serves the ancestor users their tickets, messages and media', async () => {
    const first = await openDatabase({ dataDir });
    await firstStart(first);
    await first.close();

    // the key the test server seals with (a real operator keeps ZELO_SECRET_KEY or DATA_DIR/secret.key for both)
    const run = await runCli(['--from', source.url, '--media', source.publicDir], {
      DATA_DIR: dataDir,
      ZELO_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    });
    expect(run.out).toContain('Import finished');
    expect(run.code).toBe(0);
    // every odd row has its line in the report
    expect(run.out).toContain('connections: 1 skipped: connection with companyId NULL or of no imported company');
    expect(run.out).toContain('contacts: 1 skipped: same number twice in a company');
    expect(run.out).toContain('tickets: 1 skipped: ticket of a deleted or not imported contact');
    expect(run.out).toContain('users: 1 skipped: e-mail already used by another user (first kept)');
    expect(run.out).toContain('settings: 1 skipped: setting of no company');
    expect(run.out).toContain('messages: 1 adjusted: media path leaves the media folder');
    expect(run.out).toContain('messages: 1 adjusted: media file missing');
    expect(run.out).toContain('message quotes: 1 skipped: quoted message not in the source: kept unquoted');
    expect(run.out).toContain('queues: 1 adjusted: colour not hex: default used');
    expect(run.out).toContain('Columns this importer does not know, ignored: Tags.legacyCode');
    expect(run.out).toContain('contacts: 1 adjusted: empty name: the number is shown');
    expect(run.out).toContain('tickets: 1 adjusted: user deleted or not imported: dropped');

    const database = await openDatabase({ dataDir });
    const server = await startTestServer({ database, env: { DATA_DIR: dataDir } });
    try {
      // the first start's super user is replaced by the source's, who logs in with the old password
      expect((await server.request('POST', '/api/auth/login', { body: FIRST })).status).toBe(401);
      const admin = await server.login(OLD.admin.email, OLD.admin.password);
      expect(admin.user).toMatchObject({ id: 1, super: true, profile: 'admin', companyId: 1 });
      const agent = await server.login(OLD.agent.email, OLD.agent.password);
      expect(agent.user).toMatchObject({ id: 5, profile: 'user', companyId: 7 });

      const manager = await server.login(OLD.manager.email, OLD.manager.password);
      const ticket = await server.request('GET', `/api/tickets/u/${TICKET_UUID}`, { token: agent.token });
      expect(ticket.status).toBe(200);
      expect(ticket.body).toMatchObject({
        id: 20,
        uuid: TICKET_UUID,
        status: 'open',
        contactId: 11,
        queueId: 3,
        userId: 5,
        whatsappId: 2,
      });

      const page = await server.request('GET', '/api/messages/20', { token: agent.token });
      expect(page.status).toBe(200);
      const list = page.body.messages as Array<Record<string, any>>;
      const byBody = (body: string) => list.find((m) => m.body === body)!;
      expect(list.map((m) => m.body)).toEqual([
        'Oi, preciso de ajuda',
        'Bem-vindo! Escolha uma opção',
        '',
        'sobre isso',
        'e isto?',
        'page',
        'escape',
        'audio',
        'tudo certo',
      ]);
      expect(byBody('Bem-vindo! Escolha uma opção')).toMatchObject({ fromMe: true, source: 'bot', ack: 3 });
      expect(byBody('sobre isso').quotedMsg).toMatchObject({ body: 'Oi, preciso de ajuda' });
      expect(byBody('e isto?').quotedMsg).toBeNull();
      expect(byBody('escape').mediaUrl).toBeNull();
      expect(byBody('audio').mediaUrl).toBeNull();
      // `read` kept as an integer by that version reads as a flag
      expect(byBody('audio').read).toBe(false);
      expect(byBody('Oi, preciso de ajuda').read).toBe(true);
      expect(byBody('tudo certo')).toMatchObject({ isEdited: true, ack: 4 });

      const image = list[2];
      expect(image).toMatchObject({ mediaType: 'image', mediaName: '1709294400000.png' });
      const served = await server.app.inject({ method: 'GET', url: image.mediaUrl });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      // an HTML file is stored under a safe extension and served inert, as Zelo's own uploads are
      const html = await server.app.inject({ method: 'GET', url: byBody('page').mediaUrl });
      expect(html.statusCode).toBe(200);
      expect(String(html.headers['content-type'])).not.toContain('html');
      expect(byBody('page').mediaUrl).toMatch(/\.txt$/);

      // the list search finds imported tickets by their messages' words and their contact's name
      const search = async (searchParam: string) =>
        (
          await server.request('GET', '/api/tickets', {
            token: manager.token,
            query: { showAll: true, searchParam, status: 'open' },
          })
        ).body.tickets.map((t: { id: number }) => t.id);
      expect(await search('preciso ajuda')).toEqual([20]);
      expect(await search('maria')).toEqual([20]);

      // the duplicate contact's pending ticket went to the kept contact, closed (one active ticket per contact)
      const moved = await server.request('GET', '/api/tickets/u/5f0e7a0c-3c55-4c0e-9d52-4f1f7a2b6c02', {
        token: agent.token,
      });
      expect(moved.body).toMatchObject({ id: 21, contactId: 11, status: 'closed' });
      // another company's ticket stays out of reach
      const other = await server.request('GET', '/api/tickets/u/5f0e7a0c-3c55-4c0e-9d52-4f1f7a2b6c04', {
        token: agent.token,
      });
      expect(other.status).toBe(404);
      expect([403, 404]).toContain((await server.request('GET', '/api/messages/30', { token: agent.token })).status);
      const theirs = await server.request('GET', '/api/contacts', { token: manager.token });
      expect(theirs.body.contacts.map((c: { id: number }) => c.id).sort()).toEqual([11, 13]);

      // sequences moved: a new contact gets an id past the imported ones
      const created = await server.request('POST', '/api/contacts', {
        token: agent.token,
        body: { name: 'Novo', number: '5511911112222' },
      });
      expect(created.status).toBe(201);
      expect(created.body.id).toBeGreaterThan(14);

      // the WhatsApp session moved over key by key; the unreadable one needs a new QR code
      expect(await count(database, 'select count(*)::int as n from channel_auth_state where connection_id = 2')).toBe(
        2,
      );
      expect(await count(database, 'select count(*)::int as n from channel_auth_state where connection_id = 4')).toBe(
        0,
      );
      expect(await count(database, "select count(*)::int as n from whatsapps where status = 'DISCONNECTED'")).toBe(2);

      // the company's automation, lists and history, read through the API as its admin sees them
      const rows = async (text: string) => (await database.executeSql(text)).rows as Array<Record<string, any>>;
      const flow = await server.request('GET', '/api/flowbuilder/4', { token: manager.token });
      expect(flow.status).toBe(200);
      expect(JSON.stringify(flow.body)).toContain('Início');
      // the flow's media copied in and the flow pointed at it; a missing one keeps its name and is reported
      const [stored] = await rows('select flow from flow_builders where id = 4');
      expect(stored.flow.nodes[1].data.url).toBe('flow-missing.png');
      expect(stored.flow.nodes[2].data.elements[0].value).toBe(image.mediaUrl.split('/').pop());
      expect(run.out).toContain('flows: 1 adjusted: flow media file missing');
      const campaign = await server.request('GET', '/api/campaigns/1', { token: manager.token });
      expect(campaign.body).toMatchObject({ name: 'Black Friday', status: 'CANCELADA' });
      expect(run.out).toContain('campaign was programmed or running: imported paused (CANCELADA)');
      const old = await server.request('GET', '/api/campaigns/2', { token: manager.token });
      expect(old.body).toMatchObject({ status: 'FINALIZADA' });
      expect(await rows('select state, message, contact_list_item_id from campaign_shippings')).toEqual([
        { state: 'sent', message: 'Oi Maria', contact_list_item_id: 1 },
      ]);
      // secrets sealed like any tenant secret
      const [prompt] = await rows('select api_key, queue_id from prompts where id = 1');
      expect(prompt.api_key).toMatch(/^enc:v1:/);
      expect(prompt.queue_id).toBe(3);
      const [df] = await rows("select json_content from queue_integrations where type = 'dialogflow'");
      expect(df.json_content).toMatch(/^enc:v1:/);
      // the connection's messages-API token: sealed, found by its keyed hash, and still the same token for the
      // systems that send with it
      const [connection] = await rows('select token, token_hash from whatsapps where id = 2');
      expect(connection.token).toMatch(/^enc:v1:/);
      expect(connection.token_hash).toBeTruthy();
      const sent = await server.request('POST', '/api/messages/send', {
        headers: { authorization: 'Bearer tok-loja' },
        body: { number: '5511999990000', body: 'oi' },
      });
      expect(sent.body?.error).not.toBe('ERR_WAPP_NOT_FOUND_FOR_TOKEN');
      const unknown = await server.request('POST', '/api/messages/send', {
        headers: { authorization: 'Bearer tok-outra' },
        body: { number: '5511999990000', body: 'oi' },
      });
      expect(unknown.body.error).toBe('ERR_WAPP_NOT_FOUND_FOR_TOKEN');
      expect(await rows('select integration_id, prompt_id from queues where id = 4')).toEqual([
        { integration_id: 1, prompt_id: 1 },
      ]);
      expect(await rows('select flow_id_welcome from whatsapps where id = 2')).toEqual([{ flow_id_welcome: 4 }]);
      expect(await rows('select phrase, flow_id from flow_campaigns')).toEqual([{ phrase: 'promo', flow_id: 4 }]);
      // pending schedules stay pending; the sent one is history (its duplicate contact moved to the kept one)
      expect(await rows('select id, status, contact_id from schedules order by id')).toEqual([
        { id: 1, status: 'PENDENTE', contact_id: 11 },
        { id: 2, status: 'ENVIADA', contact_id: 11 },
      ]);
      // quick message, announcement and file-list media copied in and served
      const [quick] = await rows('select media_path, media_name from quick_messages');
      expect(quick.media_name).toBe('logo.png');
      expect(
        (await server.app.inject({ method: 'GET', url: `/public/${quick.media_path}` })).headers['content-type'],
      ).toBe('image/png');
      const [notice] = await rows('select media_path from announcements');
      expect(notice.media_path).toMatch(/\.png$/);
      const [file] = await rows('select path, media_type from files_options');
      expect(file).toMatchObject({ media_type: 'application/pdf' });
      expect(await count(database, 'select count(*)::int as n from contact_list_items')).toBe(1);
      expect(await rows('select title, uuid::text as uuid from chats')).toEqual([
        { title: 'Equipe', uuid: '9a0e7a0c-3c55-4c0e-9d52-4f1f7a2b6c01' },
      ]);
      expect(await count(database, 'select count(*)::int as n from chat_users')).toBe(2);
      expect(await rows('select status, value::float as value from invoices')).toEqual([
        { status: 'paid', value: 199.9 },
      ]);
      // the agent's queues and default connection, the queue's option tree, the connection's queues
      expect(await rows('select whatsapp_id, all_ticket from users where id = 5')).toEqual([
        { whatsapp_id: 2, all_ticket: 'desabled' },
      ]);
      expect(await rows('select user_id, queue_id from user_queues')).toEqual([{ user_id: 5, queue_id: 3 }]);
      expect(await rows('select id, parent_id, option from queue_options order by id')).toEqual([
        { id: 1, parent_id: null, option: '1' },
        { id: 2, parent_id: 1, option: '1' },
      ]);
      expect(await rows('select queue_id from whatsapp_queues order by queue_id')).toEqual([
        { queue_id: 3 },
        { queue_id: 4 },
      ]);
      expect(await rows('select color from queues where id = 4')).toEqual([{ color: '#7c7c7c' }]);
      expect(await rows('select tag_id from ticket_tags where ticket_id = 20')).toEqual([{ tag_id: 2 }]);
      expect(await rows('select rate, user_id from user_ratings')).toEqual([{ rate: 3, user_id: 5 }]);
      // plans keep their limits and flags (a flag the ancestor left NULL is on, as its UI shows it)
      expect(
        await rows('select users, value::float as value, use_open_ai, use_kanban from plans where id = 2'),
      ).toEqual([{ users: 50, value: 199.9, use_open_ai: false, use_kanban: true }]);
      expect(await rows('select due_date, language, schedules from companies where id = 1')).toEqual([
        {
          due_date: '2093-03-14',
          language: 'pt',
          schedules: [expect.objectContaining({ weekdayEn: 'monday', startTime: '08:00' })],
        },
      ]);
      expect(await rows('select language from companies where id = 7')).toEqual([{ language: 'es' }]);

      // cross-tenant over the imported data: company 7's admin, through every list the cross-tenant suite reads
      // (asking for company 1 too) and by company 1's ids, never sees company 1's rows
      const markers = ['5f0e7a0c-3c55-4c0e-9d52-4f1f7a2b6c04', 'Matriz', '"matriz"', 'Geral'];
      for (const path of [
        '/api/tickets?showAll=true&status=open',
        '/api/tickets?showAll=true&status=pending',
        '/api/tickets?showAll=true&status=closed',
        '/api/ticket/kanban',
        '/api/contacts',
        '/api/contacts/list',
        '/api/queue',
        '/api/tags',
        '/api/tags/list',
        '/api/quick-messages',
        '/api/quick-messages/list',
        '/api/chats',
        '/api/schedules',
        '/api/whatsapp',
        '/api/users',
        '/api/users/list',
        '/api/settings',
        '/api/contact-lists',
        '/api/campaigns',
        '/api/files',
        '/api/flowbuilder',
        '/api/flowcampaign',
        '/api/prompt',
        '/api/queueIntegration',
        '/api/helps',
        '/api/dashboard',
      ]) {
        const res = await server.request('GET', path, { token: manager.token, query: { companyId: 1 } });
        expect([200, 403], path).toContain(res.status);
        const text = JSON.stringify(res.body);
        for (const marker of markers) expect(text, `${path} leaks ${marker}`).not.toContain(marker);
        expect(text, `${path} leaks company 1`).not.toMatch(/"companyId":1\b/);
      }
      for (const path of [
        '/api/tickets/30',
        '/api/contacts/14',
        '/api/queue/9',
        '/api/whatsapp/4',
        '/api/messages/30',
      ]) {
        expect([403, 404], path).toContain((await server.request('GET', path, { token: manager.token })).status);
      }
    } finally {
      await server.close();
      await database.close();
    }
  });

  it('run again, imports nothing twice', async () => {
    const printer = collect();
    const again = await importAtendechat(
      { from: source.url, media: source.publicDir, dryRun: false },
      { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      printer,
    );
    expect(again.code).toBe(0);
    expect(again.reports?.every((r) => r.resumed)).toBe(true);
    const database = await openDatabase({ dataDir });
    try {
      expect(await count(database, 'select count(*)::int as n from messages')).toBe(10);
      expect(await count(database, 'select count(*)::int as n from tickets')).toBe(4);
    } finally {
      await database.close();
    }
  });

  it('refuses while a Zelo server holds the embedded database, and writes nothing', async () => {
    const held = tempDir();
    const release = acquireDirLock(held);
    try {
      const run = await runCli(['--from', source.url], { DATA_DIR: held });
      expect(run.code).toBe(2);
      expect(run.out).toContain(`in use by process ${process.pid}`);
      expect(existsSync(join(held, 'db'))).toBe(false);
    } finally {
      release();
    }
  });
});

describe('import into PostgreSQL', () => {
  it('a dry run reads everything and writes nothing; the import then fills the target', async () => {
    const target = await createDatabase('zelo_imp');
    const database = await openPostgres(target.url, 3);
    const dataDir = tempDir();
    try {
      await firstStart(database);
      const env = { DATABASE_URL: target.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
      const dry = collect();
      const planned = await importAtendechat({ from: source.url, media: source.publicDir, dryRun: true }, env, dry);
      expect(planned.code).toBe(0);
      expect(dry.text()).toContain('Dry run: nothing was written');
      expect(planned.reports?.find((r) => r.model === 'messages')).toMatchObject({ source: 11, imported: 10 });
      expect(await count(database, "select count(*)::int as n from companies where name = 'Zelo'")).toBe(1);
      expect(
        await count(
          database,
          "select count(*)::int as n from pg_tables where tablename = 'import_atendechat_progress'",
        ),
      ).toBe(0);
      expect(existsSync(join(dataDir, 'media'))).toBe(false);

      const done = await importAtendechat({ from: source.url, media: source.publicDir, dryRun: false }, env, collect());
      expect(done.code).toBe(0);
      // the same report as the dry run's
      expect(done.reports?.map((r) => [r.model, r.source, r.imported, r.skipped])).toEqual(
        planned.reports?.map((r) => [r.model, r.source, r.imported, r.skipped]),
      );
      const server = await startTestServer({ database, env: { DATA_DIR: dataDir } });
      try {
        const agent = await server.login(OLD.agent.email, OLD.agent.password);
        const page = await server.request('GET', '/api/messages/20', { token: agent.token });
        expect(page.body.messages).toHaveLength(9);
        const tag = await server.request('POST', '/api/tags', {
          token: agent.token,
          body: { name: 'Depois', color: '#123456' },
        });
        expect(tag.body.id).toBeGreaterThan(3);
      } finally {
        await server.close();
      }
    } finally {
      await database.close();
      await target.drop();
    }
  });

  it('refuses a target that holds other tenant data, saying what it found, and writes nothing', async () => {
    const target = await createDatabase('zelo_imp');
    const database = await openPostgres(target.url, 2);
    try {
      await firstStart(database);
      await database.executeSql(
        "insert into contacts (company_id, name, number) select id, 'Someone', '5511900001111' from companies limit 1",
      );
      const printer = collect();
      const refused = await importAtendechat(
        { from: source.url, media: source.publicDir, dryRun: false },
        { DATABASE_URL: target.url, DATA_DIR: tempDir(), LOG_LEVEL: 'silent' },
        printer,
      );
      expect(refused.code).toBe(2);
      expect(printer.text()).toContain('contacts: has rows');
      expect(await count(database, 'select count(*)::int as n from companies')).toBe(1);
      expect(await count(database, 'select count(*)::int as n from users')).toBe(1);
    } finally {
      await database.close();
      await target.drop();
    }
  });

  it('refuses a source that is not an Atendechat database, listing what it lacks', async () => {
    const other = await createDatabase('atd_other');
    const target = await createDatabase('zelo_imp');
    try {
      const pgClient = new pg.Client({ connectionString: other.url });
      await pgClient.connect();
      await pgClient.query('create table "Plans" (id serial primary key, name varchar(50))');
      await pgClient.end();
      const printer = collect();
      const refused = await importAtendechat(
        { from: other.url, dryRun: false },
        { DATABASE_URL: target.url, DATA_DIR: tempDir(), LOG_LEVEL: 'silent' },
        printer,
      );
      expect(refused.code).toBe(2);
      expect(printer.text()).toContain('lacks:');
      expect(printer.text()).toContain('Companies');
      expect(printer.text()).toContain('Messages');
      expect(printer.text()).not.toContain('  Plans\n');
    } finally {
      await other.drop();
      await target.drop();
    }
  });

  it('killed (kill -9) in the middle and run again, ends with every source row exactly once', async () => {
    const big = await createSource();
    await fillSample(big, { extraMessages: 40 });
    const target = await createDatabase('zelo_imp');
    const database = await openPostgres(target.url, 2);
    const dataDir = tempDir();
    try {
      await firstStart(database);
      const env = { DATABASE_URL: target.url, DATA_DIR: dataDir };
      let killing = false;
      let looking = false;
      const killed = await runCli(
        ['--from', big.url, '--media', big.publicDir],
        { ...env, ZELO_IMPORT_BATCH: '1' },
        (kill) => {
          if (killing || looking) return;
          looking = true;
          // stop it once some messages are in, with others still to come
          void count(database, 'select count(*)::int as n from messages').then(
            (n) => {
              looking = false;
              if (n >= 5 && !killing) {
                killing = true;
                kill();
              }
            },
            () => {
              // the tables may not exist yet
              looking = false;
            },
          );
        },
      );
      if (!killing) throw new Error(`the import ended before it could be stopped: ${killed.out}`);
      expect(killed.signal).toBe('SIGKILL');
      const partial = await count(database, 'select count(*)::int as n from messages');
      expect(partial).toBeLessThan(50);

      const again = await importAtendechat(
        { from: big.url, media: big.publicDir, dryRun: false },
        { ...env, LOG_LEVEL: 'silent' },
        collect(),
      );
      expect(again.code).toBe(0);
      expect(await count(database, 'select count(*)::int as n from messages')).toBe(50);
      expect(await count(database, 'select count(distinct external_id)::int as n from messages')).toBe(50);
      expect(await count(database, 'select count(*)::int as n from contacts')).toBe(3);
    } finally {
      await database.close();
      await target.drop();
      await big.close();
    }
  });
});
