process.env.SANDBOX_OPENING_MS ??= '10';
process.env.SANDBOX_ACK_MS ??= '50';

import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openPostgres, runMigrations } from '../apps/server/src/db/client';
import { runAutomation } from '../apps/server/src/inbound/automation';
import { createInboundHandlers } from '../apps/server/src/inbound/index';
import { connectionForInbound } from '../apps/server/src/inbound/inbound.repo';
import { ensureSuperUser } from '../apps/server/src/lib/seed';
import { storeInboundMessage } from '../apps/server/src/modules/messages/store-inbound';
import { createPgDatabase, fmt, percentile, removeDir, tempDir } from './lib';
import { sandboxCompany } from './sandbox-company';

/**
 * The flow engine (issue 14), PostgreSQL, one process, typing delays and intervals at 0:
 * - step latency: a customer's answer already stored → the flow's next send requested of the transport (the
 *   automation with the flow stage: resume under the run's lock, walk, commit, the message row stored, then the
 *   sandbox's sendText called), one customer at a time, target p95 ≤ 20 ms; the whole step until its sends are
 *   done is reported beside it;
 * - 500 customers at once walking a 10-node flow (start, 5 questions, 4 messages) through the inbound pipeline,
 *   every answer of every customer delivered concurrently: each run must end `done` with exactly its 11 step rows
 *   (no step lost, none repeated).
 */

export const FLOW_DEFAULTS = { customers: 500, latencySamples: 200 };

export type TFlowBench = {
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** the whole step: both sends of the step answered by the transport and stored */
  stepDoneP50Ms: number;
  stepDoneP95Ms: number;
  customers: number;
  walkMs: number;
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
    let n = 0;
    const number = () => `55117${String(10_000_000 + n++).padStart(8, '0')}`;

    // the step latency ends when the flow's next send is requested of the transport: the sandbox
    // session's sendText is wrapped to note the first request after each answer
    const session = ctx.channels.local(conn) as { sendText: (...args: unknown[]) => Promise<unknown> } | undefined;
    if (!session) throw new Error('no local sandbox session');
    const sendText = session.sendText.bind(session);
    let firstSendAt: number | null = null;
    session.sendText = (...args: unknown[]) => {
      firstSendAt ??= performance.now();
      return sendText(...args);
    };

    // 1. step latency, one customer at a time: the answer stored first, then the automation timed
    const latencies: number[] = [];
    const stepsDone: number[] = [];
    let from = number();
    let answered = 0;
    await handlers.onMessage(message(from, 'bench'));
    for (let i = 0; i < opts.latencySamples; i++) {
      if (answered === 5) {
        from = number();
        answered = 0;
        await handlers.onMessage(message(from, 'bench'));
      }
      const stored = await storeInboundMessage(ctx, message(from, `resposta ${i}`), { connection });
      if (!stored) throw new Error('not stored');
      firstSendAt = null;
      const t0 = performance.now();
      await runAutomation(
        ctx,
        { companyId, ticketId: stored.ticket.id, body: `resposta ${i}`, connection, messageId: stored.message.id },
        new Date(),
      );
      stepsDone.push(performance.now() - t0);
      if (firstSendAt === null) throw new Error('the step sent nothing');
      latencies.push((firstSendAt as number) - t0);
      answered += 1;
    }
    latencies.sort((a, b) => a - b);
    stepsDone.sort((a, b) => a - b);

    // 2. 500 customers at once, each answer round delivered concurrently
    const customers = Array.from({ length: opts.customers }, number);
    const t1 = performance.now();
    await Promise.all(customers.map((c) => handlers.onMessage(message(c, 'bench'))));
    for (let round = 1; round <= 5; round++) {
      await Promise.all(customers.map((c) => handlers.onMessage(message(c, `r${round} de ${c}`))));
    }
    const walkMs = performance.now() - t1;
    const runs = (
      await database.executeSql(
        `select r.id, r.status, (select count(*)::int from flow_run_steps s where s.run_id = r.id) as steps,
                (select count(distinct (s.node_id, s.status))::int from flow_run_steps s where s.run_id = r.id) as distinct_steps
         from flow_runs r join tickets t on t.id = r.ticket_id join contacts c on c.id = t.contact_id
         where r.company_id = $1 and c.number = any($2::varchar[])`,
        [companyId, customers],
      )
    ).rows as { id: number; status: string; steps: number; distinct_steps: number }[];
    const done = runs.filter((r) => r.status === 'done');
    const bad = runs.filter((r) => r.status !== 'done' || r.steps !== 11 || r.distinct_steps !== 11);

    await app.close();

    return {
      samples: latencies.length,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      maxMs: latencies.at(-1) ?? Number.NaN,
      stepDoneP50Ms: percentile(stepsDone, 50),
      stepDoneP95Ms: percentile(stepsDone, 95),
      customers: runs.length,
      walkMs,
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
    `| flow step, answer stored → next send requested (${r.samples} steps, one customer at a time) | p50 ${fmt(r.p50Ms)} ms, p95 ${fmt(r.p95Ms)} ms, max ${fmt(r.maxMs)} ms | p95 ≤ 20 ms |`,
    `| the same step until its sends are done (not a target) | p50 ${fmt(r.stepDoneP50Ms)} ms, p95 ${fmt(r.stepDoneP95Ms)} ms | — |`,
    `| ${r.customers} customers at once through a 10-node flow (6 messages each) | ${fmt(r.walkMs / 1000, 1)} s; ${r.runsDone} runs done, ${r.badRuns} with a lost or repeated step | 0 lost or repeated |`,
  ].join('\n');
