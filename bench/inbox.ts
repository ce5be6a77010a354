import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { conversationLoads } from './conversation';
import {
  COMMON_WORD,
  DEFAULT_GENERATE,
  generateInbox,
  pgExec,
  pgliteExec,
  RARE_WORD,
  type TGenerated,
  verifyGenerated,
} from './generate';
import { copyTemplate, inboxCacheOn, inboxTemplateName, saveTemplate, templateExists } from './inbox-cache';
import {
  agent,
  closedLoop,
  loadMeter,
  measureWindow,
  cpuTimeMs,
  createPgDatabase,
  fmt,
  json,
  pacedLoop,
  removeDir,
  request,
  startServer,
  stats,
  tempDir,
} from './lib';

export type TInboxOptions = {
  tickets: number;
  messagesPerTicket: number;
  seconds: number;
  warmupSeconds: number;
  /** concurrent agents of the list benchmarks */
  concurrency: number;
  /** inbound requests in flight at once */
  inboundConcurrency: number;
  /** distinct customers the inbound messages come from */
  customers: number;
  /** the paced (open-loop) runs: list requests and inbound messages per second (each rate a run) */
  pacedListRate: number;
  pacedInboundRates: number[];
  /** closed-loop lists are also run while customers write this many messages a second (each rate a run) */
  listWritingRates: number[];
  /**
   * `conversation`: the conversation page, and the lists while customers write; `lists`: the 20 agents' open and
   * pending lists while customers write into the company's open and pending tickets; nothing else
   */
  only?: 'conversation' | 'lists';
};

export type TInboxLatency = {
  database: 'PGlite' | 'PostgreSQL';
  what: string;
  /** closed loop: `clients` each waiting for its answer; paced: `rate` requests/s started regardless */
  load: string;
  clients: number;
  seconds: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  p95TargetMs?: number;
  /** CPU time (user + system) of the server process per answered request, ms: less sensitive to a busy machine */
  serverCpuMs?: number;
  /** the machine's time over the measured seconds: this process, the server, PostgreSQL, the rest, idle (lib.ts) */
  machine?: string;
  /** p99 of how late this process's event loop ran (ms): the load generator's own share of the latencies */
  benchLoopP99?: number;
};

export type TInboxThroughput = {
  database: 'PGlite' | 'PostgreSQL';
  /** how the messages were sent: `N in flight` (closed loop) or `N msg/s paced` */
  load: string;
  inFlight: number;
  customers: number;
  seconds: number;
  sent: number;
  errors: number;
  /** API answers per second */
  perSecond: number;
  /** appMessage create events seen on the admin socket for the measured messages */
  events: number;
  missing: number;
  delivery: { p50: number; p95: number; p99: number; max: number };
  targetPerSecond: number;
  deliveryP95TargetMs: number;
};

export type TInboxResult = {
  database: 'PGlite' | 'PostgreSQL';
  data: Pick<TGenerated, 'tickets' | 'messages' | 'contacts' | 'steps'> & { generateMs: number };
  inbound: TInboxThroughput[];
  lists: TInboxLatency[];
  /** GET /api/messages/:ticketId page 1 (bench/conversation.ts) */
  conversation: TInboxLatency[];
};

export const INBOX_DEFAULTS: TInboxOptions = {
  tickets: 100_000,
  messagesPerTicket: 10,
  seconds: 10,
  warmupSeconds: 2,
  concurrency: 20,
  // the deliveries a channel has open at once: at 1,500 msg/s answered in ~150 ms, Little's law gives ~225
  inboundConcurrency: 256,
  customers: 2000,
  pacedListRate: 40,
  // a normal day (the delivery target is judged here) and the throughput target as a steady arrival rate
  pacedInboundRates: [50, 1500],
  listWritingRates: [5, 50],
};

const login = async (url: string, email: string, password: string) =>
  (await json(url, { method: 'POST', path: '/api/auth/login', body: { email, password } })).token as string;

