process.env.SANDBOX_OPENING_MS = '10';
process.env.SANDBOX_ACK_MS = '10';

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { unique } from '../../../test/fixtures';
import { startTestServer, TEST_METRICS_TOKEN, type TTestServer } from '../../../test/harness';

/**
 * /metrics, /api/health/live and /api/health/ready (issue 24 item 3): the token, what the counters count
 * after real traffic (a customer's message through the sandbox, an agent's reply, ticket lists), that no
 * tenant's data reaches the text, readiness failing on what it checks, and that every metric the sample
 * Grafana dashboard and alert rules in docs/operations use is in the output.
 */

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const DOCS = resolve(import.meta.dirname, '../../../../../docs/operations');

/** `null`: no Authorization header */
const scrape = async (token: string | null = TEST_METRICS_TOKEN) => {
  const res = await fetch(`${server.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
};

/** the value of one sample (`name{labels} value`), labels given in any order; undefined when absent */
const sample = (text: string, name: string, labels: Record<string, string> = {}) => {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }

  return undefined;
};

const until = async (check: () => Promise<boolean>, timeoutMs = 5000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('GET /metrics', () => {
  it('answers Prometheus text with the token only', async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape('not-the-metrics-token-at-all')).status).toBe(401);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.text).toContain('# TYPE zelo_http_request_duration_seconds histogram');
    expect(sample(ok.text, 'zelo_build_info')).toBe(1);
  });

  it('is declared with the metrics token and left out of the OpenAPI document; health and readiness are in it', async () => {
    const decl = server.app.declaredRoutes.find((r) => r.url === '/metrics');
    expect(decl?.decl).toEqual({ auth: 'metrics' });
    const paths = Object.keys((await server.request('GET', '/api/docs/json')).body.paths);
    expect(paths).not.toContain('/metrics');
    expect(paths).toEqual(expect.arrayContaining(['/api/health', '/api/health/live', '/api/health/ready']));
  });

  it('is not there without METRICS_TOKEN, and then counts nothing', async () => {
    const off = await startTestServer({ env: { METRICS_TOKEN: '' } });
    try {
      const res = await fetch(`${off.url}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: string }).error).toBe('ERR_ROUTE_NOT_FOUND');
      expect(off.ctx.metrics.on).toBe(false);
    } finally {
      await off.close();
    }
  });

  it('counts requests by route pattern, inbound deliveries, sends, sessions and connections — and no tenant data', async () => {
    const company = unique('Padaria Secreta');
    const tenant = await server.createTenant(company);
    const created = await server.request('POST', '/api/whatsapp', {
      token: tenant.token,
      body: { name: 'Linha Confidencial' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    await until(async () => server.ctx.channels.state(id)?.status === 'qrcode');
    expect((await server.request('POST', `/api/sandbox/${id}/scan`, { token: tenant.token, body: {} })).status).toBe(
      200,
    );
    await until(async () => server.ctx.channels.state(id)?.status === 'CONNECTED');
    const before = (await scrape()).text;
    const customer = '5511912345678';
    const secret = 'meu cartão termina em 4242';
    const sent = await fetch(`${server.url}/api/sandbox/${id}/inbound`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: customer, name: 'Maria Sigilosa', body: secret }),
    });
    expect(sent.status).toBe(200);
    let ticketId = 0;
    await until(async () => {
      const list = await fetch(`${server.url}/api/tickets?status=pending&showAll=true`, {
        headers: { authorization: `Bearer ${tenant.token}` },
      });
      const body = (await list.json()) as { tickets: { id: number; contact: { number: string } }[] };
      ticketId = body.tickets.find((t) => t.contact.number === customer)?.id ?? 0;
      return ticketId > 0;
    });
    expect(
      (await server.request('PUT', `/api/tickets/${ticketId}`, { token: tenant.token, body: { status: 'open' } }))
        .status,
    ).toBe(200);
    const reply = await fetch(`${server.url}/api/messages/${ticketId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'resposta confidencial' }),
    });
    expect(reply.status).toBeLessThan(300);
    await fetch(`${server.url}/api/no-such-route`);

    const after = (await scrape()).text;
    const delta = (name: string, labels: Record<string, string>) =>
      (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(delta('zelo_inbound_deliveries_total', { outcome: 'received' })).toBe(1);
    expect(delta('zelo_inbound_deliveries_total', { outcome: 'processed' })).toBe(1);
    expect(delta('zelo_channel_sends_total', { channel: 'sandbox', outcome: 'sent' })).toBeGreaterThanOrEqual(1);
    const listed = { method: 'GET', route: '/api/tickets', status: '200' };
    expect(sample(after, 'zelo_http_request_duration_seconds_count', listed)).toBeGreaterThanOrEqual(1);
    expect(
      sample(after, 'zelo_http_request_duration_seconds_count', { route: '/api/messages/:ticketId', method: 'POST' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'zelo_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(after, 'zelo_channel_sessions', { channel: 'sandbox', status: 'CONNECTED' })).toBeGreaterThanOrEqual(
      1,
    );
    // the installation's counts are read at most every 5 s: the connection shows by the next reading
    await until(
      async () =>
        (sample((await scrape()).text, 'zelo_connections', { channel: 'sandbox', status: 'CONNECTED' }) ?? 0) >= 1,
      8000,
    );
    expect(sample(after, 'zelo_queue_depth', { queue: 'inbound_deliveries', state: 'pending' })).toBe(0);
    expect(sample(after, 'zelo_inbound_dead_letters')).toBe(0);
    expect(sample(after, 'zelo_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'zelo_scrape_store_ok')).toBe(1);
    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(after, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    // no company, connection, contact, number or message text; no id in a route label
    for (const leak of [
      company,
      'Linha Confidencial',
      'Maria Sigilosa',
      customer,
      secret,
      'confidencial',
      tenant.email,
    ]) {
      expect(after).not.toContain(leak);
    }
    expect(after).not.toContain(`/api/messages/${ticketId}"`);
  });

  it('counts a delivery that fails as retried, and as dead-lettered after its last attempt', async () => {
    const before = (await scrape()).text;
    const deliveries = server.ctx.deliveries!;
    const row = { id: 0, companyId: 1, whatsappId: 1, kind: 'message', payload: '{not json', attempts: 0 };
    expect(await deliveries.runClaimed(row as never)).toBeTruthy();
    const after = (await scrape()).text;
    const delta = (outcome: string) =>
      (sample(after, 'zelo_inbound_deliveries_total', { outcome }) ?? 0) -
      (sample(before, 'zelo_inbound_deliveries_total', { outcome }) ?? 0);
    // an unreadable payload has no attempt left to make
    expect(delta('dead_lettered')).toBe(1);
    expect(delta('retried')).toBe(0);
  });
});

