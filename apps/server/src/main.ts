import { performance } from 'node:perf_hooks';
import { buildApp } from './app';
import { startSnapshotService } from './backup/snapshot';
import { loadConfig } from './config';
import { openDatabase, runMigrations } from './db/client';
import { acquireDirLock } from './db/lock';
import { sealLegacySecrets } from './db/seal-legacy-secrets';
import type { TJobs } from './jobs/boss';
import { periodicJobs } from './jobs/periodic';
import { testRunJobs } from './modules/flows/test-run';
import { housekeepingJobs } from './inbound/housekeeping';
import { campaignJobs } from './modules/campaigns/campaign-jobs';
import { createCampaignSender, startCampaignTicker } from './modules/campaigns/dispatch';
import { createDashboardFold } from './modules/dashboard/dashboard.fold';
import { createMetricsRunner } from './modules/reports/metrics-compute';
import { weeklyMailJobs } from './modules/reports/weekly-mail';
import { startDeliverySweep } from './modules/queue-integrations/runtime/deliveries';
import { startFlowTicker } from './modules/flows/engine/runner';
import { startSlaTicker } from './modules/sla';
import { createLogger } from './lib/logger';
import { useSecretKey } from './lib/secrets';
import { ensureSuperUser } from './lib/seed';
import { usePasswordRounds } from './modules/users/passwords';
import { createScheduleSender } from './modules/schedules/schedule-sender';

const started = performance.now();
const config = loadConfig();
const logger = createLogger({ level: config.logLevel });

const releaseLock = config.databaseUrl ? () => undefined : acquireDirLock(config.dataDir);
const database = await openDatabase(config);
// rows written before secrets were sealed are sealed with this server's key, right after the schema moves
useSecretKey(config.secretKey);
await runMigrations(database, async (db) => {
  const sealed = await sealLegacySecrets(db);
  if (sealed > 0) logger.info({ connections: sealed }, 'connection secrets sealed at rest');
});
usePasswordRounds(config.passwordHashRounds);
await ensureSuperUser(database.db, { email: config.adminEmail, password: config.adminPassword, log: logger });
const { app, ctx, drain } = await buildApp({ config, database, logger });
await app.listen({ port: config.port, host: config.host });
// embedded: `npm run backup` asks this process for a consistent copy of its database (backup/snapshot.ts)
const stopSnapshots =
  database.kind === 'pglite'
    ? await startSnapshotService({ dataDir: config.dataDir, pglite: database.pglite!, log: logger })
    : undefined;

// "ready" means serving HTTP; no request needs pg-boss, so the jobs start after it (and log their own line)
const readyMs = Math.round(performance.now() - started);
logger.info(
  { port: config.port, database: database.kind, readyMs },
  `Zelo ready on ${config.publicUrl} in ${readyMs} ms`,
);

let stopCampaignTicker: () => void = () => undefined;
let stopFlowTicker: () => void = () => undefined;
let stopSlaTicker: () => void = () => undefined;
// pg-boss is loaded only where jobs run (JOBS=on)
const jobs: Promise<TJobs | undefined> = config.jobs
  ? import('./jobs/boss')
      .then(({ startJobs }) =>
        startJobs(
          database,
          [
            ...periodicJobs(database.db, { invoiceLeadDays: config.invoiceLeadDays }),
            ...housekeepingJobs(ctx),
            ...testRunJobs(ctx),
            ...campaignJobs(ctx),
            ...weeklyMailJobs(ctx),
          ],
          logger,
          ctx.metrics,
        ),
      )
      .then((running) => {
        logger.info({ jobsReadyMs: Math.round(performance.now() - started) }, 'jobs started');
        // services add jobs through the context; the campaign tick runs on this node too (claims keep nodes apart)
        ctx.jobs = running;
        stopCampaignTicker = startCampaignTicker(ctx);
        // flow intervals due (after a restart, or planned on another node)
        stopFlowTicker = startFlowTicker(ctx);
        // service-level due times and missed targets (claims keep a breach to one node)
        stopSlaTicker = startSlaTicker(ctx, config.slaCheckMs);

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
// attendance metrics: the figures of replies and resolutions, and the backfill of older cycles (SKIP LOCKED batches)
const metricsRunner = config.jobs ? createMetricsRunner(ctx) : undefined;
metricsRunner?.start();
// campaign recipients likewise: a timer for the next planned send, due recipients claimed in batches
const campaignSender = config.jobs ? createCampaignSender(ctx) : undefined;
campaignSender?.start();
jobs.catch((err) => {
  logger.fatal({ err }, 'the job system did not start');
  process.exit(1);
});

/**
 * The graceful stop (issue 24 item 3): readiness answers 503 at once; after SHUTDOWN_DELAY_MS (the load
 * balancer's time to notice) the listener closes and idle keep-alive connections with it; the requests in
 * flight get up to SHUTDOWN_GRACE_MS to finish; the background senders and the inbound poller stop; then the
 * channel sessions are handed over (their calls in flight end first, the leases are deleted and the other
 * nodes told, so one of them serves the connections within a second or two); then the jobs, the sockets and
 * the database. A stop that hangs anyway ends the process after the grace and 10 s more.
 */
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  const { delayMs, graceMs } = config.shutdown;
  logger.info({ signal, inFlight: drain.inFlight() }, 'stopping');
  const force = setTimeout(() => process.exit(1), delayMs + graceMs + 10_000);
  force.unref();
  try {
    drain.start();
    if (delayMs > 0) await new Promise((resume) => setTimeout(resume, delayMs));
    app.server.close();
    app.server.closeIdleConnections();
    if (!(await drain.idle(graceMs))) logger.warn({ inFlight: drain.inFlight() }, 'requests still running at stop');
    await scheduleSender?.stop();
    await campaignSender?.stop();
    stopCampaignTicker();
    stopDeliverySweep();
    await dashboardFold?.stop();
    await metricsRunner?.stop();
    stopFlowTicker();
    stopSlaTicker();
    await ctx.deliveries?.stop();
    await ctx.channels.close({ graceMs });
    await (await jobs.catch(() => undefined))?.stop();
    await stopSnapshots?.();
    await app.close();
    await database.close();
    logger.info({ signal }, 'stopped');
  } catch (err) {
    logger.error({ err }, 'the stop failed');
  } finally {
    releaseLock();
    process.exit(0);
  }
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
