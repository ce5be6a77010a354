process.env.SANDBOX_OPENING_MS ??= '10';
process.env.SANDBOX_ACK_MS ??= '50';

import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import pgDriver from 'pg';
import { pino } from 'pino';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openPostgres, runMigrations } from '../apps/server/src/db/client';
import { runAutomation } from '../apps/server/src/inbound/automation';
import { createInboundHandlers } from '../apps/server/src/inbound/index';
import { companyForInbound, connectionForInbound, contactById } from '../apps/server/src/inbound/inbound.repo';
import { ensureSuperUser } from '../apps/server/src/lib/seed';
import { storeInboundMessage } from '../apps/server/src/modules/messages/store-inbound';
import { readCompanySettings } from '../apps/server/src/modules/settings/settings.service';
import { createPgDatabase, fmt, percentile, removeDir, tempDir } from './lib';
import { sandboxCompany } from './sandbox-company';

/**
 * The flow engine (issue 14), PostgreSQL, one process, typing delays and intervals at 0:
 * - step latency: a customer's answer already stored → the flow's next send requested of the transport (the
 *   automation with the flow stage: resume under the run's lock, walk, commit, the message row stored, then the
 *   sandbox's sendText called), one customer at a time, target p95 ≤ 12 ms (issue 23); the whole step until its sends are
 *   done is reported beside it;
 * - 500 customers at once walking a 10-node flow (start, 5 questions, 4 messages) through the inbound pipeline,
 *   every answer of every customer delivered concurrently: each run must end `done` with exactly its 11 step rows
 *   and its customer exactly 9 messages sent (no step lost, none repeated).
 * Statements sent to PostgreSQL are counted (pg's Client#query wrapped) per timed step and per walking customer.
 */

export const FLOW_DEFAULTS = { customers: 500, latencySamples: 200, walkDeadlineMs: 600_000 };

type TProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type TProfile = { nodes: TProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number };

/**
 * BENCH_FLOW_PROFILE=file: the process's CPU profile (V8's sampler, 100 µs) while the timed steps run, reduced to
 * the samples inside the timed windows (answer stored → next send requested): where a step's CPU goes, as the
 * functions' self and inclusive time over all steps, written to `file` (the raw profile beside it, .cpuprofile)
 */
