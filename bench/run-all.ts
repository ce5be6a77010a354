import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { authLoadPglite, authLoadPostgres, loadTable, type TLoadResult } from './auth-load';
import { CAMPAIGN_DEFAULTS, campaignsPostgres, campaignsTable, type TCampaignBench } from './campaigns';
import { FLOW_DEFAULTS, flowsPostgres, flowsTable, type TFlowBench } from './flows';
import {
  CLOUD_WEBHOOK_DEFAULTS,
  cloudWebhookPglite,
  cloudWebhookPostgres,
  cloudWebhookTable,
  type TCloudWebhookResult,
} from './cloud-webhook';
import { coldStartPglite, coldStartPostgres, coldStartTable, type TColdStart } from './cold-start';
import { INBOX_DEFAULTS, inboxPglite, inboxPostgres, inboxTables, type TInboxResult } from './inbox';
import { CONTACT_LIST_DEFAULTS, contactListImports, contactListsTable } from './contact-lists';
import { DASHBOARD_DEFAULTS, dashboardPostgres, dashboardTable, type TDashboardResult } from './dashboard';
import { KANBAN_DEFAULTS, kanbanPostgres, kanbanTable, type TKanbanResult } from './kanban';
import { machine } from './lib';
import { SCHEDULES_DEFAULTS, schedulesPostgres, schedulesTable, type TSchedulesResult } from './schedules';

type TBenchName =
  | 'cold'
  | 'load'
  | 'inbox'
  | 'cloud'
  | 'kanban'
  | 'schedules'
  | 'dashboard'
  | 'campaigns'
  | 'contact-lists'
  | 'flows';

const { values } = parseArgs({
  options: {
    only: { type: 'string' }, // cold | load | inbox | conversation | cloud | kanban | schedules | dashboard | campaigns | contact-lists | flows
    db: { type: 'string' }, // pglite | postgres
    runs: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '20' },
    // inbox: generated data size on PostgreSQL and on PGlite, inbound requests in flight
    tickets: { type: 'string', default: '100000' },
    'pglite-tickets': { type: 'string', default: '20000' },
    // kanban: open and pending tickets on the board
    'kanban-tickets': { type: 'string', default: String(KANBAN_DEFAULTS.tickets) },
    // dashboard: attendance cycles of the one company
    'dashboard-cycles': { type: 'string', default: String(DASHBOARD_DEFAULTS.cycles) },
    // campaigns: recipients of the big campaign (planned, then dispatched with intervals 0)
    'campaign-recipients': { type: 'string', default: String(CAMPAIGN_DEFAULTS.recipients) },
    // campaigns: measure the dispatch over this many seconds only (0 = until the campaign finishes)
    'campaign-window': { type: 'string', default: String(CAMPAIGN_DEFAULTS.windowSeconds) },
    // flows: customers walking the 10-node flow at once, timed steps one customer at a time
    'flow-customers': { type: 'string', default: String(FLOW_DEFAULTS.customers) },
    'flow-steps': { type: 'string', default: String(FLOW_DEFAULTS.latencySamples) },
    // contact-lists: rows of the imported spreadsheet
    'contact-rows': { type: 'string', default: String(CONTACT_LIST_DEFAULTS.rows) },
    'in-flight': { type: 'string', default: String(INBOX_DEFAULTS.inboundConcurrency) },
    // cloud: signed webhook deliveries per burst, and measured bursts
    burst: { type: 'string', default: String(CLOUD_WEBHOOK_DEFAULTS.concurrency) },
    bursts: { type: 'string', default: String(CLOUD_WEBHOOK_DEFAULTS.rounds) },
  },
});

const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** `conversation` is the inbox's conversation page (and its lists under writes) alone, on PostgreSQL by default */
const conversationOnly = values.only === 'conversation';
const wants = (what: TBenchName, db: 'pglite' | 'postgres') =>
  conversationOnly
    ? what === 'inbox' && (values.db ?? 'postgres') === db
    : (!values.only || values.only === what) && (!values.db || values.db === db);
const runs = Number(values.runs);
const loadOpts = {
  concurrency: Number(values.concurrency),
  seconds: Number(values.seconds),
  warmupSeconds: Number(values.warmup),
};

const inboxOpts = {
  ...INBOX_DEFAULTS,
  concurrency: Number(values.concurrency),
  seconds: Number(values.seconds),
  warmupSeconds: Number(values.warmup),
  inboundConcurrency: Number(values['in-flight']),
  ...(conversationOnly ? { only: 'conversation' as const } : {}),
};
const inbox: TInboxResult[] = [];
const cloud: TCloudWebhookResult[] = [];
const cloudOpts = { concurrency: Number(values.burst), rounds: Number(values.bursts) };
const cold: TColdStart[] = [];
const kanban: TKanbanResult[] = [];
const schedules: TSchedulesResult[] = [];
const dashboard: TDashboardResult[] = [];
const campaigns: TCampaignBench[] = [];
const flows: TFlowBench[] = [];
const load: TLoadResult[] = [];
const started = new Date();
const loadBefore = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
console.log(`machine: ${machine()}`);

