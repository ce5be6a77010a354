import { useQueryClient } from '@tanstack/react-query';
import { events, type TChat, type TChatEvent, type TChatUserEvent } from '@zelo/shared';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { planAllows } from '../../app/routes/access';
import { matchesSearch, useInfiniteList, useListCache } from '../../components/kit';
import { totalUnreads } from './chatCache';

export const CHATS_QUERY_KEY = ['chats', 'page'] as const;

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
  const { user } = useAuth();
  const enabled = Boolean(user && planAllows(user, 'useInternalChat'));
  const list = useInfiniteList<TChat>({ ...CHATS_LIST, path: '/chats', searchParam, enabled });
  const cache = useListCache<TChat, TChatUserEvent>(CHATS_LIST, {
    event: enabled && user ? events.chatUser(user.companyId, user.id) : '',
    toChange: (data) => ({ upsert: data.record }),
  });
  useSocketEvent(enabled && user ? events.chat(user.companyId) : '', (data: TChatEvent) => {
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
    unreads: totalUnreads(list.items, user?.id),
    upsert: cache.upsert,
    remove: cache.remove,
  };
};

/** the chat actions, each keeping the lists in step at once (the events confirm them) */
export const useChatActions = () => {
  const queryClient = useQueryClient();
  const { upsert, remove } = useListCache<TChat>(CHATS_LIST);

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
