/**
 * The Atendechat importer's speed (issue 21): a source made from the ancestor's schema fixture and filled in SQL
 * (generate_series) with `contacts` contacts, `tickets` tickets and `messages` messages of one company, then
 * `npm run import:atendechat` into a fresh PostgreSQL database (`--target pg`) or a fresh embedded one
 * (`--target pglite`), timed from spawn to exit, with the importer's peak memory (GNU time's max RSS).
 *
 *   node --import tsx bench/import-atendechat.ts --tickets 100000 --messages 1000000 --contacts 60000 --target pg
 *
 * Targets: PostgreSQL 100,000 tickets / 1,000,000 messages / 60,000 contacts ≤ 3 min; embedded 20,000 tickets /
 * 200,000 messages ≤ 3 min.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPgDatabase, machine, ROOT, removeDir, tempDir } from './lib';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '6000' },
    tickets: { type: 'string', default: '10000' },
    messages: { type: 'string', default: '100000' },
    target: { type: 'string', default: 'pg' },
    pg: { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const contacts = Number(values.contacts);
const tickets = Number(values.tickets);
const messages = Number(values.messages);
const tag = randomBytes(4).toString('hex');
// the ancestor keeps one ticket per contact and connection: enough connections for the tickets asked
const connections = Math.max(1, Math.ceil(tickets / contacts));

const psql = (url: string, sql: string) =>
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qtA'], { input: sql, encoding: 'utf8', maxBuffer: 1e8 });

const source = createPgDatabase(values.pg, `atd_bench_${tag}`);
const target = values.target === 'pg' ? createPgDatabase(values.pg, `zelo_bench_import_${tag}`) : undefined;
const dataDir = tempDir('import');
try {
  const filled = performance.now();
  psql(source.url, readFileSync(join(ROOT, 'apps/server/test/fixtures/atendechat/schema.sql'), 'utf8'));
  psql(
    source.url,
    `set search_path to public;
    insert into "Plans" (id, name, users, connections, queues, value, "createdAt", "updatedAt") values (1, 'Plano 1', 10, 10, 10, 30, now(), now());
    insert into "Companies" (id, name, "planId", status, "createdAt", "updatedAt") values (1, 'Empresa 1', 1, true, now(), now());
    insert into "Users" (id, name, email, "passwordHash", profile, "tokenVersion", "companyId", super, "allTicket", "createdAt", "updatedAt")
      values (1, 'Admin', 'admin@admin.com', '$2a$08$WaEmpmFDD/XkDqorkpQ42eUZozOqRCPkPcTkmHHMyuTGUOkI8dHsq', 'admin', 0, 1, true, 'enabled', now(), now());
    insert into "Queues" (id, name, color, "companyId", "createdAt", "updatedAt") values (1, 'Suporte', '#FF0000', 1, now(), now());
    insert into "Whatsapps" (id, name, status, "isDefault", retries, "companyId", "createdAt", "updatedAt")
      select w, 'WhatsApp ' || w, 'CONNECTED', w = 1, 0, 1, now(), now() from generate_series(1, ${connections}) w;
    insert into "Contacts" (id, name, number, email, "isGroup", "companyId", "disableBot", "createdAt", "updatedAt")
      select i, 'Contato ' || i, '55119' || lpad(i::text, 8, '0'), '', false, 1, false, now(), now() from generate_series(1, ${contacts}) i;
    insert into "Tickets" (id, status, "lastMessage", "contactId", "userId", "whatsappId", "isGroup", "unreadMessages", "queueId", "companyId", uuid, "fromMe", "typebotStatus", "flowWebhook", "createdAt", "updatedAt")
      select i, 'closed', 'mensagem', 1 + (i % ${contacts}), 1, 1 + (i - 1) / ${contacts}, false, 0, 1, 1, uuid_generate_v4(), false, false, false, now() - interval '1 day', now() from generate_series(1, ${tickets}) i;
    insert into "Messages" (id, body, ack, read, "mediaType", "ticketId", "fromMe", "isDeleted", "isEdited", "contactId", "companyId", "remoteJid", "createdAt", "updatedAt")
      select '3EB0' || lpad(to_hex(i), 12, '0'), 'mensagem número ' || i || ' com algum texto de exemplo', 3, true, 'conversation',
        1 + (i % ${tickets}), i % 2 = 0, false, false, case when i % 2 = 0 then null else 1 + ((i % ${tickets}) % ${contacts}) end, 1,
        '55119' || lpad((1 + ((i % ${tickets}) % ${contacts}))::text, 8, '0') || '@s.whatsapp.net', now() - interval '1 day' + i * interval '1 millisecond', now()
      from generate_series(1, ${messages}) i;
    analyze;`,
  );
  const fillMs = performance.now() - filled;
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(target ? { DATABASE_URL: target.url } : { DATABASE_URL: '' }),
  };
  const started = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      'maxrss_kb=%M',
      process.execPath,
      '--import',
      'tsx',
      'apps/server/src/import/atendechat/cli.ts',
      '--from',
      source.url,
    ],
    { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 1e8 },
  );
  const wallMs = performance.now() - started;
  const rss = Number(/maxrss_kb=(\d+)/.exec(run.stderr)?.[1] ?? 0) / 1024;
  process.stdout.write(`${run.stdout}\n`);
  process.stdout.write(run.stderr);
  if (run.status !== 0) throw new Error(`import failed (${run.status}): ${run.stderr}`);
  const line = [
    `| ${values.target} | ${contacts.toLocaleString('en')} | ${tickets.toLocaleString('en')} | ${messages.toLocaleString('en')}`,
    `| ${(wallMs / 1000).toFixed(1)} s | ${Math.round(messages / (wallMs / 1000)).toLocaleString('en')} msg/s | ${rss.toFixed(0)} MB |`,
  ].join(' ');
  process.stdout.write(`\n${machine()}; source filled in ${(fillMs / 1000).toFixed(1)} s\n`);
  process.stdout.write(
    '| target | contacts | tickets | messages | import wall time | rate | peak RSS |\n|---|---|---|---|---|---|---|\n',
  );
  process.stdout.write(`${line}\n`);
} finally {
  source.drop();
  target?.drop();
  removeDir(dataDir);
}
