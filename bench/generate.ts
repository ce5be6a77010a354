import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import { pgliteExtensions } from '../apps/server/src/db/client';

/**
 * Inbox data generator: companies, users, queues, connections, contacts, tickets and messages, written
 * with set-based SQL (`insert … select … from generate_series`) so 100k tickets and 1M messages take
 * seconds, not minutes. Shared by the benchmarks and by tests: importing this file does nothing.
 *
 * Every constraint of the schema holds:
 * - one open/pending ticket at most per (company, connection, contact): ticket g of a company belongs to
 *   contact (g - 1) % contacts, and only the contact's first ticket (cycle 0) may be active; a contact
 *   always uses the same connection;
 * - message external ids are unique per connection (`GEN-{ticket}-{n}`), e-mails unique, names unique;
 * - indexes of the big tables are dropped before the load and recreated after it (which re-checks every
 *   unique index), foreign-key triggers are skipped during the load (`session_replication_role =
 *   replica`) and the references are verified afterwards with anti-joins (`verifyGenerated`).
 *
 * Distributions (per company): contacts = 60 % of its tickets; 12 % of tickets open, 7 % pending, the
 * rest closed; 10 % without a queue; open and closed tickets have an agent, pending ones none; half of
 * the active tickets have 1–9 unread messages; 1–19 messages a ticket (10 on average), alternating
 * customer/agent, texts made of a small Portuguese vocabulary. Every other contact has an e-mail (its name
 * without accents and its serial at one of four domains); each company has 12 tags (2 of them kanban lanes), three
 * tickets in four carry one and one in five a second. The first company holds half the tickets (it is the one
 * the benchmarks log into); the others share the rest.
 *
 * Long conversations (the conversation page's benchmark): the first `longContacts` contacts of each company
 * have a first ticket of `longMessages` messages, and the company's last `longContacts × longExtraTickets`
 * tickets (all closed, as later cycles are) go to them too, so their history spans several tickets.
 */

/** runs one SQL statement (a `pg` Client or a PGlite instance both fit) */
export type TExec = (sql: string) => Promise<{ rows: Record<string, unknown>[] }>;

export type TGenerateOptions = {
  companies: number;
  tickets: number;
  /** messages per ticket on average (1 … 2·avg−1, deterministic per ticket) */
  messagesPerTicket: number;
  agentsPerCompany: number;
  queuesPerCompany: number;
  connectionsPerCompany: number;
  /** password of every generated user */
  password: string;
  /** prefix of names and e-mails, so several generations can share one database */
  label: string;
  /** contacts per company whose first ticket holds `longMessages` messages */
  longContacts: number;
  longMessages: number;
  /** closed tickets each long contact has besides its first one (taken from the company's last tickets) */
  longExtraTickets: number;
  log?: (line: string) => void;
};

export const DEFAULT_GENERATE: TGenerateOptions = {
  companies: 4,
  tickets: 100_000,
  messagesPerTicket: 10,
  agentsPerCompany: 20,
  queuesPerCompany: 4,
  connectionsPerCompany: 3,
  password: 'Bench-Pass-1',
  label: 'gen',
  longContacts: 4,
  longMessages: 200,
  longExtraTickets: 6,
};

/** the common word of the vocabulary (in ~1 message of 8) and the rare one (in 1 message of 50,000) */
export const COMMON_WORD = 'pedido';
export const RARE_WORD = 'xilogravura';

