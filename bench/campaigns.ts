process.env.SANDBOX_OPENING_MS ??= '10';
process.env.SANDBOX_ACK_MS ??= '50';

import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openPostgres, runMigrations } from '../apps/server/src/db/client';
import { startJobs } from '../apps/server/src/jobs/boss';
import { ensureSuperUser } from '../apps/server/src/lib/seed';
import { campaignJobs } from '../apps/server/src/modules/campaigns/campaign-jobs';
import { createCampaignSender, startCampaign } from '../apps/server/src/modules/campaigns/dispatch';
import { createPgDatabase, fmt, percentile, removeDir, tempDir } from './lib';
import { sandboxCompany, until } from './sandbox-company';

/**
 * Campaign dispatch (issue 12), PostgreSQL, one process with the campaign sender and pg-boss workers as main.ts
 * runs them:
 * - plan: a 10,000-recipient campaign started (audience read, deduplicated, interval plan, 10,000 shipping rows),
 *   target ≤ 5 s;
 * - throughput: with all three intervals at 0, the sends on the sandbox until FINALIZADA, target ≥ 200 messages/s;
 * - timing: with intervals (one send a second: messageInterval 0, a 1 s pause after every send), the error of each
 *   send's time against its planned time, target p95 ≤ 1 s.
 */

export const CAMPAIGN_DEFAULTS = { recipients: 10_000, timed: 30, windowSeconds: 0 };

export type TCampaignBench = {
  recipients: number;
  planned: number;
  planMs: number;
  /** the dispatch was cut after this window (then cancelled): the rate is over the window */
  windowSeconds: number;
  dispatchMs: number;
  perSecond: number;
  timed: number;
  errorP50Ms: number;
  errorP95Ms: number;
  errorMaxMs: number;
};

export const campaignsPostgres = async (baseUrl: string, opts = CAMPAIGN_DEFAULTS): Promise<TCampaignBench> => {
  const pg = createPgDatabase(baseUrl, `zelo_bench_campaigns_${randomBytes(4).toString('hex')}`);
  const dataDir = tempDir('campaigns');
  const logger = pino({ level: 'silent' });
  const database = await openPostgres(pg.url, 10);
  try {
    await runMigrations(database);
    await ensureSuperUser(database.db, { email: 'bench-super@zelo.test', password: 'Bench-Pass-1', log: logger });
    const config = loadConfig({ DATA_DIR: dataDir, RATE_LIMITS: 'off', JOBS: 'off', LOG_LEVEL: 'silent' });
    const { app, ctx } = await buildApp({ config, database, logger });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const jobs = await startJobs(database, campaignJobs(ctx), logger);
    ctx.jobs = jobs;
    const sender = createCampaignSender(ctx);
    sender.start();
    const { call, companyId, token, conn } = await sandboxCompany(app, ctx, 'Bench Campaigns');

    const list = async (size: number) => {
      const rows = (
        await database.executeSql('insert into contact_lists (company_id, name) values ($1, $2) returning id', [
          companyId,
          `List ${randomBytes(3).toString('hex')}`,
        ])
      ).rows as { id: number }[];
      const id = rows[0]!.id;
      await database.executeSql(
        `insert into contact_list_items (company_id, contact_list_id, name, number, email, is_whatsapp_valid)
         select $1, $2, 'Cliente ' || g, '55119' || lpad((g + $3)::text, 8, '0'), '', true from generate_series(1, $4) g`,
        [companyId, id, Math.floor(Math.random() * 50_000_000), size],
      );
      return id;
    };
    const campaign = async (listId: number, name: string) =>
      (
        await call('POST', '/api/campaigns', token, {
          name,
          message1: 'Oferta para {nome}',
          whatsappId: conn,
          contactListId: listId,
          scheduledAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
        })
      ).body.id as number;
    const statusOf = async (id: number) =>
      ((await database.executeSql('select status from campaigns where id = $1', [id])).rows[0] as { status: string })
        .status;

    // 1. plan 10,000 and 2. dispatch them with every interval at 0
    await call('POST', '/api/campaign-settings', token, {
      messageInterval: 0,
      longerIntervalAfter: 0,
      greaterInterval: 0,
    });
    const bigList = await list(opts.recipients);
    const big = await campaign(bigList, 'Bench big');
    const t0 = performance.now();
    await startCampaign(ctx, companyId, big, ['PROGRAMADA']);
    const planMs = performance.now() - t0;
    if (opts.windowSeconds > 0) {
      // a rate over a window instead of the whole campaign (a slow machine), then the rest cancelled
      await new Promise((r) => setTimeout(r, opts.windowSeconds * 1000));
      await call('POST', `/api/campaigns/${big}/cancel`, token);
    } else {
      await until(async () => (await statusOf(big)) === 'FINALIZADA', 30 * 60_000, 100);
    }
    const dispatchMs = performance.now() - t0;

    // 3. send-time error against the plan, one send a second
    await call('POST', '/api/campaign-settings', token, {
      messageInterval: 0,
      longerIntervalAfter: 1,
      greaterInterval: 1,
    });
    const timedList = await list(opts.timed);
    const timed = await campaign(timedList, 'Bench timed');
    await startCampaign(ctx, companyId, timed, ['PROGRAMADA']);
    await until(async () => (await statusOf(timed)) === 'FINALIZADA', 10 * 60_000);
    const errors = (
      (
        await database.executeSql(
          `select extract(epoch from (delivered_at - scheduled_for)) * 1000 as ms from campaign_shippings
           where campaign_id = $1 and state = 'sent'`,
          [timed],
        )
      ).rows as { ms: string | number }[]
    )
      .map((r) => Math.abs(Number(r.ms)))
      .sort((a, b) => a - b);
    const sent = Number(
      (
        (
          await database.executeSql(
            "select count(*) n from campaign_shippings where campaign_id = $1 and state = 'sent'",
            [big],
          )
        ).rows[0] as { n: string }
      ).n,
    );

    await sender.stop();
    await jobs.stop();
    await app.close();

    return {
      recipients: sent,
      planned: opts.recipients,
      windowSeconds: opts.windowSeconds,
      planMs,
      dispatchMs,
      perSecond: sent / (dispatchMs / 1000),
      timed: errors.length,
      errorP50Ms: percentile(errors, 50),
      errorP95Ms: percentile(errors, 95),
      errorMaxMs: errors.at(-1) ?? Number.NaN,
    };
  } finally {
    await database.close();
    pg.drop();
    removeDir(dataDir);
  }
};

export const campaignsTable = (r: TCampaignBench) =>
  [
    '| measure | figure | target |',
    '|---|---|---|',
    `| plan ${r.planned} recipients (audience, plan, rows) | ${fmt(r.planMs, 0)} ms | ≤ 5000 ms |`,
    `| dispatch on the sandbox, intervals 0${r.windowSeconds ? ` (the first ${r.windowSeconds} s)` : ''} | ${fmt(r.perSecond, 0)} messages/s (${r.recipients} in ${fmt(r.dispatchMs / 1000, 1)} s) | ≥ 200/s |`,
    `| send time − planned time, ${r.timed} sends one a second | p50 ${fmt(r.errorP50Ms, 0)} ms, p95 ${fmt(r.errorP95Ms, 0)} ms, max ${fmt(r.errorMaxMs, 0)} ms | p95 ≤ 1000 ms |`,
  ].join('\n');
