import type { InfiniteData } from '@tanstack/react-query';
import type { TContact, TMessage, TTicket, TTicketStatus } from '@zelo/shared';

/** GET /tickets answer (40 per page). */
export type TTicketsPage = { tickets: TTicket[]; count: number; hasMore: boolean };
export type TTicketsData = InfiniteData<TTicketsPage>;

/** GET /messages/:ticketId answer (20 per page, newest last). */
export type TMessagesPage = { messages: TMessage[]; ticket?: TTicket; hasMore: boolean; count?: number };
export type TMessagesData = InfiniteData<TMessagesPage>;

/** What one ticket list asks the server for; also the part of its query key the live reducer reads. */
export type TTicketListFilter = {
  status?: TTicketStatus;
  searchParam?: string;
  queueIds: number[];
  tags?: number[];
  users?: number[];
  showAll: boolean;
  withUnreadMessages?: boolean;
};

/** The signed-in user as the list rules need it. */
export type TViewer = { id: number; isAdmin: boolean; allTicket: boolean };

export type { TTicketEvent } from '@zelo/shared';

export type TAppMessageEvent =
  | { action: 'create'; message: TMessage; ticket: TTicket; contact?: TContact }
  | { action: 'update'; message: TMessage };

export type TQueueOption = { id: number; name: string; color: string };
export type TUserOption = { id: number; name: string; queues?: { id: number }[] };
export type TWhatsappOption = { id: number; name: string; status: string; isDefault?: boolean };
export type TTagOption = { id: number; name: string; color: string };
