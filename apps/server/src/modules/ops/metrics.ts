import { CHANNEL_PROVIDERS, CONNECTION_STATUSES } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { TDatabase } from '../../db/client';
import type { TMetrics } from '../../lib/metrics';
import { storeCounts, type TStoreCounts } from './ops.repo';

/**
 * The Prometheus metrics of one server (issue 24 item 3), loaded only when `METRICS_TOKEN` is set
 * (app.ts), in prom-client's text format at `GET /metrics` (ops.routes.ts). Names and what they count are
 * listed in docs/operations/metrics.md; docs/operations/ holds a Grafana dashboard and alert rules that
 * only use names this file defines (checked by ops.test.ts).
 *
 * Cost: counting happens in the request's `onResponse` hook (one observation on a kept histogram child) and where the parts
 * report through `lib/metrics.ts` (one counter increment). What needs the database — connections by
 * channel type and status, inbound deliveries pending and dead, integration deliveries and pg-boss jobs
 * waiting — is read when Prometheus scrapes, at most once per `STORE_TTL_MS`, with small `count(*) group
 * by` statements over the indexed status columns; each node shows the same installation-wide figures (take
 * `max` across instances). Node's own figures (memory, event-loop lag, GC, handles) are prom-client's
 * default metrics, collected once per process.
 *
 * No label carries a tenant's data: routes are their patterns (`/api/tickets/:ticketId`), channels their
 * type, queues their job names.
 */

/** the database-derived figures are read again after this (a scrape every 15 s reads them every time) */
const STORE_TTL_MS = 5_000;

/** the node's figures the server hands over once its parts exist (app.ts) */
export type TMetricSources = {
  database: TDatabase;
  /** Socket.IO clients connected to this node */
  sockets: () => number;
  /** this node's channel sessions (held lease) by channel type and last reported status */
  sessions: () => { channel: string; status: string }[];
  /** HTTP requests being answered now */
  inFlight: () => number;
};

export type TServerMetrics = TMetrics & {
  /** counts every HTTP answer by route pattern, method and status, with its latency */
  installHttp: (app: FastifyInstance) => void;
  bind: (sources: TMetricSources) => void;
  /** the text exposition of this server's and the process's metrics */
  render: () => Promise<string>;
  contentType: string;
  /** every metric name this server exposes (docs check) */
  names: () => string[];
};

type TProm = typeof import('prom-client');

let processRegistry: Registry | undefined;
/** Node's own metrics, registered once per process (tests run several servers in one) */
const processMetrics = (prom: TProm) => {
  if (!processRegistry) {
    processRegistry = new prom.Registry();
    prom.collectDefaultMetrics({ register: processRegistry });
  }

  return processRegistry;
};

