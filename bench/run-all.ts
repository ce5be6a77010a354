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
import { contactsPostgres, contactsTable, type TContactsResult } from './contacts';
import { DASHBOARD_DEFAULTS, dashboardPostgres, dashboardTable, type TDashboardResult } from './dashboard';
import { KANBAN_DEFAULTS, kanbanPostgres, kanbanTable, type TKanbanResult } from './kanban';
import { machine } from './lib';
import { quietLine, takeBenchLock, waitForQuiet } from './quiet';
import { SHEET_DEFAULTS, sheetBombs, sheetBombsTable, type TSheetBench } from './sheet-bombs';
import { SCHEDULES_DEFAULTS, schedulesPostgres, schedulesTable, type TSchedulesResult } from './schedules';
import { REPORTS_DEFAULTS, reportsPostgres, reportsTable, type TReportsRun } from './reports';
import { FAIRNESS_DEFAULTS, fairnessInChild, fairnessTable, type TFairnessResult } from './tenant-fairness';

type TBenchName =
  | 'cold'
  | 'load'
  | 'inbox'
  | 'cloud'
  | 'kanban'
  | 'contacts'
  | 'schedules'
  | 'dashboard'
  | 'campaigns'
  | 'contact-lists'
  | 'flows'
  | 'sheets'
  | 'fairness'
  | 'reports';

const { values } = parseArgs({
  options: {
    only: { type: 'string' }, // cold | load | inbox | conversation | lists | contacts | cloud | kanban | schedules | dashboard | campaigns | contact-lists | flows | sheets | fairness | reports
    db: { type: 'string' }, // pglite | postgres
    runs: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '20' },
    // reports: closed-loop admins reading each report
    'reports-clients': { type: 'string', default: String(REPORTS_DEFAULTS.clients) },
    // inbox: generated data size on PostgreSQL and on PGlite, inbound requests in flight
    tickets: { type: 'string', default: '100000' },
    'pglite-tickets': { type: 'string', default: '20000' },
    // kanban: open and pending tickets on the board, and which servers (kept answers, LIST_ANSWERS=off, both)
    'kanban-tickets': { type: 'string', default: String(KANBAN_DEFAULTS.tickets) },
    'kanban-answers': { type: 'string', default: KANBAN_DEFAULTS.answers },
    // dashboard: attendance cycles of the one company
    'dashboard-cycles': { type: 'string', default: String(DASHBOARD_DEFAULTS.cycles) },
    // campaigns: recipients of the big campaign (planned, then dispatched with intervals 0)
    'campaign-recipients': { type: 'string', default: String(CAMPAIGN_DEFAULTS.recipients) },
    // campaigns: measure the dispatch over this many seconds only (0 = until the campaign finishes)
    'campaign-window': { type: 'string', default: String(CAMPAIGN_DEFAULTS.windowSeconds) },
    // flows: customers walking the 10-node flow at once, timed steps one customer at a time
    'flow-customers': { type: 'string', default: String(FLOW_DEFAULTS.customers) },
    'flow-steps': { type: 'string', default: String(FLOW_DEFAULTS.latencySamples) },
    // fairness: company A's looping flows, company B's inbound samples (quiet, then loaded), the flow budget on|off
    'fairness-loops': { type: 'string', default: String(FAIRNESS_DEFAULTS.loops) },
    'fairness-samples': { type: 'string', default: String(FAIRNESS_DEFAULTS.samples) },
    'fairness-budgets': { type: 'string', default: 'on' },
    // contact-lists: rows of the imported spreadsheet
    'contact-rows': { type: 'string', default: String(CONTACT_LIST_DEFAULTS.rows) },
    // sheets: size of the spreadsheet bomb uploaded three at a time
    'sheet-mb': { type: 'string', default: String(SHEET_DEFAULTS.mb) },
    'in-flight': { type: 'string', default: String(INBOX_DEFAULTS.inboundConcurrency) },
    // cloud: signed webhook deliveries per burst, and measured bursts
    burst: { type: 'string', default: String(CLOUD_WEBHOOK_DEFAULTS.concurrency) },
    bursts: { type: 'string', default: String(CLOUD_WEBHOOK_DEFAULTS.rounds) },
    // the quiet guard: seconds to wait for a 1-minute load average under 1.5 before running anyway, marked "loaded"
    'max-wait': { type: 'string', default: process.env.BENCH_MAX_WAIT ?? '600' },
  },
});

