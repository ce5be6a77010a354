import type { TMessage, TTicket, TTicketEvent } from '@zelo/shared';

export type TNotifyContext = {
  userId: number;
  /** admins and allTicket users: pending tickets notify only with this flag (spec 1 §6) */
  showPending: boolean;
  /** the ticket open on screen, when the tab is visible */
  visibleTicketId: number | null;
};

/**
 * spec 1 §6: no notification for own messages, group tickets, tickets assigned to another user, pending
 * tickets without the show-all flag, nor for the ticket the user is looking at.
 */
export const shouldNotify = (message: TMessage, ticket: TTicket, ctx: TNotifyContext): boolean => {
  if (message.fromMe || message.isPrivate) {
    return false;
  }
  if (ticket.isGroup || ticket.contact?.isGroup) {
    return false;
  }
  if (ticket.userId !== null && ticket.userId !== ctx.userId) {
    return false;
  }
  if (ticket.status === 'pending' && !ctx.showPending) {
    return false;
  }
  if (ticket.status === 'closed') {
    return false;
  }

  return ctx.visibleTicketId !== ticket.id;
};

/** The bell's list: tickets with unread messages, newest first, one entry per ticket. */
export const upsertNotification = (list: TTicket[], ticket: TTicket): TTicket[] => [
  ticket,
  ...list.filter((t) => t.id !== ticket.id),
];

export const dropNotification = (list: TTicket[], ticketId: number): TTicket[] =>
  list.some((t) => t.id === ticketId) ? list.filter((t) => t.id !== ticketId) : list;

/**
 * The bell after a `company-{id}-ticket` event. A move comes as a delete (`moved`) then, when this user still
 * sees the ticket, an update: the delete takes it off and notes it in `movedAway`, and the update puts back a
 * ticket that was on the bell and still belongs there (`keep`). A ticket moved out of sight gets no update and
 * stays off.
 */
export const applyTicketEventToBell = (
  list: TTicket[],
  event: TTicketEvent,
  keep: (ticket: TTicket) => boolean,
  movedAway: Set<number>,
): TTicket[] => {
  if (event.action === 'update') {
    const { ticket } = event;
    const cameBack = movedAway.delete(ticket.id);
    if (!keep(ticket)) {
      return dropNotification(list, ticket.id);
    }
    if (list.some((t) => t.id === ticket.id)) {
      return list.map((t) => (t.id === ticket.id ? ticket : t));
    }

    return cameBack ? upsertNotification(list, ticket) : list;
  }
  if (event.action === 'delete' && event.moved && list.some((t) => t.id === event.ticketId)) {
    movedAway.add(event.ticketId);
  } else {
    movedAway.delete(event.ticketId);
  }

  return dropNotification(list, event.ticketId);
};
