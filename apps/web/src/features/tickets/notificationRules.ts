import type { TMessage, TTicket } from '@zelo/shared';

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
