import { events, type TUser } from '@zelo/shared';
import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { matchesSearch, useInfiniteList, useListCache } from '../../components/kit';

export const USERS_QUERY_KEY = ['users', 'page'] as const;

const USERS_LIST = {
  queryKey: USERS_QUERY_KEY,
  itemsKey: 'users',
  matches: (user: TUser, search: string) => matchesSearch(search, user.name, user.email),
};

type TUserEvent = { action: 'create' | 'update'; user: TUser } | { action: 'delete'; userId: number };

/** GET /users page by page, kept in step with saves, deletes and `company-{id}-user` events. */
export const useUsers = (searchParam: string) => {
  const { user } = useAuth();
  const list = useInfiniteList<TUser>({ ...USERS_LIST, path: '/users', searchParam });
  const cache = useListCache<TUser, TUserEvent>(USERS_LIST, {
    event: user ? events.user(user.companyId) : '',
    toChange: (data) => (data.action === 'delete' ? { remove: data.userId } : { upsert: data.user }),
  });

  return {
    ...list,
    save: async (id: number | null, body: unknown) => {
      const saved = id === null ? await api.post<TUser>('/users', body) : await api.put<TUser>(`/users/${id}`, body);
      cache.upsert(saved);
    },
    remove: async (id: number) => {
      await api.delete(`/users/${id}`);
      cache.remove(id);
    },
  };
};