if (wants('cold', 'pglite')) {
  console.log('cold start, PGlite');
  cold.push(await coldStartPglite(runs));
}
if (wants('cold', 'postgres')) {
  console.log('cold start, PostgreSQL');
  cold.push(await coldStartPostgres(runs, pgUrl));
}
if (wants('load', 'pglite')) {
  console.log('auth load, PGlite');
  load.push(...(await authLoadPglite(loadOpts)));
}
if (wants('load', 'postgres')) {
  console.log('auth load, PostgreSQL');
  load.push(...(await authLoadPostgres(loadOpts, pgUrl)));
}
if (wants('inbox', 'postgres')) {
  console.log('inbox, PostgreSQL');
  inbox.push(await inboxPostgres({ ...inboxOpts, tickets: Number(values.tickets) }, pgUrl));
}
if (wants('inbox', 'pglite')) {
  console.log('inbox, PGlite');
  inbox.push(await inboxPglite({ ...inboxOpts, tickets: Number(values['pglite-tickets']) }));
}
if (wants('cloud', 'pglite')) {
  console.log('Cloud API webhook, PGlite');
  cloud.push(await cloudWebhookPglite(cloudOpts));
}
if (wants('cloud', 'postgres')) {
  console.log('Cloud API webhook, PostgreSQL');
  cloud.push(await cloudWebhookPostgres(cloudOpts, pgUrl));
}
if (wants('campaigns', 'postgres')) {
  console.log('campaign dispatch, PostgreSQL');
  campaigns.push(
    await campaignsPostgres(pgUrl, {
      ...CAMPAIGN_DEFAULTS,
      recipients: Number(values['campaign-recipients']),
      windowSeconds: Number(values['campaign-window']),
    }),
  );
}
const contactLists: string[] = [];
for (const db of ['pglite', 'postgres'] as const) {
  if (!wants('contact-lists', db)) continue;
  console.log(`contact-list import, ${db}`);
  contactLists.push(...(await contactListImports(db, pgUrl, Number(values['contact-rows']))));
}
if (wants('flows', 'postgres')) {
  console.log('flow engine, PostgreSQL');
  flows.push(
    await flowsPostgres(pgUrl, {
      ...FLOW_DEFAULTS,
      customers: Number(values['flow-customers']),
      latencySamples: Number(values['flow-steps']),
    }),
  );
}
if (wants('kanban', 'postgres')) {
  console.log('kanban board, PostgreSQL');
  kanban.push(
    ...(await kanbanPostgres(
      {
        ...KANBAN_DEFAULTS,
        ...loadOpts,
        ...(values.only === 'kanban' ? { tickets: Number(values['kanban-tickets']) } : {}),
      },
      pgUrl,
    )),
  );
}
if (wants('dashboard', 'postgres')) {
  console.log('dashboard, PostgreSQL');
  dashboard.push(
    ...(await dashboardPostgres(
      {
        ...DASHBOARD_DEFAULTS,
        ...loadOpts,
        ...(values.only === 'dashboard' ? { cycles: Number(values['dashboard-cycles']) } : {}),
      },
      pgUrl,
    )),
  );
}

if (wants('schedules', 'postgres')) {
  console.log('scheduled messages, PostgreSQL');
  schedules.push(...(await schedulesPostgres(SCHEDULES_DEFAULTS, pgUrl)));
}

const report = [
  `# Zelo benchmarks, ${started.toISOString()}`,
  '',
  `machine: ${machine()}`,
  '',
  `load average (1/5/15 min) at start: ${loadBefore}; at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
  '',
  `command: npm run bench -w bench -- ${process.argv.slice(2).join(' ')}`.trimEnd(),
  '',
  ...(cold.length ? ['## Cold start to ready (existing database)', '', coldStartTable(cold), ''] : []),
  ...(load.length
    ? [`## Auth routes under load (${loadOpts.warmupSeconds} s warm-up not counted)`, '', loadTable(load), '']
    : []),
  ...(inbox.length
    ? [
        `## Inbox (${inboxOpts.warmupSeconds} s warm-up not counted, ${inboxOpts.seconds} s measured)`,
        '',
        inboxTables(inbox),
        '',
      ]
    : []),
  ...(campaigns.length ? ['## Campaign dispatch (PostgreSQL)', '', ...campaigns.map(campaignsTable), ''] : []),
  ...(flows.length ? ['## Flow engine (PostgreSQL)', '', ...flows.map(flowsTable), ''] : []),
  ...(contactLists.length ? ['## Contact-list import', '', contactListsTable(contactLists), ''] : []),
  ...(kanban.length
    ? [`## Kanban board (${loadOpts.warmupSeconds} s warm-up not counted)`, '', kanbanTable(kanban), '']
    : []),
  ...(schedules.length
    ? ['## Scheduled messages (lateness of sentAt after sendAt)', '', schedulesTable(schedules), '']
    : []),
  ...(dashboard.length
    ? [
        `## Dashboard, 90-day window (${loadOpts.warmupSeconds} s warm-up not counted)`,
        '',
        dashboardTable(dashboard),
        '',
      ]
    : []),
  ...(cloud.length
    ? [
        `## Cloud API webhook (bursts of ${cloudOpts.concurrency} signed deliveries, 1 warm-up burst not counted)`,
        '',
        cloudWebhookTable(cloud),
        '',
      ]
    : []),
].join('\n');

const dir = resolve(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
const stamp = started.toISOString().replace(/[:.]/g, '-');
writeFileSync(resolve(dir, `${stamp}.md`), report);
writeFileSync(
  resolve(dir, `${stamp}.json`),
  JSON.stringify(
    { machine: machine(), cold, load, inbox, cloud, kanban, schedules, dashboard, campaigns, contactLists, flows },
    null,
    2,
  ),
);
console.log(`\n${report}`);
console.log(`written to bench/results/${stamp}.md`);
