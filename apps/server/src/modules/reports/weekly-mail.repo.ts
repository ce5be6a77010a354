import type { TDbOrTx } from '../../db/client';
import { queryRows } from '../../db/statements';

/**
 * The weekly summary's opt-ins (`report_mail_optins`, one row per admin who asked for it; weekly-mail.ts). A row's
 * `last_week` is the Monday of the last week whose summary went to that admin; `busy_until` is a sender's claim
 * (the mail is on its way) or, after a failed send, the time of its retry. Every change of a claimed row checks
 * that the claim is still the one it made (`busy_until` = the claim), so a sender whose claim expired and was
 * taken by another changes nothing.
 */

export type TOptIn = { user_id: number; company_id: number; last_week: string | null };

export const readOptIn = async (db: TDbOrTx, companyId: number, userId: number) =>
  (
    await queryRows<TOptIn>(
      db,
      'select user_id, company_id, last_week from report_mail_optins where company_id = $1 and user_id = $2',
      [companyId, userId],
    )
  )[0];

/** the opt-in, counting `lastWeek` as sent (the first mail is the next week's); a second opt-in changes nothing */
export const insertOptIn = async (db: TDbOrTx, companyId: number, userId: number, lastWeek: string) =>
  queryRows(
    db,
    `insert into report_mail_optins (user_id, company_id, last_week) values ($2, $1, $3)
     on conflict (user_id) do nothing`,
    [companyId, userId, lastWeek],
  );

export const deleteOptIn = async (db: TDbOrTx, companyId: number, userId: number) =>
  queryRows(db, 'delete from report_mail_optins where company_id = $1 and user_id = $2', [companyId, userId]);

export type TDueOptIn = TOptIn & {
  attempts: number;
  email: string;
  name: string;
  language: string | null;
  company_name: string;
  company_language: string;
  timezone: string;
};

/**
 * The opt-ins a sender may take at `now` (not held, no retry pending) of admins of active companies, with what the
 * mail needs. Whether a row's week is due depends on its company's zone: the caller decides.
 */
export const readSendableOptIns = async (db: TDbOrTx, now: Date) =>
  queryRows<TDueOptIn>(
    db,
    `select o.user_id, o.company_id, o.last_week, o.attempts, u.email, u.name, u.language,
            c.name as company_name, c.language as company_language, c.timezone
     from report_mail_optins o
     join users u on u.id = o.user_id and u.company_id = o.company_id
     join companies c on c.id = o.company_id
     where (o.busy_until is null or o.busy_until <= $1) and c.status and (u.profile = 'admin' or u.super)
     order by o.company_id, o.user_id`,
    [now],
  );

/** takes one opt-in whose `week` is not sent yet until `until` (the claim); false when another sender has it */
export const claimOptIn = async (db: TDbOrTx, userId: number, week: string, now: Date, until: Date) =>
  (
    await queryRows(
      db,
      `update report_mail_optins set busy_until = $4
       where user_id = $1 and (last_week is null or last_week < $2) and (busy_until is null or busy_until <= $3)
       returning user_id`,
      [userId, week, now, until],
    )
  ).length > 0;

/** the claimed week went: recorded, the claim released */
export const markWeekSent = async (db: TDbOrTx, userId: number, week: string, claim: Date) =>
  queryRows(
    db,
    `update report_mail_optins set last_week = $2, busy_until = null, attempts = 0, updated_at = now()
     where user_id = $1 and busy_until = $3`,
    [userId, week, claim],
  );

/** the send failed: retried from `retryAt` */
export const markSendFailed = async (db: TDbOrTx, userId: number, claim: Date, retryAt: Date) =>
  queryRows(
    db,
    `update report_mail_optins set busy_until = $3, attempts = least(attempts + 1, 100), updated_at = now()
     where user_id = $1 and busy_until = $2`,
    [userId, claim, retryAt],
  );
