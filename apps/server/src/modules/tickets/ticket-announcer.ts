import { events, type TTicketEvent } from '@zelo/shared';
import type { TAppContext } from '../../lib/context';
import type { TListChange, TTicketPlace } from './list-answers';
import { ticketRooms } from './ticket-access';
import { loadTicketDto, type TTicketDto } from './ticket-dto';
import { findTicketPlain } from './tickets.repo';

export type { TTicketPlace };

/**
 * What a ticket's announcement changed for the kept lists (list-answers.ts): its row, at its place now and,
 * when it moved, at the place it left (a list that showed it there must drop it).
 */
const placesOf = (...places: (TTicketPlace | undefined)[]): TListChange => ({
  places: places
    .filter((p): p is TTicketPlace => p !== undefined)
    .map((p) => ({ status: p.status, queueId: p.queueId, userId: p.userId })),
});

/**
 * What an announcement of a ticket's row changed where it is (a message stored on it, its unread count reset):
 * the kept lists that may show it take the new row instead of being read again (list-answers.ts `rows`).
 */
const rowChangedAt = (ticket: { id: number } & TTicketPlace): TListChange => ({
  ...placesOf(ticket),
  rows: [ticket.id],
});

/**
 * `company-{id}-ticket` `{action:'update', ticket}` to the rooms allowed to see the ticket now; when
 * `previous` says it moved (status, queue or user), first `{action:'delete', ticketId, moved: true}` to every
 * socket in the rooms it left, those also in the new rooms included: a client with one socket for all its
 * lists (the ancestor's) drops a ticket from a list only on a delete, and the update that follows puts it
 * in its new list. `moved` tells a client the ticket still exists (no "deleted" notice, the open
 * conversation stays). Call after the transaction commits.
 */
export const announceTicket = async (
  ctx: TAppContext,
  companyId: number,
  ticketId: number,
  previous?: TTicketPlace,
): Promise<TTicketDto | null> => {
  const ticket = await loadTicketDto(ctx.db, companyId, ticketId);
  if (!ticket) return null;
  const event = events.ticket(companyId);
  const now = ticketRooms(companyId, ticket);
  const moved =
    previous &&
    (previous.status !== ticket.status || previous.queueId !== ticket.queueId || previous.userId !== ticket.userId)
      ? previous
      : undefined;
  if (moved) {
    const left = ticketRooms(companyId, { id: ticket.id, ...moved }).filter((r) => !now.includes(r));
    const payload = { action: 'delete', ticketId, moved: true } satisfies TTicketEvent;
    if (left.length) ctx.realtime.to(left, event, payload, undefined, placesOf(moved));
  }
  // the place it left too: its rooms may all be among the new ones (no delete then), not so every list of it
  ctx.realtime.to(now, event, { action: 'update', ticket }, undefined, placesOf(ticket, moved));
  // a move may leave the ticket waiting in a queue, or free its agent's place (modules/assignment)
  if (previous) ctx.assignment?.ticketMoved(companyId, ticket, previous);

  return ticket;
};

/** `{action:'update', ticket}` to the rooms allowed to see a ticket that moved nowhere (a new one) */
export const emitTicketUpdated = (ctx: TAppContext, companyId: number, ticket: TTicketDto) =>
  ctx.realtime.to(
    ticketRooms(companyId, ticket),
    events.ticket(companyId),
    { action: 'update', ticket },
    undefined,
    placesOf(ticket),
  );

/** `{action:'delete', ticketId}` to every room that saw the ticket */
export const announceTicketDeleted = (
  ctx: TAppContext,
  companyId: number,
  ticket: { id: number; status: string; queueId: number | null; userId: number | null },
) => {
  ctx.realtime.to(
    ticketRooms(companyId, ticket),
    events.ticket(companyId),
    { action: 'delete', ticketId: ticket.id },
    undefined,
    placesOf(ticket),
  );
  // an agent's open ticket deleted frees its place
  if (ticket.status === 'open' && ticket.userId) ctx.assignment?.kick(companyId);
};

/** `{action:'updateUnread', ticketId}`: the unread count went to zero */
export const announceUnread = async (ctx: TAppContext, companyId: number, ticketId: number) => {
  const ticket = await findTicketPlain(ctx.db, companyId, ticketId);
  if (!ticket) return;
  ctx.realtime.to(
    ticketRooms(companyId, ticket),
    events.ticket(companyId),
    { action: 'updateUnread', ticketId },
    undefined,
    rowChangedAt(ticket),
  );
};

export { placesOf, rowChangedAt };
