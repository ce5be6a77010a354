import { performance } from 'node:perf_hooks';
import type { TWeeklyMail } from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import type { TJobDefinition } from '../../jobs/boss';
import { clockFormat } from '../../lib/dates';
import type { TAppContext } from '../../lib/context';
import { isCompanyActive } from '../companies/company-active';
import { readerLanguage } from './export-texts';
import { readReader } from './reports.repo';
import { reportAgents, reportQueues, reportSummary, reportZone, type TReportScope } from './reports.service';
import { weeklyMail } from './weekly-mail-texts';
import {
  claimOptIn,
  deleteOptIn,
  insertOptIn,
  markSendFailed,
  markWeekSent,
  readOptIn,
  readSendableOptIns,
  type TDueOptIn,
} from './weekly-mail.repo';

/**
 * The weekly summary e-mail (ARCHITECTURE "Reports"). An admin turns it on for itself (`PUT /api/reports/weekly-mail`,
 * a row of `report_mail_optins`); every Monday from 08:00 on its company's clock it gets the week before's figures
 * (Monday to Sunday, the reports' own functions: opened, resolved, first response and resolution median/p90 in
 * business time, satisfaction, what stayed open, the top agents and queues) in its language (its own, else its
 * company's), through the server's mailer (SMTP_URL), with a text and an HTML part.
 *
 * Once per week per admin, with any number of nodes: the pass runs as a pg-boss schedule (`reports-weekly-mail`,
 * every 5 minutes, one node at a time), and each mail is sent under a claim on its opt-in row (`busy_until`, a
 * conditional UPDATE: one sender wins) and recorded (`last_week`) only after the SMTP server took it; the claim is
 * then released. A send that fails keeps the week due and is retried after a backoff (5 minutes doubling, at most
 * 2 hours); a claim whose node died is taken again after the lease. The one window for a repeat is a node that dies
 * between the SMTP server's acceptance and the UPDATE that records it; the mail's Message-ID is the same for a
 * week and an admin, so a mail system that drops repeated ids drops that one too.
 *
 * The first mail after an opt-in is the next Monday's: the week due when it was turned on counts as sent. A company
 * inactive or past its due date gets none (isCompanyActive); an admin made an agent since gets none (its opt-in is
 * kept, and serves again if it is made an admin again); another company's admins are never read together.
 */

/** the company's hour on Mondays from which last week's summary is due */
export const WEEKLY_MAIL_HOUR = 8;
/** how long a sender holds an opt-in while its mail is on its way */
const LEASE_MS = 15 * 60_000;
const RETRY_BASE_MS = 5 * 60_000;
const RETRY_MAX_MS = 2 * 3_600_000;
const DAY_MS = 86_400_000;

const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The Monday (yyyy-MM-dd) of the last week whose summary is due at `now` in `timeZone`: the week before the current
 * one from Monday WEEKLY_MAIL_HOUR, the week before that until then.
 */
export const dueWeek = (now: Date, timeZone: string) => {
  const format = clockFormat(reportZone(timeZone));
  const f = Object.fromEntries((format?.formatToParts(now) ?? []).map((p) => [p.type, p.value]));
  const wall = format ? Date.UTC(+f.year!, +f.month! - 1, +f.day!, +f.hour!, +f.minute!, +f.second!) : now.getTime();
  // the wall clock WEEKLY_MAIL_HOUR hours ago: Monday WEEKLY_MAIL_HOUR:00 becomes Monday 00:00
  const shifted = new Date(wall - WEEKLY_MAIL_HOUR * 3_600_000);
  const monday = new Date(shifted.getTime() - ((shifted.getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);

  return shiftDay(monday, -7);
};

export const getWeeklyMail = async (ctx: TAppContext, auth: TAuth): Promise<TWeeklyMail> => {
  const [optIn, reader] = await Promise.all([
    readOptIn(ctx.db, auth.companyId, auth.userId),
    readReader(ctx.db, auth.companyId, auth.userId),
  ]);

  return { enabled: Boolean(optIn), email: reader?.email ?? '' };
};

export const setWeeklyMail = async (
  ctx: TAppContext,
  auth: TAuth,
  enabled: boolean,
  now = new Date(),
): Promise<TWeeklyMail> => {
  if (enabled) {
    await insertOptIn(ctx.db, auth.companyId, auth.userId, dueWeek(now, auth.company.timezone));
  } else {
    await deleteOptIn(ctx.db, auth.companyId, auth.userId);
  }

  return getWeeklyMail(ctx, auth);
};

/** the figures of one company's week (read once a pass, whoever of its admins gets them) */
const weekFigures = async (ctx: TAppContext, scope: TReportScope, from: string) => {
  const query = { from, to: shiftDay(from, 6) };
  const [summary, agents, queues] = await Promise.all([
    reportSummary(ctx.db, scope, query),
    reportAgents(ctx.db, scope, query),
    reportQueues(ctx.db, scope, query),
  ]);

  return { ...query, summary, agents: agents.rows, queues: queues.rows };
};

const retryDelay = (attempts: number) => Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attempts, 10));

/**
 * One pass: every opt-in whose week is due gets its mail, once. `now` is the pass's clock (tests fix it); the
 * claims' times advance with the real time the pass takes. Answers how many mails went and how many failed.
 */
export const sendWeeklyMails = async (ctx: TAppContext, now = new Date()) => {
  const started = performance.now();
  const clock = () => new Date(now.getTime() + (performance.now() - started));
  const byCompany = new Map<number, TDueOptIn[]>();
  for (const row of await readSendableOptIns(ctx.db, now)) {
    const rows = byCompany.get(row.company_id);
    if (rows) rows.push(row);
    else byCompany.set(row.company_id, [row]);
  }
  let sent = 0;
  let failed = 0;
  for (const [companyId, rows] of byCompany) {
    const timeZone = reportZone(rows[0]!.timezone);
    const week = dueWeek(now, timeZone);
    const due = rows.filter((r) => r.last_week === null || r.last_week < week);
    if (due.length === 0 || !(await isCompanyActive(ctx, companyId, now))) continue;
    let figures: ReturnType<typeof weekFigures> | undefined;
    for (const row of due) {
      const at = clock();
      const claim = new Date(at.getTime() + LEASE_MS);
      if (!(await claimOptIn(ctx.db, row.user_id, week, at, claim))) continue;
      try {
        figures ??= weekFigures(ctx, { companyId, timeZone }, week);
        const mail = weeklyMail(readerLanguage(row.language, row.company_language), {
          ...(await figures),
          userName: row.name,
          companyName: row.company_name,
          reportsUrl: `${ctx.config.publicUrl.replace(/\/+$/, '')}/reports`,
        });
        await ctx.mailer.send({
          to: row.email,
          ...mail,
          messageId: `<weekly-${row.user_id}-${week}@${new URL(ctx.config.publicUrl).hostname || 'zelo'}>`,
        });
        await markWeekSent(ctx.db, row.user_id, week, claim);
        sent += 1;
      } catch (err) {
        failed += 1;
        ctx.log.warn({ err, userId: row.user_id, companyId, week }, 'weekly summary e-mail not sent; retried later');
        await markSendFailed(ctx.db, row.user_id, claim, new Date(clock().getTime() + retryDelay(row.attempts)));
      }
    }
  }

  return { sent, failed };
};

/** the pass as a pg-boss schedule: once across the nodes every 5 minutes (the claims keep a mail to one anyway) */
export const weeklyMailJobs = (ctx: TAppContext): TJobDefinition[] => [
  { name: 'reports-weekly-mail', cron: '*/5 * * * *', handler: async () => void (await sendWeeklyMails(ctx)) },
];