const until = async (check: () => Promise<boolean>, timeoutMs: number, what: string) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** a new sandbox connection of the company, scanned and CONNECTED */
const pairedSandbox = async (url: string, token: string) => {
  const created = await json(
    url,
    { method: 'POST', path: '/api/whatsapp', token, body: { name: `Bench ${randomBytes(3).toString('hex')}` } },
    201,
  );
  const id = created.id as number;
  const status = async () => (await json(url, { method: 'GET', path: `/api/whatsapp/${id}`, token })).status as string;
  await until(async () => (await status()) === 'qrcode', 20_000, 'the sandbox QR code');
  await json(url, { method: 'POST', path: `/api/sandbox/${id}/scan`, token, body: {} });
  await until(async () => (await status()) === 'CONNECTED', 20_000, 'the sandbox connection');

  return id;
};

/** an admin socket that joined the notification and ticket rooms, as the web does */
const adminSocket = async (url: string, token: string) => {
  const socket: Socket = io(url, { path: '/socket.io', transports: ['websocket'], auth: { token } });
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('socket not ready')), 10_000);
    socket.once('ready', () => {
      clearTimeout(timer);
      done();
    });
    socket.once('connect_error', (err) => {
      clearTimeout(timer);
      fail(err);
    });
  });
  socket.emit('joinNotification');
  for (const status of ['open', 'pending']) socket.emit('joinTickets', status);
  await new Promise((r) => setTimeout(r, 200));

  return socket;
};

/**
 * Inbound messages from `customers` distinct numbers, `inFlight` API calls at a time, for `seconds`
 * (after a warm-up); each body carries its sequence number, so the `appMessage` create event on the admin
 * socket is matched to the call that caused it.
 */
