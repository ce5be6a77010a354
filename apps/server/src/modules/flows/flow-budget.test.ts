process.env.SANDBOX_OPENING_MS = '0';
process.env.SANDBOX_ACK_MS = '0';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { connectSandbox } from '../../../test/inbox';
import { createInboundHandlers } from '../../inbound';

/**
 * No tenant starves the others through its flows (issue 20 item 9): a looping flow ends at its run's step cap,
 * a company has a few test runs at once, and a company over its flow budget is refused a test run and has its
 * steps deferred (late, not lost) while another company's flow goes on. Orders and outcomes, never durations.
 */

let server: TTestServer;
type TTenant = Awaited<ReturnType<TTestServer['createTenant']>>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const serverWith = (env: Record<string, string>) => {
  beforeAll(async () => {
    server = await startTestServer({ env });
    await server.database.executeSql('update plans set connections = 50, queues = 50, users = 50');
    server.ctx.channels.setEvents(createInboundHandlers(server.ctx));
  });
  afterAll(async () => {
    await server?.close();
  });
};

const at = { x: 0, y: 0 };
const node = (id: string, type: string, data: Record<string, unknown>) => ({ id, type, position: at, data });
const edge = (source: string, target: string) => ({ id: `e-${source}-${target}`, source, target, sourceHandle: null });
const start = node('1', 'start', { label: 'Inicio do fluxo' });
const question = (id: string) =>
  node(id, 'question', { typebotIntegration: { message: 'Seu nome?', answerKey: 'nome' } });

/** start → message → 1 s interval → back to the message, forever */
const loopFlow = () => ({
  nodes: [start, node('m', 'message', { label: 'de novo' }), node('i', 'interval', { label: 'Intervalo', sec: 1 })],
  connections: [edge('1', 'm'), edge('m', 'i'), edge('i', 'm')],
});
/** start → `steps` empty messages (steps that send nothing) → question → the answer's echo */
const chainFlow = (steps: number, echo: string) => {
  const texts = Array.from({ length: steps }, (_, i) => node(`m${i}`, 'message', { label: '' }));
  const ids = ['1', ...texts.map((t) => t.id), 'q', 'e'];

  return {
    nodes: [start, ...texts, question('q'), node('e', 'message', { label: echo })],
    connections: ids.slice(1).map((id, i) => edge(ids[i]!, id)),
  };
};

const tenantWithSandbox = async (name: string) => {
  const tenant = await server.createTenant(unique(name).slice(0, 30));
  await connectSandbox(server, tenant.token);

  return tenant;
};
const newFlow = async (tenant: TTenant, doc: object) => {
  const flow = await server.request('POST', '/api/flowbuilder', { token: tenant.token, body: { name: unique('F') } });
  const saved = await server.request('POST', '/api/flowbuilder/flow', {
    token: tenant.token,
    body: { idFlow: flow.body.id, ...doc },
  });
  expect(saved.status).toBe(200);

  return flow.body.id as number;
};
const testRun = (tenant: TTenant, flowId: number) =>
  server.request('POST', `/api/flowbuilder/${flowId}/test-run`, { token: tenant.token, body: {} });
const outbox = async (tenant: TTenant, connectionId: number, to: string) =>
  (
    (await server.request('GET', `/api/sandbox/${connectionId}/outbox?to=${to}`, { token: tenant.token })).body
      .messages as { body: string }[]
  ).map((m) => m.body);
const say = (tenant: TTenant, connectionId: number, from: string, body: string) =>
  server.request('POST', `/api/sandbox/${connectionId}/inbound`, {
    token: tenant.token,
    body: { from, name: 'Cliente', type: 'text', body },
  });
const until = async (what: () => Promise<boolean>, tries = 600) => {
  for (let i = 0; i < tries; i++) {
    if (await what()) return;
    await sleep(50);
  }
  throw new Error('never happened');
};

