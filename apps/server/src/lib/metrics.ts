/**
 * What the server's parts count for `GET /metrics` (modules/ops/metrics.ts, issue 24 item 3), without
 * loading prom-client: the channel layer, the inbound deliveries and the job system report through this
 * small interface, whose default counts nothing. With `METRICS_TOKEN` unset the server keeps that default,
 * so metrics cost nothing where nobody reads them.
 *
 * Labels are fixed words (outcomes, channel types, job names), never a tenant's name, id or number.
 */

export type TInboundOutcome = 'received' | 'processed' | 'retried' | 'dead_lettered';
export type TSendOutcome = 'sent' | 'failed';

export type TMetrics = {
  readonly on: boolean;
  /** a delivery stored (received), handled (processed), failed with attempts left (retried) or given up */
  inbound: (outcome: TInboundOutcome) => void;
  /** a send run on a session of this node, by channel type (sandbox, baileys, cloud-api) */
  send: (channel: string, outcome: TSendOutcome) => void;
  /** a pg-boss job failed (it is retried or kept failed by pg-boss) */
  jobFailed: (queue: string) => void;
};

export const NO_METRICS: TMetrics = {
  on: false,
  inbound: () => undefined,
  send: () => undefined,
  jobFailed: () => undefined,
};
