import type { TContact, TMessage, TQuickMessage, TTicket, TTicketNote, TUpdateTicketBody } from '@zelo/shared';
import { api } from '../../api/http';
import type {
  TMessagesPage,
  TQueueOption,
  TTagOption,
  TTicketListFilter,
  TTicketsPage,
  TUserOption,
  TWhatsappOption,
} from './ticketTypes';

/** Query parameters of GET /tickets; arrays go as JSON (`queueIds=[1,2]`), as the ancestor's client sends. */
export const ticketListParams = (filter: TTicketListFilter, pageNumber: number) => ({
  pageNumber,
  status: filter.status,
  searchParam: filter.searchParam?.trim() || undefined,
  queueIds: JSON.stringify(filter.queueIds),
  tags: filter.tags?.length ? JSON.stringify(filter.tags) : undefined,
  users: filter.users?.length ? JSON.stringify(filter.users) : undefined,
  showAll: filter.showAll ? 'true' : 'false',
  withUnreadMessages: filter.withUnreadMessages ? 'true' : undefined,
});

export const ticketsApi = {
  list: (filter: TTicketListFilter, pageNumber: number) =>
    api.get<TTicketsPage>('/tickets', { params: ticketListParams(filter, pageNumber) }),
  byUuid: (uuid: string) => api.get<TTicket>(`/tickets/u/${encodeURIComponent(uuid)}`),
  byId: (id: number) => api.get<TTicket>(`/tickets/${id}`),
  create: (body: { contactId: number; queueId: number | null; whatsappId: number | null; userId: number }) =>
    api.post<TTicket>('/tickets', { ...body, status: 'open' }),
  update: (id: number, body: TUpdateTicketBody) => api.put<TTicket>(`/tickets/${id}`, body),
  remove: (id: number) => api.delete(`/tickets/${id}`),
  messages: (ticketId: number, pageNumber: number) =>
    api.get<TMessagesPage>(`/messages/${ticketId}`, { params: { pageNumber } }),
  sendText: (ticketId: number, body: { body: string; quotedMsg: { id: number } | null; clientId: string }) =>
    api.post<TMessage | undefined>(`/messages/${ticketId}`, body),
  sendMedia: (ticketId: number, form: FormData) =>
    api.upload<TMessage[] | TMessage | undefined>(`/messages/${ticketId}`, form),
  window: (ticketId: number) => api.get<unknown>(`/tickets/${ticketId}/window`),
  markRead: (ticketId: number) => api.post(`/messages/${ticketId}/read`),
  deleteMessage: (id: number) => api.delete(`/messages/${id}`),
  editMessage: (id: number, body: string) => api.put<TMessage | undefined>(`/messages/${id}`, { body }),
  retryMessage: (id: number) => api.post<TMessage | undefined>(`/messages/${id}/retry`),
  notes: (ticketId: number, contactId: number) =>
    api.get<TTicketNote[]>('/ticket-notes/list', { params: { ticketId, contactId } }),
  addNote: (body: { note: string; ticketId: number; contactId: number }) =>
    api.post<TTicketNote>('/ticket-notes', body),
  deleteNote: (id: number) => api.delete(`/ticket-notes/${id}`),
  quickMessages: (userId: number) => api.get<TQuickMessage[]>('/quick-messages/list', { params: { userId } }),
  tags: () => api.get<TTagOption[]>('/tags/list'),
  syncTags: (ticketId: number, tags: { id: number }[]) => api.post('/tags/sync', { ticketId, tags }),
  queues: () => api.get<TQueueOption[]>('/queue'),
  users: () => api.get<TUserOption[]>('/users/list'),
  whatsapps: () => api.get<TWhatsappOption[]>('/whatsapp', { params: { session: 0 } }),
  contacts: (searchParam: string) => api.get<TContact[]>('/contacts/list', { params: { searchParam } }),
  contact: (id: number) => api.get<TContact>(`/contacts/${id}`),
  saveContact: (id: number | null, body: unknown) =>
    id === null ? api.post<TContact>('/contacts', body) : api.put<TContact>(`/contacts/${id}`, body),
};

/** Lists answered as an array or wrapped in an object (`{queues}`, `{tags}`...) read as an array. */
export const asList = <T>(value: unknown, key?: string): T[] => {
  if (Array.isArray(value)) {
    return value as T[];
  }
  if (value && typeof value === 'object' && key && Array.isArray((value as Record<string, unknown>)[key])) {
    return (value as Record<string, T[]>)[key];
  }

  return [];
};