/** prom-client is loaded here, on the first server with metrics on */
export const createServerMetrics = async (version: string): Promise<TServerMetrics> => {
  const prom: TProm = await import('prom-client');
  const { Counter, Gauge, Histogram } = prom;
  const registry = new prom.Registry();
  const registers = [registry];
  let sources: TMetricSources | undefined;
  let store: { at: number; counts: Promise<TStoreCounts | undefined> } | undefined;

  /** the installation's counts, read at most once per STORE_TTL_MS; undefined when the database did not answer */
  const counts = () => {
    const database = sources?.database;
    if (!database) return Promise.resolve(undefined);
    if (!store || Date.now() - store.at > STORE_TTL_MS) {
      store = { at: Date.now(), counts: storeCounts(database.db).catch(() => undefined) };
    }

    return store.counts;
  };

  new Gauge({
    name: 'zelo_build_info',
    help: 'Always 1, labelled with the Zelo version this node runs.',
    labelNames: ['version'],
    registers,
  }).set({ version }, 1);

  const http = new Histogram({
    name: 'zelo_http_request_duration_seconds',
    help: 'HTTP answers by method, route pattern and status code, with the time to answer.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  new Gauge({
    name: 'zelo_http_requests_in_flight',
    help: 'HTTP requests this node is answering now.',
    registers,
    collect() {
      this.set(sources?.inFlight() ?? 0);
    },
  });
  new Gauge({
    name: 'zelo_socket_connections',
    help: 'Socket.IO clients connected to this node.',
    registers,
    collect() {
      this.set(sources?.sockets() ?? 0);
    },
  });

  const inbound = new Counter({
    name: 'zelo_inbound_deliveries_total',
    help: 'Inbound deliveries handled by this node: received (stored), processed, retried (failed, attempts left), dead_lettered (attempts exhausted).',
    labelNames: ['outcome'],
    registers,
  });
  for (const outcome of ['received', 'processed', 'retried', 'dead_lettered']) inbound.inc({ outcome }, 0);
  const sends = new Counter({
    name: 'zelo_channel_sends_total',
    help: 'Sends run on the channel sessions this node holds, by channel type and outcome (sent, failed).',
    labelNames: ['channel', 'outcome'],
    registers,
  });
  for (const channel of CHANNEL_PROVIDERS) for (const outcome of ['sent', 'failed']) sends.inc({ channel, outcome }, 0);
  const jobFailures = new Counter({
    name: 'zelo_job_failures_total',
    help: 'pg-boss jobs that failed on this node, by job name.',
    labelNames: ['queue'],
    registers,
  });

  new Gauge({
    name: 'zelo_channel_sessions',
    help: 'Channel sessions this node holds (its lease), by channel type and last reported status.',
    labelNames: ['channel', 'status'],
    registers,
    collect() {
      this.reset();
      for (const channel of CHANNEL_PROVIDERS)
        for (const status of CONNECTION_STATUSES) this.set({ channel, status }, 0);
      for (const s of sources?.sessions() ?? []) this.inc({ channel: s.channel, status: s.status });
    },
  });
  new Gauge({
    name: 'zelo_connections',
    help: 'Connections of every company by channel type and stored status (the installation; the same on every node).',
    labelNames: ['channel', 'status'],
    registers,
    async collect() {
      const c = await counts();
      if (!c) return;
      this.reset();
      for (const channel of CHANNEL_PROVIDERS)
        for (const status of CONNECTION_STATUSES) this.set({ channel, status }, 0);
      for (const row of c.connections) this.set({ channel: row.provider, status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'zelo_inbound_dead_letters',
    help: "Inbound deliveries kept failed after their last attempt (the companies' dead-letter lists), installation-wide.",
    registers,
    async collect() {
      const c = await counts();
      if (c) this.set(c.deliveries.find((d) => d.status === 'failed')?.count ?? 0);
    },
  });
  new Gauge({
    name: 'zelo_queue_depth',
    help: 'Work waiting, installation-wide: inbound deliveries pending, integration deliveries pending, and pg-boss jobs by job name and state (created, retry, active).',
    labelNames: ['queue', 'state'],
    registers,
    async collect() {
      const c = await counts();
      if (!c) return;
      this.reset();
      this.set(
        { queue: 'inbound_deliveries', state: 'pending' },
        c.deliveries.find((d) => d.status === 'pending')?.count ?? 0,
      );
      this.set({ queue: 'integration_deliveries', state: 'pending' }, c.integrationPending);
      for (const job of c.jobs) this.set({ queue: job.queue, state: job.state }, job.count);
    },
  });
  new Gauge({
    name: 'zelo_db_pool_connections',
    help: 'Database connections of this node: total, idle, and requests waiting for one (PGlite: one connection).',
    labelNames: ['state'],
    registers,
    collect() {
      const pool = sources?.database.pool;
      this.set({ state: 'total' }, pool ? pool.totalCount : sources ? 1 : 0);
      this.set({ state: 'idle' }, pool ? pool.idleCount : 0);
      this.set({ state: 'waiting' }, pool ? pool.waitingCount : 0);
    },
  });
  new Gauge({
    name: 'zelo_scrape_store_ok',
    help: '1 when the database answered the counts of this scrape, else 0 (the installation-wide gauges kept their last values).',
    registers,
    async collect() {
      this.set((await counts()) ? 1 : 0);
    },
  });

  const defaults = processMetrics(prom);

  return {
    on: true,
    inbound: (outcome) => inbound.inc({ outcome }),
    send: (channel, outcome) => sends.inc({ channel, outcome }),
    jobFailed: (queue) => jobFailures.inc({ queue }),
    installHttp: (app) => {
      // one histogram child per method, route and status, kept: no label object hashed per request
      const children = new Map<string, ReturnType<typeof http.labels>>();
      app.addHook('onResponse', (request, reply, done) => {
        const route = request.routeOptions.url ?? 'unmatched';
        const key = `${request.method} ${reply.statusCode} ${route}`;
        let child = children.get(key);
        if (!child) {
          child = http.labels(request.method, route, String(reply.statusCode));
          children.set(key, child);
        }
        child.observe(reply.elapsedTime / 1000);
        done();
      });
    },
    bind: (next) => {
      sources = next;
    },
    render: async () => `${await registry.metrics()}\n${await defaults.metrics()}`,
    contentType: registry.contentType,
    names: () => [
      ...registry.getMetricsAsArray().map((m) => m.name),
      ...defaults.getMetricsAsArray().map((m) => m.name),
    ],
  };
};