describe('flow caps', () => {
  // a run's life of 8 steps, 3 test runs at once
  serverWith({ FLOW_RUN_STEP_CAP: '8', FLOW_TEST_RUNS_MAX: '3' });

  it('ends a flow that loops through an interval at its run step cap', async () => {
    const tenant = await tenantWithSandbox('Loop');
    const flowId = await newFlow(tenant, loopFlow());
    const started = await testRun(tenant, flowId);
    expect(started.status).toBe(201);
    const run = async () =>
      (await server.request('GET', `/api/flowbuilder/run/${started.body.runId}`, { token: tenant.token })).body;
    await until(async () => (await run()).run.status === 'failed');
    const { steps } = await run();
    expect(steps.at(-1)).toMatchObject({ status: 'failed', reason: 'run-step-cap' });
    expect(steps.length).toBeLessThanOrEqual(9);
    // every message step that ran is delivered (sends leave after the step is written, so they may land
    // just after the run ended), and nothing more goes out once it ended
    const ran = (steps as { nodeType: string; status: string }[]).filter(
      (s) => s.nodeType === 'message' && s.status !== 'failed',
    ).length;
    expect(ran).toBeGreaterThanOrEqual(2);
    const sent = () => outbox(tenant, started.body.connectionId, started.body.contactNumber);
    await until(async () => (await sent()).length >= ran);
    await sleep(1500);
    expect(await sent()).toEqual(Array.from({ length: ran }, () => 'de novo'));
  });

  it('lets a company have FLOW_TEST_RUNS_MAX test runs at once; another company is not counted', async () => {
    const tenant = await tenantWithSandbox('Tests');
    const flowId = await newFlow(tenant, { nodes: [start, question('q')], connections: [edge('1', 'q')] });
    for (let i = 0; i < 3; i++) expect((await testRun(tenant, flowId)).status).toBe(201);
    expect((await testRun(tenant, flowId)).body).toMatchObject({ error: 'ERR_FLOW_TEST_RUNS_LIMIT' });
    expect((await testRun(tenant, flowId)).status).toBe(429);
    const other = await tenantWithSandbox('Other');
    const otherFlow = await newFlow(other, { nodes: [start, question('q')], connections: [edge('1', 'q')] });
    expect((await testRun(other, otherFlow)).status).toBe(201);
  });
});

describe('flow budgets', () => {
  // 4 flow steps a second per company, in bursts of 8
  serverWith({ TENANT_BUDGET_FLOWS: '4,4,16' });

  it('refuses a test run over the budget, defers its steps without losing them, and lets another company go on', async () => {
    const a = await tenantWithSandbox('Busy');
    const b = await tenantWithSandbox('Quiet');
    // A's first run walks 40 steps and a question at once: 43 tokens against a burst of 8 (~9 s of debt)
    const runA = await testRun(a, await newFlow(a, chainFlow(40, 'fim A')));
    expect(runA.status).toBe(201);
    expect(server.ctx.budgets.flows.state(a.companyId).tokens).toBeLessThan(1);
    const f2 = await newFlow(a, chainFlow(0, 'outro'));
    expect(await testRun(a, f2)).toMatchObject({
      status: 429,
      body: { error: 'ERR_TENANT_BUSY' },
    });
    const runB = await testRun(b, await newFlow(b, chainFlow(0, 'fim B')));
    expect(runB.status).toBe(201);

    // both customers answer; A's step waits for A's budget, B's goes at once
    void say(a, runA.body.connectionId, runA.body.contactNumber, 'Ana');
    await until(async () => server.ctx.budgets.flows.state(a.companyId).waiting > 0);
    await say(b, runB.body.connectionId, runB.body.contactNumber, 'Bia');
    await until(async () => (await outbox(b, runB.body.connectionId, runB.body.contactNumber)).includes('fim B'));
    expect(await outbox(a, runA.body.connectionId, runA.body.contactNumber)).not.toContain('fim A');
    expect(server.ctx.budgets.flows.state(a.companyId).waiting).toBe(1);
    // A's step runs when its budget allows: late, not lost, and once
    await until(async () => (await outbox(a, runA.body.connectionId, runA.body.contactNumber)).includes('fim A'));
    const sentA = await outbox(a, runA.body.connectionId, runA.body.contactNumber);
    expect(sentA.filter((t) => t === 'fim A')).toHaveLength(1);
  }, 60_000);
});
