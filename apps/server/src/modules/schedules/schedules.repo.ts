import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, min, notInArray, type SQL, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { whatsapps } from '../../db/schema/connections';
import { contacts } from '../../db/schema/contacts';
import { companies, plans, users } from '../../db/schema/core';
import { schedules } from '../../db/schema/schedules';
import { tickets } from '../../db/schema/tickets';
import { likePattern } from '../../lib/paging';
import { updateRows } from '../../db/update-rows';
import { intArray, textArray } from '../../db/pg-arrays';
import { queryRows } from '../../db/statements';

export type TScheduleRow = typeof schedules.$inferSelect;
export type TScheduleInsert = typeof schedules.$inferInsert;

/** a schedule with the names the list and the calendar show */
const selectWithNames = (db: TDbOrTx) =>
  db
    .select({
      row: schedules,
      contact: { id: contacts.id, name: contacts.name, number: contacts.number },
      userName: users.name,
      whatsappName: whatsapps.name,
    })
    .from(schedules)
    .innerJoin(contacts, eq(contacts.id, schedules.contactId))
    .leftJoin(users, eq(users.id, schedules.userId))
    .leftJoin(whatsapps, eq(whatsapps.id, schedules.whatsappId));

export type TScheduleWithNames = Awaited<ReturnType<ReturnType<typeof selectWithNames>['execute']>>[number];

export type TScheduleFilter = {
  search: string;
  contactId?: number;
  userId?: number;
  from?: Date;
  to?: Date;
};

const filterWhere = (companyId: number, filter: TScheduleFilter) => {
  const parts: (SQL | undefined)[] = [eq(schedules.companyId, companyId)];
  if (filter.search) {
    const pattern = likePattern(filter.search);
    parts.push(sql`(${schedules.body} ILIKE ${pattern} OR ${contacts.name} ILIKE ${pattern})`);
  }
  if (filter.contactId) parts.push(eq(schedules.contactId, filter.contactId));
  if (filter.userId) parts.push(eq(schedules.userId, filter.userId));
  if (filter.from) parts.push(gte(schedules.sendAt, filter.from));
  if (filter.to) parts.push(lt(schedules.sendAt, filter.to));

  return and(...parts);
};

/** a page of the company's schedules: by sendAt within a date range (the calendar), else newest first */
export const pageSchedules = async (
  db: TDbOrTx,
  companyId: number,
  filter: TScheduleFilter,
  limit: number,
  offset: number,
) => {
  const where = filterWhere(companyId, filter);
  const ranged = Boolean(filter.from || filter.to);
  const [rows, [{ total }]] = await Promise.all([
    selectWithNames(db)
      .where(where)
      .orderBy(...(ranged ? [asc(schedules.sendAt)] : [desc(schedules.createdAt)]), asc(schedules.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ total: count() })
      .from(schedules)
      .innerJoin(contacts, eq(contacts.id, schedules.contactId))
      .where(where),
  ]);

  return { rows, total };
};

export const findScheduleWithNames = async (db: TDbOrTx, companyId: number, id: number) =>
  (await selectWithNames(db).where(and(eq(schedules.companyId, companyId), eq(schedules.id, id))))[0];

/** findScheduleWithNames for many schedules of the company, in one read */
export const findSchedulesWithNames = async (db: TDbOrTx, companyId: number, ids: number[]) =>
  ids.length === 0
    ? []
    : selectWithNames(db).where(and(eq(schedules.companyId, companyId), inArray(schedules.id, ids)));

export const findSchedule = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(schedules)
      .where(and(eq(schedules.companyId, companyId), eq(schedules.id, id)))
  )[0];

/** the schedule of the company, locked until the transaction ends */
export const lockSchedule = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(schedules)
      .where(and(eq(schedules.companyId, companyId), eq(schedules.id, id)))
      .for('update')
  )[0];

export const insertSchedule = async (db: TDbOrTx, values: TScheduleInsert) =>
  (await db.insert(schedules).values(values).returning())[0];

export const updateScheduleRow = async (db: TDbOrTx, companyId: number, id: number, values: Partial<TScheduleInsert>) =>
  (await updateRows(db, schedules, and(eq(schedules.companyId, companyId), eq(schedules.id, id)), values))[0];

export const deleteScheduleRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .delete(schedules)
      .where(and(eq(schedules.companyId, companyId), eq(schedules.id, id)))
      .returning({ mediaPath: schedules.mediaPath })
  )[0];