export const inboundLoad = async (
  database: TInboxResult['database'],
  url: string,
  token: string,
  companyId: number,
  opts: TInboxOptions,
  /** messages per second started regardless of answers (open loop); else `inboundConcurrency` in flight */
  pace?: number,
  /** a paired sandbox connection to write through (else a new one: the plan allows 10 per company) */
  through?: number,
  /** customers who write on their active ticket, each through its ticket's connection (instead of `customers`) */
  targets?: TWriteTarget[],
): Promise<TInboxThroughput> => {
  const connectionId = targets?.length ? 0 : (through ?? (await pairedSandbox(url, token)));
  const socket = await adminSocket(url, token);
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let events = 0;
  socket.on(`company-${companyId}-appMessage`, (payload: { action: string; message?: { body?: string } }) => {
    if (payload.action !== 'create') return;
    const match = /^bench (\d+) /.exec(payload.message?.body ?? '');
    if (!match) return;
    const seq = Number(match[1]);
    const t0 = sentAt.get(seq);
    if (t0 === undefined) return;
    sentAt.delete(seq);
    events++;
    latencies.push(performance.now() - t0);
  });

  const keepAlive = agent(opts.inboundConcurrency);
  const prefix = `55219${randomBytes(2).readUInt16BE(0) % 90}`;
  let seq = 0;
  let sent = 0;
  let errors = 0;
  /** one customer message; `counted` ones are timed until their realtime event */
  const sendOne = async (counted: boolean) => {
    const n = seq++;
    const customer = n % opts.customers;
    const target = targets?.length ? targets[n % targets.length] : undefined;
    if (counted) sentAt.set(n, performance.now());
    let ok = false;
    try {
      const res = await request(url, {
        method: 'POST',
        path: `/api/sandbox/${target?.connectionId ?? connectionId}/inbound`,
        token,
        agent: keepAlive,
        body: {
          from: target?.number ?? `${prefix}${String(customer).padStart(6, '0')}`,
          name: `Cliente ${customer}`,
          type: 'text',
          body: `bench ${n} olá, sobre o meu ${COMMON_WORD} de ontem`,
        },
      });
      ok = res.status === 200;
    } catch {
      ok = false;
    }
    if (!counted) return;
    if (ok) sent++;
    else {
      errors++;
      sentAt.delete(n);
    }
  };

  let elapsed: number;
  if (pace) {
    elapsed = await pacedLoop({ rate: pace, seconds: opts.seconds, warmupSeconds: opts.warmupSeconds, fire: sendOne });
  } else {
    const window = measureWindow(opts.warmupSeconds, opts.seconds);
    const worker = async () => {
      while (performance.now() < window.stopAt && seq < 200_000) await sendOne(window.counting);
    };
    await Promise.all(Array.from({ length: opts.inboundConcurrency }, () => worker()));
    elapsed = window.end();
  }
  // the last events may still be on their way
  const end = Date.now() + 5000;
  while (sentAt.size > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  keepAlive.destroy();
  socket.close();

  return {
    database,
    load: pace ? `${pace} msg/s paced` : `${opts.inboundConcurrency} in flight`,
    inFlight: opts.inboundConcurrency,
    customers: opts.customers,
    seconds: elapsed,
    sent,
    errors,
    perSecond: sent / elapsed,
    events,
    missing: sentAt.size,
    delivery: stats(latencies),
    // the throughput target is judged on the closed loop, the delivery target at the normal-day rate
    targetPerSecond: pace ? Number.NaN : 1500,
    deliveryP95TargetMs: pace && pace <= 100 ? 50 : Number.NaN,
  };
};

/** customers of the company writing `rate` messages a second for a run, through one paired connection */
export type TWriter = (rate: number) => Promise<TInboxThroughput>;

/** a customer with an open or pending ticket, and the connection of that ticket */
export type TWriteTarget = { connectionId: number; number: string };

const writerOf = (
  database: TInboxResult['database'],
  url: string,
  admin: string,
  companyId: number,
  opts: TInboxOptions,
  /** customers writing on their active tickets (else new customers through a new connection) */
  targets?: TWriteTarget[],
) => {
  let connection: number | undefined;
  const writer: TWriter = async (rate) => {
    if (targets) return inboundLoad(database, url, admin, companyId, opts, rate, undefined, targets);
    connection ??= await pairedSandbox(url, admin);

    return inboundLoad(database, url, admin, companyId, opts, rate, connection);
  };

  return writer;
};

/** the generated connections of the company, connected (the sandbox's scan) */
const connectGenerated = async (url: string, token: string, connectionIds: number[]) => {
  for (const id of connectionIds) {
    const status = async () =>
      (await json(url, { method: 'GET', path: `/api/whatsapp/${id}`, token })).status as string;
    if ((await status()) === 'CONNECTED') continue;
    await request(url, { method: 'POST', path: `/api/whatsappsession/${id}`, token });
    await until(async () => (await status()) === 'qrcode', 20_000, 'the sandbox QR code');
    await json(url, { method: 'POST', path: `/api/sandbox/${id}/scan`, token, body: {} });
    await until(async () => (await status()) === 'CONNECTED', 20_000, 'the sandbox connection');
  }
};

/**
 * The company's customers with an open or pending ticket (read from the database), in a fixed shuffled order,
 * after their connections are connected: writing to them touches the agents' own tickets and their queues'
 * pending ones, as a busy day does.
 */
const activeCustomers = async (
  url: string,
  token: string,
  databaseUrl: string,
  company: { id: number; connectionIds: number[] },
): Promise<TWriteTarget[]> => {
  await connectGenerated(url, token, company.connectionIds);
  const rows = execFileSync(
    'psql',
    [
      databaseUrl,
      '-qtAc',
      `select t.whatsapp_id || ' ' || c.number from tickets t join contacts c on c.id = t.contact_id
       where t.company_id = ${company.id} and t.status in ('open', 'pending') and not t.is_group
       order by hashint4(t.id)`,
    ],
    { encoding: 'utf8' },
  )
    .split('\n')
    .filter(Boolean);

  return rows.map((line) => {
    const [connectionId, number] = line.split(' ');
    return { connectionId: Number(connectionId), number };
  });
};

const listLoads = async (
  database: TInboxResult['database'],
  url: string,
  tokens: { admin: string; agents: { token: string; queueIds: number[] }[] },
  opts: TInboxOptions,
  writer: TWriter,
  /** only the lists read while customers write */
  writingOnly = false,
  /** the server process (its CPU time per request, the machine's time) */
  serverPid?: number,
) => {
  const results: TInboxLatency[] = [];
  /** `writing`: customers of the company write this many messages a second meanwhile (each one a change) */
  type TListLoad = (
    what: string,
    target: number,
    path: (client: number) => string,
    token: (client: number) => string,
    writing?: number,
  ) => Promise<void>;
  const run: TListLoad = async (what, target, path, token, writing) => {
    const load = writing ? `closed loop, ${writing} msg/s arriving` : 'closed loop';
    console.log(`  ${database}: ${what}, ${opts.concurrency} clients, ${load}, ${opts.seconds} s`);
    // what one client's first answer holds, so a row shows the lists were answered in full (rows / count)
    const probe = (await json(url, { method: 'GET', path: path(0), token: token(0) })) as {
      tickets: unknown[];
      count: number;
    };
    const writes = writing ? writer(writing) : undefined;
    // the server's CPU and the machine's time over the measured seconds (the warm-up takes the JIT's compiling)
    let sent = 0;
    let warmSent = 0;
    const meter = loadMeter(serverPid);
    const warmed = setTimeout(() => {
      warmSent = sent;
      meter.start();
    }, opts.warmupSeconds * 1000);
    const r = await closedLoop({
      clients: opts.concurrency,
      seconds: opts.seconds,
      warmupSeconds: opts.warmupSeconds,
      maxRequests: 500_000,
      send: async (client, keepAlive) => {
        sent++;
        return (
          await request(url, {
            method: 'GET',
            path: path(client),
            token: token(client),
            agent: keepAlive,
            discardBody: true,
          })
        ).status;
      },
    });
    clearTimeout(warmed);
    const { serverCpuMs, machine, benchLoopP99 } = meter.finish();
    // what the customers' side achieved meanwhile (answered messages a second, their delivery to a socket)
    const wrote = await writes;
    const arriving = wrote
      ? `${load} (${fmt(wrote.perSecond, 0)} answered/s, delivery p95 ${fmt(wrote.delivery.p95, 0)} ms)`
      : load;
    results.push({
      database,
      what: `${what} (client 1's first answer: ${probe.tickets.length} rows of ${probe.count})`,
      load: arriving,
      clients: opts.concurrency,
      ...r,
      p95TargetMs: target,
      serverCpuMs: serverCpuMs / Math.max(1, sent - warmSent),
      machine,
      benchLoopP99,
    });
  };
  /** the same request paced: `pacedListRate` per second from the 20 clients in turn, answered or not */
  const paced: TListLoad = async (what, target, path, token, writing) => {
    const rate = opts.pacedListRate;
    const load = writing ? `${rate} req/s paced, ${writing} msg/s arriving` : `${rate} req/s paced`;
    console.log(`  ${database}: ${what}, ${load}, ${opts.seconds} s`);
    const writes = writing ? writer(writing) : undefined;
    const keepAlive = agent(opts.concurrency);
    const latencies: number[] = [];
    let errors = 0;
    let client = 0;
    const seconds = await pacedLoop({
      rate,
      seconds: opts.seconds,
      warmupSeconds: opts.warmupSeconds,
      fire: async (counted) => {
        const c = client++ % opts.concurrency;
        const t0 = performance.now();
        const res = await request(url, {
          method: 'GET',
          path: path(c),
          token: token(c),
          agent: keepAlive,
          discardBody: true,
        });
        if (!counted) return;
        if (res.status === 200) latencies.push(performance.now() - t0);
        else errors++;
      },
    });
    keepAlive.destroy();
    await writes;
    results.push({
      database,
      what,
      load,
      clients: opts.concurrency,
      requests: latencies.length,
      errors,
      seconds,
      rps: latencies.length / seconds,
      ...stats(latencies),
      p95TargetMs: target,
    });
  };
  const admin = () => tokens.admin;
  const base = '/api/tickets?pageNumber=1&status=open&showAll=true';
  const agentToken = (c: number) => tokens.agents[c % tokens.agents.length].token;
  const agentList = (status: string) => (c: number) =>
    `/api/tickets?pageNumber=1&status=${status}&queueIds=${encodeURIComponent(JSON.stringify(tokens.agents[c % tokens.agents.length].queueIds))}`;
  const agentOpen = 'agent (non-admin, 1–2 queues): status=open, queueIds';
  const busiest = Math.max(...opts.listWritingRates);
  if (opts.only === 'lists') {
    // 20 distinct agents, each asking for its open then its pending list in turn, while customers write on
    // the company's open and pending tickets (targets ≤ 10 ms at 50 msg/s, ≤ 25 ms at 200 msg/s)
    const turns = new Map<number, number>();
    const both = (c: number) => {
      const turn = turns.get(c) ?? 0;
      turns.set(c, turn + 1);
      return agentList(turn % 2 === 0 ? 'open' : 'pending')(c);
    };
    const what = '20 agents (non-admin, 1–2 queues): status=open and status=pending in turn, queueIds';
    await run(what, 10, both, agentToken);
    for (const rate of opts.listWritingRates) await run(what, rate <= 50 ? 10 : 25, both, agentToken, rate);

    return results;
  }
  if (writingOnly) {
    // 20 agents listing while the busiest rate of customer messages arrives (each one a change)
    await run('admin: status=open, showAll=true', 15, () => base, admin, busiest);
    await run(agentOpen, 15, agentList('open'), agentToken, busiest);

    return results;
  }
  await run('admin: status=open, showAll=true', 15, () => base, admin);
  await run(agentOpen, 15, agentList('open'), agentToken);
  await run('agent (non-admin): status=pending, queueIds', 15, agentList('pending'), agentToken);
  await run(
    `admin: search "${COMMON_WORD}" (common), status=open`,
    50,
    () => `${base}&searchParam=${COMMON_WORD}`,
    admin,
  );
  await run(`admin: search "${RARE_WORD}" (rare), status=open`, 50, () => `${base}&searchParam=${RARE_WORD}`, admin);
  await run(
    `admin: search "${COMMON_WORD}" (common), all statuses`,
    50,
    () => `/api/tickets?pageNumber=1&showAll=true&searchParam=${COMMON_WORD}`,
    admin,
  );
  // the same lists while a busy company's customers write: every message is a change that makes the
  // company's kept answers stale (modules/tickets/list-answers.ts), so these read the database again
  for (const rate of opts.listWritingRates) {
    await run('admin: status=open, showAll=true', 15, () => base, admin, rate);
    await run(agentOpen, 15, agentList('open'), agentToken, rate);
  }
  await paced(agentOpen, 15, agentList('open'), agentToken, busiest);
  await paced('admin: status=open, showAll=true', 15, () => base, admin);
  await paced(agentOpen, 15, agentList('open'), agentToken);
  await paced(
    `admin: search "${COMMON_WORD}" (common), status=open`,
    50,
    () => `${base}&searchParam=${COMMON_WORD}`,
    admin,
  );
  await paced(`admin: search "${RARE_WORD}" (rare), status=open`, 50, () => `${base}&searchParam=${RARE_WORD}`, admin);

  return results;
};

export type TInboxData = TGenerated & { generateMs: number };

/** migrates (a first start of the server) and fills the stopped server's database with the generator */
const generateData = async (
  database: TInboxResult['database'],
  opts: TInboxOptions,
  dataDir: string,
  databaseUrl: string | undefined,
  env: Record<string, string>,
): Promise<TInboxData> => {
  const first = await startServer({ dataDir, databaseUrl, env, timeoutMs: 120_000 });
  await first.stop();
  const t0 = performance.now();
  const db = databaseUrl ? await pgExec(databaseUrl) : await pgliteExec(resolve(dataDir, 'db'));
  let generated: TGenerated;
  try {
    generated = await generateInbox(db.exec, {
      tickets: opts.tickets,
      messagesPerTicket: opts.messagesPerTicket,
      log: console.log,
    });
    const broken = Object.entries(await verifyGenerated(db.exec)).filter(([, n]) => n > 0);
    if (broken.length) throw new Error(`generated data broken: ${JSON.stringify(broken)}`);
  } finally {
    await db.close();
  }
  const generateMs = performance.now() - t0;
  console.log(
    `  ${database}: ${generated.tickets} tickets, ${generated.messages} messages in ${fmt(generateMs / 1000, 1)} s`,
  );

  return { ...generated, generateMs };
};

const runInbox = async (
  database: TInboxResult['database'],
  opts: TInboxOptions,
  target: { databaseUrl?: string; cached?: TInboxData; onGenerated?: (data: TInboxData) => void },
): Promise<TInboxResult> => {
  const dataDir = tempDir(`inbox-${database.toLowerCase()}`);
  const env = { RATE_LIMITS: 'off', JOBS: 'off' };
  try {
    let generated = target.cached;
    if (generated) console.log(`  ${database}: the generated data kept from an earlier run`);
    else {
      generated = await generateData(database, opts, dataDir, target.databaseUrl, env);
      target.onGenerated?.(generated);
    }

    const server = await startServer({ dataDir, databaseUrl: target.databaseUrl, env, timeoutMs: 120_000 });
    try {
      const company = generated.companies[0];
      const password = DEFAULT_GENERATE.password;
      const admin = await login(server.url, company.admin.email, password);
      const agents: { token: string; queueIds: number[] }[] = [];
      for (const a of company.agents)
        agents.push({ token: await login(server.url, a.email, password), queueIds: a.queueIds });
      const databaseUrl = target.databaseUrl;
      const targets =
        opts.only === 'lists' && databaseUrl
          ? await activeCustomers(server.url, admin, databaseUrl, company)
          : undefined;
      const writer = writerOf(database, server.url, admin, company.id, opts, targets);
      const cpu = () => cpuTimeMs(server.proc.pid);
      const conversation =
        opts.only === 'lists'
          ? []
          : await conversationLoads(database, server.url, { admin, agents }, opts, company, writer, cpu);
      const conversationOnly = opts.only === 'conversation' || opts.only === 'lists';
      const lists = await listLoads(
        database,
        server.url,
        { admin, agents },
        opts,
        writer,
        conversationOnly,
        server.proc.pid,
      );
      const inbound: TInboxThroughput[] = [];
      if (!conversationOnly) {
        console.log(`  ${database}: inbound, ${opts.inboundConcurrency} in flight, ${opts.seconds} s`);
        inbound.push(await inboundLoad(database, server.url, admin, company.id, opts));
        for (const rate of opts.pacedInboundRates) {
          console.log(`  ${database}: inbound, paced ${rate} msg/s, ${opts.seconds} s`);
          inbound.push(await inboundLoad(database, server.url, admin, company.id, opts, rate));
        }
      }

      return {
        database,
        data: {
          tickets: generated.tickets,
          messages: generated.messages,
          contacts: generated.contacts,
          steps: generated.steps,
          generateMs: generated.generateMs,
        },
        inbound,
        lists,
        conversation,
      };
    } finally {
      await server.stop();
    }
  } finally {
    removeDir(dataDir);
  }
};

export const inboxPglite = (opts: TInboxOptions) => runInbox('PGlite', opts, {});

/** on a throwaway database, copied from the kept generated data when there is one (inbox-cache.ts) */
export const inboxPostgres = async (opts: TInboxOptions, baseUrl: string) => {
  const name = `zelo_bench_${randomBytes(4).toString('hex')}`;
  const template = inboxTemplateName({ tickets: opts.tickets, messagesPerTicket: opts.messagesPerTicket });
  const drop = () => execFileSync('psql', [baseUrl, '-qc', `drop database if exists ${name} with (force)`]);
  try {
    if (inboxCacheOn() && templateExists(baseUrl, template)) {
      const copy = copyTemplate(baseUrl, template, name);

      return await runInbox('PostgreSQL', opts, { databaseUrl: copy.url, cached: copy.generated });
    }
    const db = createPgDatabase(baseUrl, name);

    return await runInbox('PostgreSQL', opts, {
      databaseUrl: db.url,
      onGenerated: (data) => {
        if (inboxCacheOn()) saveTemplate(baseUrl, name, template, data);
      },
    });
  } finally {
    drop();
  }
};

/**
 * The generated inbox in a throwaway PostgreSQL database for `use`: a copy of the kept template when there is one,
 * else generated (a first start of the server migrates it) and kept as the template. Dropped afterwards.
 */
export const withGeneratedInbox = async <T>(
  opts: TInboxOptions,
  baseUrl: string,
  use: (databaseUrl: string, generated: TInboxData) => Promise<T>,
): Promise<T> => {
  const name = `zelo_bench_${randomBytes(4).toString('hex')}`;
  const template = inboxTemplateName({ tickets: opts.tickets, messagesPerTicket: opts.messagesPerTicket });
  const drop = () => execFileSync('psql', [baseUrl, '-qc', `drop database if exists ${name} with (force)`]);
  try {
    if (inboxCacheOn() && templateExists(baseUrl, template)) {
      const copy = copyTemplate(baseUrl, template, name);
      return await use(copy.url, copy.generated);
    }
    const db = createPgDatabase(baseUrl, name);
    const dataDir = tempDir('inbox-generate');
    let generated: TInboxData;
    try {
      generated = await generateData('PostgreSQL', opts, dataDir, db.url, { RATE_LIMITS: 'off', JOBS: 'off' });
    } finally {
      removeDir(dataDir);
    }
    if (inboxCacheOn()) saveTemplate(baseUrl, name, template, generated);

    return await use(db.url, generated);
  } finally {
    drop();
  }
};

const verdict = (value: number, target: number | undefined, lowerIsBetter = true) =>
  target === undefined || Number.isNaN(target)
    ? '—'
    : (lowerIsBetter ? value <= target : value >= target)
      ? `met (${lowerIsBetter ? '≤' : '≥'} ${target})`
      : `**missed** (${lowerIsBetter ? '≤' : '≥'} ${target})`;

export const inboxTables = (results: TInboxResult[]) => {
  const data = results.map(
    (r) =>
      `| ${r.database} | ${r.data.tickets} | ${r.data.messages} | ${r.data.contacts} | ${fmt(r.data.generateMs / 1000, 1)} |`,
  );
  const inbound = results
    .flatMap((r) => r.inbound)
    .map((i) => {
      return (
        `| ${i.database} | ${i.load} | ${i.customers} | ${fmt(i.seconds, 1)} | ${i.sent} | ${i.errors} | ` +
        `${fmt(i.perSecond, 0)} | ${verdict(i.perSecond, i.targetPerSecond, false)} | ${i.events} | ${i.missing} | ` +
        `${fmt(i.delivery.p50, 1)} | ${fmt(i.delivery.p95, 1)} | ${fmt(i.delivery.p99, 1)} | ${fmt(i.delivery.max, 0)} | ` +
        `${verdict(i.delivery.p95, i.deliveryP95TargetMs)} |`
      );
    });
  const row = (l: TInboxLatency) =>
    `| ${l.what} | ${l.database} | ${l.load} | ${l.clients} | ${l.requests} | ${l.errors} | ${fmt(l.rps, 0)} | ` +
    `${fmt(l.p50, 1)} | ${fmt(l.p95, 1)} | ${fmt(l.p99, 1)} | ${fmt(l.max, 0)} | ${verdict(l.p95, l.p95TargetMs)} |`;
  const conversation = results.flatMap((r) =>
    r.conversation.map((l) => `${row(l)} ${fmt(l.serverCpuMs ?? Number.NaN, 2)} |`),
  );
  const lists = results.flatMap((r) =>
    r.lists.map(
      (l) =>
        `${row(l)} ${fmt(l.serverCpuMs ?? Number.NaN, 2)} | ${l.machine ?? '—'} | ${fmt(l.benchLoopP99 ?? Number.NaN, 1)} |`,
    ),
  );
  const latencyHeader = (what: string, extra: string[]) => [
    `| ${what} | database | load | clients | requests | errors | req/s | p50 ms | p95 ms | p99 ms | max ms | p95 target ms |${extra.map((e) => ` ${e} |`).join('')}`,
    `|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|${extra.map(() => '---:|').join('')}`,
  ];

  return [
    '| database | tickets | messages | contacts | generate s |',
    '|---|---:|---:|---:|---:|',
    ...data,
    '',
    ...(inbound.length
      ? [
          '| database | load | customers | s | answered | errors | msg/s | target | events | missing | delivery p50 ms | p95 ms | p99 ms | max ms | delivery p95 target |',
          '|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|',
          ...inbound,
          '',
        ]
      : []),
    ...(conversation.length
      ? [...latencyHeader('GET /api/messages/:ticketId (20 rows)', ['server CPU ms/req']), ...conversation, '']
      : []),
    ...latencyHeader('GET /api/tickets (40 rows)', ['server CPU ms/req', "machine's time", 'bench loop p99 ms']),
    ...lists,
  ].join('\n');
};
