import type { TTicket } from '@zelo/shared';
import type { TTicketEvent, TTicketListFilter, TTicketsData, TViewer } from './ticketTypes';

/**
 * Whether a ticket belongs in a list (spec 1 §4 "a ticket update moves it in or out of a list by status,
 * queue and user"): same status; in one of the chosen queues (a ticket without a queue is kept, the server
 * only sends those the user may see); and not assigned to another user unless 'show all' is on.
 */
export const belongsInList = (ticket: TTicket, filter: TTicketListFilter, viewer: TViewer): boolean => {
  if (filter.status && ticket.status !== filter.status) {
    return false;
  }
  if (ticket.queueId !== null && filter.queueIds.length > 0 && !filter.queueIds.includes(ticket.queueId)) {
    return false;
  }
  if (ticket.userId !== null && ticket.userId !== viewer.id && !filter.showAll) {
    return false;
  }
  if (filter.tags?.length && !ticket.tags.some((tag) => filter.tags?.includes(tag.id))) {
    return false;
  }
  if (filter.users?.length && (ticket.userId === null || !filter.users.includes(ticket.userId))) {
    return false;
  }
  if (filter.withUnreadMessages && ticket.unreadMessages <= 0) {
    return false;
  }

  return true;
};

/** A list with a text search only refreshes what it shows; it never gains tickets from events. */
const isSearchList = (filter: TTicketListFilter) => Boolean(filter.searchParam?.trim());

const isListed = (data: TTicketsData, ticketId: number) =>
  data.pages.some((page) => page.tickets.some((t) => t.id === ticketId));

export const removeTicket = (data: TTicketsData | undefined, ticketId: number): TTicketsData | undefined => {
  if (!data || !isListed(data, ticketId)) {
    return data;
  }

  return {
    ...data,
    pages: data.pages.map((page, index) => ({
      ...page,
      tickets: page.tickets.filter((t) => t.id !== ticketId),
      count: index === 0 ? Math.max(0, page.count - 1) : page.count,
    })),
  };
};

/** Puts the ticket at the top of the first page (removing it from where it was). */
const raiseTicket = (data: TTicketsData, ticket: TTicket): TTicketsData => {
  const wasListed = isListed(data, ticket.id);

  return {
    ...data,
    pages: data.pages.map((page, index) => {
      const rest = page.tickets.filter((t) => t.id !== ticket.id);
      if (index !== 0) {
        return { ...page, tickets: rest };
      }

      return { ...page, tickets: [ticket, ...rest], count: wasListed ? page.count : page.count + 1 };
    }),
  };
};

const replaceTicket = (data: TTicketsData, ticket: TTicket): TTicketsData => ({
  ...data,
  pages: data.pages.map((page) => ({
    ...page,
    tickets: page.tickets.map((t) => (t.id === ticket.id ? ticket : t)),
  })),
});

/** `company-{id}-ticket` update: keep it in place when it still belongs, drop it when it left, add it on top when new. */
export const applyTicketUpdate = (
  data: TTicketsData | undefined,
  ticket: TTicket,
  filter: TTicketListFilter,
  viewer: TViewer,
): TTicketsData | undefined => {
  if (!data) {
    return data;
  }
  const listed = isListed(data, ticket.id);
  if (!belongsInList(ticket, filter, viewer)) {
    return listed ? removeTicket(data, ticket.id) : data;
  }
  if (listed) {
    return replaceTicket(data, ticket);
  }

  return isSearchList(filter) ? data : raiseTicket(data, ticket);
};

/** `company-{id}-appMessage` create: a new message raises its ticket (with its unread count) to the top. */
export const applyMessageTicket = (
  data: TTicketsData | undefined,
  ticket: TTicket,
  filter: TTicketListFilter,
  viewer: TViewer,
): TTicketsData | undefined => {
  if (!data) {
    return data;
  }
  const listed = isListed(data, ticket.id);
  if (!belongsInList(ticket, filter, viewer)) {
    return listed ? removeTicket(data, ticket.id) : data;
  }
  if (isSearchList(filter) && !listed) {
    return data;
  }

  return raiseTicket(data, ticket);
};

/** `company-{id}-ticket` updateUnread: the ticket was read, its unread count is zero. */
export const applyUnreadReset = (data: TTicketsData | undefined, ticketId: number): TTicketsData | undefined => {
  if (!data || !isListed(data, ticketId)) {
    return data;
  }
  const found = data.pages.flatMap((p) => p.tickets).find((t) => t.id === ticketId);
  if (!found || found.unreadMessages === 0) {
    return data;
  }

  return replaceTicket(data, { ...found, unreadMessages: 0 });
};

/**
 * One list's answer to a `company-{id}-ticket` event. A ticket that moves (accepted, transferred, returned)
 * comes as a delete to the rooms it left, sent to every socket there, then an update to its new rooms: the
 * delete takes it out of every list, and the update puts it in the lists it belongs to now.
 */
export const applyTicketEventToList = (
  data: TTicketsData | undefined,
  event: TTicketEvent,
  filter: TTicketListFilter,
  viewer: TViewer,
): TTicketsData | undefined => {
  switch (event.action) {
    case 'update':
      return event.ticket ? applyTicketUpdate(data, event.ticket, filter, viewer) : data;
    case 'delete':
      return removeTicket(data, event.ticketId);
    case 'updateUnread':
      return applyUnreadReset(data, event.ticketId);
  }
};

/** Whether an event says the ticket is gone for good (deleted), not just moved to other lists. */
export const isTicketGone = (event: TTicketEvent, ticketId: number) =>
  event.action === 'delete' && event.ticketId === ticketId && !event.moved;

export const flattenTickets = (data: TTicketsData | undefined): TTicket[] => {
  const seen = new Set<number>();
  const out: TTicket[] = [];
  for (const ticket of data?.pages.flatMap((page) => page.tickets) ?? []) {
    if (!seen.has(ticket.id)) {
      seen.add(ticket.id);
      out.push(ticket);
    }
  }

  return out;
};

export const ticketsCount = (data: TTicketsData | undefined): number => data?.pages[0]?.count ?? 0;