/** the connection of the contact's most recent ticket that still exists */
export const lastConnectionOfContact = async (db: TDbOrTx, companyId: number, contactId: number) =>
  (
    await db
      .select({ id: tickets.whatsappId })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId), isNotNull(tickets.whatsappId)))
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(1)
  )[0]?.id ?? null;

/** whether the company's plan has schedules (a company without a plan has none) */
export const companyHasSchedules = async (db: TDbOrTx, companyId: number) =>
  (
    await db
      .select({ on: plans.useSchedules })
      .from(companies)
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, companyId))
  )[0]?.on === true;

// ---------------------------------------------------------------- the sender's claims

/** the earliest sendAt still to send (for the timer), across companies */
export const nextDueAt = async (db: TDbOrTx, skipCompanyIds: number[] = []) =>
  (
    await db
      .select({ at: min(schedules.sendAt) })
      .from(schedules)
      .where(and(sql`${schedules.status} = 'PENDENTE'`, notPaused(skipCompanyIds)))
  )[0]?.at ?? null;

/** rows of companies whose sends are paused (inactive or past due: issue 13) are left where they are */
const notPaused = (skipCompanyIds: number[]) =>
  skipCompanyIds.length ? notInArray(schedules.companyId, skipCompanyIds) : undefined;

/** PENDENTE rows that fell due before `before` become ERRO with the reason (the downtime rule) */
export const failTooLate = async (db: TDbOrTx, before: Date, now: Date, reason: string) =>
  db
    .update(schedules)
    .set({ status: 'ERRO', errorMessage: reason, updatedAt: now })
    .where(and(sql`${schedules.status} = 'PENDENTE'`, lt(schedules.sendAt, before)))
    .returning({ id: schedules.id, companyId: schedules.companyId });

/**
 * Claims up to `limit` rows to send, atomically: PENDENTE rows due by `now`, and AGENDADA rows whose claim is
 * older than `leaseBefore` (a node that died while sending). Claimed rows turn AGENDADA with this claim's
 * token and time; rows another runner holds are skipped (FOR UPDATE SKIP LOCKED), so no row is claimed twice.
 */
export const claimDue = async (
  db: TDbOrTx,
  opts: { now: Date; leaseBefore: Date; token: string; limit: number; skipCompanyIds?: number[] },
): Promise<TScheduleRow[]> => {
  const due = db
    .select({ id: schedules.id })
    .from(schedules)
    .where(
      and(
        sql`((${schedules.status} = 'PENDENTE' and ${schedules.sendAt} <= ${opts.now})
          or (${schedules.status} = 'AGENDADA' and ${schedules.updatedAt} < ${opts.leaseBefore}))`,
        notPaused(opts.skipCompanyIds ?? []),
      ),
    )
    .orderBy(asc(schedules.sendAt))
    .limit(opts.limit)
    .for('update', { skipLocked: true });

  return db
    .update(schedules)
    .set({ status: 'AGENDADA', jobId: opts.token, updatedAt: opts.now })
    .where(sql`${schedules.id} in ${due}`)
    .returning();
};

/** gives a claimed row back, PENDENTE as it was (its company's sends are paused), unless the claim was lost */
export const releaseClaim = async (db: TDbOrTx, id: number, token: string, at: Date) =>
  db
    .update(schedules)
    .set({ status: 'PENDENTE', jobId: null, updatedAt: at })
    .where(and(eq(schedules.id, id), eq(schedules.jobId, token), sql`${schedules.status} = 'AGENDADA'`));

/** finishClaim for many rows of one claim in one statement; answers the ids whose claim still held */
export const finishClaims = async (
  db: TDbOrTx,
  token: string,
  list: { id: number; status: string; sentAt: Date | null; errorMessage: string | null; ticketId: number | null }[],
  at: Date,
) => {
  if (list.length === 0) return new Set<number>();
  const rows = await queryRows<{ id: number }>(
    db,
    `update schedules s set status = v.status, sent_at = v.sent_at, error_message = v.error_message,
       ticket_id = v.ticket_id, updated_at = $2, job_id = null
     from unnest($3::int[], $4::text[], $5::timestamptz[], $6::text[], $7::int[])
       as v(id, status, sent_at, error_message, ticket_id)
     where s.id = v.id and s.job_id = $1 and s.status = 'AGENDADA'
     returning s.id`,
    [
      token,
      at.toISOString(),
      intArray(list.map((r) => r.id)),
      textArray(list.map((r) => r.status)),
      textArray(list.map((r) => r.sentAt?.toISOString() ?? null)),
      textArray(list.map((r) => r.errorMessage)),
      intArray(list.map((r) => r.ticketId)),
    ],
  );

  return new Set(rows.map((r) => Number(r.id)));
};