const VOCABULARY = [
  'olá',
  'bom',
  'dia',
  'boa',
  'tarde',
  'noite',
  'obrigado',
  'obrigada',
  'por',
  'favor',
  COMMON_WORD,
  'entrega',
  'produto',
  'troca',
  'devolução',
  'pagamento',
  'boleto',
  'cartão',
  'pix',
  'nota',
  'fiscal',
  'prazo',
  'atraso',
  'endereço',
  'cancelar',
  'quero',
  'preciso',
  'ajuda',
  'atendimento',
  'suporte',
  'valor',
  'desconto',
  'frete',
  'grátis',
  'amanhã',
  'hoje',
  'semana',
  'chegou',
  'ainda',
  'não',
  'sim',
  'certo',
  'claro',
  'aguardo',
  'retorno',
  'protocolo',
  'número',
  'cliente',
  'cadastro',
  'senha',
  'acesso',
  'conta',
  'problema',
  'resolvido',
  'tamanho',
  'cor',
  'estoque',
  'loja',
  'site',
  'aplicativo',
  'rastreio',
  'código',
  'transportadora',
  'reembolso',
];
const FIRST_NAMES = ['Ana', 'Bruno', 'Carla', 'Diego', 'Eduarda', 'Fábio', 'Gabriela', 'Heitor', 'Isabela', 'João'];
const LAST_NAMES = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Lima', 'Pereira', 'Costa', 'Ferreira', 'Almeida'];
/** every other contact has an e-mail at one of these */
const MAIL_DOMAINS = ['gmail.com', 'hotmail.com', 'yahoo.com.br', 'empresa.com.br'];
/** the company's tags (the first two are kanban lanes) */
const TAG_NAMES = [
  'Cliente VIP',
  'Reclamação',
  'Troca',
  'Orçamento',
  'Urgente',
  'Atacado',
  'Varejo',
  'Primeira compra',
  'Retorno',
  'Aguardando pagamento',
  'Entrega',
  'Pós-venda',
];
const SENTENCES = 4000;

const lit = (value: string) => `'${value.replaceAll("'", "''")}'`;
const arr = (values: string[]) => `(array[${values.map(lit).join(',')}]::text[])`;
const ints = (values: number[]) => `(array[${values.join(',')}]::int[])`;

export type TGeneratedCompany = {
  id: number;
  name: string;
  admin: { id: number; email: string };
  agents: { id: number; email: string; queueIds: number[] }[];
  queueIds: number[];
  connectionIds: number[];
  tagIds: number[];
  tickets: number;
  /** the tickets of `longMessages` messages, each the first one of a contact with several tickets */
  longTicketIds: number[];
};

export type TGenerated = {
  companies: TGeneratedCompany[];
  tickets: number;
  messages: number;
  contacts: number;
  /** wall time of each step, ms */
  steps: Record<string, number>;
};

/** indexes of a table except its primary key, with their definitions (to drop and recreate) */
const secondaryIndexes = async (exec: TExec, table: string) =>
  (
    await exec(
      `select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = ${lit(table)} and indexname not like '%_pkey'`,
    )
  ).rows as { indexname: string; indexdef: string }[];

const returningIds = async (exec: TExec, sql: string) => (await exec(sql)).rows.map((r) => Number(r.id));

