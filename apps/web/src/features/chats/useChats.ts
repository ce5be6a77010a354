import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TChat, type TChatEvent, type TChatUnreads, type TChatUserEvent } from '@zelo/shared';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { planAllows } from '../../app/routes/access';
import { matchesSearch, useInfiniteList, useListCache } from '../../components/kit';
import { totalUnreads, unreadsAfterEvent } from './chatCache';

export const CHATS_QUERY_KEY = ['chats', 'page'] as const;

/** the caller's unread total over all its chats (the top bar's badge, the side menu's dot) */
export const CHAT_UNREADS_KEY = ['chats', 'unreads'] as const;

/** applies a chat event (or a chat the caller's own action answered) to the kept unread total */
const noteUnreads = (queryClient: QueryClient, event: TChatEvent | TChatUserEvent, userId: number | undefined) =>
  queryClient.setQueryData<TChatUnreads>(CHAT_UNREADS_KEY, (state) =>
    state ? unreadsAfterEvent(state, event, userId) : state,
  );

const CHATS_LIST = {
  queryKey: CHATS_QUERY_KEY,
  itemsKey: 'records',
  matches: (chat: TChat, search: string) => matchesSearch(search, chat.title),
};

/**
 * GET /chats (only the caller's chats) page by page, kept live by the events its members hear:
 * `company-{id}-chat-user-{me}` (a chat made or changed, put first when new) and `company-{id}-chat`
 * (a new message moves its chat to the top; a read updates the counts; a delete takes it out).
 * The top bar, the side menu and the chat screen share the unsearched list through the query cache.
 */
export const useChats = (searchParam = '') => {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const enabled = Boolean(user && planAllows(user, 'useInternalChat'));
  const list = useInfiniteList<TChat>({ ...CHATS_LIST, path: '/chats', searchParam, enabled });
  const total = useQuery({
    queryKey: CHAT_UNREADS_KEY,
    queryFn: () => api.get<TChatUnreads>('/chats/unreads'),
    enabled,
  });
  const chatUserEvent = enabled && user ? events.chatUser(user.companyId, user.id) : '';
  const cache = useListCache<TChat, TChatUserEvent>(CHATS_LIST, {
    event: chatUserEvent,
    toChange: (data) => ({ upsert: data.record }),
  });
  useSocketEvent(chatUserEvent, (data: TChatUserEvent) => noteUnreads(queryClient, data, user?.id));
  useSocketEvent(enabled && user ? events.chat(user.companyId) : '', (data: TChatEvent) => {
    noteUnreads(queryClient, data, user?.id);
    if (data.action === 'delete') {
      cache.remove(data.id);
    } else if (data.action === 'new-message') {
      // the latest activity first
      cache.remove(data.chat.id);
      cache.upsert(data.chat);
    } else {
      cache.upsert(data.chat);
    }
  });

  return {
    ...list,
    enabled,
    // over all the caller's chats; the loaded ones only until that answer comes
    unreads: total.data?.unreads ?? totalUnreads(list.items, user?.id),
    upsert: cache.upsert,
    remove: cache.remove,
  };
};

/** the chat actions, each keeping the lists in step at once (the events confirm them) */
export const useChatActions = () => {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const { upsert: upsertInList, remove: removeFromList } = useListCache<TChat>(CHATS_LIST);
  const upsert = (chat: TChat) => {
    upsertInList(chat);
    noteUnreads(queryClient, { action: 'update', chat }, user?.id);
  };
  const remove = (id: number) => {
    removeFromList(id);
    noteUnreads(queryClient, { action: 'delete', id }, user?.id);
  };

  return {
    create: async (body: unknown) => {
      const chat = await api.post<TChat>('/chats', body);
      upsert(chat);

      return chat;
    },
    update: async (id: number, body: unknown) => {
      const chat = await api.put<TChat>(`/chats/${id}`, body);
      upsert(chat);

      return chat;
    },
    remove: async (id: number) => {
      await api.delete(`/chats/${id}`);
      remove(id);
      queryClient.removeQueries({ queryKey: ['chats', 'messages', id] });
    },
    markRead: async (chat: TChat, userId: number) => {
      const updated = await api.post<TChat>(`/chats/${chat.id}/read`, { userId });
      upsert(updated);
    },
  };
};
