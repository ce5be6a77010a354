import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TMessage } from '@zelo/shared';
import { useCallback } from 'react';
import { useSocketEvent, useSocketJoin } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { updateMessage, upsertMessage } from './messagesCache';
import { messagesKey } from './queryKeys';
import { ticketsApi } from './ticketsApi';
import type { TAppMessageEvent, TMessagesData } from './ticketTypes';

/** GET /messages/:ticketId pages (20, newest last); page 2 holds older messages. */
export const useMessagesQuery = (ticketId: number, enabled = true) =>
  useInfiniteQuery({
    queryKey: messagesKey(ticketId),
    enabled: enabled && ticketId > 0,
    queryFn: ({ pageParam }) => ticketsApi.messages(ticketId, pageParam),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages) => (lastPage.hasMore ? pages.length + 1 : undefined),
    staleTime: 0,
  });

/** Puts a message (the send answer or an event) into the ticket's cached pages. */
export const useStoreMessage = () => {
  const queryClient = useQueryClient();

  return useCallback(
    (message: TMessage) => {
      queryClient.setQueryData<TMessagesData>(messagesKey(message.ticketId), (old) => upsertMessage(old, message));
    },
    [queryClient],
  );
};

/**
 * Live messages of the open ticket: joins its room (`joinChatBox`, left on change) and applies
 * `appMessage` create/update events to its pages.
 */
export const useMessageEvents = (ticketId: number, contactId: number, onCreated?: (message: TMessage) => void) => {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  useSocketJoin('joinChatBox', ticketId > 0 ? ticketId : undefined, 'leaveChatBox');

  const onEvent = useCallback(
    (data: TAppMessageEvent) => {
      if (data.action === 'create' && data.message) {
        const sameTicket = data.message.ticketId === ticketId;
        const sameContact = data.ticket?.contactId === contactId && data.ticket?.id === ticketId;
        if (!sameTicket && !sameContact) {
          return;
        }
        queryClient.setQueryData<TMessagesData>(messagesKey(ticketId), (old) => upsertMessage(old, data.message));
        onCreated?.(data.message);
      } else if (data.action === 'update' && data.message) {
        queryClient.setQueryData<TMessagesData>(messagesKey(ticketId), (old) => updateMessage(old, data.message));
      }
    },
    [queryClient, ticketId, contactId, onCreated],
  );
  useSocketEvent(user && ticketId > 0 ? events.appMessage(user.companyId) : '', onEvent);
};
