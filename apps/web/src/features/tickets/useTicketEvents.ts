import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { events, type TTicket } from '@zelo/shared';
import { useCallback } from 'react';
import { useSocketEvent, useSocketJoin } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { filterOfKey, TICKET_LISTS_KEY } from './queryKeys';
import { applyMessageTicket, applyTicketEventToList } from './ticketListReducer';
import type { TAppMessageEvent, TTicketEvent, TTicketsData, TViewer } from './ticketTypes';
import { useViewer } from './useViewer';

type TListUpdate = (
  data: TTicketsData | undefined,
  filter: NonNullable<ReturnType<typeof filterOfKey>>,
) => TTicketsData | undefined;

/** Applies a change to every loaded ticket list, each with the filter its key was built with. */
export const updateTicketLists = (queryClient: QueryClient, update: TListUpdate) => {
  for (const [queryKey, data] of queryClient.getQueriesData<TTicketsData>({ queryKey: TICKET_LISTS_KEY })) {
    const filter = filterOfKey(queryKey);
    if (!filter || !data) {
      continue;
    }
    const next = update(data, filter);
    if (next !== data) {
      queryClient.setQueryData(queryKey, next);
    }
  }
};

/** Updates the cached single-ticket queries (the open conversation) with a fresh ticket. */
export const updateOpenTicket = (queryClient: QueryClient, ticket: TTicket) => {
  queryClient.setQueryData(['tickets', 'one', ticket.uuid], (old: TTicket | undefined) => (old ? ticket : old));
};

export const applyTicketEvent = (queryClient: QueryClient, data: TTicketEvent, viewer: TViewer) => {
  updateTicketLists(queryClient, (list, filter) => applyTicketEventToList(list, data, filter, viewer));
  if (data.action === 'update' && data.ticket) {
    updateOpenTicket(queryClient, data.ticket);
  }
};

/**
 * The ticket manager's live updates: joins the status rooms of the lists it shows and keeps every loaded
 * list in step with `company-{id}-ticket` and `company-{id}-appMessage` create events.
 */
export const useTicketEvents = () => {
  const { user } = useAuth();
  const viewer = useViewer();
  const queryClient = useQueryClient();
  useSocketJoin('joinTickets', 'open', 'leaveTickets');
  useSocketJoin('joinTickets', 'pending', 'leaveTickets');
  useSocketJoin('joinTickets', 'closed', 'leaveTickets');

  const onTicket = useCallback(
    (data: TTicketEvent) => applyTicketEvent(queryClient, data, viewer),
    [queryClient, viewer],
  );
  const onMessage = useCallback(
    (data: TAppMessageEvent) => {
      if (data.action !== 'create' || !data.ticket) {
        return;
      }
      updateTicketLists(queryClient, (list, filter) => applyMessageTicket(list, data.ticket, filter, viewer));
    },
    [queryClient, viewer],
  );
  useSocketEvent(user ? events.ticket(user.companyId) : '', onTicket);
  useSocketEvent(user ? events.appMessage(user.companyId) : '', onMessage);
};