/** Fills the database (already migrated) with generated inbox data. */
export const generateInbox = async (exec: TExec, options: Partial<TGenerateOptions> = {}): Promise<TGenerated> => {
  const o = { ...DEFAULT_GENERATE, ...options };
  const log = o.log ?? (() => undefined);
  const steps: Record<string, number> = {};
  const step = async <T>(name: string, work: () => Promise<T>) => {
    const t0 = performance.now();
    const result = await work();
    steps[name] = Math.round(performance.now() - t0);
    log(`  generate: ${name} ${steps[name]} ms`);
    return result;
  };
  const hash = bcrypt.hashSync(o.password, 10);
  const planId = Number((await exec('select min(id) as id from plans')).rows[0]?.id) || null;

  // ---- small tables, row by row is fine (tens of rows)
  const shares = Array.from({ length: o.companies }, (_, i) =>
    o.companies === 1
      ? o.tickets
      : i === 0
        ? Math.round(o.tickets / 2)
        : Math.floor(o.tickets / 2 / (o.companies - 1)) +
          (i <= (o.tickets - Math.round(o.tickets / 2)) % (o.companies - 1) ? 1 : 0),
  );
  const companies: TGeneratedCompany[] = await step('companies, users, queues, connections', async () => {
    const list: TGeneratedCompany[] = [];
    for (let c = 0; c < o.companies; c++) {
      const name = `${o.label} empresa ${c + 1}`.slice(0, 50);
      const [companyId] = await returningIds(
        exec,
        `insert into companies (name, email, plan_id) values (${lit(name)}, ${lit(`${o.label}-${c + 1}@zelo.test`)}, ${planId ?? 'null'}) returning id`,
      );
      const queueIds = await returningIds(
        exec,
        `insert into queues (company_id, name, color) select ${companyId}, ${arr(['Vendas', 'Suporte', 'Financeiro', 'Trocas', 'Logística', 'Pós-venda'])}[1 + (g - 1) % 6] || case when g > 6 then ' ' || g else '' end, ${arr(['#1e88e5', '#43a047', '#fb8c00', '#8e24aa', '#e53935', '#00897b'])}[1 + (g - 1) % 6] from generate_series(1, ${o.queuesPerCompany}) g returning id`,
      );
      const connectionIds = await returningIds(
        exec,
        `insert into whatsapps (company_id, name, provider, status, is_default) select ${companyId}, 'Canal ' || g, 'sandbox', 'DISCONNECTED', g = 1 from generate_series(1, ${o.connectionsPerCompany}) g returning id`,
      );
      const tagIds = await returningIds(
        exec,
        `insert into tags (company_id, name, color, kanban) select ${companyId}, (${arr(TAG_NAMES)})[g], '#A4CCCC', case when g <= 2 then 1 else 0 end from generate_series(1, ${TAG_NAMES.length}) g order by g returning id`,
      );
      const adminEmail = `${o.label}-admin-${c + 1}@zelo.test`;
      const [adminId] = await returningIds(
        exec,
        `insert into users (company_id, name, email, password_hash, profile) values (${companyId}, 'Admin ${c + 1}', ${lit(adminEmail)}, ${lit(hash)}, 'admin') returning id`,
      );
      const agentIds = await returningIds(
        exec,
        `insert into users (company_id, name, email, password_hash, profile) select ${companyId}, ${arr(FIRST_NAMES)}[1 + g % ${FIRST_NAMES.length}] || ' ' || g, ${lit(`${o.label}-agent-${c + 1}-`)} || g || '@zelo.test', ${lit(hash)}, 'user' from generate_series(1, ${o.agentsPerCompany}) g order by g returning id`,
      );
      // each agent in one or two queues (the second one for every other agent)
      const agents = agentIds.map((id, i) => ({
        id,
        email: `${o.label}-agent-${c + 1}-${i + 1}@zelo.test`,
        queueIds: [
          ...new Set([queueIds[i % queueIds.length], ...(i % 2 === 0 ? [queueIds[(i + 1) % queueIds.length]] : [])]),
        ],
      }));
      const pairs = agents.flatMap((a) => a.queueIds.map((q) => `(${companyId}, ${a.id}, ${q})`));
      if (pairs.length) await exec(`insert into user_queues (company_id, user_id, queue_id) values ${pairs.join(',')}`);
      list.push({
        id: companyId,
        name,
        admin: { id: adminId, email: adminEmail },
        agents,
        queueIds,
        connectionIds,
        tagIds,
        tickets: shares[c],
        longTicketIds: [],
      });
    }
    return list;
  });

  // ---- the sentences messages are made of (3–10 words each)
  await step('sentences', async () => {
    await exec('drop table if exists bench_sentences');
    await exec(
      `create temporary table bench_sentences as select k, (select string_agg((${arr(VOCABULARY)})[1 + floor(random() * ${VOCABULARY.length})::int], ' ') from generate_series(1, 3 + (k * 7) % 8) where k >= 0) as body from generate_series(0, ${SENTENCES - 1}) k`,
    );
    await exec('create unique index on bench_sentences (k)');
  });

  const tables = ['contacts', 'tickets', 'messages'];
  const dropped = await step('drop indexes', async () => {
    const all: { indexname: string; indexdef: string }[] = [];
    for (const table of [...tables, 'ticket_search']) {
      for (const index of await secondaryIndexes(exec, table)) {
        await exec(`drop index ${index.indexname}`);
        all.push(index);
      }
    }
    return all;
  });

  const max = async (table: string) =>
    Number((await exec(`select coalesce(max(id), 0) as id from ${table}`)).rows[0].id) || 0;
  let contactBase = await max('contacts');
  let contactsMade = 0;
  let ticketBase = await max('tickets');
  await exec('set session_replication_role = replica');
  const firstTicket = ticketBase + 1;
  try {
    for (const [c, company] of companies.entries()) {
      const nTickets = company.tickets;
      const nContacts = Math.max(1, Math.ceil(nTickets * 0.6));
      const conns = ints(company.connectionIds);
      const queues = ints(company.queueIds);
      const agents = ints(company.agents.map((a) => a.id));
      const nConn = company.connectionIds.length;
      const cb = contactBase;
      const tb = ticketBase;
      const maxMessages = 2 * o.messagesPerTicket - 1;
      const long = Math.min(o.longContacts, nContacts);
      // the long contacts' later tickets are the company's last ones, past every contact's first cycle
      const extra = long > 0 && nTickets - long * o.longExtraTickets >= nContacts ? long * o.longExtraTickets : 0;
      const contactOf = (g: string) =>
        extra
          ? `case when ${g} > ${nTickets - extra} then 1 + (${nTickets} - ${g}) % ${long} else 1 + (${g} - 1) % ${nContacts} end`
          : `1 + (${g} - 1) % ${nContacts}`;
      await step(`contacts of company ${c + 1} (${nContacts})`, () =>
        exec(
          `insert into contacts (id, company_id, name, number, email, whatsapp_id, created_at, updated_at)
           select ${cb} + g, ${company.id}, f || ' ' || l || ' ' || g, (5511000000000 + ${c + 1} * 100000000 + g)::text,
                  case when g % 2 = 0 then translate(lower(f || '.' || l), 'áãéíóú', 'aaeiou') || g || '@' || ${arr(MAIL_DOMAINS)}[1 + (g / 2) % ${MAIL_DOMAINS.length}] else '' end,
                  (${conns})[1 + g % ${nConn}], now() - interval '200 days', now() - interval '200 days'
           from (select g, ${arr(FIRST_NAMES)}[1 + g % ${FIRST_NAMES.length}] as f,
                        ${arr(LAST_NAMES)}[1 + (g / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}] as l
                 from generate_series(1, ${nContacts}) g) n`,
        ),
      );
      // n(g) messages for ticket g; the ticket's last message is sentence (id*31 + n*17) % SENTENCES
      const nOf = (id: string) =>
        `(case when ${id} <= ${tb + long} then ${o.longMessages} else 1 + (${id} * 7) % ${maxMessages} end)`;
      await step(`tickets of company ${c + 1} (${nTickets})`, () =>
        exec(
          `insert into tickets (id, company_id, status, unread_messages, last_message, last_message_at, contact_id,
                                whatsapp_id, user_id, queue_id, from_me, created_at, updated_at, closed_at)
           select t.id, ${company.id}, t.status,
                  case when t.status <> 'closed' and t.r5 < 0.5 then 1 + floor(t.r5 * 18)::int else 0 end,
                  s.body, t.updated_at, ${cb} + t.ci, (${conns})[1 + t.ci % ${nConn}],
                  case when t.status = 'pending' then null else (${agents})[1 + floor(t.r2 * ${company.agents.length})::int] end,
                  case when t.r4 < 0.1 then null else (${queues})[1 + floor(t.r4 * 1000)::int % ${company.queueIds.length}] end,
                  ${nOf('t.id')} % 2 = 0, t.updated_at - ${nOf('t.id')} * interval '3 minutes', t.updated_at,
                  case when t.status = 'closed' then t.updated_at end
           from (select g, ${tb} + g as id, ${contactOf('g')} as ci,
                        case when (g - 1) / ${nContacts} > 0 then 'closed' when r1 < 0.2 then 'open' when r1 < 0.315 then 'pending' else 'closed' end as status,
                        r2, r4, r5,
                        now() - case when (g - 1) / ${nContacts} = 0 and r1 < 0.315 then r3 * interval '3 days' else r3 * interval '180 days' end as updated_at
                 from (select g, random() r1, random() r2, random() r3, random() r4, random() r5 from generate_series(1, ${nTickets}) g) x) t
           join bench_sentences s on s.k = (t.id * 31 + ${nOf('t.id')} * 17) % ${SENTENCES}`,
        ),
      );
      // three tickets in four carry a tag, one in five a second one
      const tags = ints(company.tagIds);
      const nTags = company.tagIds.length;
      await step(`ticket tags of company ${c + 1}`, () =>
        exec(
          `insert into ticket_tags (company_id, ticket_id, tag_id)
           select ${company.id}, t.id, (${tags})[1 + (t.id + k * 5) % ${nTags}]
           from generate_series(${tb + 1}, ${tb + nTickets}) t(id) cross join (values (0), (1)) k(k)
           where (k = 0 and t.id % 4 <> 0) or (k = 1 and t.id % 5 = 0)`,
        ),
      );
      await step(`messages of company ${c + 1}`, () =>
        exec(
          `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, external_id, user_id, source, body,
                                 from_me, read, ack, created_at, updated_at)
           select ${company.id}, t.id, t.contact_id, t.whatsapp_id, 'GEN-' || t.id || '-' || n,
                  case when n % 2 = 0 then t.user_id end, case when n % 2 = 0 then 'agent' else 'customer' end,
                  case when (t.id * 131 + n) % 50000 = 0 then s.body || ' ${RARE_WORD}' else s.body end,
                  n % 2 = 0, n <= ${nOf('t.id')} - t.unread_messages, case when n % 2 = 0 then 4 else 3 end,
                  t.created_at + n * interval '3 minutes', t.created_at + n * interval '3 minutes'
           from tickets t
           cross join lateral generate_series(1, ${nOf('t.id')}) n
           join bench_sentences s on s.k = (t.id * 31 + n * 17) % ${SENTENCES}
           where t.id between ${tb + 1} and ${tb + nTickets}`,
        ),
      );
      company.longTicketIds = Array.from({ length: long }, (_, i) => tb + 1 + i);
      contactBase += nContacts;
      contactsMade += nContacts;
      ticketBase += nTickets;
    }
  } finally {
    await exec('set session_replication_role = origin');
  }
  // the counts the triggers keep (migration 0025) for the rows loaded with the triggers off
  await step('contact and tag counts', () => exec('select contact_and_tag_counts_rebuild()'));
  await step('sequences', async () => {
    for (const table of tables) {
      await exec(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
    }
  });
  await step('search words', () =>
    exec(
      `insert into ticket_search (ticket_id, company_id, words)
       select t.id, t.company_id, strip(to_tsvector('simple', c.name || ' ' || c.number || ' ' || right(c.number, 8)
                || ' ' || right(c.number, 9) || ' ' || right(c.number, 10) || ' ' || right(c.number, 11) || ' ' || m.body))
       from (select ticket_id, string_agg(body, ' ') as body from messages where ticket_id >= ${firstTicket}
             group by ticket_id) m
       join tickets t on t.id = m.ticket_id join contacts c on c.id = t.contact_id`,
    ),
  );
  // one attendance cycle a ticket, finished for closed ones, as the pipeline and the transitions keep them; their
  // attendance metrics are left to the server's backfill (as for a history written before migration 0018)
  await step('attendance cycles', () =>
    exec(
      `insert into ticket_trackings (company_id, ticket_id, whatsapp_id, user_id, queue_id, queued_at, started_at,
                                     finished_at, created_at, updated_at, metrics_backfill)
       select company_id, id, whatsapp_id, user_id, queue_id, created_at, case when user_id is not null then created_at end,
              closed_at, created_at, updated_at, true
       from tickets where id >= ${firstTicket}`,
    ),
  );
  await step('recreate indexes', async () => {
    for (const index of dropped) await exec(index.indexdef);
  });
  // counts kept by triggers (migration 0017), which the replica role skipped during the load
  await step('kept counts', async () => {
    const rebuild = (await exec("select to_regproc('list_counts_rebuild') is not null as ok")).rows[0]?.ok;
    if (rebuild) await exec('select list_counts_rebuild()');
  });
  await step('analyze', () =>
    exec(`vacuum analyze ${[...tables, 'ticket_search', 'ticket_trackings', 'ticket_tags', 'tags'].join(', ')}`),
  );
  await exec('drop table if exists bench_sentences');

  const counts = (
    await exec(
      `select (select count(*) from tickets where id >= ${firstTicket}) as tickets,
              (select count(*) from messages m where m.ticket_id >= ${firstTicket}) as messages`,
    )
  ).rows[0];

  return {
    companies,
    tickets: Number(counts.tickets),
    messages: Number(counts.messages),
    contacts: contactsMade,
    steps,
  };
};

/**
 * The references the load skipped (foreign-key triggers off), checked with anti-joins; answers the
 * number of broken rows per check (all zero when the data is sound).
 */
export const verifyGenerated = async (exec: TExec) => {
  const checks: Record<string, string> = {
    'tickets→contacts':
      'select count(*) as n from tickets t where not exists (select 1 from contacts c where c.id = t.contact_id and c.company_id = t.company_id)',
    'tickets→whatsapps':
      'select count(*) as n from tickets t where t.whatsapp_id is not null and not exists (select 1 from whatsapps w where w.id = t.whatsapp_id and w.company_id = t.company_id)',
    'tickets→users':
      'select count(*) as n from tickets t where t.user_id is not null and not exists (select 1 from users u where u.id = t.user_id and u.company_id = t.company_id)',
    'tickets→queues':
      'select count(*) as n from tickets t where t.queue_id is not null and not exists (select 1 from queues q where q.id = t.queue_id and q.company_id = t.company_id)',
    'messages→tickets':
      'select count(*) as n from messages m where not exists (select 1 from tickets t where t.id = m.ticket_id and t.company_id = m.company_id)',
    'contacts→whatsapps':
      'select count(*) as n from contacts c where c.whatsapp_id is not null and not exists (select 1 from whatsapps w where w.id = c.whatsapp_id)',
    'active tickets per contact/connection > 1':
      "select count(*) as n from (select 1 from tickets where status in ('open', 'pending') group by company_id, whatsapp_id, contact_id having count(*) > 1) x",
  };
  const broken: Record<string, number> = {};
  for (const [name, sql] of Object.entries(checks)) broken[name] = Number((await exec(sql)).rows[0].n);

  return broken;
};

/** An executor over a `pg` connection string; `close` ends it. */
export const pgExec = async (url: string) => {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const exec: TExec = async (sql) => ({ rows: (await client.query(sql)).rows });

  return { exec, close: () => client.end() };
};

/** An executor over a PGlite data directory (the server must not have it open). */
export const pgliteExec = async (dataDir: string) => {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create({ dataDir, extensions: await pgliteExtensions() });
  const exec: TExec = async (sql) => ({ rows: (await db.query<Record<string, unknown>>(sql)).rows });

  return { exec, close: () => db.close() };
};