describe('health and readiness', () => {
  it('live and ready answer 200 on a server that can serve; /api/health is kept', async () => {
    expect(await server.request('GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await server.request('GET', '/api/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await server.request('GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { http: 'ok', database: 'ok', migrations: 'ok', jobs: 'off', redis: 'off' },
    });
  });

  it('ready answers 503 when the database lacks a migration this build ships, and 200 again once it has it', async () => {
    const { rows } = await server.database.executeSql(
      'delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning hash, created_at',
    );
    const removed = rows[0] as { hash: string; created_at: string };
    try {
      const behind = await server.request('GET', '/api/health/ready');
      expect(behind.status).toBe(503);
      expect(behind.body).toMatchObject({ status: 'unready', checks: { migrations: 'behind', database: 'ok' } });
    } finally {
      await server.database.executeSql('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [
        removed.hash,
        removed.created_at,
      ]);
    }
    expect((await server.request('GET', '/api/health/ready')).status).toBe(200);
  });

  it('ready answers 503 where JOBS=on until the jobs run, and while the node drains; live stays 200', async () => {
    const node = await startTestServer({ env: { JOBS: 'on' } });
    try {
      const starting = await node.request('GET', '/api/health/ready');
      expect(starting.status).toBe(503);
      expect(starting.body.checks.jobs).toBe('starting');
      node.ctx.jobs = { send: async () => null, insert: async () => undefined };
      expect((await node.request('GET', '/api/health/ready')).status).toBe(200);
      node.drain.start();
      const draining = await node.request('GET', '/api/health/ready');
      expect(draining.status).toBe(503);
      expect(draining.body.checks.http).toBe('draining');
      expect((await node.request('GET', '/api/health/live')).status).toBe(200);
    } finally {
      await node.close();
    }
  });
});

describe('the sample Grafana dashboard and alert rules', () => {
  const METRIC = /\b(?:zelo|nodejs|process)_[a-z0-9_]+\b/g;

  const expressions = () => {
    const dashboard = JSON.parse(readFileSync(resolve(DOCS, 'grafana-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const rules = parse(readFileSync(resolve(DOCS, 'alerts.yml'), 'utf8')) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const fromPanels = dashboard.panels.flatMap((p) => p.targets.map((t) => ({ where: p.title, expr: t.expr })));
    const fromRules = rules.groups.flatMap((g) => g.rules.map((r) => ({ where: r.alert, expr: String(r.expr) })));

    return { fromPanels, fromRules, alerts: fromRules.map((r) => r.where) };
  };

  it('has the alerts the operators asked for', () => {
    expect(expressions().alerts).toEqual(
      expect.arrayContaining([
        'ZeloDeadLettersGrowing',
        'ZeloConnectionDisconnected',
        'ZeloEventLoopLag',
        'ZeloHigh5xxRate',
      ]),
    );
  });

  it('uses only metrics that /metrics exposes', async () => {
    // a 5xx-free request, a histogram sample per route: every series the expressions read exists
    await server.request('GET', '/api/health');
    const text = (await scrape()).text;
    // a series with samples, or a declared family that has none yet (a job failure counter before any failure)
    const exposed = new Set(
      text
        .split('\n')
        .map((line) => (line.startsWith('# TYPE ') ? line.split(' ')[2] : /^[a-zA-Z_:][\w:]*/.exec(line)?.[0]))
        .filter(Boolean),
    );
    const { fromPanels, fromRules } = expressions();
    expect(fromPanels.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const { where, expr } of [...fromPanels, ...fromRules]) {
      const names = expr.match(METRIC) ?? [];
      expect(names.length, `${where}: ${expr}`).toBeGreaterThan(0);
      for (const name of names) if (!exposed.has(name)) missing.push(`${where}: ${name}`);
    }
    expect(missing).toEqual([]);
  });
});
