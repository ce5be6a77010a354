import type { QueryClient } from '@tanstack/react-query';
import type { TUser } from '@zelo/shared';
import { type TUsersData, upsertUser } from './usersCache';
import { searchOfUsersKey, USERS_QUERY_KEY } from './useUsers';

/** Puts a created or updated user into every loaded users list, new users only where the search matches. */
export const upsertUserInLists = (queryClient: QueryClient, user: TUser) => {
  for (const [queryKey, data] of queryClient.getQueriesData<TUsersData>({ queryKey: USERS_QUERY_KEY })) {
    const next = upsertUser(data, user, searchOfUsersKey(queryKey));
    if (next !== data) {
      queryClient.setQueryData(queryKey, next);
    }
  }
};
