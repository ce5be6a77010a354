import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase, runMigrations } from './db/client';
import { acquireDirLock } from './db/lock';
import type { TJobs } from './jobs/boss';
import { periodicJobs } from './jobs/periodic';
import { housekeepingJobs } from './inbound/housekeeping';
import { campaignJobs } from './modules/campaigns/campaign-jobs';
import { createCampaignSender, startCampaignTicker } from './modules/campaigns/dispatch';
import { createDashboardFold } from './modules/dashboard/dashboard.fold';
import { startDeliverySweep } from './modules/queue-integrations/runtime/deliveries';
import { startFlowTicker } from './modules/flows/engine/runner';
import { ensureSuperUser } from './lib/seed';
import { createScheduleSender } from './modules/schedules/schedule-sender';

const started = performance.now();
const config = loadConfig();
const logger = pino({ level: config.logLevel });

const releaseLock = config.databaseUrl ? () => undefined : acquireDirLock(config.dataDir);
const database = await openDatabase(config);
await runMigrations(database);
await ensureSuperUser(database.db, { email: config.adminEmail, password: config.adminPassword, log: logger });
const { app, ctx } = await buildApp({ config, database, logger });
await app.listen({ port: config.port, host: config.host });

// "ready" means serving HTTP; no request needs pg-boss, so the jobs start after it (and log their own line)
const readyMs = Math.round(performance.now() - started);
logger.info(
  { port: config.port, database: database.kind, readyMs },
  `Zelo ready on ${config.publicUrl} in ${readyMs} ms`,
);

let stopCampaignTicker: () => void = () => undefined;
let stopFlowTicker: () => void = () => undefined;
// pg-boss is loaded only where jobs run (JOBS=on)
const jobs: Promise<TJobs | undefined> = config.jobs
  ? import('./jobs/boss')
      .then(({ startJobs }) =>
        startJobs(
          database,
          [
            ...periodicJobs(database.db, { invoiceLeadDays: config.invoiceLeadDays }),
            ...housekeepingJobs(ctx),
            ...campaignJobs(ctx),
          ],
          logger,
        ),
      )
      .then((running) => {
        logger.info({ jobsReadyMs: Math.round(performance.now() - started) }, 'jobs started');
        // services add jobs through the context; the campaign tick runs on this node too (claims keep nodes apart)
        ctx.jobs = running;
        stopCampaignTicker = startCampaignTicker(ctx);
        // flow intervals due (after a restart, or planned on another node)
        stopFlowTicker = startFlowTicker(ctx);

        return running;
      })
  : Promise.resolve(undefined);
// scheduled messages leave from a timer of their own on every node that runs jobs (atomic claims keep them once)
const scheduleSender = config.jobs ? createScheduleSender(ctx) : undefined;
scheduleSender?.start();
// n8n / webhook deliveries due a retry leave from a sweep on every node that runs jobs (atomic claims)
const stopDeliverySweep = config.jobs ? startDeliverySweep(ctx) : () => undefined;
// the dashboard's deltas folded into its rollup every second (concurrent folds on other nodes take other deltas)
const dashboardFold = config.jobs ? createDashboardFold(ctx) : undefined;
dashboardFold?.start();
// campaign recipients likewise: a timer for the next planned send, due recipients claimed in batches
const campaignSender = config.jobs ? createCampaignSender(ctx) : undefined;
campaignSender?.start();
jobs.catch((err) => {
  logger.fatal({ err }, 'the job system did not start');
  process.exit(1);
});

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await scheduleSender?.stop();
    await campaignSender?.stop();
    stopCampaignTicker();
    stopDeliverySweep();
    await dashboardFold?.stop();
    stopFlowTicker();
    await (await jobs.catch(() => undefined))?.stop();
    await app.close();
    await database.close();
  } finally {
    releaseLock();
    process.exit(0);
  }
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
