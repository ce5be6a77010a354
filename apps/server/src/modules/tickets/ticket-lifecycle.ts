import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { preparedQuery } from '../../db/prepared';
import { contacts } from '../../db/schema/contacts';
import { ticketTrackings, tickets } from '../../db/schema/tickets';
import type { TAppContext } from '../../lib/context';
import { protocolStamp } from '../messages/variables';
import {
  companyBasics,
  findLatestClosedTicket,
  finishCurrentTracking,
  insertTicketIfNoneActive,
  insertTracking,
  type TTicketRowRaw,
  updateTicketIf,
} from './tickets.repo';
import { isUniqueViolation } from '../../db/pg-errors';
import { markCycleReopened } from '../reports/metrics.repo';

export type TInboundTicketInput = {
  companyId: number;
  connectionId: number;
  contactId: number;
  isGroup: boolean;
  /** a closed ticket updated within this many minutes is reopened as pending; 0 = always a new ticket */
  reopenWindowMinutes: number;
  /** the company's time zone when the caller has it (else read here) */
  timeZone?: string;
  /** a flow test run's simulated customer (its contact's `isTest`): the ticket is one too, with no trackings */
  isTest?: boolean;
};

export type TInboundTicket = {
  ticket: TTicketRowRaw;
  /** a new ticket was made */
  created: boolean;
  /** a closed ticket was reopened as pending */
  reopened: boolean;
  /** where it was before, for the events (closed tickets) */
  previous?: { status: string; queueId: number | null; userId: number | null };
};

/** the open or pending ticket of (company, connection, contact): at most one (tickets_one_active_unique) */
const activeTicketQuery = preparedQuery(
  (db, name) =>
    db
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, sql.placeholder('companyId')),
          eq(tickets.whatsappId, sql.placeholder('connectionId')),
          eq(tickets.contactId, sql.placeholder('contactId')),
          inArray(tickets.status, ['open', 'pending']),
        ),
      )
      .prepare(name),
  'inbound_active_ticket',
);

const activeTicket = async (db: TDbOrTx, input: TInboundTicketInput) =>
  (
    await activeTicketQuery(db).execute({
      companyId: input.companyId,
      connectionId: input.connectionId,
      contactId: input.contactId,
    })
  )[0] ?? null;

/** a protocol code: the company's local time stamp and a random tail */
export const newTicketCode = (timeZone: string) =>
  `${protocolStamp(timeZone)}${Math.floor(Math.random() * 1000)
    .toString()
    .padStart(3, '0')}`;

/**
 * The ticket an inbound message belongs to, in one transaction that relies on the partial unique index
 * `tickets_one_active_unique`: the active (open/pending) ticket of (company, connection, contact); else the
 * latest closed one reopened as pending when it was updated within the reopen window; else a new pending
 * ticket (insert … on conflict do nothing, then select), so concurrent messages of a new contact make one.
 */
export const findOrCreateTicketForInbound = async (
  ctx: Pick<TAppContext, 'db'>,
  input: TInboundTicketInput,
): Promise<TInboundTicket> => {
  // the usual case, an open or pending ticket, needs no transaction
  const current = await activeTicket(ctx.db, input);
  if (current) return { ticket: current, created: false, reopened: false };
  const timeZone = input.timeZone ?? (await companyBasics(ctx.db, input.companyId))?.timezone ?? 'America/Sao_Paulo';
  for (let attempt = 0; ; attempt++) {
    try {
      return await ctx.db.transaction(async (tx) => {
        const active = await activeTicket(tx, input);
        if (active) return { ticket: active, created: false, reopened: false };

        if (input.reopenWindowMinutes > 0) {
          const closed = await findLatestClosedTicket(tx, input.companyId, input.connectionId, input.contactId);
          const since = Date.now() - input.reopenWindowMinutes * 60_000;
          if (closed && (closed.closedAt ?? closed.updatedAt).getTime() >= since) {
            const reopened = await updateTicketIf(
              tx,
              input.companyId,
              closed.id,
              { status: 'closed', userId: closed.userId },
              { status: 'pending', userId: null, closedAt: null, unreadMessages: 0 },
            );
            if (reopened) {
              await finishCurrentTracking(tx, input.companyId, closed.id);
              await markCycleReopened(tx, input.companyId, closed.id, new Date());
              await insertTracking(tx, {
                companyId: input.companyId,
                ticketId: closed.id,
                whatsappId: input.connectionId,
                queueId: reopened.queueId,
                queuedAt: new Date(),
              });

              return {
                ticket: reopened,
                created: false,
                reopened: true,
                previous: { status: 'closed', queueId: closed.queueId, userId: closed.userId },
              };
            }
          }
        }

        const inserted = await insertTicketIfNoneActive(tx, {
          companyId: input.companyId,
          whatsappId: input.connectionId,
          contactId: input.contactId,
          isGroup: input.isGroup,
          isTest: input.isTest ?? false,
          status: 'pending',
          code: newTicketCode(timeZone),
        });
        if (inserted) {
          if (!inserted.isTest) {
            await insertTracking(tx, {
              companyId: input.companyId,
              ticketId: inserted.id,
              whatsappId: input.connectionId,
              queuedAt: new Date(),
            });
          }

          return { ticket: inserted, created: true, reopened: false };
        }
        // another message of the same contact made it first
        const winner = await activeTicket(tx, input);
        if (!winner) throw Object.assign(new Error('active ticket vanished'), { code: '23505' });

        return { ticket: winner, created: false, reopened: false };
      });
    } catch (err) {
      if (attempt < 5 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
};

/**
 * The closed ticket of this contact on this connection that waits for a rating (its current tracking
 * row has ratingAt set and no finishedAt), for the inbound pipeline to capture the reply before
 * `findOrCreateTicketForInbound` runs.
 */
/** the closed ticket of the contact with this number on that connection that waits for its rating */
export const findTicketAwaitingRating = async (
  db: TDbOrTx,
  input: { companyId: number; connectionId: number; number: string },
) => {
  const rows = await db
    .select({ ticket: tickets, tracking: ticketTrackings })
    .from(tickets)
    .innerJoin(contacts, and(eq(contacts.id, tickets.contactId), eq(contacts.companyId, input.companyId)))
    .innerJoin(ticketTrackings, eq(ticketTrackings.ticketId, tickets.id))
    .where(
      and(
        eq(contacts.number, input.number),
        eq(tickets.companyId, input.companyId),
        eq(tickets.whatsappId, input.connectionId),
        eq(tickets.status, 'closed'),
        isNull(ticketTrackings.finishedAt),
        isNotNull(ticketTrackings.ratingAt),
      ),
    )
    .limit(1);

  return rows[0] ?? null;
};