const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** `conversation` is the inbox's conversation page (and its lists under writes) alone, on PostgreSQL by default */
const conversationOnly = values.only === 'conversation';
/** `lists` is the inbox's 20 agents' lists while customers write on their tickets, on PostgreSQL by default */
const listsOnly = values.only === 'lists';
const wants = (what: TBenchName, db: 'pglite' | 'postgres') =>
  conversationOnly || listsOnly
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
  ...(listsOnly ? { only: 'lists' as const, listWritingRates: [50, 200] } : {}),
};
const inbox: TInboxResult[] = [];
const cloud: TCloudWebhookResult[] = [];
const cloudOpts = { concurrency: Number(values.burst), rounds: Number(values.bursts) };
const cold: TColdStart[] = [];
const kanban: TKanbanResult[] = [];
const contacts: TContactsResult[] = [];
const schedules: TSchedulesResult[] = [];
const dashboard: TDashboardResult[] = [];
const campaigns: TCampaignBench[] = [];
const flows: TFlowBench[] = [];
const sheets: TSheetBench[] = [];
const load: TLoadResult[] = [];
// one benchmark at a time, on a quiet machine (quiet.ts)
await takeBenchLock();
const quiet = await waitForQuiet(Number(values['max-wait']));
console.log(quietLine(quiet));
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
for (const db of ['pglite', 'postgres'] as const) {
  if (!wants('sheets', db)) continue;
  console.log(`spreadsheet bombs, ${db}`);
  sheets.push(
    ...(await sheetBombs(db, pgUrl, {
      mb: Number(values['sheet-mb']),
      seconds: Number(values.seconds),
      warmupSeconds: Number(values.warmup),
    })),
  );
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
const fairness: TFairnessResult[] = [];
const fairnessOpts = {
  ...FAIRNESS_DEFAULTS,
  loops: Number(values['fairness-loops']),
  samples: Number(values['fairness-samples']),
  budgets: values['fairness-budgets'] !== 'off',
};
if (wants('fairness', 'pglite')) {
  console.log('tenant fairness, PGlite');
  fairness.push(await fairnessInChild('pglite', fairnessOpts));
}
if (wants('fairness', 'postgres')) {
  console.log('tenant fairness, PostgreSQL');
  fairness.push(await fairnessInChild('postgres', fairnessOpts, pgUrl));
}
if (wants('kanban', 'postgres')) {
  console.log('kanban board, PostgreSQL');
  kanban.push(
    ...(await kanbanPostgres(
      {
        ...KANBAN_DEFAULTS,
        ...loadOpts,
        ...(values.only === 'kanban' ? { tickets: Number(values['kanban-tickets']) } : {}),
        answers: values['kanban-answers'] as (typeof KANBAN_DEFAULTS)['answers'],
      },
      pgUrl,
    )),
  );
}
if (wants('contacts', 'postgres')) {
  console.log('contacts and tags pages, PostgreSQL');
  contacts.push(...(await contactsPostgres({ ...loadOpts, tickets: Number(values.tickets) }, pgUrl)));
}
let reports: TReportsRun | undefined;
if (wants('reports', 'postgres')) {
  console.log('reports over 12 months, PostgreSQL');
  reports = await reportsPostgres(
    { ...loadOpts, clients: Number(values['reports-clients']), tickets: Number(values.tickets) },
    pgUrl,
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
  quietLine(quiet),
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
  ...(sheets.length
    ? [
        `## Spreadsheet bombs, three uploads at once (${loadOpts.warmupSeconds} s warm-up not counted, ${loadOpts.seconds} s measured)`,
        '',
        sheetBombsTable(sheets),
        '',
      ]
    : []),
  ...(fairness.length
    ? ["## Tenant fairness (one company's looping flows vs another's inbound)", '', fairnessTable(fairness), '']
    : []),
  ...(kanban.length
    ? [`## Kanban board (${loadOpts.warmupSeconds} s warm-up not counted)`, '', kanbanTable(kanban), '']
    : []),
  ...(contacts.length
    ? [
        `## Contacts and tags pages, kept answers off (${loadOpts.warmupSeconds} s warm-up not counted)`,
        '',
        contactsTable(contacts),
        '',
      ]
    : []),
  ...(reports
    ? [`## Reports and exports (${loadOpts.warmupSeconds} s warm-up not counted)`, '', reportsTable(reports), '']
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
    {
      machine: machine(),
      quiet,
      loadAverage: {
        before: loadBefore,
        after: loadavg()
          .map((l) => l.toFixed(2))
          .join(' '),
      },
      cold,
      load,
      inbox,
      cloud,
      kanban,
      contacts,
      reports,
      schedules,
      dashboard,
      campaigns,
      contactLists,
      flows,
      sheets,
      fairness,
    },
    null,
    2,
  ),
);
console.log(`\n${report}`);
console.log(`written to bench/results/${stamp}.md`);
