import { and, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { TDb } from '../db/client';
import { cloudApiInbox } from '../db/schema/cloud-api';
import { companies } from '../db/schema/core';
import { inboundDeliveries } from '../db/schema/deliveries';
import { queryRows } from '../db/statements';

/**
 * The raw-delivery inbox of every transport (`inbound_deliveries`, ARCHITECTURE §7.3). Rows of a batch are
 * stored by one statement and deleted by one; the company and transport come from the connection row in
 * the same statement, so a delivery for an unknown connection is not stored (the pipeline drops it).
 */

export type TDeliveryKind = 'message' | 'webhook';
export type TClaimedDelivery = {
  id: number;
  companyId: number;
  whatsappId: number;
  kind: TDeliveryKind;
  payload: string;
  attempts: number;
};

/** stores a batch; answers each row's id and company in order (null: no such connection) */
export const insertDeliveries = async (
  db: TDb,
  rows: { connectionId: number; payload: string }[],
  claimMs: number,
): Promise<({ id: number; companyId: number } | null)[]> => {
  const stored = await queryRows<{ ord: string | number; id: string | number; company_id: number }>(
    db,
    `with x as (
       select nextval(pg_get_serial_sequence('inbound_deliveries', 'id')) as id, u.ord, u.conn, u.payload
       from unnest($1::int[], $2::text[]) with ordinality as u(conn, payload, ord)
     ), ins as (
       insert into inbound_deliveries (id, company_id, whatsapp_id, transport, payload, next_attempt_at)
       select x.id, w.company_id, w.id, w.provider, x.payload, now() + make_interval(secs => $3::float8 / 1000)
       from x join whatsapps w on w.id = x.conn
       returning id, company_id
     )
     select x.ord, x.id, ins.company_id from x join ins on ins.id = x.id`,
    [rows.map((r) => r.connectionId), rows.map((r) => r.payload), claimMs],
  );
  const ids: ({ id: number; companyId: number } | null)[] = rows.map(() => null);
  for (const r of stored) ids[Number(r.ord) - 1] = { id: Number(r.id), companyId: r.company_id };

  return ids;
};

export const deleteDeliveries = async (db: TDb, ids: number[]) => {
  if (ids.length > 0) await db.delete(inboundDeliveries).where(inArray(inboundDeliveries.id, ids));
};

/** a failed attempt: back to wait `retryMs`, or into the dead-letter list when `dead` */
export const recordDeliveryFailure = async (
  db: TDb,
  id: number,
  failure: { attempts: number; error: string; retryMs: number; dead: boolean },
) =>
  db
    .update(inboundDeliveries)
    .set({
      attempts: failure.attempts,
      lastError: failure.error.slice(0, 2000),
      lastAttemptAt: sql`now()`,
      nextAttemptAt: sql`now() + make_interval(secs => ${failure.retryMs}::float8 / 1000)`,
      status: failure.dead ? 'failed' : 'pending',
    })
    .where(eq(inboundDeliveries.id, id));

/** a Cloud API webhook body that could not be mapped goes straight to the dead-letter list */
export const deadLetterWebhook = async (
  db: TDb,
  connectionId: number,
  payload: string,
  attempts: number,
  error: string,
) =>
  queryRows(
    db,
    `insert into inbound_deliveries (company_id, whatsapp_id, transport, kind, status, payload, attempts, last_error, last_attempt_at)
     select w.company_id, w.id, w.provider, 'webhook', 'failed', $2, $3, $4, now() from whatsapps w where w.id = $1`,
    [connectionId, payload, attempts, error.slice(0, 2000)],
  );

/**
 * Due rows, claimed for `claimMs` (another node skips them; a worker that dies leaves them due again):
 * pending rows whose wait is over, oldest first; `everyPending`: all pending rows (the first poll of the only
 * process of a database, which no other process can be working on).
 */
export const claimDueDeliveries = async (db: TDb, limit: number, claimMs: number, everyPending = false) =>
  (
    await queryRows<{
      id: string | number;
      company_id: number;
      whatsapp_id: number;
      kind: TDeliveryKind;
      payload: string;
      attempts: number;
    }>(
      db,
      `update inbound_deliveries d set next_attempt_at = now() + make_interval(secs => $2::float8 / 1000)
       where d.id in (
         select id from inbound_deliveries where status = 'pending' and (next_attempt_at <= now() or $3)
         order by id limit $1 for update skip locked
       )
       returning d.id, d.company_id, d.whatsapp_id, d.kind, d.payload, d.attempts`,
      [limit, claimMs, everyPending],
    )
  )
    .map(
      (r): TClaimedDelivery => ({
        id: Number(r.id),
        companyId: r.company_id,
        whatsappId: r.whatsapp_id,
        kind: r.kind,
        payload: r.payload,
        attempts: r.attempts,
      }),
    )
    .sort((a, b) => a.id - b.id);

/** a dead letter of the company, claimed for a retry (null: none such, or already being retried) */
export const claimFailedDelivery = async (
  db: TDb,
  companyId: number,
  id: number,
  claimMs: number,
): Promise<TClaimedDelivery | null> => {
  const [row] = await db
    .update(inboundDeliveries)
    .set({ status: 'pending', nextAttemptAt: sql`now() + make_interval(secs => ${claimMs}::float8 / 1000)` })
    .where(
      and(
        eq(inboundDeliveries.id, id),
        eq(inboundDeliveries.companyId, companyId),
        eq(inboundDeliveries.status, 'failed'),
      ),
    )
    .returning({
      id: inboundDeliveries.id,
      companyId: inboundDeliveries.companyId,
      whatsappId: inboundDeliveries.whatsappId,
      kind: inboundDeliveries.kind,
      payload: inboundDeliveries.payload,
      attempts: inboundDeliveries.attempts,
    });

  return row ? { ...row, kind: row.kind as TDeliveryKind } : null;
};

/** one page of the company's dead letters, newest first, with their count read in the same statement */
export const listFailedDeliveries = async (db: TDb, companyId: number, page: { limit: number; offset: number }) => {
  const where = and(eq(inboundDeliveries.companyId, companyId), eq(inboundDeliveries.status, 'failed'));
  const rows = await db
    .select({ row: inboundDeliveries, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(inboundDeliveries)
    .where(where)
    .orderBy(desc(inboundDeliveries.id))
    .limit(page.limit)
    .offset(page.offset);
  // past the last page the window counts nothing: count alone
  const total =
    rows[0]?.total ??
    (page.offset > 0 ? ((await db.select({ n: count() }).from(inboundDeliveries).where(where))[0]?.n ?? 0) : 0);

  return { rows: rows.map((r) => r.row), count: total, hasMore: page.offset + rows.length < total };
};

export const deleteFailedDelivery = async (db: TDb, companyId: number, id: number) =>
  (
    await db
      .delete(inboundDeliveries)
      .where(
        and(
          eq(inboundDeliveries.id, id),
          eq(inboundDeliveries.companyId, companyId),
          eq(inboundDeliveries.status, 'failed'),
        ),
      )
      .returning({ id: inboundDeliveries.id })
  ).length > 0;

/** dead letters per company (the super user's view: counts only) */
export const countFailedByCompany = (db: TDb) =>
  db
    .select({ companyId: inboundDeliveries.companyId, name: companies.name, count: count() })
    .from(inboundDeliveries)
    .innerJoin(companies, eq(companies.id, inboundDeliveries.companyId))
    .where(eq(inboundDeliveries.status, 'failed'))
    .groupBy(inboundDeliveries.companyId, companies.name)
    .orderBy(inboundDeliveries.companyId);

/** pending rows older than a moment (tests and diagnostics) */
export const countPendingDeliveries = async (db: TDb, before = new Date(Date.now() + 86_400_000)) =>
  (
    await db
      .select({ n: count() })
      .from(inboundDeliveries)
      .where(and(eq(inboundDeliveries.status, 'pending'), lt(inboundDeliveries.receivedAt, before)))
  )[0]?.n ?? 0;

/** a dead-lettered Cloud API webhook goes back to its connection's webhook inbox (the session drains it) */
export const requeueWebhook = (db: TDb, row: Pick<TClaimedDelivery, 'id' | 'whatsappId' | 'payload'>) =>
  db.transaction(async (tx) => {
    await tx.insert(cloudApiInbox).values({ whatsappId: row.whatsappId, payload: row.payload });
    await tx.delete(inboundDeliveries).where(eq(inboundDeliveries.id, row.id));
  });
