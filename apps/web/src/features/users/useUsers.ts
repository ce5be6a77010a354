import { events, type TUser } from '@zelo/shared';
import { api } from '../../api/http';
import { matchesSearch, useLiveList } from '../../components/kit';

export const USERS_QUERY_KEY = ['users', 'page'] as const;

const USERS_LIST = {
  queryKey: USERS_QUERY_KEY,
  itemsKey: 'users',
  matches: (user: TUser, search: string) => matchesSearch(search, user.name, user.email),
};

type TUserEvent = { action: 'create' | 'update'; user: TUser } | { action: 'delete'; userId: number };

/** GET /users page by page, kept in step with saves, deletes and `company-{id}-user` events. */
export const useUsers = (searchParam: string) => {
  const list = useLiveList<TUser, TUserEvent>({
    ...USERS_LIST,
    path: '/users',
    searchParam,
    event: events.user,
    toChange: (data) => (data.action === 'delete' ? { remove: data.userId } : { upsert: data.user }),
  });

  return {
    ...list,
    save: async (id: number | null, body: unknown) => {
      const saved = id === null ? await api.post<TUser>('/users', body) : await api.put<TUser>(`/users/${id}`, body);
      list.upsert(saved);
    },
  };
};