const stepProfiler = async (file: string | undefined) => {
  if (!file) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const windows: [number, number][] = [];
  // V8's profile clock and process.hrtime are both the monotonic clock, in µs here
  const now = () => Number(process.hrtime.bigint() / 1000n);

  return {
    now,
    window: (from: number, to: number) => windows.push([from, to]),
    stop: async () => {
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: TProfile };
      session.disconnect();
      writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
      const parent = new Map<number, number>();
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      const label = (n: TProfileNode) =>
        `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(apps|bench)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
      const self = new Map<string, number>();
      const inclusive = new Map<string, number>();
      let at = profile.startTime;
      let busy = 0;
      let w = 0;
      for (const [i, id] of profile.samples.entries()) {
        at += profile.timeDeltas[i] ?? 0;
        const dt = profile.timeDeltas[i + 1] ?? 0;
        while (w < windows.length && windows[w]![1] < at) w++;
        if (w === windows.length || at < windows[w]![0]) continue;
        const leaf = byId.get(id)!;
        if (leaf.callFrame.functionName === '(idle)') continue;
        busy += dt;
        self.set(label(leaf), (self.get(label(leaf)) ?? 0) + dt);
        const seen = new Set<string>();
        for (let n: TProfileNode | undefined = leaf; n; n = byId.get(parent.get(n.id) ?? -1)) {
          const l = label(n);
          if (!seen.has(l)) inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
          seen.add(l);
        }
      }
      const top = (m: Map<string, number>) =>
        [...m]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 60)
          .map(
            ([l, us]) =>
              `${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${l}`,
          );
      writeFileSync(
        file,
        [
          `${windows.length} timed steps; CPU busy inside them ${(busy / 1000).toFixed(1)} ms (${(busy / 1000 / windows.length).toFixed(2)} ms a step)`,
          '',
          '--- self',
          ...top(self),
          '',
          '--- inclusive',
          ...top(inclusive),
          '',
        ].join('\n'),
      );
    },
  };
};

export type TFlowBench = {
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** the whole step: both sends of the step answered by the transport and stored */
  stepDoneP50Ms: number;
  stepDoneP95Ms: number;
  /** the whole pipeline: the channel's delivery of the answer → the next send requested */
  receivedP50Ms: number;
  receivedP95Ms: number;
  /** statements sent to PostgreSQL per timed step (BEGIN / COMMIT included), median */
  statementsP50: number;
  /** of which before the first send was requested, median */
  beforeSendP50: number;
  /** this process's CPU time (user + system) over the whole step, median */
  stepCpuP50Ms: number;
  /** the same until the first send was requested, median */
  sendCpuP50Ms: number;
  customers: number;
  walkMs: number;
  /** false: a round of the walk did not end within the deadline */
  walkFinished: boolean;
  statementsPerCustomer: number;
  runsDone: number;
  badRuns: number;
};

const at = { x: 0, y: 0 };
/** start → q1 → m1 → q2 → m2 → q3 → m3 → q4 → m4 → q5: 10 nodes */
const tenNodes = () => {
  const nodes: unknown[] = [{ id: '1', type: 'start', position: at, data: { label: 'Inicio do fluxo' } }];
  const connections: unknown[] = [];
  let prev = '1';
  for (let i = 1; i <= 5; i++) {
    nodes.push({
      id: `q${i}`,
      type: 'question',
      position: at,
      data: { typebotIntegration: { message: `Pergunta ${i}?`, answerKey: `r${i}` } },
    });
    connections.push({ source: prev, target: `q${i}` });
    prev = `q${i}`;
    if (i < 5) {
      nodes.push({ id: `m${i}`, type: 'message', position: at, data: { label: `Recebi {{r${i}}}` } });
      connections.push({ source: prev, target: `m${i}` });
      prev = `m${i}`;
    }
  }
  return { nodes, connections };
};

export const flowsPostgres = async (baseUrl: string, opts = FLOW_DEFAULTS): Promise<TFlowBench> => {
  const pg = createPgDatabase(baseUrl, `zelo_bench_flows_${randomBytes(4).toString('hex')}`);
  const dataDir = tempDir('flows');
  const logger = pino({ level: 'silent' });
  const database = await openPostgres(pg.url, 20);
  try {
    await runMigrations(database);
    await ensureSuperUser(database.db, { email: 'bench-super@zelo.test', password: 'Bench-Pass-1', log: logger });
    const config = loadConfig({
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      JOBS: 'off',
      LOG_LEVEL: 'silent',
      FLOW_TYPING_MS: '0',
      FLOW_ELEMENT_GAP_MS: '0',
      // the engine's own throughput, not one company's share of it (bench/tenant-fairness.ts measures that)
      TENANT_BUDGET_FLOWS: '100000,100000,100000',
    });
    const { app, ctx } = await buildApp({ config, database, logger });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const handlers = createInboundHandlers(ctx);
    ctx.channels.setEvents(handlers);
    const { call, companyId, token, conn } = await sandboxCompany(app, ctx, 'Bench Flows');
    const flow = (await call('POST', '/api/flowbuilder', token, { name: 'Bench 10 nodes' })).body.id as number;
    const saved = await call('POST', '/api/flowbuilder/flow', token, { idFlow: flow, ...tenNodes() });
    if (saved.status !== 200) throw new Error(`flow save: ${saved.status}`);
    await call('POST', '/api/flowcampaign', token, { name: 'Bench', flowId: flow, whatsappId: conn, phrase: 'bench' });
    const connection = (await connectionForInbound(ctx.db, conn))!;
    const message = (from: string, body: string) => ({
      connectionId: conn,
      externalId: `b-${randomBytes(8).toString('hex')}`,
      from,
      fromMe: false,
      pushName: 'Cliente',
      isGroup: false,
      type: 'text' as const,
      body,
      timestamp: new Date(),
    });
    // every statement sent to PostgreSQL (BEGIN and COMMIT included), to count them per step
    let statements = 0;
    let n = 0;
    const number = () => `55117${String(10_000_000 + n++).padStart(8, '0')}`;

    // the step latency ends when the flow's next send is requested of the transport: the session the
    // registry hands to senders (its lease-checking face, whose methods are read-only) is handed out wrapped,
    // its sendText noting the first request after each answer
    if (!ctx.channels.local(conn)) throw new Error('no local sandbox session');
    let firstSendAt: number | null = null;
    let statementsAtSend = 0;
    let cpuAtSend: NodeJS.CpuUsage | null = null;
    let cpuFrom: NodeJS.CpuUsage | undefined;
    type TSession = ReturnType<typeof ctx.channels.session>;
    const registrySession = ctx.channels.session.bind(ctx.channels);
    const watched = new WeakMap<TSession, TSession>();
    ctx.channels.session = (connectionId: number) => {
      const session = registrySession(connectionId);
      if (connectionId !== conn) return session;
      let face = watched.get(session);
      if (!face) {
        face = Object.create(session) as TSession;
        Object.defineProperty(face, 'sendText', {
          value: (...args: Parameters<TSession['sendText']>) => {
            if (firstSendAt === null) {
              firstSendAt = performance.now();
              statementsAtSend = statements;
              cpuAtSend = process.cpuUsage(cpuFrom);
            }
            return session.sendText(...args);
          },
        });
        watched.set(session, face);
      }

      return face;
    };
    const clientQuery = pgDriver.Client.prototype.query;
    pgDriver.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
      statements += 1;
      return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof clientQuery;

    // what the pipeline has read before storing a message (the company, its settings, the contact)
    const company = await companyForInbound(ctx.db, companyId);
    const settings = new Map((await readCompanySettings(ctx.db, companyId)).map((s) => [s.key, s.value]));

    // 1. step latency, one customer at a time. Answers 1–4 of each customer are each followed by a send
    //    (q1's answer → "Recebi …" then q2, …); the answer to q5 ends the run without a send, so it is delivered
    //    untimed. Odd answers: stored first, then the automation timed (the definition); even answers:
    //    the whole inbound pipeline timed, from the channel's delivery to the next send requested.
    const latencies: number[] = [];
    const received: number[] = [];
    const stepsDone: number[] = [];
    const stepStatements: number[] = [];
    const beforeSend: number[] = [];
    const stepCpu: number[] = [];
    const sendCpu: number[] = [];
    const profiler = await stepProfiler(process.env.BENCH_FLOW_PROFILE);
    let from = '';
    let answered = 5;
    for (let i = 0; latencies.length < opts.latencySamples; i++) {
      if (answered === 4) {
        await handlers.onMessage(message(from, 'fim'));
        answered = 5;
      }
      if (answered === 5) {
        from = number();
        answered = 0;
        await handlers.onMessage(message(from, 'bench'));
      }
      // a customer answers seconds later: the sandbox's delivery and read acks of the last sends (SANDBOX_ACK_MS
      // apart) land before the answer, not inside the timed step
      await new Promise((r) => setTimeout(r, 3 * Number(process.env.SANDBOX_ACK_MS)));
      firstSendAt = null;
      if (answered % 2 === 1) {
        const t0 = performance.now();
        await handlers.onMessage(message(from, `resposta ${i}`));
        if (firstSendAt === null) throw new Error(`answer ${answered + 1} sent nothing`);
        received.push((firstSendAt as number) - t0);
      } else {
        const stored = await storeInboundMessage(ctx, message(from, `resposta ${i}`), { connection });
        if (!stored) throw new Error('not stored');
        const contact = await contactById(ctx.db, companyId, stored.contactId);
        const before = statements;
        const cpu0 = process.cpuUsage();
        cpuFrom = cpu0;
        const profiledFrom = profiler?.now() ?? 0;
        const t0 = performance.now();
        await runAutomation(
          ctx,
          {
            companyId,
            ticketId: stored.ticket.id,
            body: `resposta ${i}`,
            connection,
            messageId: stored.message.id,
            mediaType: stored.message.mediaType ?? undefined,
            known: { company, settings, contact: contact ?? undefined },
          },
          new Date(),
        );
        if (profiler && firstSendAt !== null)
          profiler.window(profiledFrom, profiledFrom + Math.ceil(((firstSendAt as number) - t0) * 1000));
        stepsDone.push(performance.now() - t0);
        const cpu = process.cpuUsage(cpu0);
        stepCpu.push((cpu.user + cpu.system) / 1000);
        stepStatements.push(statements - before);
        if (firstSendAt === null) throw new Error(`answer ${answered + 1} sent nothing`);
        beforeSend.push(statementsAtSend - before);
        const toSend = cpuAtSend as NodeJS.CpuUsage | null;
        if (toSend) sendCpu.push((toSend.user + toSend.system) / 1000);
        latencies.push((firstSendAt as number) - t0);
      }
      answered += 1;
    }
    await profiler?.stop();
    latencies.sort((a, b) => a - b);
    received.sort((a, b) => a - b);
    stepsDone.sort((a, b) => a - b);
    stepStatements.sort((a, b) => a - b);
    beforeSend.sort((a, b) => a - b);
    stepCpu.sort((a, b) => a - b);
    sendCpu.sort((a, b) => a - b);

    // 2. 500 customers at once, each answer round delivered concurrently (a round that does not end within
    //    the deadline is reported as such, not waited for)
    const customers = Array.from({ length: opts.customers }, number);
    const walkStatements = statements;
    const t1 = performance.now();
    const deadline = t1 + opts.walkDeadlineMs;
    let finished = true;
    for (let round = 0; round <= 5 && finished; round++) {
      const body = (c: string) => (round === 0 ? 'bench' : `r${round} de ${c}`);
      const all = Promise.all(customers.map((c) => handlers.onMessage(message(c, body(c)))));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), Math.max(0, deadline - performance.now()));
      });
      finished = await Promise.race([all.then(() => true), late]);
      clearTimeout(timer);
    }
    const walkMs = performance.now() - t1;
    const statementsPerCustomer = (statements - walkStatements) / opts.customers;
    pgDriver.Client.prototype.query = clientQuery;
    const runs = (
      await database.executeSql(
        `select r.id, r.status, (select count(*)::int from flow_run_steps s where s.run_id = r.id) as steps,
                (select count(distinct (s.node_id, s.status))::int from flow_run_steps s where s.run_id = r.id) as distinct_steps,
                (select count(*)::int from messages m where m.ticket_id = r.ticket_id and m.from_me) as sent
         from flow_runs r join tickets t on t.id = r.ticket_id join contacts c on c.id = t.contact_id
         where r.company_id = $1 and c.number = any($2::varchar[])`,
        [companyId, customers],
      )
    ).rows as { id: number; status: string; steps: number; distinct_steps: number; sent: number }[];
    const done = runs.filter((r) => r.status === 'done');
    // per customer: 11 step rows (each of the 10 nodes reached once, then the end) and 9 messages sent (5
    // questions, 4 messages)
    const bad = runs.filter((r) => r.status !== 'done' || r.steps !== 11 || r.distinct_steps !== 11 || r.sent !== 9);

    await app.close();

    return {
      samples: latencies.length,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      maxMs: latencies.at(-1) ?? Number.NaN,
      stepDoneP50Ms: percentile(stepsDone, 50),
      stepDoneP95Ms: percentile(stepsDone, 95),
      receivedP50Ms: percentile(received, 50),
      receivedP95Ms: percentile(received, 95),
      statementsP50: percentile(stepStatements, 50),
      beforeSendP50: percentile(beforeSend, 50),
      stepCpuP50Ms: percentile(stepCpu, 50),
      sendCpuP50Ms: percentile(sendCpu, 50),
      customers: runs.length,
      walkMs,
      walkFinished: finished,
      statementsPerCustomer,
      runsDone: done.length,
      badRuns: bad.length + (opts.customers - runs.length),
    };
  } finally {
    await database.close();
    pg.drop();
    removeDir(dataDir);
  }
};

export const flowsTable = (r: TFlowBench) =>
  [
    '| measure | figure | target |',
    '|---|---|---|',
    `| flow step, answer stored → next send requested (${r.samples} steps, one customer at a time) | p50 ${fmt(r.p50Ms)} ms, p95 ${fmt(r.p95Ms)} ms, max ${fmt(r.maxMs)} ms; ${r.beforeSendP50} statements, ${fmt(r.sendCpuP50Ms)} ms of the process's CPU (medians) | p95 ≤ 12 ms (issue 23; ≤ 20 ms issue 14) |`,
    `| the same step until its sends are done (not a target) | p50 ${fmt(r.stepDoneP50Ms)} ms, p95 ${fmt(r.stepDoneP95Ms)} ms; ${r.statementsP50} statements, ${fmt(r.stepCpuP50Ms)} ms of the process's CPU (medians) | — |`,
    `| answer delivered by the channel → next send requested (the whole inbound pipeline, not a target) | p50 ${fmt(r.receivedP50Ms)} ms, p95 ${fmt(r.receivedP95Ms)} ms | — |`,
    `| ${r.customers} customers at once through a 10-node flow (6 messages each) | ${r.walkFinished ? '' : 'NOT FINISHED after '}${fmt(r.walkMs / 1000, 1)} s, ${fmt(r.statementsPerCustomer, 0)} statements per customer; ${r.runsDone} runs done, ${r.badRuns} with a lost or repeated step or message | 0 lost or repeated |`,
  ].join('\n');
