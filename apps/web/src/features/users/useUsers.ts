import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../api/http';
import type { TUsersPage } from './usersCache';

export const USERS_QUERY_KEY = ['users', 'page'] as const;

/** The search text of a users-list query key (`[...USERS_QUERY_KEY, searchParam]`). */
export const searchOfUsersKey = (queryKey: readonly unknown[]) =>
  typeof queryKey[USERS_QUERY_KEY.length] === 'string' ? (queryKey[USERS_QUERY_KEY.length] as string) : '';

/** GET /users, 20 per page, next page while hasMore. */
export const useUsers = (searchParam: string) =>
  useInfiniteQuery({
    queryKey: [...USERS_QUERY_KEY, searchParam],
    queryFn: ({ pageParam }) => api.get<TUsersPage>('/users', { params: { searchParam, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages) => (lastPage.hasMore ? pages.length + 1 : undefined),
  });
