import type { TTicketListFilter } from './ticketTypes';

export const TICKET_LISTS_KEY = ['tickets', 'list'] as const;
export const ticketListKey = (filter: TTicketListFilter) => [...TICKET_LISTS_KEY, filter] as const;
export const ticketKey = (uuid: string) => ['tickets', 'one', uuid] as const;
export const MESSAGES_KEY = ['tickets', 'messages'] as const;
export const messagesKey = (ticketId: number) => [...MESSAGES_KEY, ticketId] as const;
export const NOTIFICATIONS_KEY = ['tickets', 'notifications'] as const;
export const notesKey = (ticketId: number, contactId: number) => ['tickets', 'notes', ticketId, contactId] as const;
export const windowKey = (ticketId: number) => ['tickets', 'window', ticketId] as const;
export const catalogueKey = (name: string) => ['tickets', 'catalogue', name] as const;

/** The filter a list query key was built with (see `ticketListKey`). */
export const filterOfKey = (queryKey: readonly unknown[]): TTicketListFilter | null => {
  const filter = queryKey[TICKET_LISTS_KEY.length];

  return filter && typeof filter === 'object' ? (filter as TTicketListFilter) : null;
};
